//! The chunked pair search (`DynamicBvh::update_pairs_chunked`) is deterministic: at 1, 2 and 8
//! threads (and with the jobs run in reverse) it reports the same pairs, equal to brute force,
//! and leaves the same tree (same node order) as the serial `update_pairs`, frame after frame,
//! on both of its paths (few proxies moved: per-proxy queries; many moved: the whole-tree
//! search) and through inserts and removals.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_broadphase::bvh::{DynamicBvh, Runner};
use sepax_broadphase::{BroadPhase, ProxyId};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::Aabb;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A runner on `threads` scoped threads taking jobs from a shared counter (the order the jobs
/// run in, and on which thread, varies from call to call).
fn pool(threads: usize) -> impl Fn(usize, &(dyn Fn(usize) + Sync)) {
    move |count, job| {
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    job(i);
                });
            }
        });
    }
}

/// Every job, last first, on the calling thread.
fn reverse(count: usize, job: &(dyn Fn(usize) + Sync)) {
    (0..count).rev().for_each(job);
}

fn aabb(c: [Real; 3], h: [Real; 3]) -> Aabb {
    Aabb::new_unchecked(
        Point3::new(c[0] - h[0], c[1] - h[1], c[2] - h[2]),
        Point3::new(c[0] + h[0], c[1] + h[1], c[2] + h[2]),
    )
}

fn overlaps(a: &Aabb, b: &Aabb) -> bool {
    (0..3).all(|k| a.min()[k] <= b.max()[k] && b.min()[k] <= a.max()[k])
}

/// The exact pairs of the live proxies' tight boxes, sorted.
fn brute(bvh: &DynamicBvh) -> Vec<(ProxyId, ProxyId)> {
    let live: Vec<(ProxyId, Aabb)> = bvh
        .proxies()
        .map(|id| (id, bvh.tight_aabb(id).expect("live")))
        .collect();
    let mut out = Vec::new();
    for (i, (a, ba)) in live.iter().enumerate() {
        for (b, bb) in &live[i + 1..] {
            if overlaps(ba, bb) {
                out.push(((*a).min(*b), (*a).max(*b)));
            }
        }
    }
    out.sort_unstable();
    out
}

#[test]
fn same_pairs_and_tree_at_any_thread_count() {
    let n = 1500;
    let world: Real = 9.0;
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut center: Vec<[Real; 3]> = (0..n)
        .map(|_| [0; 3].map(|_| rng.random_range(-world..world)))
        .collect();
    let half: Vec<[Real; 3]> = (0..n)
        .map(|_| [0; 3].map(|_| rng.random_range(0.1..0.5)))
        .collect();
    let two = pool(2);
    let eight = pool(8);
    let one = pool(1);
    let runners: [Runner<'_>; 4] = [&one, &two, &eight, &reverse];
    // Tree 0 runs serially through `update_pairs`; the others through the runners above.
    let mut trees: Vec<DynamicBvh> = (0..=runners.len()).map(|_| DynamicBvh::default()).collect();
    let mut ids: Vec<Vec<ProxyId>> = vec![Vec::new(); trees.len()];
    for (t, ids) in trees.iter_mut().zip(&mut ids) {
        for i in 0..n {
            ids.push(t.insert(aabb(center[i], half[i]), i as u64));
        }
    }
    let mut outs: Vec<Vec<(ProxyId, ProxyId)>> = vec![Vec::new(); trees.len()];
    for frame in 0..24 {
        // Frames alternate between everything moving (the whole-tree search) and a few
        // percent moving (per-proxy queries), with a few replaced proxies now and then.
        let all = frame % 3 == 0;
        let moving: Vec<usize> = (0..n).filter(|_| all || rng.random_bool(0.03)).collect();
        let steps: Vec<[Real; 3]> = moving
            .iter()
            .map(|_| [0; 3].map(|_| rng.random_range(-0.2..0.2)))
            .collect();
        for (&i, d) in moving.iter().zip(&steps) {
            for k in 0..3 {
                center[i][k] = (center[i][k] + d[k]).clamp(-world, world);
            }
        }
        let replace: Vec<usize> = if frame % 5 == 4 {
            (0..20).map(|_| rng.random_range(0..n)).collect()
        } else {
            Vec::new()
        };
        for (t, tree) in trees.iter_mut().enumerate() {
            tree.update_many(moving.iter().zip(&steps).map(|(&i, d)| {
                (
                    ids[t][i],
                    aabb(center[i], half[i]),
                    Vector3::new(d[0], d[1], d[2]),
                )
            }));
            for &i in &replace {
                if tree.remove(ids[t][i]) {
                    ids[t][i] = tree.insert(aabb(center[i], half[i]), i as u64);
                }
            }
            if t == 0 {
                tree.update_pairs(&mut outs[0]);
            } else {
                tree.update_pairs_chunked(&mut outs[t], runners[t - 1]);
            }
            tree.validate()
                .unwrap_or_else(|e| panic!("frame {frame}, tree {t}: {e}"));
        }
        let expected = brute(&trees[0]);
        assert!(!expected.is_empty());
        let serial_tree = trees[0].fingerprint();
        for (t, (tree, out)) in trees.iter().zip(&outs).enumerate() {
            assert_eq!(out, &expected, "frame {frame}: pairs of tree {t}");
            assert_eq!(
                tree.fingerprint(),
                serial_tree,
                "frame {frame}: tree {t} differs from the serial one"
            );
        }
    }
}
