//! Scene queries of the world next to rapier3d 0.36's `QueryPipeline` and parry3d 0.31's `Bvh`,
//! on the same data in the same run: 100k static OBBs (the world-bench scene generator with
//! every collider a rotated box), closest-hit rays, each hit tested against the box itself (not
//! only its bounds) by all three, and small-box overlap queries. Run:
//! `cargo bench -p sepax-benches --bench queries` (`SEPAX_QUERY_N` changes the collider count).
//!
//! - `world_ray`: `World::cast_ray` one ray at a time; `world_rays_batch_*`: `World::cast_rays`
//!   on `Serial` and on `RayonExecutor` (2 threads).
//! - `rapier_ray`: `QueryPipeline::cast_ray` (solid), filter-free.
//! - `parry_ray`: `Bvh::cast_ray` with the cuboid's own `cast_ray` at its pose as leaf test.
//! - `*_overlap`: every box overlapping a 0.5-sided axis-aligned query box at a random point
//!   (the world's `overlap`; rapier's `intersect_shape`; parry's `Bvh` box query then
//!   `intersection_test` per leaf).
//!
//! Before timing, the hits of every ray are compared (same collider, distance within 1e-3).

// Casts to `Real` are needed in the default f32 build and identities in the f64 build.
#![allow(clippy::unnecessary_cast)]
// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use sepax_benches::world::scene;

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::math::{Pose, Vector as PVec};
use parry3d::partitioning::{Bvh, BvhBuildStrategy};
use parry3d::query::{DefaultQueryDispatcher, QueryDispatcher, Ray as PRay};
use parry3d::shape::{Cuboid, Shape as PShape, SharedShape};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rapier3d::dynamics::{IslandManager, RigidBodySet};
use rapier3d::geometry::{BroadPhaseBvh, ColliderBuilder, ColliderSet, NarrowPhase};
use rapier3d::pipeline::{CollisionPipeline, QueryFilter as RFilter};
use scene::{Form, Scene, Sizes};
use sepax_shapes::math::{Isometry3, Point3, Real, Vector3};
use sepax_shapes::{Aabb, Ray, Shape};
use sepax_world::{ColliderId, Kind, QueryFilter, Serial, World};

const RAYS: usize = 2000;
const BOXES: usize = 1000;

/// The world-bench scene with every collider a rotated box, all static.
fn obb_scene(n: usize) -> Scene {
    let mut s = Scene::new(n, 1.0, Sizes::Uniform, 31);
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    for i in 0..n {
        if s.form[i] != Form::Obb {
            s.form[i] = Form::Obb;
            s.size[i] = [0; 3].map(|_| 0.3 * rng.random_range(0.6..1.0));
            let q = [0; 4].map(|_| rng.random_range(-1.0f64..1.0));
            let len = q.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-3);
            s.rot[i] = q.map(|x| x / len);
        }
    }
    s
}

fn bench_queries(c: &mut Criterion) {
    let n: usize = std::env::var("SEPAX_QUERY_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let scene = obb_scene(n);
    let w = scene.world;
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    let mut pt = |r: f64| [0; 3].map(|_| rng.random_range(-r..r));
    let rays: Vec<([f64; 3], [f64; 3])> = (0..RAYS)
        .map(|_| {
            let (o, t) = (pt(w), pt(w));
            (o, [t[0] - o[0], t[1] - o[1], t[2] - o[2]])
        })
        .collect();
    let boxes: Vec<[f64; 3]> = (0..BOXES).map(|_| pt(w)).collect();
    let max_dist = 4.0 * w;

    // The world: every collider static, bulk-inserted.
    let mut world = World::new();
    let mut ids = Vec::new();
    world
        .insert_many((0..n).map(|i| scene.desc(i).kind(Kind::Static)), &mut ids)
        .expect("valid scene");
    let s_rays: Vec<Ray> = rays
        .iter()
        .map(|(o, d)| {
            let o = Point3::new(o[0] as Real, o[1] as Real, o[2] as Real);
            let d = Vector3::new(d[0] as Real, d[1] as Real, d[2] as Real);
            Ray::new(o, d, max_dist as Real).expect("valid ray")
        })
        .collect();
    let half = 0.25 as Real;
    let probe: Shape = Aabb::from_center_half_extents(Point3::origin(), Vector3::repeat(half))
        .expect("box")
        .into();
    let s_boxes: Vec<Isometry3> = boxes
        .iter()
        .map(|b| Isometry3::translation(b[0] as Real, b[1] as Real, b[2] as Real))
        .collect();
    let q = QueryFilter::new();

    // parry: the boxes' AABBs in a binned Bvh, the cuboids at their poses.
    let shapes: Vec<SharedShape> = (0..n).map(|i| scene.parry_shape(i)).collect();
    let poses: Vec<Pose> = (0..n).map(|i| scene.parry_pose(i)).collect();
    let leaves: Vec<PAabb> = (0..n).map(|i| shapes[i].compute_aabb(&poses[i])).collect();
    let pbvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
    let p_rays: Vec<PRay> = rays
        .iter()
        .map(|(o, d)| {
            let d = PVec::new(d[0] as f32, d[1] as f32, d[2] as f32).normalize();
            PRay::new(PVec::new(o[0] as f32, o[1] as f32, o[2] as f32), d)
        })
        .collect();
    let parry_ray = |r: &PRay| -> Option<(u32, f32)> {
        pbvh.cast_ray(r, max_dist as f32, |leaf, best| {
            shapes[leaf as usize].cast_ray(&poses[leaf as usize], r, best, true)
        })
    };
    let p_probe = Cuboid::new(PVec::splat(half as f32));
    let p_boxes: Vec<Pose> = boxes
        .iter()
        .map(|b| Pose::translation(b[0] as f32, b[1] as f32, b[2] as f32))
        .collect();
    let parry_overlap = |at: &Pose| -> usize {
        let bb = p_probe.compute_aabb(at);
        let mut count = 0;
        for leaf in pbvh.intersect_aabb(&bb) {
            let l = leaf as usize;
            let rel = at.inv_mul(&poses[l]);
            if DefaultQueryDispatcher
                .intersection_test(&rel, &p_probe, &*shapes[l])
                .is_ok_and(|i| i.intersecting)
            {
                count += 1;
            }
        }
        count
    };

    // rapier: the same colliders (no bodies), one pipeline step to fill its broad phase.
    let mut colliders = ColliderSet::with_capacity(n);
    for i in 0..n {
        colliders.insert(ColliderBuilder::new(scene.parry_shape(i)).position(scene.parry_pose(i)));
    }
    let mut broad = BroadPhaseBvh::new();
    let (mut islands, mut narrow, mut bodies) = (
        IslandManager::new(),
        NarrowPhase::new(),
        RigidBodySet::new(),
    );
    CollisionPipeline::new().step(
        0.0,
        &mut islands,
        &mut broad,
        &mut narrow,
        &mut bodies,
        &mut colliders,
        &(),
        &(),
    );
    let qp = broad.as_query_pipeline(
        &DefaultQueryDispatcher,
        &bodies,
        &colliders,
        RFilter::default(),
    );

    // Agreement before timing.
    let world_ray = |r: &Ray| world.cast_ray(r, &q).expect("valid query");
    let mut agree = 0;
    let mut hits = 0;
    for ((sr, pr), _) in s_rays.iter().zip(&p_rays).zip(0..) {
        let a = world_ray(sr);
        let b = parry_ray(pr);
        let r = qp.cast_ray(pr, max_dist as f32, true);
        let same = match (a, b, r) {
            (None, None, None) => true,
            (Some(a), Some((pl, pt)), Some((_, rt))) => {
                let user = world.get(a.id).map(|c| c.user()).unwrap_or(u64::MAX);
                user == pl as u64
                    && (a.distance as f32 - pt).abs() <= 1e-3 * (1.0 + pt)
                    && (rt - pt).abs() <= 1e-3 * (1.0 + pt)
            }
            _ => false,
        };
        hits += usize::from(a.is_some());
        agree += usize::from(same);
    }
    eprintln!(
        "queries/{n}: {agree}/{RAYS} rays agree (world, parry, rapier: same box, distance within \
         1e-3); {hits} hit"
    );
    assert!(agree >= RAYS * 99 / 100, "ray casts disagree");
    let mut out: Vec<ColliderId> = Vec::new();
    let (mut ow, mut op) = (0, 0);
    for (sb, pb) in s_boxes.iter().zip(&p_boxes) {
        world
            .overlap(&probe, sb, &q, &mut out)
            .expect("valid query");
        ow += out.len();
        op += parry_overlap(pb);
    }
    eprintln!("queries/{n}: overlaps found: world {ow}, parry {op}");

    let mut g = c.benchmark_group(format!("queries/{n}/rays"));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(RAYS as u64));
    g.bench_function("world_ray", |b| {
        b.iter(|| s_rays.iter().filter(|r| world_ray(r).is_some()).count())
    });
    let mut slots = vec![None; RAYS];
    g.bench_function("world_rays_batch_serial", |b| {
        b.iter(|| {
            world
                .cast_rays(&Serial, &s_rays, &q, &mut slots)
                .expect("valid")
        })
    });
    let pool = sepax_world::RayonExecutor::new(2).expect("pool");
    g.bench_function("world_rays_batch_rayon2", |b| {
        b.iter(|| {
            world
                .cast_rays(&pool, &s_rays, &q, &mut slots)
                .expect("valid")
        })
    });
    g.bench_function("parry_ray", |b| {
        b.iter(|| p_rays.iter().filter(|r| parry_ray(r).is_some()).count())
    });
    g.bench_function("rapier_ray", |b| {
        b.iter(|| {
            p_rays
                .iter()
                .filter(|r| qp.cast_ray(r, max_dist as f32, true).is_some())
                .count()
        })
    });
    g.finish();

    let mut g = c.benchmark_group(format!("queries/{n}/overlaps"));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(BOXES as u64));
    g.bench_function("world_overlap", |b| {
        b.iter(|| {
            let mut total = 0;
            for sb in &s_boxes {
                world.overlap(&probe, sb, &q, &mut out).expect("valid");
                total += out.len();
            }
            total
        })
    });
    g.bench_function("parry_overlap", |b| {
        b.iter(|| p_boxes.iter().map(&parry_overlap).sum::<usize>())
    });
    g.bench_function("rapier_overlap", |b| {
        b.iter(|| {
            p_boxes
                .iter()
                .map(|at| qp.intersect_shape(*at, &p_probe).count())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench_queries);
criterion_main!(benches);
