//! A plain loop over the scenes of `benches/world.rs` (the same data, from the sepax-benches lib), for
//! profilers, for the 1M-collider runs that are too long for criterion, and for memory per
//! collider (the resident-set growth of building one implementation and running its first
//! frame, in a process of its own, minus the scene copy it keeps).
//!
//! ```text
//! cargo run --release -p sepax-tools --features parallel --bin world_profile -- \
//!     [--n 100000] [--static 0.9] [--sizes uniform|spread] [--frames 20] \
//!     [--impl world|rapier|parry] [--threads 0]
//! ```
//! `--threads 0` runs the world on `Serial`; `--threads T` on a `RayonExecutor` of `T` threads
//! (with the `parallel` feature). Prints the setup time, the touching pairs, the mean frame
//! time (and the world's per-phase split), and the memory per collider.

// Casts to `Real` are needed in the default f32 build and identities in the f64 build.
#![allow(clippy::unnecessary_cast)]

use std::time::{Duration, Instant};

use sepax_world::{Executor, Serial};

use runs::{ParryRun, RapierRun, Run, Scene, Sizes, WorldRun};
use sepax_benches::world::runs;

/// Resident set size of this process in bytes (Linux; 0 elsewhere).
fn rss() -> usize {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<usize>().ok())
        .map_or(0, |pages| pages * 4096)
}

struct Args {
    n: usize,
    static_fraction: f64,
    sizes: Sizes,
    frames: usize,
    imp: String,
    threads: usize,
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        n: 100_000,
        static_fraction: 0.0,
        sizes: Sizes::Uniform,
        frames: 20,
        imp: "world".into(),
        threads: 0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let v = it.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{flag} {v}: {e}");
        match flag.as_str() {
            "--n" => a.n = v.parse().map_err(|e| bad(&e))?,
            "--static" => a.static_fraction = v.parse().map_err(|e| bad(&e))?,
            "--sizes" => {
                a.sizes = match v.as_str() {
                    "uniform" => Sizes::Uniform,
                    "spread" => Sizes::Spread,
                    _ => return Err(bad(&"expected uniform or spread")),
                }
            }
            "--frames" => a.frames = v.parse().map_err(|e| bad(&e))?,
            "--impl" => a.imp = v,
            "--threads" => a.threads = v.parse().map_err(|e| bad(&e))?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if !(0.0..=1.0).contains(&a.static_fraction) {
        return Err("--static must be in [0, 1]".into());
    }
    Ok(a)
}

/// Runs `frames` timed frames; returns the mean frame time and the last touching count.
fn run_frames<R: Run>(run: &mut R, frames: usize, mut each: impl FnMut(&R)) -> (f64, usize) {
    let mut total = Duration::ZERO;
    let mut touching = 0;
    for _ in 0..frames {
        run.prepare();
        let t = Instant::now();
        touching = run.frame();
        total += t.elapsed();
        each(run);
    }
    (total.as_secs_f64() * 1e3 / frames.max(1) as f64, touching)
}

fn profile_world<E: Executor>(scene: &Scene, exec: E, a: &Args, base: usize) {
    let t = Instant::now();
    let mut w = WorldRun::new(scene, exec);
    let setup = t.elapsed();
    let mem = rss().saturating_sub(base);
    let mut split = [Duration::ZERO; 5];
    let mut least = [Duration::MAX; 5];
    let (ms, touching) = run_frames(&mut w, a.frames, |w| {
        let p = w.stats.time;
        let phases = [w.set_time, p.broad, p.filter, p.narrow, p.events];
        for ((acc, min), d) in split.iter_mut().zip(&mut least).zip(phases) {
            *acc += d;
            *min = (*min).min(d);
        }
    });
    let f = a.frames.max(1) as f64;
    let [set, broad, filter, narrow, events] = split.map(|d| d.as_secs_f64() * 1e3 / f);
    let [set_min, broad_min, filter_min, narrow_min, events_min] =
        least.map(|d| d.as_secs_f64() * 1e3);
    report(a, setup, touching, ms, mem);
    println!(
        "  split (ms per frame): set_poses {set:.3}, broad {broad:.3}, filter {filter:.3}, \
         narrow {narrow:.3}, events {events:.3}; candidates {}, narrow tests {}; moving tree \
         depth {}, static tree depth {}",
        w.stats.candidates,
        w.stats.pairs_tested,
        w.stats.moving_tree_depth,
        w.stats.static_tree_depth
    );
    println!(
        "  fastest frame per phase (ms; robust to a noisy machine): set_poses {set_min:.3}, \
         broad {broad_min:.3}, filter {filter_min:.3}, narrow {narrow_min:.3}, events \
         {events_min:.3}"
    );
}

fn report(a: &Args, setup: Duration, touching: usize, ms: f64, mem: usize) {
    println!(
        "{} n={} static={} sizes={:?} threads={}: setup {:.1} ms, touching {touching}, {ms:.3} ms \
         per frame over {} frames, memory {:.0} bytes per collider",
        a.imp,
        a.n,
        a.static_fraction,
        a.sizes,
        a.threads,
        setup.as_secs_f64() * 1e3,
        a.frames,
        mem as f64 / a.n.max(1) as f64
    );
}

fn main() {
    let a = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("world_profile: {e}");
            std::process::exit(2);
        }
    };
    let scene = Scene::new(a.n, a.static_fraction, a.sizes, 7);
    // The scene copy every run keeps is not the implementation's memory: measure it first.
    let before = rss();
    let copy = scene.clone();
    let scene_bytes = rss().saturating_sub(before);
    drop(copy);
    let base = rss() + scene_bytes;
    match (a.imp.as_str(), a.threads) {
        ("world", 0) => profile_world(&scene, Serial, &a, base),
        #[cfg(feature = "parallel")]
        ("world", t) => {
            let exec = sepax_world::RayonExecutor::new(t).expect("thread pool");
            profile_world(&scene, exec, &a, base)
        }
        ("rapier", _) => {
            let t = Instant::now();
            let mut r = RapierRun::new(&scene);
            let setup = t.elapsed();
            let mem = rss().saturating_sub(base);
            let (ms, touching) = run_frames(&mut r, a.frames, |_| {});
            report(&a, setup, touching, ms, mem);
        }
        ("parry", _) => {
            let t = Instant::now();
            let mut p = ParryRun::new(&scene);
            let setup = t.elapsed();
            let mem = rss().saturating_sub(base);
            let (ms, touching) = run_frames(&mut p, a.frames, |_| {});
            report(&a, setup, touching, ms, mem);
        }
        (imp, t) => {
            eprintln!("world_profile: --impl {imp} with --threads {t} is not available");
            std::process::exit(2);
        }
    }
}
