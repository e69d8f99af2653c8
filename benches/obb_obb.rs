//! OBB–OBB `intersects`: sepax next to parry3d's `intersection_test` on two `Cuboid`s, on the
//! same boxes in the same run. Run: `cargo bench -p sepax-benches --bench obb_obb`.
//!
//! Data sets (4096 pairs each, seeded):
//! - `random`: random rotations, half-extents in [0.1, 1], centres in a cube sized so that about
//!   half of the pairs intersect;
//! - `near_contact`: pairs moved so that they touch or miss by 1e-6..1e-3 of their size, the
//!   cases the certified fallback exists for;
//! - `aligned_stack`: identical rotations, boxes resting on each other, touching up to the
//!   rounding of the centres (near-parallel edges everywhere: the worst case for the filter).
//!
//! Results and ratios are kept in docs/benchmarks.md.

// Real -> f32 casts are identities in the default build and needed in the f64 build.
#![allow(clippy::unnecessary_cast)]
// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax::prelude::*;
use std::hint::black_box;

use sepax_benches::shared;
use shared::{random_rotation, to_parry};

struct Pair {
    a: Obb,
    b: Obb,
}

fn random_box(rng: &mut ChaCha8Rng, spread: Real, rot: Option<UnitQuaternion>) -> Obb {
    let c = if spread > 0.0 {
        Point3::new(
            rng.random_range(-spread..spread),
            rng.random_range(-spread..spread),
            rng.random_range(-spread..spread),
        )
    } else {
        Point3::origin()
    };
    let h = Vector3::new(
        rng.random_range(0.1..1.0),
        rng.random_range(0.1..1.0),
        rng.random_range(0.1..1.0),
    );
    Obb::from_rotation(c, rot.unwrap_or_else(|| random_rotation(rng)), h).expect("valid box")
}

fn data_set(name: &str, n: usize) -> Vec<Pair> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..n)
        .map(|_| match name {
            "random" => Pair {
                a: random_box(&mut rng, 1.2, None),
                b: random_box(&mut rng, 1.2, None),
            },
            "near_contact" => {
                let a = random_box(&mut rng, 0.0, None);
                let b = random_box(&mut rng, 0.0, None);
                // Push b out along a random direction until the witness says touching, then
                // nudge by a tiny signed amount.
                let dir = Vector3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                )
                .normalize();
                let (mut lo, mut hi) = (0.0 as Real, 4.0 as Real);
                for _ in 0..40 {
                    let mid = 0.5 * (lo + hi);
                    let moved = b.translate(&(dir * mid)).unwrap();
                    if intersects(&a, &moved) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                let nudge = rng.random_range(-1e-3..1e-3) as Real;
                Pair {
                    a,
                    b: b.translate(&(dir * (lo + nudge))).unwrap(),
                }
            }
            _ => {
                let rot = random_rotation(&mut rng);
                let a = random_box(&mut rng, 0.0, Some(rot));
                let h = a.half_extents().y + rng.random_range(0.1..1.0);
                let up = rot * Vector3::y();
                let b = Obb::from_rotation(
                    a.center() + up * h + rot * Vector3::new(rng.random_range(-0.3..0.3), 0.0, 0.0),
                    rot,
                    Vector3::new(0.5, h - a.half_extents().y, 0.5),
                )
                .unwrap();
                Pair { a, b }
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    const N: usize = 4096;
    let mut group = c.benchmark_group("obb_obb_intersects");
    group.throughput(Throughput::Elements(N as u64));
    for name in ["random", "near_contact", "aligned_stack"] {
        let pairs = data_set(name, N);
        let parry: Vec<_> = pairs
            .iter()
            .map(|p| (to_parry(&p.a), to_parry(&p.b)))
            .collect();
        let hits_sepax = pairs.iter().filter(|p| intersects(&p.a, &p.b)).count();
        let hits_parry = parry
            .iter()
            .filter(|((pa, ca), (pb, cb))| {
                parry3d::query::intersection_test(pa, ca, pb, cb)
                    .unwrap()
                    .intersecting
            })
            .count();
        eprintln!("{name}: {N} pairs, sepax hits {hits_sepax}, parry3d hits {hits_parry}");
        group.bench_with_input(BenchmarkId::new("sepax", name), &pairs, |bch, pairs| {
            bch.iter(|| {
                let mut hits = 0usize;
                for p in pairs {
                    hits += intersects(black_box(&p.a), black_box(&p.b)) as usize;
                }
                hits
            })
        });
        group.bench_with_input(BenchmarkId::new("parry3d", name), &parry, |bch, parry| {
            bch.iter(|| {
                let mut hits = 0usize;
                for ((pa, ca), (pb, cb)) in parry {
                    hits += parry3d::query::intersection_test(
                        black_box(pa),
                        black_box(ca),
                        black_box(pb),
                        black_box(cb),
                    )
                    .unwrap()
                    .intersecting as usize;
                }
                hits
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
