//! Ray casts and box queries of the dynamic tree against brute force over its stored boxes, on
//! random and degenerate sets (identical boxes, one point, huge and tiny mixed, coordinates near
//! 1e6, nested boxes that make a deep tree), with rays parallel to slabs, on slab planes, with
//! subnormal direction components and from inside boxes; through both paths (the binary tree
//! right after a change, the wide mirror once refreshed), before and after every kind of
//! mutation, and from several threads at once.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_broadphase::bvh::{BvhConfig, DynamicBvh, RayStep, UpdateMode};
use sepax_broadphase::{BroadPhase, ProxyId, Visit};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Aabb, Ray};

type Hits = Vec<(ProxyId, Real)>;

fn boxed(lo: [Real; 3], hi: [Real; 3]) -> Aabb {
    Aabb::new(Point3::from(lo), Point3::from(hi)).unwrap()
}

fn stored(bvh: &DynamicBvh) -> Vec<(ProxyId, Aabb)> {
    bvh.proxies()
        .map(|id| (id, bvh.stored_aabb(id).unwrap()))
        .collect()
}

fn sort(h: &mut Hits) {
    h.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
}

/// Every proxy the ray enters, at the entry distance of `Aabb::cast_ray`, sorted.
fn brute_all(boxes: &[(ProxyId, Aabb)], ray: &Ray) -> Hits {
    let mut h: Hits = boxes
        .iter()
        .filter_map(|(id, b)| b.cast_ray(ray).map(|hit| (*id, hit.distance)))
        .collect();
    sort(&mut h);
    h
}

fn brute_boxes(boxes: &[(ProxyId, Aabb)], q: &Aabb) -> Vec<ProxyId> {
    let mut v: Vec<ProxyId> = boxes
        .iter()
        .filter(|(_, b)| (0..3).all(|k| b.min()[k] <= q.max()[k] && q.min()[k] <= b.max()[k]))
        .map(|(id, _)| *id)
        .collect();
    v.sort();
    v
}

/// The tree's answers for one ray: every hit (sorted), the closest hit, and the hits of a cast
/// that clips at each reported distance (each must be a true hit no farther than the clip).
fn check_ray(bvh: &DynamicBvh, boxes: &[(ProxyId, Aabb)], ray: &Ray, what: &str) {
    let want = brute_all(boxes, ray);
    let mut got = Vec::new();
    bvh.cast_ray_all(ray, &mut got);
    // Distances compared by value (`+0` and `-0` are the same distance).
    assert!(
        got.len() == want.len() && got.iter().zip(&want).all(|(a, b)| a == b),
        "{what}: cast_ray_all {got:?} != brute force {want:?} for {ray:?}"
    );
    let closest = want
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    assert_eq!(
        bvh.cast_ray_closest(ray),
        closest.copied(),
        "{what}: closest for {ray:?}"
    );
    // A clipping callback sees a subset of true hits, each within the clip so far.
    let mut clip = ray.max_distance();
    bvh.cast_ray(ray, |id, t| {
        assert!(t <= clip, "{what}: hit at {t} beyond the clip {clip}");
        assert!(
            want.contains(&(id, t)),
            "{what}: {id:?} at {t} is not a hit"
        );
        clip = clip.min(t);
        RayStep::Clip(t)
    });
}

fn check_box(bvh: &DynamicBvh, boxes: &[(ProxyId, Aabb)], q: &Aabb, what: &str) {
    let mut got = Vec::new();
    bvh.query_aabb(q, |id| {
        got.push(id);
        Visit::Continue
    });
    got.sort();
    assert_eq!(got, brute_boxes(boxes, q), "{what}: query_aabb {q:?}");
}

fn rand_in(rng: &mut ChaCha8Rng, lo: Real, hi: Real) -> Real {
    lo + (hi - lo) * rng.random_range(0.0..1.0) as Real
}

/// Rays of every awkward kind around the boxes `boxes` (whose bounds are `world`).
fn rays(rng: &mut ChaCha8Rng, boxes: &[(ProxyId, Aabb)], world: &Aabb, n: usize) -> Vec<Ray> {
    let (lo, hi) = (world.min(), world.max());
    let ext = (hi - lo).amax().max(1.0);
    let mut out = Vec::new();
    let tiny = Real::MIN_POSITIVE * 0.25;
    for i in 0..n {
        let o = Point3::new(
            rand_in(rng, lo.x - 0.2 * ext, hi.x + 0.2 * ext),
            rand_in(rng, lo.y - 0.2 * ext, hi.y + 0.2 * ext),
            rand_in(rng, lo.z - 0.2 * ext, hi.z + 0.2 * ext),
        );
        let mut d = Vector3::new(
            rand_in(rng, -1.0, 1.0),
            rand_in(rng, -1.0, 1.0),
            rand_in(rng, -1.0, 1.0),
        );
        match i % 6 {
            // Parallel to one or two slab families.
            1 => d[i % 3] = 0.0,
            2 => {
                d[i % 3] = 0.0;
                d[(i + 1) % 3] = 0.0;
            }
            // A subnormal component: its reciprocal overflows.
            3 => d[i % 3] = tiny,
            _ => {}
        }
        if d.amax() == 0.0 {
            d.x = 1.0;
        }
        let mut origin = o;
        if i % 4 == 1 && !boxes.is_empty() {
            // From a box corner or face plane (on its slab planes), or from its centre.
            let (_, b) = boxes[rng.random_range(0..boxes.len())];
            origin = match i % 3 {
                0 => b.min(),
                1 => Point3::new(b.max().x, b.center().y, b.center().z),
                _ => b.center(),
            };
        }
        let max = match i % 5 {
            0 => Real::INFINITY,
            1 => 0.0,
            _ => rand_in(rng, 0.0, 2.0 * ext),
        };
        out.push(Ray::new(origin, d, max).unwrap());
    }
    out
}

fn queries(rng: &mut ChaCha8Rng, boxes: &[(ProxyId, Aabb)], world: &Aabb, n: usize) -> Vec<Aabb> {
    let (lo, hi) = (world.min(), world.max());
    let ext = (hi - lo).amax().max(1.0);
    let mut out = vec![*world];
    for i in 0..n {
        if i % 3 == 0 && !boxes.is_empty() {
            // A stored box itself (touching faces, closed sets).
            out.push(boxes[rng.random_range(0..boxes.len())].1);
            continue;
        }
        let c = [0; 3].map(|k| rand_in(rng, lo[k] - 0.1 * ext, hi[k] + 0.1 * ext));
        let h = [0; 3].map(|_| rand_in(rng, 0.0, 0.2 * ext));
        out.push(boxed(
            [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
            [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
        ));
    }
    out
}

/// Checks every ray and box query twice: first on the binary path (the tree just changed; the
/// mirror is not refreshed by these few queries on a large enough tree), then on the refreshed
/// mirror.
fn check_all(bvh: &DynamicBvh, seed: u64, what: &str) {
    let boxes = stored(bvh);
    let world = boxes
        .iter()
        .map(|(_, b)| *b)
        .reduce(|a, b| a.merge(&b))
        .unwrap_or_else(|| boxed([0.0; 3], [1.0; 3]));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rs = rays(&mut rng, &boxes, &world, 60);
    let qs = queries(&mut rng, &boxes, &world, 20);
    let before = bvh.query_mirror_refreshes();
    // The first queries on a changed tree walk the binary nodes (`check_ray` makes three: below
    // the refresh threshold from 96 leaves on).
    check_ray(bvh, &boxes, &rs[0], &format!("{what} (first query)"));
    if boxes.len() >= 96 {
        assert_eq!(
            bvh.query_mirror_refreshes(),
            before,
            "{what}: refreshed on the first query"
        );
    }
    assert!(bvh.prepare_queries(), "{what}: mirror not refreshed");
    for (i, r) in rs.iter().enumerate() {
        check_ray(bvh, &boxes, r, &format!("{what} ray {i}"));
    }
    for (i, q) in qs.iter().enumerate() {
        check_box(bvh, &boxes, q, &format!("{what} box {i}"));
    }
}

fn random_boxes(rng: &mut ChaCha8Rng, n: usize, world: Real, size: (Real, Real)) -> Vec<Aabb> {
    (0..n)
        .map(|_| {
            let c = [0; 3].map(|_| rand_in(rng, -world, world));
            let h = [0; 3].map(|_| rand_in(rng, size.0, size.1));
            boxed(
                [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
                [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
            )
        })
        .collect()
}

/// The degenerate and random sets, each named.
fn sets() -> Vec<(&'static str, Vec<Aabb>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut mixed = random_boxes(&mut rng, 500, 50.0, (0.001, 0.01));
    mixed.extend(random_boxes(&mut rng, 20, 50.0, (20.0, 80.0)));
    let far: Vec<Aabb> = random_boxes(&mut rng, 800, 10.0, (0.01, 1.0))
        .into_iter()
        .map(|b| {
            let s = Vector3::new(1.0e6, -1.0e6, 1.0e6);
            boxed((b.min() + s).into(), (b.max() + s).into())
        })
        .collect();
    // Boxes nested like shells: every box contains the next.
    let nested: Vec<Aabb> = (1..=400)
        .map(|i| {
            let r = i as Real * 0.25;
            boxed([-r, -r, -r], [r, r + 0.5 * r, r])
        })
        .collect();
    vec![
        ("random", random_boxes(&mut rng, 2000, 30.0, (0.1, 1.5))),
        ("small", random_boxes(&mut rng, 7, 3.0, (0.1, 1.5))),
        (
            "identical",
            vec![boxed([1.0, 2.0, 3.0], [2.0, 2.5, 4.0]); 800],
        ),
        (
            "one point",
            vec![boxed([0.5, -1.0, 2.0], [0.5, -1.0, 2.0]); 800],
        ),
        ("huge and tiny", mixed),
        ("1e6 coordinates", far),
        ("nested", nested),
        ("single", vec![boxed([0.0; 3], [1.0; 3])]),
    ]
}

fn tree(boxes: &[Aabb], config: BvhConfig, bulk: bool) -> (DynamicBvh, Vec<ProxyId>) {
    let mut bvh = DynamicBvh::new(config).unwrap();
    let mut ids = Vec::new();
    if bulk {
        bvh.insert_many(
            boxes.iter().enumerate().map(|(i, b)| (*b, i as u64)),
            &mut ids,
        );
    } else {
        ids = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| bvh.insert(*b, i as u64))
            .collect();
    }
    (bvh, ids)
}

#[test]
fn queries_equal_brute_force_on_every_set() {
    for (name, boxes) in sets() {
        for (bulk, mode) in [(false, UpdateMode::Enlarge), (true, UpdateMode::Reinsert)] {
            let config = BvhConfig {
                update_mode: mode,
                ..BvhConfig::default()
            };
            let (bvh, _) = tree(&boxes, config, bulk);
            check_all(&bvh, 1, &format!("{name} bulk={bulk}"));
        }
    }
}

#[test]
fn empty_tree_reports_nothing() {
    let bvh = DynamicBvh::default();
    let r = Ray::new(Point3::origin(), Vector3::x(), Real::INFINITY).unwrap();
    assert_eq!(bvh.cast_ray_closest(&r), None);
    assert!(bvh.prepare_queries());
    assert_eq!(bvh.cast_ray_closest(&r), None);
    check_box(&bvh, &[], &boxed([-1.0; 3], [1.0; 3]), "empty");
}

/// Every mutation is seen by the very next query, on either path: update (in and out of the
/// fat box), remove, insert, `update_pairs` (which rebuilds), `rebuild`, `rebuild_fast`,
/// `update_many` (whole-tree refit and per-proxy enlargement), `refit`.
#[test]
fn queries_are_fresh_after_every_mutation() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (name, boxes) in sets() {
        let (mut bvh, mut ids) = tree(&boxes, BvhConfig::default(), false);
        let mut pairs = Vec::new();
        bvh.update_pairs(&mut pairs);
        for step in 0..9 {
            bvh.prepare_queries();
            match step {
                0 | 1 => {
                    // Move a third of the proxies, some far out of their fat boxes.
                    let far = if step == 0 { 0.01 } else { 5.0 };
                    for id in ids.iter().step_by(3) {
                        let b = bvh.tight_aabb(*id).unwrap();
                        let d = Vector3::new(
                            rand_in(&mut rng, -far, far),
                            rand_in(&mut rng, -far, far),
                            rand_in(&mut rng, -far, far),
                        );
                        let moved = boxed((b.min() + d).into(), (b.max() + d).into());
                        assert!(bvh.update(*id, moved, d));
                    }
                }
                2 => {
                    for id in ids.iter().skip(1).step_by(4) {
                        assert!(bvh.remove(*id));
                    }
                    ids.retain(|id| bvh.user(*id).is_some());
                    let extra = random_boxes(&mut rng, 40, 20.0, (0.1, 2.0));
                    ids.extend(extra.iter().map(|b| bvh.insert(*b, 7)));
                }
                3 => bvh.update_pairs(&mut pairs),
                4 => bvh.rebuild(),
                5 => bvh.rebuild_fast(),
                6 | 7 => {
                    // The batch path of a fast layout: every proxy (a whole-tree refit), then a
                    // few (per-proxy enlargement), each far out of its fat box.
                    let every = if step == 6 { 1 } else { 29 };
                    let moves: Vec<_> = ids
                        .iter()
                        .step_by(every)
                        .map(|id| {
                            let b = bvh.tight_aabb(*id).unwrap();
                            let d = Vector3::new(rand_in(&mut rng, -5.0, 5.0), 3.0, -2.0);
                            (*id, boxed((b.min() + d).into(), (b.max() + d).into()), d)
                        })
                        .collect();
                    let n = moves.len();
                    assert_eq!(bvh.update_many(moves), n);
                }
                _ => bvh.refit(),
            }
            check_all(&bvh, 100 + step, &format!("{name} after step {step}"));
        }
    }
}

/// The refresh never runs inside `update` or `update_pairs`: only queries pay for it, and only
/// after enough of them (or `prepare_queries`).
#[test]
fn mutations_never_refresh_the_mirror() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let boxes = random_boxes(&mut rng, 3000, 20.0, (0.1, 0.5));
    let (mut bvh, ids) = tree(&boxes, BvhConfig::default(), true);
    let mut pairs = Vec::new();
    for _ in 0..20 {
        for id in &ids {
            let b = bvh.tight_aabb(*id).unwrap();
            let d = Vector3::new(0.3, -0.2, 0.1);
            bvh.update(*id, boxed((b.min() + d).into(), (b.max() + d).into()), d);
        }
        bvh.update_pairs(&mut pairs);
    }
    assert_eq!(bvh.query_mirror_refreshes(), 0);
    // A few queries walk the binary tree; enough of them refresh the mirror once.
    let q = boxed([-1.0; 3], [1.0; 3]);
    bvh.query_aabb(&q, |_| Visit::Continue);
    assert_eq!(bvh.query_mirror_refreshes(), 0);
    for _ in 0..100 {
        bvh.query_aabb(&q, |_| Visit::Continue);
    }
    assert_eq!(bvh.query_mirror_refreshes(), 1);
    // Fresh: no further refresh until the next change.
    bvh.query_aabb(&q, |_| Visit::Continue);
    assert!(bvh.prepare_queries());
    assert_eq!(bvh.query_mirror_refreshes(), 1);
}

/// Queries from several threads at once, and a query made from inside another query's
/// callback, while the mirror is being refreshed: all exact, none blocks.
#[test]
fn concurrent_and_nested_queries() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let boxes = random_boxes(&mut rng, 4000, 25.0, (0.1, 1.0));
    let (bvh, _) = tree(&boxes, BvhConfig::default(), false);
    let all = stored(&bvh);
    let world = boxed([-27.0; 3], [27.0; 3]);
    let rs = rays(&mut rng, &all, &world, 200);
    std::thread::scope(|s| {
        for t in 0..4 {
            let (bvh, all, rs) = (&bvh, &all, &rs);
            s.spawn(move || {
                for (i, r) in rs.iter().enumerate().skip(t) {
                    check_ray(bvh, all, r, &format!("thread {t} ray {i}"));
                    // Nested: a box query from inside the ray cast's callback.
                    bvh.cast_ray(r, |id, _| {
                        let b = bvh.stored_aabb(id).unwrap();
                        let mut found = false;
                        bvh.query_aabb(&b, |o| {
                            found |= o == id;
                            Visit::Continue
                        });
                        assert!(found, "nested query missed the box itself");
                        RayStep::Stop
                    });
                }
            });
        }
    });
    assert!(bvh.query_mirror_refreshes() >= 1);
}

/// A query callback that stops ends the traversal on the mirror path too.
#[test]
fn stop_ends_the_traversal() {
    let boxes: Vec<Aabb> = (0..50)
        .map(|i| boxed([i as Real, 0.0, 0.0], [i as Real + 0.5, 1.0, 1.0]))
        .collect();
    let (bvh, _) = tree(&boxes, BvhConfig::default(), false);
    assert!(bvh.prepare_queries());
    let r = Ray::new(Point3::new(-1.0, 0.5, 0.5), Vector3::x(), Real::INFINITY).unwrap();
    let mut n = 0;
    bvh.cast_ray(&r, |_, _| {
        n += 1;
        RayStep::Stop
    });
    assert_eq!(n, 1);
    let mut m = 0;
    bvh.query_aabb(&boxed([-10.0; 3], [100.0; 3]), |_| {
        m += 1;
        Visit::Stop
    });
    assert_eq!(m, 1);
}

/// The slots a candidate cast hands to its callback, sorted: `cast(f)` runs one cast with `f`.
fn sorted_slots(cast: impl FnOnce(&mut dyn FnMut(u32, Real) -> RayStep)) -> Vec<u32> {
    let mut got = Vec::new();
    cast(&mut |slot, _| {
        got.push(slot);
        RayStep::Continue
    });
    got.sort_unstable();
    got
}

/// The candidates of `caster` for `ray`, sorted.
fn caster_candidates(caster: &sepax_broadphase::bvh::RayCaster<'_>, ray: &Ray) -> Vec<u32> {
    sorted_slots(|f| {
        caster.cast_ray_candidates(ray, f);
    })
}

/// A batch's caster gives the tree's own candidates whether it holds the mirror or walks the
/// binary tree; it refreshes a stale mirror only when its casts together pass the refresh
/// rule; an empty tree gives nothing.
#[test]
fn ray_caster_matches_the_tree_and_counts_its_casts() {
    let empty = DynamicBvh::default();
    let r = Ray::new(Point3::origin(), Vector3::x(), Real::INFINITY).unwrap();
    assert!(caster_candidates(&empty.ray_caster(1000), &r).is_empty());

    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let boxes = random_boxes(&mut rng, 3000, 20.0, (0.1, 0.5));
    let (bvh, _) = tree(&boxes, BvhConfig::default(), false);
    let stored = stored(&bvh);
    let world = boxed([-20.0; 3], [20.0; 3]);
    let rs = rays(&mut rng, &stored, &world, 40);
    let want = |ray: &Ray| {
        sorted_slots(|f| {
            bvh.cast_ray_candidates(ray, f);
        })
    };
    // Stale mirror, a small batch: the binary walk, no refresh.
    let before = bvh.query_mirror_refreshes();
    {
        let small = bvh.ray_caster(2);
        for r in &rs {
            let got = caster_candidates(&small, r);
            // Every true hit is a candidate.
            for (id, _) in brute_all(&stored, r) {
                assert!(got.contains(&id.index), "{id:?} missing for {r:?}");
            }
        }
    }
    assert_eq!(bvh.query_mirror_refreshes(), before);
    // A batch as large as the refresh rule's threshold refreshes the mirror once.
    let big = bvh.ray_caster(boxes.len());
    assert_eq!(bvh.query_mirror_refreshes(), before + 1);
    for r in &rs {
        assert_eq!(caster_candidates(&big, r), want(r), "{r:?}");
    }
}
