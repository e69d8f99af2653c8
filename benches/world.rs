//! Full-frame benchmarks of the world next to rapier3d 0.36's `CollisionPipeline` and a
//! pipeline composed of parry3d 0.31's `Bvh` and its contact manifolds, on the same data in the
//! same run. Run: `cargo bench -p sepax-benches --features parallel --bench world`
//! (`SEPAX_BENCH_1M=1` adds the 1M-collider scenes; without `parallel` only the serial world
//! runs).
//!
//! Scenes (seeded, generated in f64 and rounded for each implementation): N colliders, a
//! quarter each OBBs, AABBs, spheres and capsules, moving by up to 0.05 per axis per frame and
//! bouncing off the walls; `static90` leaves 90% of them static (sepax `Kind::Static`; rapier
//! and parry filter static–static pairs out as the world's default policy does); sizes
//! `uniform` (scale 0.3) or `spread10x` (log-uniform over [0.1, 1]).
//!
//! One frame (timed) = hand the moved colliders' poses to the implementation, update, and have
//! every touching pair with its contact manifold:
//! - `world_*`: `World::set_poses` + `World::update` (broad → filter → narrow → events, every
//!   collider reporting `Report::Manifolds`), on `Serial` and on `RayonExecutor` with 1 and 2
//!   threads.
//! - `rapier`: collider positions set, then `CollisionPipeline::step` (prediction 0; the
//!   touching pairs are those with a contact point at distance ≤ 0).
//! - `parry`: `Bvh` leaves updated, `optimize_incremental`, `refit`, the self traversal, and
//!   `contact_manifolds` (prediction 0) for every overlapping pair.
//!
//! The scene's own motion runs between the timed parts. Before timing, one frame of each on
//! identical data: touching-pair counts printed and compared. After each scene, one line of
//! ratios from this run's own totals, and the world's per-phase split from `UpdateStats`.

// Casts to `Real` are needed in the default f32 build and identities in the f64 build.
#![allow(clippy::unnecessary_cast)]
// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use sepax_world::{Executor, Serial};

use runs::{ParryRun, RapierRun, Run, Scene, Sizes, TreeRun, WorldRun};
use sepax_benches::world::runs;

/// Totals over the timed frames of one implementation.
#[derive(Default, Clone, Copy)]
struct Tally {
    frames: u32,
    total: Duration,
    /// World only: set_poses, broad, filter, narrow, events.
    phases: [Duration; 5],
}

impl Tally {
    fn mean_ms(&self) -> f64 {
        self.total.as_secs_f64() * 1e3 / self.frames.max(1) as f64
    }
}

/// Times `run.frame()` frame after frame; the scene's motion runs between the timed parts.
fn time_frames<R: Run>(
    b: &mut criterion::Bencher<'_>,
    run: &mut R,
    tally: &mut Tally,
    phases: impl Fn(&R) -> [Duration; 5],
) {
    b.iter_custom(|iters| {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            run.prepare();
            let t = Instant::now();
            black_box(run.frame());
            let dt = t.elapsed();
            total += dt;
            tally.frames += 1;
            tally.total += dt;
            for (acc, p) in tally.phases.iter_mut().zip(phases(run)) {
                *acc += p;
            }
        }
        total
    });
}

fn world_phases<E: Executor>(r: &WorldRun<E>) -> [Duration; 5] {
    let t = r.stats.time;
    [r.set_time, t.broad, t.filter, t.narrow, t.events]
}

fn no_phases<R>(_: &R) -> [Duration; 5] {
    [Duration::ZERO; 5]
}

/// The world's split: its own work (filter, events, the rest of `update`) against the broad
/// and narrow phases it calls; `set_poses` is shown apart (it validates and places the shapes
/// and updates the tree leaves).
fn print_split(name: &str, w: &Tally, trees: &Tally) {
    let f = w.frames.max(1) as f64;
    let ms = |d: Duration| d.as_secs_f64() * 1e3 / f;
    let [set, broad, filter, narrow, events] = w.phases.map(ms);
    let update = w.mean_ms() - set;
    let rest = update - (broad + filter + narrow + events);
    let own = filter + events + rest;
    let alone = trees.mean_ms();
    eprintln!(
        "{name}: world serial split per frame (ms): set_poses {set:.3}, broad {broad:.3}, \
         filter {filter:.3}, narrow {narrow:.3}, events {events:.3}, rest {rest:.3}; own work \
         (filter + events + rest) = {:.1}% on top of broad + narrow",
        100.0 * own / (broad + narrow),
    );
    // Against the trees run alone (leaf updates + pair lists = the broad phase it calls):
    // everything else of the frame but the narrow phase is the world's (validation, placing,
    // candidate keys and sort, filter, events, statistics).
    let total = w.mean_ms();
    eprintln!(
        "{name}: trees alone {alone:.3} ms + world narrow {narrow:.3} ms = {:.3} ms; world frame \
         {total:.3} ms: world's own work {:.3} ms = {:.1}% on top",
        alone + narrow,
        total - alone - narrow,
        100.0 * (total - alone - narrow) / (alone + narrow),
    );
}

fn bench_scene(c: &mut Criterion, n: usize, label: &str, static_fraction: f64, sizes: Sizes) {
    let kind = if static_fraction > 0.0 {
        "static90"
    } else {
        "moving"
    };
    let name = format!("frame/{label}/{kind}/{}", sizes.label());
    // Scenes that criterion's name filter leaves out are not even built.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
        return;
    }
    let scene = Scene::new(n, static_fraction, sizes, 7);

    let mut world = WorldRun::new(&scene, Serial);
    #[cfg(feature = "parallel")]
    let mut rayon = [1, 2].map(|t| {
        let exec = sepax_world::RayonExecutor::new(t).expect("thread pool");
        WorldRun::new(&scene, exec)
    });
    let mut trees = TreeRun::new(&scene, &world.world);
    let mut rapier = RapierRun::new(&scene);
    let mut parry = ParryRun::new(&scene);

    // One frame on identical data: the counts are compared before anything is timed.
    world.prepare();
    trees.prepare();
    rapier.prepare();
    parry.prepare();
    let (n_world, n_rapier, n_parry) = (world.frame(), rapier.frame(), parry.frame());
    let n_trees = trees.frame();
    eprintln!(
        "{name}: touching pairs: world {n_world} (candidates {}, narrow tests {}), rapier \
         {n_rapier}, parry {n_parry}; the world's trees alone: {n_trees} candidates",
        world.stats.candidates, world.stats.pairs_tested
    );
    assert_eq!(n_world, n_rapier, "{name}: world vs rapier");
    assert_eq!(n_world, n_parry, "{name}: world vs parry");
    #[cfg(feature = "parallel")]
    for r in &mut rayon {
        r.prepare();
        assert_eq!(r.frame(), n_world, "{name}: rayon world vs serial world");
    }

    let (mut tw, mut tr, mut tp) = (Tally::default(), Tally::default(), Tally::default());
    let mut tt = Tally::default();
    #[cfg(feature = "parallel")]
    let mut trayon = [Tally::default(); 2];
    let mut g = c.benchmark_group(&name);
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(if n >= 1_000_000 { 20 } else { 2 }));
    g.bench_function("world_serial", |b| {
        time_frames(b, &mut world, &mut tw, world_phases)
    });
    #[cfg(feature = "parallel")]
    for ((r, t), threads) in rayon.iter_mut().zip(&mut trayon).zip([1, 2]) {
        g.bench_function(format!("world_rayon{threads}"), |b| {
            time_frames(b, r, t, world_phases)
        });
    }
    g.bench_function("sepax_trees_alone", |b| {
        time_frames(b, &mut trees, &mut tt, no_phases)
    });
    g.bench_function("rapier", |b| {
        time_frames(b, &mut rapier, &mut tr, no_phases)
    });
    g.bench_function("parry", |b| time_frames(b, &mut parry, &mut tp, no_phases));
    g.finish();

    let w = tw.mean_ms();
    eprintln!(
        "{name}: ms per frame: world serial {w:.3}, rapier {:.3}, parry {:.3}; rapier / world \
         = {:.2}x, parry / world = {:.2}x",
        tr.mean_ms(),
        tp.mean_ms(),
        tr.mean_ms() / w,
        tp.mean_ms() / w
    );
    #[cfg(feature = "parallel")]
    eprintln!(
        "{name}: world rayon1 {:.3} ms, rayon2 {:.3} ms (rayon1 / rayon2 = {:.2}x)",
        trayon[0].mean_ms(),
        trayon[1].mean_ms(),
        trayon[0].mean_ms() / trayon[1].mean_ms()
    );
    print_split(&name, &tw, &tt);
}

fn bench_frames(c: &mut Criterion) {
    let mut sizes = vec![(10_000, "10k"), (100_000, "100k")];
    if std::env::var("SEPAX_BENCH_1M").is_ok_and(|v| v == "1") {
        sizes.push((1_000_000, "1M"));
    }
    for (n, label) in sizes {
        for static_fraction in [0.0, 0.9] {
            for s in [Sizes::Uniform, Sizes::Spread] {
                bench_scene(c, n, label, static_fraction, s);
            }
        }
    }
}

criterion_group!(benches, bench_frames);
criterion_main!(benches);
