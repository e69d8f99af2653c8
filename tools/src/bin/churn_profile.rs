//! Churn: every frame a fraction of the proxies is removed and inserted again elsewhere (a
//! world where colliders are replaced), the dynamic tree against parry's `Bvh` on the same data,
//! interleaved frame by frame. Run:
//! `cargo run --release -p sepax-tools --bin churn_profile -- [N] [FRAMES] [FRACTION]`
//! (defaults 100000, 30, 0.1). Prints the inserts and removes per second of each (the churn
//! itself timed alone) and the frame time with the pair search (sepax: `update_pairs`, exact and
//! complete; parry: `refit` and `optimize_incremental` as rapier drives it, then its self
//! traversal).
#![allow(clippy::unnecessary_cast)]

use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_broadphase::bvh::DynamicBvh;
use sepax_broadphase::{BroadPhase, ProxyId};
use std::time::Instant;

use scene::Scene;
use sepax_benches::broadphase::scene;
use sepax_benches::broadphase::ParryAabb as _;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let frames: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(30);
    let fraction: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0.1);
    let mut scene = Scene::new(n, 1.0, 7);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut bvh = DynamicBvh::default();
    let mut ids: Vec<ProxyId> = Vec::with_capacity(n);
    bvh.insert_many((0..n).map(|i| (scene.aabb(i), i as u64)), &mut ids);
    let leaves: Vec<_> = (0..n).map(|i| scene.parry_aabb(i)).collect();
    let mut parry = Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
    let mut ws = BvhWorkspace::default();
    let mut pairs = Vec::new();
    let mut parry_pairs: Vec<(u32, u32)> = Vec::new();
    bvh.update_pairs(&mut pairs);
    let per_frame = ((n as f64) * fraction) as usize;
    let (mut s_churn, mut s_pairs, mut p_churn, mut p_pairs) = (0.0, 0.0, 0.0, 0.0);
    let w = scene.world;
    for frame in 0..frames {
        // The replaced boxes and their new centres, the same for both.
        let picked: Vec<usize> = rand::seq::index::sample(&mut rng, n, per_frame).into_vec();
        for &i in &picked {
            let h = scene.half[i];
            scene.center[i] = [0, 1, 2].map(|k| rng.random_range(-w + h[k]..w - h[k]));
        }
        let t = Instant::now();
        for &i in &picked {
            bvh.remove(ids[i]);
        }
        for &i in &picked {
            ids[i] = bvh.insert(scene.aabb(i), i as u64);
        }
        let t1 = t.elapsed().as_secs_f64();
        bvh.update_pairs(&mut pairs);
        let t2 = t.elapsed().as_secs_f64();
        let t = Instant::now();
        for &i in &picked {
            parry.remove(i as u32);
        }
        for &i in &picked {
            parry.insert(scene.parry_aabb(i), i as u32);
        }
        let u1 = t.elapsed().as_secs_f64();
        parry.optimize_incremental(&mut ws);
        parry.refit(&mut ws);
        parry_pairs.clear();
        parry.traverse_bvtt_single_tree::<false>(&mut ws, &mut |a, b| parry_pairs.push((a, b)));
        let u2 = t.elapsed().as_secs_f64();
        if frame == 0 {
            assert_eq!(pairs.len(), parry_pairs.len(), "pair counts differ");
            continue; // warm-up
        }
        s_churn += t1;
        s_pairs += t2 - t1;
        p_churn += u1;
        p_pairs += u2 - u1;
    }
    assert_eq!(pairs.len(), parry_pairs.len(), "pair counts differ");
    let f = (frames - 1).max(1) as f64;
    let ops = 2.0 * per_frame as f64;
    println!(
        "churn n {n}, {per_frame} replaced per frame, {} frames, {} pairs",
        frames - 1,
        pairs.len()
    );
    println!(
        "sepax tree: churn {:.2} ms ({:.2} M ops/s), pairs {:.2} ms, frame {:.2} ms",
        s_churn / f * 1e3,
        ops * f / s_churn / 1e6,
        s_pairs / f * 1e3,
        (s_churn + s_pairs) / f * 1e3
    );
    println!(
        "parry Bvh:  churn {:.2} ms ({:.2} M ops/s), pairs {:.2} ms, frame {:.2} ms",
        p_churn / f * 1e3,
        ops * f / p_churn / 1e6,
        p_pairs / f * 1e3,
        (p_churn + p_pairs) / f * 1e3
    );
    println!(
        "ratios (parry / sepax): churn {:.2}x, frame {:.2}x",
        p_churn / s_churn,
        (p_churn + p_pairs) / (s_churn + s_pairs)
    );
}
