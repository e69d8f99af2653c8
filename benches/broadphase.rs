//! Broad-phase benchmarks: sepax's implementations next to parry3d 0.31's `Bvh` and rapier3d
//! 0.36's broad phase (`BroadPhaseBvh`, built on that same parry `Bvh`), on the same data in the
//! same run. Run: `cargo bench -p sepax-benches --bench broadphase`
//! (`SEPAX_BENCH_1M=1` adds the 1M-box scenes).
//!
//! Scenes (seeded): N boxes with half-extents in [0.1, 0.5] in a cube of side 2·∛N (about one
//! box per 8 unit³), each moving by a random step of up to 0.05 per axis per frame and bouncing
//! off the walls; `static90` leaves 90% of the boxes still (they are not updated at all).
//!
//! - `pairs/<scene>/<impl>`: one frame = the boxes move, then (timed) update the structure and
//!   report every overlapping pair. sepax: `BroadPhase::update` for the moved proxies then `update_pairs`
//!   (complete, sorted); parry: `insert_or_update_partially` (no margin) for the moved leaves,
//!   `optimize_incremental` and `refit` (as rapier calls them), then the full self traversal
//!   `traverse_bvtt_single_tree::<false>` (unsorted);
//!   rapier: as its `CollisionPipeline` drives it — standalone cuboid colliders (no rigid
//!   bodies; `ActiveCollisionTypes::all()` so fixed–fixed pairs are not filtered out), each
//!   moved collider's translation set, then `BroadPhaseBvh::update` with the moved handles,
//!   and a persistent pair set kept from its `AddPair`/`DeletePair` events. Prediction
//!   distance 0 (`normalized_prediction_distance = 0`, the smallest allowed: its broad-phase
//!   AABBs are the tight boxes; the default 0.02 would loosen each by 0.01). Its
//!   change-detection skin (0.04 × `length_unit`, `length_unit` = 1, not configurable) only
//!   decides which leaves are re-examined: on these scenes its pair set is the exact one.
//!   Only the structure's work is timed (the update calls and the pair report); the boxes'
//!   own motion, identical for every implementation, runs between the timed parts
//!   (`time_frames`).
//! - `family/100k/<kind>/<moving|static90>/<impl>`: the scene family of issue 17 (`Kind` in
//!   `data/scene.rs`: uniform, sizes log-uniform over 10x and 100x, clustered, dense (about one
//!   pair per box), huge slabs among small boxes), fixed seed; the dynamic tree, the sorted
//!   grid and parry only; set `SEPAX_BENCH_FAMILY=1` to run them.
//! - `rays/100k/<impl>`: 1000 closest-hit rays against the tight boxes of 100k static boxes:
//!   sepax's dynamic tree (`sepax_bvh`), its static 8-wide tree (`sepax_wide`, build time
//!   printed once) and parry's `Bvh`. Before timing, sepax agrees with parry on hit and distance
//!   (up to rounding) and `sepax_wide` equals `sepax_bvh` exactly. The dynamic tree casts
//!   through its wide query mirror (the mirror's refresh time is printed once);
//!   `sepax_bvh_bulk` is the same tree loaded by `insert_many` (binned SAH) instead of `insert`
//!   and `update_pairs`.
//! - `rays_obb/100k/<impl>`: the same rays against 100k oriented boxes (the same centres and
//!   half-extents, seeded rotations) held as their world AABBs, with the exact OBB test at the
//!   leaves (the closest OBB hit); answers checked equal to `Obb::cast_ray`'s and parry's first.
//!
//! Before timing, one frame of each implementation on identical data prints its pair count;
//! the exact ones (SAP, both grids) and the tight subsets of sepax's fattening BVH and of rapier's set
//! (which may report extra pairs by contract) are asserted equal to parry's count; the full
//! counts of those two are printed only.

// Real -> f32 casts are identities in the default build and needed in the f64 build.
#![allow(clippy::unnecessary_cast)]
// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::math::Vector as PVec;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use parry3d::query::{Ray as PRay, RayCast};
use rapier3d::dynamics::{IntegrationParameters, RigidBodySet};
use rapier3d::geometry::{
    ActiveCollisionTypes, BroadPhaseBvh, BroadPhasePairEvent, ColliderBuilder, ColliderHandle,
    ColliderSet,
};
use rapier3d::math::Vector as RVec;
use sepax_broadphase::bvh::{BvhConfig, DynamicBvh, RayStep, WideBvh};
use sepax_broadphase::grid::{GridConfig, UniformGrid};
use sepax_broadphase::sap::SweepAndPrune;
use sepax_broadphase::sorted_grid::SortedGrid;
use sepax_broadphase::{BroadPhase, ProxyId};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Aabb, Obb, Ray};

use scene::Scene;
use sepax_benches::broadphase::{scene, ParryAabb as _};

/// One implementation following its copy of a scene.
trait Run {
    /// The scene it follows.
    fn scene(&mut self) -> &mut Scene;

    /// Tells the structure where the moved boxes are now and reports every overlapping pair:
    /// the work that is timed.
    fn update_and_pairs(&mut self) -> usize;

    /// One frame: the boxes move, then [`Run::update_and_pairs`].
    fn frame(&mut self) -> usize {
        self.scene().step();
        self.update_and_pairs()
    }
}

/// Times [`Run::update_and_pairs`] frame after frame; the scene's own motion (the simulation,
/// the same for every implementation) runs between the timed parts.
fn time_frames<R: Run>(b: &mut criterion::Bencher<'_>, run: &mut R) {
    b.iter_custom(|iters| {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            run.scene().step();
            let t = Instant::now();
            black_box(run.update_and_pairs());
            total += t.elapsed();
        }
        total
    });
}

/// A sepax broad phase with its handles and the scene it follows.
struct SepaxRun<B: BroadPhase> {
    bp: B,
    ids: Vec<ProxyId>,
    scene: Scene,
    pairs: Vec<(ProxyId, ProxyId)>,
}

impl<B: BroadPhase> SepaxRun<B> {
    fn new(mut bp: B, scene: &Scene) -> Self {
        let ids = (0..scene.center.len())
            .map(|i| bp.insert(scene.aabb(i), i as u64))
            .collect();
        let mut run = SepaxRun {
            bp,
            ids,
            scene: scene.clone(),
            pairs: Vec::new(),
        };
        // Settle the structure (first sort, first build) outside the timing.
        run.bp.update_pairs(&mut run.pairs);
        run
    }
}

impl<B: BroadPhase> Run for SepaxRun<B> {
    fn scene(&mut self) -> &mut Scene {
        &mut self.scene
    }

    fn update_and_pairs(&mut self) -> usize {
        let (scene, ids) = (&self.scene, &self.ids);
        self.bp.update_many(
            &mut scene
                .moving
                .iter()
                .map(|&i| (ids[i], scene.aabb(i), scene.velocity(i))),
        );
        self.bp.update_pairs(&mut self.pairs);
        self.pairs.len()
    }
}

impl<B: BroadPhase> SepaxRun<B> {
    /// Pairs of the last frame whose given (tight) boxes overlap.
    fn tight_pairs(&self) -> usize {
        let tight: std::collections::HashMap<ProxyId, Aabb> = self
            .ids
            .iter()
            .enumerate()
            .map(|(i, id)| (*id, self.scene.aabb(i)))
            .collect();
        let overlap = |a: &Aabb, b: &Aabb| {
            (0..3).all(|k| a.min()[k] <= b.max()[k] && b.min()[k] <= a.max()[k])
        };
        self.pairs
            .iter()
            .filter(|(a, b)| overlap(&tight[a], &tight[b]))
            .count()
    }
}

/// parry3d's BVH following a scene.
struct ParryRun {
    bvh: Bvh,
    ws: BvhWorkspace,
    scene: Scene,
    pairs: Vec<(u32, u32)>,
}

impl ParryRun {
    fn new(scene: &Scene) -> Self {
        let leaves: Vec<PAabb> = (0..scene.center.len())
            .map(|i| scene.parry_aabb(i))
            .collect();
        ParryRun {
            bvh: Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves),
            ws: BvhWorkspace::default(),
            scene: scene.clone(),
            pairs: Vec::new(),
        }
    }
}

impl Run for ParryRun {
    fn scene(&mut self) -> &mut Scene {
        &mut self.scene
    }

    fn update_and_pairs(&mut self) -> usize {
        for &i in &self.scene.moving {
            self.bvh
                .insert_or_update_partially(self.scene.parry_aabb(i), i as u32, 0.0);
        }
        // As rapier drives it: incremental re-optimisation, then the refit (without the
        // optimisation the tree's quality decays with the run length and so would its times).
        self.bvh.optimize_incremental(&mut self.ws);
        self.bvh.refit(&mut self.ws);
        self.pairs.clear();
        let pairs = &mut self.pairs;
        self.bvh
            .traverse_bvtt_single_tree::<false>(&mut self.ws, &mut |a, b| pairs.push((a, b)));
        self.pairs.len()
    }
}

/// rapier3d's broad phase following a scene, driven the way its `CollisionPipeline` does.
struct RapierRun {
    bp: BroadPhaseBvh,
    params: IntegrationParameters,
    colliders: ColliderSet,
    bodies: RigidBodySet,
    handles: Vec<ColliderHandle>,
    /// The handles of the boxes that move: the modified colliders of every frame.
    moved: Vec<ColliderHandle>,
    events: Vec<BroadPhasePairEvent>,
    /// The persistent pair set (collider indices, lower first), kept from the events.
    pairs: std::collections::HashSet<(u32, u32)>,
    scene: Scene,
}

impl RapierRun {
    fn new(scene: &Scene) -> Self {
        let params = IntegrationParameters {
            // The smallest rapier allows: broad-phase AABBs are then the tight boxes.
            normalized_prediction_distance: 0.0,
            ..IntegrationParameters::default()
        };
        let mut colliders = ColliderSet::with_capacity(scene.center.len());
        let handles: Vec<ColliderHandle> = (0..scene.center.len())
            .map(|i| {
                let (c, h) = (scene.center[i], scene.half[i]);
                colliders.insert(
                    ColliderBuilder::cuboid(h[0], h[1], h[2])
                        .translation(RVec::new(c[0], c[1], c[2]))
                        // Parentless colliders count as fixed; the default filter drops
                        // fixed–fixed pairs.
                        .active_collision_types(ActiveCollisionTypes::all()),
                )
            })
            .collect();
        let moved = scene.moving.iter().map(|&i| handles[i]).collect();
        let mut run = RapierRun {
            bp: BroadPhaseBvh::new(),
            params,
            colliders,
            bodies: RigidBodySet::new(),
            handles,
            moved,
            events: Vec::new(),
            pairs: std::collections::HashSet::new(),
            scene: scene.clone(),
        };
        // First update (builds the tree from every inserted collider) outside the timing.
        let inserted = run.colliders.take_modified();
        run.update(&inserted);
        run
    }

    fn update(&mut self, modified: &[ColliderHandle]) {
        self.events.clear();
        self.bp.update(
            &self.params,
            &self.colliders,
            &self.bodies,
            modified,
            &[],
            &mut self.events,
        );
        let key = |a: ColliderHandle, b: ColliderHandle| {
            let (a, b) = (a.into_raw_parts().0, b.into_raw_parts().0);
            (a.min(b), a.max(b))
        };
        for e in &self.events {
            match e {
                BroadPhasePairEvent::AddPair(p) => {
                    self.pairs.insert(key(p.collider1, p.collider2));
                }
                BroadPhasePairEvent::DeletePair(p) => {
                    self.pairs.remove(&key(p.collider1, p.collider2));
                }
            }
        }
    }
}

impl Run for RapierRun {
    fn scene(&mut self) -> &mut Scene {
        &mut self.scene
    }

    fn update_and_pairs(&mut self) -> usize {
        for &i in &self.scene.moving {
            let c = self.scene.center[i];
            self.colliders[self.handles[i]].set_translation(RVec::new(c[0], c[1], c[2]));
        }
        let moved = std::mem::take(&mut self.moved);
        self.update(&moved);
        self.moved = moved;
        self.pairs.len()
    }
}

impl RapierRun {
    /// Pairs of the current set whose tight boxes overlap.
    fn tight_pairs(&self) -> usize {
        self.pairs
            .iter()
            .filter(|&&(a, b)| {
                let (a, b) = (
                    self.scene.parry_aabb(a as usize),
                    self.scene.parry_aabb(b as usize),
                );
                a.mins.cmple(b.maxs).all() && b.mins.cmple(a.maxs).all()
            })
            .count()
    }
}

fn grid() -> UniformGrid {
    // Cells as large as the largest box: each box overlaps at most 8 cells.
    UniformGrid::new(GridConfig {
        cell_size: 1.0,
        max_cells_per_proxy: 64,
    })
    .expect("valid grid config")
}

fn bench_pairs(c: &mut Criterion) {
    let mut sizes = vec![(10_000, "10k"), (100_000, "100k")];
    if std::env::var("SEPAX_BENCH_1M").is_ok_and(|v| v == "1") {
        sizes.push((1_000_000, "1M"));
    }
    for (n, label) in sizes {
        for (static_fraction, kind) in [(0.0, "moving"), (0.9, "static90")] {
            let scene = Scene::new(n, static_fraction, 7);
            let name = format!("pairs/{label}/{kind}");

            let mut sap = SepaxRun::new(SweepAndPrune::new(), &scene);
            let mut grid = SepaxRun::new(grid(), &scene);
            let mut sorted = SepaxRun::new(SortedGrid::new(1.0).expect("valid cell"), &scene);
            let mut bvh = SepaxRun::new(DynamicBvh::default(), &scene);
            let mut parry = ParryRun::new(&scene);
            let mut rapier = RapierRun::new(&scene);
            // One frame on identical data: the counts must agree before anything is timed.
            let (n_sap, n_grid, n_sorted, n_bvh, n_parry, n_rapier) = (
                sap.frame(),
                grid.frame(),
                sorted.frame(),
                bvh.frame(),
                parry.frame(),
                rapier.frame(),
            );
            let bvh_tight = bvh.tight_pairs();
            let rapier_tight = rapier.tight_pairs();
            eprintln!(
                "{name}: pairs per frame: sap {n_sap} (exact), grid {n_grid} (exact), sorted grid \
                 {n_sorted} (exact), bvh {n_bvh} \
                 ({bvh_tight} tight), parry {n_parry} (exact), rapier {n_rapier} \
                 ({rapier_tight} tight)"
            );
            assert_eq!(n_bvh, n_parry, "{name}: bvh (exact pairs) vs parry");
            assert_eq!(n_sap, n_parry, "{name}: sap vs parry");
            assert_eq!(n_grid, n_parry, "{name}: grid vs parry");
            assert_eq!(n_sorted, n_parry, "{name}: sorted grid vs parry");
            assert_eq!(bvh_tight, n_parry, "{name}: bvh tight vs parry");
            assert_eq!(rapier_tight, n_parry, "{name}: rapier tight vs parry");

            let mut g = c.benchmark_group(&name);
            g.sample_size(10)
                .warm_up_time(Duration::from_millis(500))
                .measurement_time(Duration::from_secs(if n >= 1_000_000 { 10 } else { 3 }));
            g.bench_function("sepax_sap", |b| time_frames(b, &mut sap));
            g.bench_function("sepax_grid", |b| time_frames(b, &mut grid));
            g.bench_function("sepax_sorted_grid", |b| time_frames(b, &mut sorted));
            g.bench_function("sepax_bvh", |b| time_frames(b, &mut bvh));
            g.bench_function("parry_bvh", |b| time_frames(b, &mut parry));
            g.bench_function("rapier_bvh", |b| time_frames(b, &mut rapier));
            g.finish();
        }
    }
}

fn bench_rays(c: &mut Criterion) {
    const RAYS: usize = 1000;
    let scene = Scene::new(100_000, 1.0, 11);
    let n = scene.center.len();
    let w = scene.world;
    let rays = scene.rays(RAYS, 12);
    let max_dist = 2.0 * w;

    // Static geometry needs no fat margin: the leaves are the tight boxes.
    let mut bvh = DynamicBvh::new(BvhConfig {
        margin: 0.0,
        ..BvhConfig::default()
    })
    .expect("valid config");
    let ids: Vec<ProxyId> = (0..n)
        .map(|i| bvh.insert(scene.aabb(i), i as u64))
        .collect();
    let mut scratch = Vec::new();
    bvh.update_pairs(&mut scratch);
    refresh_cost(&mut bvh, &ids, "rays/100k");
    let sepax_rays: Vec<Ray> = rays
        .iter()
        .map(|(o, d)| {
            let o = Point3::new(o[0] as Real, o[1] as Real, o[2] as Real);
            let d = Vector3::new(d[0] as Real, d[1] as Real, d[2] as Real);
            Ray::new(o, d, max_dist as Real).expect("valid ray")
        })
        .collect();
    // Closest hit: the leaves are the tight boxes, whose exact entry distance the cast reports.
    let sepax_cast = |ray: &Ray| -> Option<(usize, Real)> {
        bvh.cast_ray_closest(ray)
            .map(|(id, t)| (bvh.user(id).unwrap_or(0) as usize, t))
    };
    // The same tree loaded by `insert_many` (binned SAH build): the mirror of a better shape.
    let bulk = bulk_tree(&(0..n).map(|i| scene.aabb(i)).collect::<Vec<_>>());
    let bulk_cast = |ray: &Ray| -> Option<(usize, Real)> {
        bulk.cast_ray_closest(ray)
            .map(|(id, t)| (bulk.user(id).unwrap_or(0) as usize, t))
    };

    // The static 8-wide tree over the same tight boxes; primitive i is box i.
    let boxes: Vec<Aabb> = (0..n).map(|i| scene.aabb(i)).collect();
    let start = std::time::Instant::now();
    let wide = WideBvh::build(&boxes);
    eprintln!(
        "rays/100k: WideBvh::build of {n} boxes took {:.1} ms ({} nodes, depth {}, {:.1} MB)",
        start.elapsed().as_secs_f64() * 1e3,
        wide.node_count(),
        wide.depth(),
        wide.memory_bytes() as f64 / 1e6
    );
    let wide_cast = |ray: &Ray| -> Option<(usize, Real)> {
        wide.cast_ray_closest(ray).map(|(i, t)| (i as usize, t))
    };

    let leaves: Vec<PAabb> = (0..n).map(|i| scene.parry_aabb(i)).collect();
    let pbvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
    let parry_rays: Vec<PRay> = rays
        .iter()
        .map(|(o, d)| PRay::new(PVec::from_array(*o), PVec::from_array(*d)))
        .collect();
    let parry_cast = |ray: &PRay| -> Option<(u32, f32)> {
        pbvh.cast_ray(ray, max_dist, |leaf, best| {
            leaves[leaf as usize].cast_local_ray(ray, best, true)
        })
    };

    // Agreement check before timing: same hit/miss, distances equal up to rounding.
    let mut agree = 0;
    for (sr, pr) in sepax_rays.iter().zip(&parry_rays) {
        match (sepax_cast(sr), parry_cast(pr)) {
            (None, None) => agree += 1,
            (Some((_, ts)), Some((_, tp))) if (ts as f32 - tp).abs() <= 1e-3 * (1.0 + tp) => {
                agree += 1
            }
            _ => {}
        }
    }
    eprintln!(
        "rays/100k: {agree}/{RAYS} rays agree with parry on hit and distance (ids: {})",
        ids.len()
    );
    assert!(agree >= RAYS * 99 / 100, "ray casts disagree with parry");
    // The wide tree reports exactly what the dynamic tree reports (same boxes, same exact
    // leaf test, same tie rule).
    let same = sepax_rays
        .iter()
        .filter(|r| wide_cast(r) == sepax_cast(r))
        .count();
    eprintln!("rays/100k: {same}/{RAYS} rays: sepax_wide equals sepax_bvh (id and distance)");
    assert_eq!(same, RAYS, "the wide tree disagrees with the dynamic tree");
    let same = sepax_rays
        .iter()
        .filter(|r| bulk_cast(r) == sepax_cast(r))
        .count();
    assert_eq!(
        same, RAYS,
        "the bulk-loaded tree disagrees with the dynamic tree"
    );

    let mut g = c.benchmark_group("rays/100k");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(RAYS as u64));
    g.bench_function(BenchmarkId::new("sepax_bvh", RAYS), |b| {
        b.iter(|| {
            sepax_rays
                .iter()
                .filter(|r| sepax_cast(r).is_some())
                .count()
        })
    });
    g.bench_function(BenchmarkId::new("sepax_bvh_bulk", RAYS), |b| {
        b.iter(|| sepax_rays.iter().filter(|r| bulk_cast(r).is_some()).count())
    });
    g.bench_function(BenchmarkId::new("sepax_wide", RAYS), |b| {
        b.iter(|| sepax_rays.iter().filter(|r| wide_cast(r).is_some()).count())
    });
    g.bench_function(BenchmarkId::new("parry_bvh", RAYS), |b| {
        b.iter(|| {
            parry_rays
                .iter()
                .filter(|r| parry_cast(r).is_some())
                .count()
        })
    });
    g.finish();
    bench_rays_obb(c, &scene, &sepax_rays, &parry_rays, max_dist);
}

/// A dynamic tree (margin 0) loaded with `insert_many` (binned SAH), user `i` for box `i`, its
/// query mirror refreshed.
fn bulk_tree(boxes: &[Aabb]) -> DynamicBvh {
    let mut bvh = DynamicBvh::new(BvhConfig {
        margin: 0.0,
        ..BvhConfig::default()
    })
    .expect("valid config");
    let mut ids = Vec::new();
    bvh.insert_many(
        boxes.iter().enumerate().map(|(i, b)| (*b, i as u64)),
        &mut ids,
    );
    assert!(bvh.prepare_queries());
    bvh
}

/// Times the wide query mirror's refresh of `bvh` (median of 11): one proxy is moved out of its
/// fat box and back (which makes the mirror stale), then `prepare_queries` rebuilds it.
fn refresh_cost(bvh: &mut DynamicBvh, ids: &[ProxyId], label: &str) {
    let id = ids[0];
    let home = bvh.tight_aabb(id).expect("live proxy");
    let away = Aabb::new_unchecked(home.min() + Vector3::x(), home.max() + Vector3::x());
    let mut times: Vec<f64> = (0..11)
        .map(|_| {
            bvh.update(id, away, Vector3::zeros());
            bvh.update(id, home, Vector3::zeros());
            let start = Instant::now();
            assert!(bvh.prepare_queries());
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    eprintln!(
        "{label}: query mirror refresh of {} proxies ({} nodes): {:.2} ms (median of 11; min {:.2})",
        bvh.len(),
        bvh.node_count(),
        times[5],
        times[0]
    );
}

/// The exact ray distance of [`sepax_shapes::Obb::cast_ray`] without the hit point and normal
/// (the leaf test of a closest-hit query): the same local origin (`Obb::to_local`), inside test,
/// local direction and slab loop, operation for operation, so the same distance bit for bit
/// (checked against `Obb::cast_ray` before timing).
#[inline]
fn obb_ray_distance(b: &Obb, ray: &Ray) -> Option<Real> {
    let o = b.to_local(&ray.origin());
    let h = b.half_extents();
    if (0..3).all(|k| o[k].abs() <= h[k]) {
        return Some(0.0);
    }
    let d = b.axes().tr_mul(&ray.direction());
    let (mut t0, mut t1, mut entered) = (0.0 as Real, ray.max_distance(), false);
    for k in 0..3 {
        if d[k] == 0.0 {
            if o[k] < -h[k] || o[k] > h[k] {
                return None;
            }
            continue;
        }
        let (ta, tb) = ((-h[k] - o[k]) / d[k], (h[k] - o[k]) / d[k]);
        let (ta, tb) = if ta <= tb { (ta, tb) } else { (tb, ta) };
        if ta > t0 {
            t0 = ta;
            entered = true;
        }
        t1 = t1.min(tb);
        if t0 > t1 {
            return None;
        }
    }
    (entered && t0.is_finite()).then_some(t0)
}

/// Closest-hit rays against 100k oriented boxes (the bench scene's centres and half-extents,
/// seeded random rotations): each structure holds the boxes' world AABBs and tests the exact
/// OBB at its leaves (sepax: [`obb_ray_distance`]; parry: `Cuboid::cast_ray` at the box's pose).
fn bench_rays_obb(
    c: &mut Criterion,
    scene: &Scene,
    sepax_rays: &[Ray],
    parry_rays: &[PRay],
    max_dist: f32,
) {
    use parry3d::math::{Pose, Rotation};
    use parry3d::shape::Cuboid;
    use rand::{Rng, SeedableRng};
    use sepax_shapes::math::{Quaternion, UnitQuaternion};
    let n = scene.center.len();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
    let quats: Vec<[f32; 4]> = (0..n)
        .map(|_| {
            let q = [0; 4].map(|_| rng.random_range(-1.0f32..1.0));
            let len = (q.iter().map(|x| x * x).sum::<f32>()).sqrt().max(1e-3);
            q.map(|x| x / len)
        })
        .collect();
    let obbs: Vec<Obb> = (0..n)
        .map(|i| {
            let (c, h, q) = (scene.center[i], scene.half[i], quats[i]);
            let q = Quaternion::new(q[3] as Real, q[0] as Real, q[1] as Real, q[2] as Real);
            Obb::from_rotation(
                Point3::new(c[0] as Real, c[1] as Real, c[2] as Real),
                UnitQuaternion::new_normalize(q),
                Vector3::new(h[0] as Real, h[1] as Real, h[2] as Real),
            )
            .expect("valid box")
        })
        .collect();
    let boxes: Vec<Aabb> = obbs.iter().map(Obb::world_aabb).collect();
    let mut bvh = DynamicBvh::new(BvhConfig {
        margin: 0.0,
        ..BvhConfig::default()
    })
    .expect("valid config");
    let ids: Vec<ProxyId> = (0..n).map(|i| bvh.insert(boxes[i], i as u64)).collect();
    let mut scratch = Vec::new();
    bvh.update_pairs(&mut scratch);
    refresh_cost(&mut bvh, &ids, "rays_obb/100k");
    let wide = WideBvh::build(&boxes);
    let bulk = bulk_tree(&boxes);
    let cuboids: Vec<(Cuboid, Pose)> = (0..n)
        .map(|i| {
            let (c, h, q) = (scene.center[i], scene.half[i], quats[i]);
            let rot = Rotation::from_xyzw(q[0], q[1], q[2], q[3]).normalize();
            (
                Cuboid::new(PVec::from_array(h)),
                Pose::from_parts(PVec::from_array(c), rot),
            )
        })
        .collect();
    let leaves: Vec<PAabb> = cuboids.iter().map(|(cb, p)| cb.aabb(p)).collect();
    let pbvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves);

    // Closest OBB hit: the leaf's box is hit at `t` (a lower bound); the OBB at `t_obb >= t`.
    let closest_in = |bvh: &DynamicBvh, exact: &dyn Fn(usize, &Ray) -> Option<Real>, r: &Ray| {
        let mut best: Option<(ProxyId, Real)> = None;
        bvh.cast_ray(r, |id, _| {
            let i = bvh.user(id).unwrap_or(0) as usize;
            match exact(i, r) {
                Some(t) if best.is_none_or(|(b, bt)| t < bt || (t == bt && id < b)) => {
                    best = Some((id, t));
                    RayStep::Clip(t)
                }
                _ => RayStep::Continue,
            }
        });
        best.map(|(id, t)| (bvh.user(id).unwrap_or(0) as usize, t))
    };
    let fast = |i: usize, r: &Ray| obb_ray_distance(&obbs[i], r);
    let full = |i: usize, r: &Ray| obbs[i].cast_ray(r).map(|h| h.distance);
    let closest = |exact: &dyn Fn(usize, &Ray) -> Option<Real>, r: &Ray| closest_in(&bvh, exact, r);
    let sepax_cast = |r: &Ray| closest(&fast, r);
    let bulk_cast = |r: &Ray| closest_in(&bulk, &fast, r);
    let wide_cast = |r: &Ray| {
        let mut best: Option<(u32, Real)> = None;
        wide.cast_ray(r, |i, _| match obb_ray_distance(&obbs[i as usize], r) {
            Some(t) if best.is_none_or(|(b, bt)| t < bt || (t == bt && i < b)) => {
                best = Some((i, t));
                RayStep::Clip(t)
            }
            _ => RayStep::Continue,
        });
        best.map(|(i, t)| (i as usize, t))
    };
    // The same tree through `cast_ray_candidates`: proxies by slot with a lower bound of the
    // box entry (no exact box test), the OBB test deciding.
    let mut by_slot = vec![usize::MAX; n];
    for (i, id) in ids.iter().enumerate() {
        by_slot[id.index as usize] = i;
    }
    let candidates_cast = |r: &Ray| {
        let mut best: Option<(usize, Real)> = None;
        bvh.cast_ray_candidates(r, |slot, _| {
            let i = by_slot[slot as usize];
            match obb_ray_distance(&obbs[i], r) {
                Some(t) if best.is_none_or(|(b, bt)| t < bt || (t == bt && ids[i] < ids[b])) => {
                    best = Some((i, t));
                    RayStep::Clip(t)
                }
                _ => RayStep::Continue,
            }
        });
        best
    };
    let parry_cast = |r: &PRay| {
        pbvh.cast_ray(r, max_dist, |leaf, best| {
            let (cb, pose) = &cuboids[leaf as usize];
            cb.cast_ray(pose, r, best, true)
        })
    };
    // Before timing: the fast leaf test gives exactly `Obb::cast_ray`'s answers, the wide tree
    // the dynamic tree's, and parry agrees up to rounding.
    let (mut same, mut same_wide, mut agree, mut hits) = (0, 0, 0, 0);
    for (sr, pr) in sepax_rays.iter().zip(parry_rays) {
        let s = sepax_cast(sr);
        same += usize::from(s == closest(&full, sr));
        same_wide +=
            usize::from(s == wide_cast(sr) && s == bulk_cast(sr) && s == candidates_cast(sr));
        hits += usize::from(s.is_some());
        match (s, parry_cast(pr)) {
            (None, None) => agree += 1,
            (Some((_, ts)), Some((_, tp))) if (ts as f32 - tp).abs() <= 1e-3 * (1.0 + tp) => {
                agree += 1
            }
            _ => {}
        }
    }
    let rays = sepax_rays.len();
    eprintln!(
        "rays_obb/100k: {hits}/{rays} rays hit an OBB; fast leaf test equals Obb::cast_ray on \
         {same}, wide and bulk-loaded trees equal the dynamic tree on {same_wide}, parry agrees on {agree}"
    );
    assert_eq!((same, same_wide), (rays, rays), "OBB closest hits differ");
    assert!(
        agree >= rays * 99 / 100,
        "OBB ray casts disagree with parry"
    );

    let mut g = c.benchmark_group("rays_obb/100k");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(rays as u64));
    g.bench_function(BenchmarkId::new("sepax_bvh", rays), |b| {
        b.iter(|| {
            sepax_rays
                .iter()
                .filter(|r| sepax_cast(r).is_some())
                .count()
        })
    });
    g.bench_function(BenchmarkId::new("sepax_bvh_bulk", rays), |b| {
        b.iter(|| sepax_rays.iter().filter(|r| bulk_cast(r).is_some()).count())
    });
    g.bench_function(BenchmarkId::new("sepax_bvh_candidates", rays), |b| {
        b.iter(|| {
            sepax_rays
                .iter()
                .filter(|r| candidates_cast(r).is_some())
                .count()
        })
    });
    g.bench_function(BenchmarkId::new("sepax_wide", rays), |b| {
        b.iter(|| sepax_rays.iter().filter(|r| wide_cast(r).is_some()).count())
    });
    g.bench_function(BenchmarkId::new("parry_bvh", rays), |b| {
        b.iter(|| {
            parry_rays
                .iter()
                .filter(|r| parry_cast(r).is_some())
                .count()
        })
    });
    g.finish();
}

/// The scene family of issue 17 at 100k boxes (moving and 90% static): the dynamic tree, the
/// sorted grid and parry's `Bvh`, exact pair counts asserted equal before timing.
fn bench_family(c: &mut Criterion) {
    // Twelve 100k scenes take a while to set up: only on request.
    if !std::env::var("SEPAX_BENCH_FAMILY").is_ok_and(|v| v == "1") {
        return;
    }
    let n = 100_000;
    for (kind, label) in scene::Kind::ALL {
        for (static_fraction, motion) in [(0.0, "moving"), (0.9, "static90")] {
            let scene = Scene::of_kind(kind, n, static_fraction, 7);
            let name = format!("family/100k/{label}/{motion}");
            let mut sorted = SepaxRun::new(SortedGrid::new(1.0).expect("valid cell"), &scene);
            let mut bvh = SepaxRun::new(DynamicBvh::default(), &scene);
            let mut parry = ParryRun::new(&scene);
            let (n_sorted, n_bvh, n_parry) = (sorted.frame(), bvh.frame(), parry.frame());
            eprintln!(
                "{name}: pairs per frame {n_parry} ({:.2} per box): sorted grid {n_sorted}, \
                 bvh {n_bvh}, parry {n_parry}",
                n_parry as f64 / n as f64
            );
            assert_eq!(n_sorted, n_parry, "{name}: sorted grid vs parry");
            assert_eq!(n_bvh, n_parry, "{name}: bvh vs parry");
            let mut g = c.benchmark_group(&name);
            g.sample_size(10)
                .warm_up_time(Duration::from_millis(500))
                .measurement_time(Duration::from_secs(2));
            g.bench_function("sepax_sorted_grid", |b| time_frames(b, &mut sorted));
            g.bench_function("sepax_bvh", |b| time_frames(b, &mut bvh));
            g.bench_function("parry_bvh", |b| time_frames(b, &mut parry));
            g.finish();
        }
    }
}

criterion_group!(benches, bench_pairs, bench_family, bench_rays);
criterion_main!(benches);
