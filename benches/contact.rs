//! Box–box contact manifolds: sepax's `contact::box_box::contact_manifold` next to parry3d's
//! cuboid–cuboid manifold (`query::details::contact_manifold_cuboid_cuboid`, with the manifold
//! cleared before every call so that each call is a full computation, not the coherent update)
//! and parry3d's single-point `query::contact`, on the same pairs in the same run. Two sepax
//! lines: `sepax` returns each manifold (`Option<ContactManifold>`, moved into the caller), and
//! `sepax_into` writes it into one reused manifold (`box_box::manifold_into`), as parry3d's line
//! does with its manifold: `sepax_into` is the like-for-like comparison with `parry3d_manifold`.
//! A third, `sepax_batch`, computes all 4096 manifolds with one call of the batch API
//! (`box_box::manifolds_into`, four OBB pairs per lane group in the axis selection, eight with
//! AVX2 in `f32`) into 4096 reused manifolds; its time per element is per pair, like the
//! others. `sepax_batch_portable` is the same without the run-time AVX2 build
//! (`box_box::manifolds_into_portable`).
//! Run: `cargo bench -p sepax-benches --bench contact -- --warm-up-time 1 --measurement-time 3`.
//!
//! Data sets (4096 pairs each, seeded, every pair intersecting):
//! - `random`: random rotations, half-extents in [0.1, 1], centres in a small cube, kept when
//!   they intersect;
//! - `resting`: a box resting on another, sunk 0–1 % of its height, with a random yaw and a tilt
//!   below 0.01 rad (the physics case: four-point face contacts).
//!
//! Before timing, each data set's depth error against the exact reference
//! (`sepax_exact::box_box`) is printed for sepax and for parry3d's `contact`.

// Real -> f32 casts are identities in the default build and needed in the f64 build.
#![allow(clippy::unnecessary_cast)]
// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parry3d::math::Pose;
use parry3d::query::details::contact_manifold_cuboid_cuboid;
use parry3d::query::ContactManifold;
use parry3d::shape::Cuboid;
use sepax::narrowphase::contact::box_box;
use sepax::narrowphase::contact::{ContactConfig, ContactManifold as SepaxManifold};
use sepax::prelude::*;
use std::hint::black_box;

use sepax_benches::shared;
use shared::to_parry;

use data::{data_set, Pair};
use sepax_benches::box_pairs as data;

/// A pair as parry3d sees it.
type ParryPair = ((Pose, Cuboid), (Pose, Cuboid));

fn exact_box(b: &Obb) -> sepax_exact::ExactBox {
    let c = b.center();
    let h = b.half_extents();
    sepax_exact::ExactBox::new(
        [c.x as f64, c.y as f64, c.z as f64],
        [0, 1, 2].map(|k| {
            let a = b.axis(k);
            [a.x as f64, a.y as f64, a.z as f64]
        }),
        [h.x as f64, h.y as f64, h.z as f64],
    )
}

/// Largest and mean |depth - exact depth| over the pairs, for sepax and parry3d's `contact`.
fn accuracy(pairs: &[Pair], parry: &[ParryPair]) -> [(f64, f64); 2] {
    let mut err = [(0.0f64, 0.0f64); 2];
    for (p, ((pa, ca), (pb, cb))) in pairs.iter().zip(parry) {
        let ex = sepax_exact::box_box(&exact_box(&p.a), &exact_box(&p.b));
        let want = -ex.margin;
        let s = box_box::manifold(&p.a, &p.b, &ContactConfig::default())
            .map_or(0.0, |m| m.depth as f64);
        let q = parry3d::query::contact(pa, ca, pb, cb, 0.0)
            .unwrap()
            .map_or(0.0, |c| -c.dist as f64);
        for (k, got) in [s, q].into_iter().enumerate() {
            let e = (got - want).abs();
            err[k].0 = err[k].0.max(e);
            err[k].1 += e / pairs.len() as f64;
        }
    }
    err
}

fn bench(c: &mut Criterion) {
    const N: usize = 4096;
    let mut group = c.benchmark_group("box_box_manifold");
    group.throughput(Throughput::Elements(N as u64));
    let config = ContactConfig::default();
    for name in ["random", "resting"] {
        let pairs = data_set(name, N);
        let parry: Vec<_> = pairs
            .iter()
            .map(|p| (to_parry(&p.a), to_parry(&p.b)))
            .collect();
        let pts_sepax: usize = pairs
            .iter()
            .map(|p| box_box::manifold(&p.a, &p.b, &config).map_or(0, |m| m.points.len()))
            .sum();
        let mut m = ContactManifold::<(), ()>::new();
        let pts_parry: usize = parry
            .iter()
            .map(|((pa, ca), (pb, cb))| {
                m.points.clear();
                contact_manifold_cuboid_cuboid(&pa.inv_mul(pb), ca, cb, 0.0, &mut m);
                m.points.len()
            })
            .sum();
        let [(s_max, s_mean), (p_max, p_mean)] = accuracy(&pairs, &parry);
        eprintln!(
            "{name}: {N} pairs; points sepax {pts_sepax}, parry3d {pts_parry}; depth error vs exact: \
             sepax max {s_max:.3e} mean {s_mean:.3e}, parry3d contact max {p_max:.3e} mean {p_mean:.3e}"
        );
        group.bench_with_input(BenchmarkId::new("sepax", name), &pairs, |bch, pairs| {
            bch.iter(|| {
                let mut n = 0usize;
                for p in pairs {
                    if let Some(m) = box_box::manifold(black_box(&p.a), black_box(&p.b), &config) {
                        n += m.points.len();
                    }
                }
                n
            })
        });
        group.bench_with_input(
            BenchmarkId::new("sepax_into", name),
            &pairs,
            |bch, pairs| {
                let mut m = SepaxManifold::empty();
                bch.iter(|| {
                    let mut n = 0usize;
                    for p in pairs {
                        if box_box::manifold_into(black_box(&p.a), black_box(&p.b), &config, &mut m)
                        {
                            n += m.points.len();
                        }
                    }
                    n
                })
            },
        );
        // The batch, with the AVX2 build chosen at run time and without it.
        type Batch = fn(&[(&Obb, &Obb)], &ContactConfig, &mut [SepaxManifold]) -> usize;
        let batches: [(&str, Batch); 2] = [
            ("sepax_batch", box_box::manifolds_into),
            ("sepax_batch_portable", box_box::manifolds_into_portable),
        ];
        for (label, batch) in batches {
            group.bench_with_input(BenchmarkId::new(label, name), &pairs, |bch, pairs| {
                let refs: Vec<(&Obb, &Obb)> = pairs.iter().map(|p| (&p.a, &p.b)).collect();
                let mut out = vec![SepaxManifold::empty(); refs.len()];
                // (Returns the number of pairs in contact: no second pass over the output.)
                bch.iter(|| batch(black_box(&refs), &config, &mut out))
            });
        }
        group.bench_with_input(
            BenchmarkId::new("parry3d_manifold", name),
            &parry,
            |bch, parry| {
                let mut m = ContactManifold::<(), ()>::new();
                bch.iter(|| {
                    let mut n = 0usize;
                    for ((pa, ca), (pb, cb)) in parry {
                        m.points.clear();
                        let pos12 = black_box(pa).inv_mul(black_box(pb));
                        contact_manifold_cuboid_cuboid(&pos12, ca, cb, 0.0, &mut m);
                        n += m.points.len();
                    }
                    n
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("parry3d_contact", name),
            &parry,
            |bch, parry| {
                bch.iter(|| {
                    let mut n = 0usize;
                    for ((pa, ca), (pb, cb)) in parry {
                        n += parry3d::query::contact(
                            black_box(pa),
                            black_box(ca),
                            black_box(pb),
                            black_box(cb),
                            0.0,
                        )
                        .unwrap()
                        .is_some() as usize;
                    }
                    n
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
