//! Closest-hit ray casts against the broad-phase benchmark's 100k static boxes, in a plain loop
//! for profilers. Run:
//! `cargo run --release -p sepax-tools --bin ray_profile -- [RAYS] [REPEATS] [bvh|wide|parry|both|race]`
//! (`wide`: the static 8-wide tree over the same boxes; for callgrind, collect
//! `--toggle-collect='*cast_ray_closest*'`; `parry`: parry3d's `Bvh::cast_ray` on the same
//! boxes and rays, collect `--toggle-collect='*parry_closest*'`; `race`: REPEATS rounds, each
//! timing five passes of the rays through each of the three in turn, then the minimum and
//! median pass time of each: the ratio of minima is robust on a loaded machine).
#![allow(clippy::unnecessary_cast)]

use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::math::Vector as PVec;
use parry3d::partitioning::{Bvh, BvhBuildStrategy};
use parry3d::query::{Ray as PRay, RayCast};
use sepax_broadphase::bvh::{BvhConfig, DynamicBvh, WideBvh};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Aabb, Ray};

use scene::Scene;
use sepax_benches::broadphase::{scene, ParryAabb as _};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rays: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let repeats: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let which = args.get(3).map_or("both", |s| s.as_str());
    let (run_bvh, run_wide, run_parry) = (
        which == "both" || which == "bvh",
        which == "both" || which == "wide",
        which == "both" || which == "parry",
    );
    // The boxes and rays of `benches/broadphase.rs`'s ray bench.
    let scene = Scene::new(100_000, 1.0, 11);
    let (n, world) = (scene.center.len(), scene.world);
    let tight: Vec<Aabb> = (0..n).map(|i| scene.aabb(i)).collect();
    let parry_boxes: Vec<PAabb> = (0..n).map(|i| scene.parry_aabb(i)).collect();
    let mut bvh = DynamicBvh::new(BvhConfig {
        margin: 0.0,
        ..BvhConfig::default()
    })
    .expect("valid config");
    let mut ids = Vec::new();
    bvh.insert_many((0..n).map(|i| (tight[i], i as u64)), &mut ids);
    let raw = scene.rays(rays, 12);
    let parry_rays: Vec<PRay> = raw
        .iter()
        .map(|(o, d)| PRay::new(PVec::from_array(*o), PVec::from_array(*d)))
        .collect();
    let rays: Vec<Ray> = raw
        .iter()
        .map(|(o, d)| {
            Ray::new(
                Point3::new(o[0] as Real, o[1] as Real, o[2] as Real),
                Vector3::new(d[0] as Real, d[1] as Real, d[2] as Real),
                (2.0 * world) as Real,
            )
            .expect("valid ray")
        })
        .collect();
    if which == "race" {
        race(
            &bvh,
            &tight,
            &parry_boxes,
            &rays,
            &parry_rays,
            repeats,
            2.0 * world,
        );
        return;
    }
    if run_bvh {
        let hits = profile(
            "DynamicBvh",
            ("internal nodes visited", "leaves tested"),
            &rays,
            repeats,
            |r| bvh.cast_ray(r, |_, t| sepax_broadphase::bvh::RayStep::Clip(t)),
            |r| bvh.cast_ray_closest(r).is_some(),
        );
        println!("DynamicBvh: {hits} hits, tree height {}", bvh.height());
    }
    if run_wide {
        let t = std::time::Instant::now();
        let wide = WideBvh::build(&tight);
        println!(
            "WideBvh build {:.1} ms, {} nodes, depth {}",
            t.elapsed().as_secs_f64() * 1e3,
            wide.node_count(),
            wide.depth()
        );
        let hits = profile(
            "WideBvh",
            ("nodes visited", "primitives tested exactly"),
            &rays,
            repeats,
            |r| wide.cast_ray(r, |_, t| sepax_broadphase::bvh::RayStep::Clip(t)),
            |r| wide.cast_ray_closest(r).is_some(),
        );
        println!("WideBvh: {hits} hits");
    }
    if run_parry {
        let pbvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &parry_boxes);
        let max = 2.0 * world;
        let t = std::time::Instant::now();
        let mut hits = 0;
        for _ in 0..repeats {
            hits += parry_rays
                .iter()
                .filter(|r| parry_closest(&pbvh, &parry_boxes, r, max).is_some())
                .count();
        }
        let per = t.elapsed().as_secs_f64() / (repeats * rays.len()) as f64;
        println!("parry3d Bvh {:.2} M rays/s ({hits} hits)", 1e-6 / per);
    }
}

/// parry's closest hit, as in `benches/broadphase.rs` (a named function for callgrind).
#[inline(never)]
/// Prints the visit counters per ray (`visit` casts each ray once, `counters` names the two
/// counters) and the rate of closest-hit casts (`closest`, `repeats` times over the rays);
/// returns the hits counted.
fn profile(
    label: &str,
    counters: (&str, &str),
    rays: &[Ray],
    repeats: usize,
    visit: impl Fn(&Ray) -> sepax_broadphase::QueryStats,
    closest: impl Fn(&Ray) -> bool,
) -> usize {
    let (mut nodes, mut leaves) = (0, 0);
    for r in rays {
        let st = visit(r);
        nodes += st.nodes_visited;
        leaves += st.leaves_tested;
    }
    let n = rays.len() as f64;
    println!(
        "{label} per ray: {:.1} {}, {:.1} {}",
        nodes as f64 / n,
        counters.0,
        leaves as f64 / n,
        counters.1
    );
    let t = std::time::Instant::now();
    let mut hits = 0;
    for _ in 0..repeats {
        hits += rays.iter().filter(|r| closest(r)).count();
    }
    let per = t.elapsed().as_secs_f64() / (repeats as f64 * n);
    println!("{label} {:.2} M rays/s", 1e-6 / per);
    hits
}

fn parry_closest(bvh: &Bvh, leaves: &[PAabb], ray: &PRay, max: f32) -> Option<(u32, f32)> {
    bvh.cast_ray(ray, max, |leaf, best| {
        leaves[leaf as usize].cast_local_ray(ray, best, true)
    })
}

/// Interleaved passes (see the module documentation).
fn race(
    bvh: &DynamicBvh,
    tight: &[Aabb],
    parry_boxes: &[PAabb],
    rays: &[Ray],
    parry_rays: &[PRay],
    rounds: usize,
    max: f32,
) {
    let wide = WideBvh::build(tight);
    let pbvh = Bvh::from_leaves(BvhBuildStrategy::Binned, parry_boxes);
    let mut times: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut hits = [0usize; 3];
    // Blocks of passes of one implementation, so that each times its own warm caches.
    for _ in 0..rounds {
        for _ in 0..5 {
            let t = std::time::Instant::now();
            hits[0] += rays
                .iter()
                .filter(|r| bvh.cast_ray_closest(r).is_some())
                .count();
            times[0].push(t.elapsed().as_secs_f64());
        }
        for _ in 0..5 {
            let t = std::time::Instant::now();
            hits[1] += rays
                .iter()
                .filter(|r| wide.cast_ray_closest(r).is_some())
                .count();
            times[1].push(t.elapsed().as_secs_f64());
        }
        for _ in 0..5 {
            let t = std::time::Instant::now();
            hits[2] += parry_rays
                .iter()
                .filter(|r| parry_closest(&pbvh, parry_boxes, r, max).is_some())
                .count();
            times[2].push(t.elapsed().as_secs_f64());
        }
    }
    assert!(
        hits[0] == hits[1] && hits[1] == hits[2],
        "hit counts differ: {hits:?}"
    );
    let mut stat = [(0.0, 0.0); 3];
    for (k, name) in ["sepax_bvh", "sepax_wide", "parry_bvh"].iter().enumerate() {
        let v = &mut times[k];
        v.sort_by(f64::total_cmp);
        stat[k] = (v[0], v[v.len() / 2]);
        println!(
            "{name:>10}: min {:.3} ms, median {:.3} ms per {} rays",
            v[0] * 1e3,
            v[v.len() / 2] * 1e3,
            rays.len()
        );
    }
    println!(
        "parry / sepax_wide: {:.2}x (min), {:.2}x (median); parry / sepax_bvh: {:.2}x (min)",
        stat[2].0 / stat[1].0,
        stat[2].1 / stat[1].1,
        stat[2].0 / stat[0].0
    );
}
