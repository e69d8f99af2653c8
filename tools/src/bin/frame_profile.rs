//! Per-phase timing of the BVH broad phase on the benchmark's moving-boxes scene, measured in
//! thread CPU time (robust on a shared machine). Run:
//! `cargo run --release -p sepax-tools --bin frame_profile -- [N] [FRAMES] [STATIC_FRACTION]`
//! (`SAH_EVERY=K` adds the SAH-quality curve: every K frames, the tree against a fresh binned-SAH
//! build; `THREADS=K` runs the pair search on K threads; both modes print the p50/p99/max frame
//! time).
#![allow(clippy::unnecessary_cast)]

use sepax_broadphase::bvh::{BvhConfig, DynamicBvh, UpdateMode};
use sepax_broadphase::sorted_grid::SortedGrid;
use sepax_broadphase::{BroadPhase, ProxyId};
use sepax_shapes::math::Real;
use sepax_shapes::Aabb;

use scene::Scene;
use sepax_benches::broadphase::scene;

/// Thread CPU time in nanoseconds (Linux), falling back to wall time elsewhere.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0)
        })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let frames: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let static_fraction: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0.0);
    // The bench's scene (same seed).
    let mut scene = Scene::new(n, static_fraction, 7);
    let env = |k: &str, d: Real| -> Real {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let config = BvhConfig {
        margin: env("MARGIN", 0.1),
        prediction: env("PREDICTION", 2.0),
        rebuild_ratio: env("REBUILD_RATIO", 1.5),
        update_mode: match std::env::var("MODE").as_deref() {
            Ok("reinsert") => UpdateMode::Reinsert,
            _ => UpdateMode::Enlarge,
        },
        full_rebuild_fraction: env("FULL", 0.25),
        ..BvhConfig::default()
    };
    if let Ok(cell) = std::env::var("SORTED_GRID") {
        // The sorted grid instead of the BVH (cell size from the variable, e.g. 1.0).
        let cell: Real = cell.parse().unwrap_or(1.0);
        let mut grid = SortedGrid::new(cell).expect("valid cell size");
        let ids: Vec<ProxyId> = (0..n)
            .map(|i| grid.insert(scene.aabb(i), i as u64))
            .collect();
        let mut pairs = Vec::new();
        let t0 = cpu_ns();
        grid.update_pairs(&mut pairs);
        println!(
            "sorted grid n {n}: first update_pairs {:.1} ms, {} pairs",
            (cpu_ns() - t0) as f64 / 1e6,
            pairs.len()
        );
        let (mut t_step, mut t_update, mut t_pairs) = (0u64, 0u64, 0u64);
        let mut frame_ns = Vec::with_capacity(frames);
        for _ in 0..frames {
            let t = cpu_ns();
            scene.step();
            t_step += cpu_ns() - t;
            let wall = std::time::Instant::now();
            let t = cpu_ns();
            let sc = &scene;
            grid.update_many(
                &mut sc
                    .moving
                    .iter()
                    .map(|&i| (ids[i], sc.aabb(i), sc.velocity(i))),
            );
            let t1 = cpu_ns();
            grid.update_pairs(&mut pairs);
            let t2 = cpu_ns();
            t_pairs += t2 - t1;
            t_update += t1 - t;
            frame_ns.push(wall.elapsed().as_nanos() as u64);
        }
        print_distribution("sorted grid", &mut frame_ns);
        let f = frames as f64;
        println!(
            "per frame: update {:.2} ms, update_pairs {:.2} ms, total {:.2} ms (the scene's own step, not counted: {:.2} ms); pairs {}, oversize {}, memory {:.0} bytes per proxy",
            t_update as f64 / f / 1e6,
            t_pairs as f64 / f / 1e6,
            (t_update + t_pairs) as f64 / f / 1e6,
            t_step as f64 / f / 1e6,
            pairs.len(),
            grid.oversize_len(),
            grid.memory_bytes() as f64 / n as f64
        );
        return;
    }
    let boxes: Vec<(Aabb, u64)> = (0..n).map(|i| (scene.aabb(i), i as u64)).collect();
    let t0 = cpu_ns();
    let mut one_by_one = DynamicBvh::new(config).expect("valid config");
    for &(b, u) in &boxes {
        one_by_one.insert(b, u);
    }
    let t_incremental = cpu_ns() - t0;
    drop(one_by_one);
    let t0 = cpu_ns();
    let mut bvh = DynamicBvh::new(config).expect("valid config");
    let mut ids: Vec<ProxyId> = Vec::with_capacity(n);
    bvh.insert_many(boxes.iter().copied(), &mut ids);
    let t_bulk = cpu_ns() - t0;
    let mut pairs = Vec::new();
    let t0 = cpu_ns();
    bvh.update_pairs(&mut pairs);
    let t_first = cpu_ns() - t0;
    println!(
        "n {n}: build by insert_many {:.1} ms (one insert at a time: {:.1} ms), first update_pairs {:.1} ms, {} pairs, height {}",
        t_bulk as f64 / 1e6,
        t_incremental as f64 / 1e6,
        t_first as f64 / 1e6,
        pairs.len(),
        bvh.height()
    );
    // `THREADS=K` (K > 1): the pair search as jobs on K scoped threads
    // (`update_pairs_chunked`). Thread CPU time then misses the helpers' work: read the wall
    // times of the distribution line.
    let threads: usize = std::env::var("THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let pool = move |count: usize, job: &(dyn Fn(usize) + Sync)| {
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    job(i);
                });
            }
        });
    };
    let (mut t_update, mut t_pairs) = (0u64, 0u64);
    let rebuilds0 = bvh.rebuild_count();
    let mut frame_ns = Vec::with_capacity(frames);
    // `SAH_EVERY=K`: every K frames, the tree's SAH cost against a fresh binned-SAH build of the
    // same leaves (a clone rebuilt), outside the timing.
    let sah_every: usize = std::env::var("SAH_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut worst_sah_ratio: f64 = 0.0;
    for frame in 0..frames {
        if sah_every > 0 && frame % sah_every == 0 {
            let mut fresh = bvh.clone();
            fresh.rebuild();
            let (now, best) = (bvh.sah_cost() as f64, fresh.sah_cost() as f64);
            worst_sah_ratio = worst_sah_ratio.max(now / best);
            println!(
                "sah frame {frame}: tree {now:.4e}, fresh binned SAH {best:.4e}, ratio {:.3}",
                now / best
            );
        }
        scene.step();
        let wall = std::time::Instant::now();
        let t = cpu_ns();
        let sc = &scene;
        bvh.update_many(
            sc.moving
                .iter()
                .map(|&i| (ids[i], sc.aabb(i), sc.velocity(i))),
        );
        let t1 = cpu_ns();
        if threads > 1 {
            bvh.update_pairs_chunked(&mut pairs, &pool);
        } else {
            bvh.update_pairs(&mut pairs);
        }
        let t2 = cpu_ns();
        t_update += t1 - t;
        t_pairs += t2 - t1;
        frame_ns.push(wall.elapsed().as_nanos() as u64);
    }
    if sah_every > 0 {
        println!("sah: worst ratio to a fresh binned-SAH build {worst_sah_ratio:.3}");
    }
    print_distribution("tree", &mut frame_ns);
    let f = frames as f64;
    println!(
        "per frame: update {:.2} ms, update_pairs {:.2} ms, total {:.2} ms; pairs {}, rebuilds {}, height {}, sah {:.3e}",
        t_update as f64 / f / 1e6,
        t_pairs as f64 / f / 1e6,
        (t_update + t_pairs) as f64 / f / 1e6,
        pairs.len(),
        bvh.rebuild_count() - rebuilds0,
        bvh.height(),
        bvh.sah_cost()
    );
    let t = cpu_ns();
    let mut count = 0usize;
    bvh.self_pairs(|_, _| {
        count += 1;
        sepax_broadphase::Visit::Continue
    });
    let t_self = cpu_ns() - t;
    let t = cpu_ns();
    for _ in 0..10 {
        bvh.rebuild_fast();
    }
    let t_fast = cpu_ns() - t;
    let t = cpu_ns();
    for _ in 0..10 {
        bvh.update_pairs(&mut pairs);
    }
    let t_pairs_nomove = cpu_ns() - t;
    println!(
        "rebuild_fast {:.2} ms (height {}, sah {:.3e}); update_pairs with nothing moved {:.2} ms",
        t_fast as f64 / 10e6,
        bvh.height(),
        bvh.sah_cost(),
        t_pairs_nomove as f64 / 10e6
    );
    let t = cpu_ns();
    bvh.rebuild();
    let t_rebuild = cpu_ns() - t;
    let t = cpu_ns();
    let mut count2 = 0usize;
    bvh.self_pairs(|_, _| {
        count2 += 1;
        sepax_broadphase::Visit::Continue
    });
    let t_self2 = cpu_ns() - t;
    println!(
        "memory {:.1} MB, {:.0} bytes per proxy",
        bvh.memory_bytes() as f64 / 1e6,
        bvh.memory_bytes() as f64 / n as f64
    );
    println!(
        "self_pairs {:.2} ms ({count}), rebuild {:.2} ms, self_pairs after rebuild {:.2} ms ({count2}), sah {:.3e}",
        t_self as f64 / 1e6,
        t_rebuild as f64 / 1e6,
        t_self2 as f64 / 1e6,
        bvh.sah_cost()
    );
}

/// Prints the median, 99th percentile and worst of per-frame wall times (nanoseconds: thread CPU
/// time advances only at scheduler events, too coarse for one frame).
fn print_distribution(what: &str, ns: &mut [u64]) {
    if ns.is_empty() {
        return;
    }
    ns.sort_unstable();
    let at = |q: f64| ns[((ns.len() - 1) as f64 * q).round() as usize] as f64 / 1e6;
    let (p50, p99, max) = (at(0.5), at(0.99), at(1.0));
    println!(
        "{what} frame time over {} frames: p50 {p50:.2} ms, p99 {p99:.2} ms, max {max:.2} ms (max / p50 {:.2})",
        ns.len(),
        max / p50
    );
}
