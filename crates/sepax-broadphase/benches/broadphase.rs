//! Broad-phase benchmarks: sepax's implementations next to parry3d 0.31's `Bvh` and rapier3d
//! 0.36's broad phase (`BroadPhaseBvh`, built on that same parry `Bvh`), on the same data in the
//! same run. Run: `cargo bench -p sepax-broadphase --bench broadphase`
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
//!   sepax's dynamic tree (`sepax_bvh`), its static 4-wide tree (`sepax_wide`, build time
//!   printed once) and parry's `Bvh`. Before timing, sepax agrees with parry on hit and distance
//!   (up to rounding) and `sepax_wide` equals `sepax_bvh` exactly.
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
use sepax_broadphase::bvh::{BvhConfig, DynamicBvh, WideBvh};
use sepax_broadphase::grid::{GridConfig, UniformGrid};
use sepax_broadphase::sap::SweepAndPrune;
use sepax_broadphase::sorted_grid::SortedGrid;
use sepax_broadphase::{BroadPhase, ProxyId};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Aabb, Ray};

#[path = "data/scene.rs"]
mod scene;
use scene::Scene;

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

    // The static 4-wide tree over the same tight boxes; primitive i is box i.
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
