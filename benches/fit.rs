//! Box fitting: sepax's methods next to parry3d's `utils::obb` (PCA) and
//! `transformation::convex_hull`, on the same point clouds in the same run.
//! Run: `cargo bench -p sepax-benches --bench fit`.
//!
//! Data sets (seeded): points on the surface of a rotated ellipsoid (semi-axes 3, 1.5, 0.5), as
//! a mesh's vertices are, 1,000 and 10,000 of them, offset to (100, -50, 20). Before the timings
//! the volumes of the PCA boxes of both libraries and of sepax's DiTO and exact boxes are
//! printed, so that speed is read next to tightness. The corpus table (real meshes) is in
//! docs/fitting.md.

// Real -> f32 casts are identities in the default build and needed in the f64 build.
#![allow(clippy::unnecessary_cast)]
// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parry3d::math::Vec3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax::fit::{convex_hull, fit_obb, Method};
use sepax::prelude::*;
use std::hint::black_box;

fn ellipsoid(n: usize, seed: u64) -> Vec<Point3> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rot = UnitQuaternion::from_euler_angles(0.4, -0.7, 1.1);
    let offset = Vector3::new(100.0, -50.0, 20.0);
    (0..n)
        .map(|_| {
            let v = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            let v = v / v.norm().max(1e-6);
            Point3::from(rot * v.component_mul(&Vector3::new(3.0, 1.5, 0.5)) + offset)
        })
        .collect()
}

fn bench_fit(c: &mut Criterion) {
    let mut group = c.benchmark_group("fit");
    for n in [1_000usize, 10_000] {
        let pts = ellipsoid(n, 42);
        let parry_pts: Vec<Vec3> = pts
            .iter()
            .map(|p| Vec3::new(p.x as f32, p.y as f32, p.z as f32))
            .collect();
        let (_, cuboid) = parry3d::utils::obb(&parry_pts);
        let h = cuboid.half_extents;
        let parry_volume = 8.0 * h.x as f64 * h.y as f64 * h.z as f64;
        let vol = |m: Method| fit_obb(&pts, m).unwrap().volume() as f64;
        eprintln!(
            "n = {n}: volumes  parry3d obb (PCA) {parry_volume:.4}  sepax pca {:.4}  dito {:.4}  exact {:.4}",
            vol(Method::Pca),
            vol(Method::Dito),
            vol(Method::Exact)
        );
        group.throughput(Throughput::Elements(n as u64));
        for m in Method::ALL {
            if m == Method::Exact && n > 1_000 {
                continue; // seconds per iteration; timed on the corpus instead
            }
            group.bench_with_input(
                BenchmarkId::new(format!("sepax_{}", m.name()), n),
                &pts,
                |b, p| b.iter(|| fit_obb(black_box(p), m).unwrap()),
            );
        }
        group.bench_with_input(
            BenchmarkId::new("parry3d_obb_pca", n),
            &parry_pts,
            |b, p| b.iter(|| parry3d::utils::obb(black_box(p))),
        );
        group.bench_with_input(BenchmarkId::new("sepax_convex_hull", n), &pts, |b, p| {
            b.iter(|| convex_hull(black_box(p)).unwrap())
        });
        group.bench_with_input(
            BenchmarkId::new("parry3d_convex_hull", n),
            &parry_pts,
            |b, p| b.iter(|| parry3d::transformation::convex_hull(black_box(p))),
        );
    }
    group.finish();
}

criterion_group!(benches, bench_fit);
criterion_main!(benches);
