//! The report `sepax demo` prints: the scene, per-frame averages of the world's counts and
//! events, time per phase, and the last frame.

use crate::demo::{DemoArgs, Mover, HEIGHT, STATIC};
use crate::demo_probe::ProbeStats;
use sepax_shapes::math::Real;
use sepax_shapes::Shape;
use sepax_world::Events;

/// Running statistics over frames.
#[derive(Default)]
pub struct Stats {
    pub move_ms: f64,
    pub broad_ms: f64,
    pub filter_ms: f64,
    pub narrow_ms: f64,
    pub events_ms: f64,
    pub candidates: u64,
    pub tested: u64,
    pub reused: u64,
    pub hits: u64,
    pub min_hits: u64,
    pub max_hits: u64,
    pub begin: u64,
    pub persist: u64,
    pub end: u64,
}

impl Stats {
    pub fn add(&mut self, e: &Events) {
        let st = &e.stats;
        self.broad_ms += st.time.broad.as_secs_f64() * 1e3;
        self.filter_ms += st.time.filter.as_secs_f64() * 1e3;
        self.narrow_ms += st.time.narrow.as_secs_f64() * 1e3;
        self.events_ms += st.time.events.as_secs_f64() * 1e3;
        self.candidates += st.candidates as u64;
        self.tested += st.pairs_tested as u64;
        self.reused += st.reused as u64;
        let h = st.touching as u64;
        self.hits += h;
        self.min_hits = self.min_hits.min(h);
        self.max_hits = self.max_hits.max(h);
        self.begin += e.begin.len() as u64;
        self.persist += e.persist.len() as u64;
        self.end += e.end.len() as u64;
    }
}

/// What the report says about the last frame.
pub struct Last<'a> {
    pub events: &'a Events,
    /// SAH costs of the moving tree (if it is one) and the static tree, after the last frame.
    pub sah: (Option<Real>, Real),
    pub highlighted: usize,
    /// The ray fan and the sphere sweep of every frame.
    pub probes: ProbeStats,
    pub svg_ms: f64,
}

fn thousands(x: u64) -> String {
    let s = x.to_string();
    let mut out = String::new();
    for (k, ch) in s.chars().enumerate() {
        if k > 0 && (s.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The statistics report, as printed.
pub fn report(
    args: &DemoArgs,
    movers: &[Mover],
    shapes: &[Shape],
    l: Real,
    stats: &Stats,
    run_s: f64,
    last: &Last<'_>,
) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    // Writing to a String cannot fail, so the results of `writeln!` are ignored.
    let count = |name: &str| movers.iter().filter(|m| m.kind() == name).count();
    let frames = args.frames as f64;
    let n = shapes.len() as u64;
    let all_pairs = n * n.saturating_sub(1) / 2;
    let per = |x: u64| x as f64 / frames;
    let pct = |x: u64, of: u64| {
        if of == 0 {
            0.0
        } else {
            100.0 * x as f64 / of as f64
        }
    };
    let side = 2.0 * l as f64;
    let _ = writeln!(
        s,
        "sepax demo: seed {}, {} frames of {} shapes in a {side:.1} x {:.1} x {side:.1} room",
        args.seed, args.frames, n, HEIGHT as f64
    );
    let _ = writeln!(
        s,
        "  shapes: {} static (floor, 4 walls), {} OBBs, {} AABBs, {} spheres, {} capsules",
        STATIC,
        count("obb"),
        count("aabb"),
        count("sphere"),
        count("capsule")
    );
    let _ = writeln!(s, "per frame (average over {} frames):", args.frames);
    let _ = writeln!(
        s,
        "  candidate pairs  {:>10.1}   ({:.3}% of the {} pairs of an all-pairs loop)",
        per(stats.candidates),
        pct(stats.candidates, all_pairs * args.frames),
        thousands(all_pairs)
    );
    let _ = writeln!(
        s,
        "  narrow tests     {:>10.1}   ({:.1} reused unchanged)",
        per(stats.tested),
        per(stats.reused)
    );
    let _ = writeln!(
        s,
        "  touching         {:>10.1}   (min {}, max {}; {:.1}% of candidates)",
        per(stats.hits),
        stats.min_hits,
        stats.max_hits,
        pct(stats.hits, stats.candidates)
    );
    let _ = writeln!(
        s,
        "  events           {:>10.1} begin, {:.1} persist, {:.1} end",
        per(stats.begin),
        per(stats.persist),
        per(stats.end)
    );
    let _ = writeln!(s, "time per phase       total ms    ms/frame");
    let total =
        stats.move_ms + stats.broad_ms + stats.filter_ms + stats.narrow_ms + stats.events_ms;
    for (name, ms) in [
        ("move + set_shape", stats.move_ms),
        ("broad (trees)", stats.broad_ms),
        ("filter + cache", stats.filter_ms),
        ("narrow", stats.narrow_ms),
        ("events", stats.events_ms),
        ("all phases", total),
    ] {
        let _ = writeln!(s, "  {name:<16} {ms:>10.1}  {:>10.3}", ms / frames);
    }
    let p = &last.probes;
    let _ = writeln!(
        s,
        "queries: {} rays ({:.1}% hit), {} sphere sweeps ({:.1}% hit, first contact at {:.2} of the path on average), {:.3} ms/frame",
        thousands(p.rays),
        pct(p.ray_hits, p.rays),
        thousands(p.sweeps),
        pct(p.sweep_hits, p.sweeps),
        if p.sweep_hits == 0 { 0.0 } else { p.sweep_time / p.sweep_hits as f64 },
        p.ms / frames
    );
    let _ = writeln!(s,
        "summary: {} frames in {run_s:.2} s ({:.0} frames/s); {} narrow-phase tests ({:.1} M/s), {} begin, {} end",
        args.frames,
        frames / run_s.max(1e-9),
        thousands(stats.tested),
        stats.tested as f64 / (stats.narrow_ms.max(1e-9) * 1e3),
        thousands(stats.begin),
        thousands(stats.end)
    );
    let e = last.events;
    let st = &e.stats;
    let _ = writeln!(
        s,
        "world (last frame): moving tree depth {}, SAH cost per leaf {:.3}; static tree depth {}, SAH cost per leaf {:.3}",
        st.moving_tree_depth, last.sah.0.unwrap_or(0.0) as f64, st.static_tree_depth, last.sah.1 as f64
    );
    let _ = writeln!(
        s,
        "last frame: {} touching ({} begin, {} persist, {} end), {} shapes highlighted in {} (written in {:.0} ms)",
        st.touching,
        e.begin.len(),
        e.persist.len(),
        e.end.len(),
        last.highlighted,
        args.svg.display(),
        last.svg_ms
    );
    s
}
