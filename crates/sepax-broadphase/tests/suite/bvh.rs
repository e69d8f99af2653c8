//! Differential and property tests of the dynamic BVH: every mutation is followed by the
//! validator, and every query is compared with brute force over the stored (fat) boxes, and
//! `update_pairs` over the tight boxes (exact pairs, the default) or the stored ones.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_broadphase::bvh::{BvhConfig, DynamicBvh, RayStep, UpdateMode, Walk};
use sepax_broadphase::{BroadPhase, ProxyId, Visit};
use sepax_narrowphase::intersect::{classify, Classification};
use sepax_shapes::math::{Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Obb, Ray, Sphere};

type Pair = (ProxyId, ProxyId);

fn aabb(c: [f64; 3], h: [f64; 3]) -> Aabb {
    let c = Point3::new(c[0] as Real, c[1] as Real, c[2] as Real);
    let h = Vector3::new(h[0] as Real, h[1] as Real, h[2] as Real);
    Aabb::from_center_half_extents(c, h).unwrap()
}

fn overlaps(a: &Aabb, b: &Aabb) -> bool {
    (0..3).all(|k| a.min()[k] <= b.max()[k] && b.min()[k] <= a.max()[k])
}

/// The live proxies of a tree with their stored boxes (the oracle's view).
fn stored(bvh: &DynamicBvh) -> Vec<(ProxyId, Aabb)> {
    bvh.proxies()
        .map(|id| (id, bvh.stored_aabb(id).unwrap()))
        .collect()
}

/// The boxes `update_pairs` is defined on: the tight ones for exact pairs, else the stored ones.
fn pair_boxes(bvh: &DynamicBvh) -> Vec<(ProxyId, Aabb)> {
    if bvh.config().exact_pairs {
        bvh.proxies()
            .map(|id| (id, bvh.tight_aabb(id).unwrap()))
            .collect()
    } else {
        stored(bvh)
    }
}

fn brute_pairs(boxes: &[(ProxyId, Aabb)]) -> Vec<Pair> {
    let mut out = Vec::new();
    for (i, (a, ba)) in boxes.iter().enumerate() {
        for (b, bb) in &boxes[i + 1..] {
            if overlaps(ba, bb) {
                out.push(((*a).min(*b), (*a).max(*b)));
            }
        }
    }
    out.sort();
    out
}

fn collect(f: impl FnOnce(&mut dyn FnMut(ProxyId) -> Visit)) -> Vec<ProxyId> {
    let mut v = Vec::new();
    f(&mut |id| {
        v.push(id);
        Visit::Continue
    });
    v.sort();
    v
}

/// Checks every query of `bvh` against brute force, with query shapes drawn from `rng`.
fn check_queries(bvh: &DynamicBvh, rng: &mut ChaCha8Rng, scale: f64) {
    let boxes = stored(bvh);
    let mut r = |lo: f64, hi: f64| rng.random_range(lo..hi);
    for _ in 0..4 {
        // Boxes.
        let q = aabb(
            [r(-scale, scale), r(-scale, scale), r(-scale, scale)],
            [
                r(0.0, scale / 2.0),
                r(0.0, scale / 2.0),
                r(0.0, scale / 2.0),
            ],
        );
        let got = collect(|f| {
            bvh.query_aabb(&q, f);
        });
        let want: Vec<_> = boxes
            .iter()
            .filter(|(_, b)| overlaps(b, &q))
            .map(|p| p.0)
            .collect();
        assert_eq!(got, want, "query_aabb {q:?}");
        // Through the trait object as well.
        let dynbp: &dyn BroadPhase = bvh;
        let got = collect(|f| {
            dynbp.query_aabb(&q, f);
        });
        assert_eq!(got, want, "dyn query_aabb");

        // Spheres.
        let s = Sphere::new(
            Point3::new(
                r(-scale, scale) as Real,
                r(-scale, scale) as Real,
                r(-scale, scale) as Real,
            ),
            r(0.0, scale / 2.0) as Real,
        )
        .unwrap();
        let got = collect(|f| {
            bvh.query_sphere(&s, f);
        });
        let want: Vec<_> = boxes
            .iter()
            .filter(|(_, b)| b.distance_squared_to_point(&s.center()) <= s.radius() * s.radius())
            .map(|p| p.0)
            .collect();
        assert_eq!(got, want, "query_sphere {s:?}");

        // OBBs: never miss a certified overlap, never report a certified separation.
        let rot = UnitQuaternion::from_euler_angles(
            r(-3.0, 3.0) as Real,
            r(-3.0, 3.0) as Real,
            r(-3.0, 3.0) as Real,
        );
        let obb = Obb::from_rotation(
            Point3::new(
                r(-scale, scale) as Real,
                r(-scale, scale) as Real,
                r(-scale, scale) as Real,
            ),
            rot,
            Vector3::new(
                r(0.0, scale / 2.0) as Real,
                r(0.0, scale / 2.0) as Real,
                r(0.0, scale / 2.0) as Real,
            ),
        )
        .unwrap();
        let got = collect(|f| {
            bvh.query_by(|b| classify(b, &obb) != Classification::Separated, f);
        });
        for (id, b) in &boxes {
            match classify(b, &obb) {
                Classification::Overlapping => assert!(got.contains(id), "obb missed {id:?}"),
                Classification::Separated => assert!(!got.contains(id), "obb false {id:?}"),
                Classification::Uncertain => {}
            }
        }

        // Rays: all hits and the closest hit.
        let dir = Vector3::new(
            r(-1.0, 1.0) as Real,
            r(-1.0, 1.0) as Real,
            r(-1.0, 1.0) as Real,
        );
        let dir = if dir.amax() == 0.0 { Vector3::x() } else { dir };
        let max = if r(0.0, 1.0) < 0.5 {
            Real::INFINITY
        } else {
            r(0.0, 3.0 * scale) as Real
        };
        let ray = Ray::new(
            Point3::new(
                r(-scale, scale) as Real,
                r(-scale, scale) as Real,
                r(-scale, scale) as Real,
            ),
            dir,
            max,
        )
        .unwrap();
        let mut want: Vec<(ProxyId, Real)> = boxes
            .iter()
            .filter_map(|(id, b)| b.cast_ray(&ray).map(|h| (*id, h.distance)))
            .collect();
        want.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        let mut got = Vec::new();
        bvh.cast_ray_all(&ray, &mut got);
        assert_eq!(got, want, "cast_ray_all {ray:?}");
        assert_eq!(
            bvh.cast_ray_closest(&ray),
            want.first().copied(),
            "closest {ray:?}"
        );
    }
    // Self pairs through the traversal, and the walk visiting every leaf.
    let mut sp = Vec::new();
    bvh.self_pairs(|a, b| {
        assert!(a < b);
        sp.push((a, b));
        Visit::Continue
    });
    sp.sort();
    assert_eq!(sp, brute_pairs(&boxes), "self_pairs");
    let mut leaves = 0;
    bvh.walk(|id, _| {
        leaves += id.is_some() as usize;
        Walk::Continue
    });
    assert_eq!(leaves, bvh.len());
}

#[derive(Debug, Clone)]
enum Op {
    Insert { c: [f64; 3], h: [f64; 3], kind: u8 },
    Remove(usize),
    Move { k: usize, d: [f64; 3], grow: f64 },
    MoveAll { d: [f64; 3], grow: f64 },
    Frame,
    Rebuild,
}

fn op() -> impl Strategy<Value = Op> {
    let v3 = |lo: f64, hi: f64| [lo..hi, lo..hi, lo..hi];
    prop_oneof![
        4 => (v3(-20.0, 20.0), v3(0.0, 4.0), 0u8..8).prop_map(|(c, h, kind)| Op::Insert { c, h, kind }),
        1 => (0usize..1000).prop_map(Op::Remove),
        4 => (0usize..1000, v3(-3.0, 3.0), 0.0..2.0f64).prop_map(|(k, d, grow)| Op::Move { k, d, grow }),
        2 => (v3(-3.0, 3.0), 0.5..1.5f64).prop_map(|(d, grow)| Op::MoveAll { d, grow }),
        2 => Just(Op::Frame),
        1 => Just(Op::Rebuild),
    ]
}

/// A degenerate-leaning box: `kind` 0 a point, 1 the same unit box every time, 2 a huge box,
/// 3 a tiny box, otherwise as drawn.
fn shaped(c: [f64; 3], h: [f64; 3], kind: u8) -> Aabb {
    match kind {
        0 => aabb(c, [0.0; 3]),
        1 => aabb([1.0, 2.0, 3.0], [1.0; 3]),
        2 => aabb(c, [1e4; 3]),
        3 => aabb(c, [1e-6; 3]),
        _ => aabb(c, h),
    }
}

fn run_scenario(config: BvhConfig, ops: &[Op], seed: u64, offset: f64) {
    let mut bvh = DynamicBvh::new(config).unwrap();
    let mut live: Vec<(ProxyId, u64)> = Vec::new();
    let mut dead: Vec<ProxyId> = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut next_user = 0u64;
    let shift = |c: [f64; 3]| [c[0] + offset, c[1] + offset, c[2] - offset];
    for op in ops {
        match op {
            Op::Insert { c, h, kind } => {
                let b = shaped(shift(*c), *h, *kind);
                let id = bvh.insert(b, next_user);
                assert_eq!(bvh.tight_aabb(id), Some(b));
                live.push((id, next_user));
                next_user += 1;
            }
            Op::Remove(k) if !live.is_empty() => {
                let (id, _) = live.swap_remove(k % live.len());
                assert!(bvh.remove(id));
                assert!(!bvh.remove(id), "double remove accepted");
                dead.push(id);
            }
            Op::Move { k, d, grow } if !live.is_empty() => {
                let (id, _) = live[k % live.len()];
                let old = bvh.tight_aabb(id).unwrap();
                let dv = Vector3::new(d[0] as Real, d[1] as Real, d[2] as Real);
                let b = Aabb::from_center_half_extents(
                    old.center() + dv,
                    old.half_extents() * (*grow as Real),
                )
                .unwrap();
                let fat_before = bvh.stored_aabb(id).unwrap();
                assert!(bvh.update(id, b, dv));
                let fat_after = bvh.stored_aabb(id).unwrap();
                if fat_before.contains_aabb(&b) {
                    assert_eq!(
                        fat_before, fat_after,
                        "a contained move changed the fat box"
                    );
                }
                assert!(fat_after.contains_aabb(&b));
            }
            Op::MoveAll { d, grow } => move_all(&mut bvh, &live, &dead, *d, *grow, &mut rng),
            Op::Frame => {
                bvh.update_pairs(&mut out);
                let want = brute_pairs(&pair_boxes(&bvh));
                assert_eq!(out, want, "update_pairs");
                check_queries(&bvh, &mut rng, 25.0);
            }
            Op::Rebuild => {
                let before = stored(&bvh);
                bvh.rebuild();
                assert_eq!(stored(&bvh), before, "rebuild changed a leaf");
            }
            _ => {}
        }
        bvh.validate()
            .unwrap_or_else(|e| panic!("after {op:?}: {e}"));
        assert_eq!(bvh.len(), live.len());
        for (id, user) in &live {
            assert_eq!(bvh.user(*id), Some(*user));
        }
        for id in &dead {
            assert_eq!(bvh.user(*id), None, "stale handle accepted");
            assert_eq!(bvh.stored_aabb(*id), None);
            assert!(!bvh.update(*id, aabb([0.0; 3], [1.0; 3]), Vector3::zeros()));
        }
    }
    bvh.update_pairs(&mut out);
    assert_eq!(out, brute_pairs(&pair_boxes(&bvh)));
    bvh.validate().unwrap();
}

/// Moves every live proxy with one `update_many` (each by its own fraction of `d`; the first
/// proxy listed twice, stale handles mixed in), then checks the boxes and the queries before
/// any `update_pairs`: the batch leaves the tree as queryable as one-by-one updates.
fn move_all(
    bvh: &mut DynamicBvh,
    live: &[(ProxyId, u64)],
    dead: &[ProxyId],
    d: [f64; 3],
    grow: f64,
    rng: &mut ChaCha8Rng,
) {
    let mut batch = Vec::new();
    let mut fat_before = Vec::new();
    for (j, (id, _)) in live.iter().enumerate() {
        let old = bvh.tight_aabb(*id).unwrap();
        let f = ((j % 7) as f64 - 3.0) / 3.0;
        let dv = Vector3::new((d[0] * f) as Real, (d[1] * f) as Real, (d[2] * f) as Real);
        let b =
            Aabb::from_center_half_extents(old.center() + dv, old.half_extents() * grow as Real)
                .unwrap();
        batch.push((*id, b, dv));
        fat_before.push(bvh.stored_aabb(*id).unwrap());
    }
    let moved = batch.len();
    if let Some(&first) = batch.first() {
        batch.push(first);
    }
    let stale = aabb([0.0; 3], [1.0; 3]);
    batch.extend(dead.iter().map(|&id| (id, stale, Vector3::zeros())));
    let want = moved + usize::from(moved > 0);
    assert_eq!(bvh.update_many(batch.iter().copied()), want);
    for (k, (id, b, _)) in batch[..moved].iter().enumerate() {
        assert_eq!(bvh.tight_aabb(*id), Some(*b));
        let fat = bvh.stored_aabb(*id).unwrap();
        assert!(
            fat.contains_aabb(b),
            "proxy {k}: fat box misses the tight box"
        );
        if fat_before[k].contains_aabb(b) {
            assert_eq!(
                fat, fat_before[k],
                "proxy {k}: a contained move changed the fat box"
            );
        }
    }
    bvh.validate().unwrap();
    check_queries(bvh, rng, 25.0);
}

fn configs() -> impl Strategy<Value = BvhConfig> {
    (
        0u8..4,
        prop_oneof![Just(0.0), Just(0.1), Just(1.0)],
        prop_oneof![Just(0.0), Just(0.25), Just(Real::INFINITY)],
        any::<bool>(),
    )
        .prop_map(|(k, margin, full, exact)| BvhConfig {
            margin: margin as Real,
            prediction: if k & 1 == 0 { 0.0 } else { 2.0 },
            rebuild_ratio: if k & 2 == 0 { 1.0 } else { Real::INFINITY },
            rebuild_min_proxies: 4,
            update_mode: if k < 2 {
                UpdateMode::Reinsert
            } else {
                UpdateMode::Enlarge
            },
            full_rebuild_fraction: full,
            exact_pairs: exact,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_scenes_match_brute_force(
        config in configs(),
        ops in prop::collection::vec(op(), 1..160),
        seed in any::<u64>(),
    ) {
        run_scenario(config, &ops, seed, 0.0);
    }

    #[test]
    fn far_from_origin(
        config in configs(),
        ops in prop::collection::vec(op(), 1..80),
        seed in any::<u64>(),
    ) {
        run_scenario(config, &ops, seed, 1e6);
    }
}

/// Many frames of many moving proxies (a deterministic soak): every frame against brute force.
#[test]
fn soak_many_frames() {
    for mode in [UpdateMode::Reinsert, UpdateMode::Enlarge] {
        let config = BvhConfig {
            update_mode: mode,
            ..BvhConfig::default()
        };
        let mut bvh = DynamicBvh::new(config).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut ids = Vec::new();
        let mut vel = Vec::new();
        for u in 0..300 {
            let c = [
                rng.random_range(-30.0..30.0),
                rng.random_range(-30.0..30.0),
                rng.random_range(-30.0..30.0),
            ];
            let h = [
                rng.random_range(0.1..1.5),
                rng.random_range(0.1..1.5),
                rng.random_range(0.1..1.5),
            ];
            ids.push(bvh.insert(aabb(c, h), u));
            vel.push(Vector3::new(
                rng.random_range(-0.5..0.5) as Real,
                rng.random_range(-0.5..0.5) as Real,
                rng.random_range(-0.5..0.5) as Real,
            ));
        }
        let mut out = Vec::new();
        for frame in 0..40 {
            // Odd frames move everything in one batch, even frames one by one.
            let mut batch = Vec::new();
            for (i, id) in ids.iter_mut().enumerate() {
                let old = bvh.tight_aabb(*id).unwrap();
                let b = Aabb::from_center_half_extents(old.center() + vel[i], old.half_extents())
                    .unwrap();
                if frame % 2 == 1 {
                    batch.push((*id, b, vel[i]));
                } else {
                    assert!(bvh.update(*id, b, vel[i]));
                }
            }
            assert_eq!(bvh.update_many(batch.iter().copied()), batch.len());
            bvh.validate().unwrap();
            // Churn: replace a few proxies each frame.
            for _ in 0..5 {
                let k = rng.random_range(0..ids.len());
                let b = bvh.tight_aabb(ids[k]).unwrap();
                assert!(bvh.remove(ids[k]));
                ids[k] = bvh.insert(b, 1000 + frame);
            }
            bvh.validate().unwrap();
            bvh.update_pairs(&mut out);
            assert_eq!(out, brute_pairs(&pair_boxes(&bvh)), "frame {frame}");
            bvh.validate().unwrap();
            if frame % 10 == 0 {
                check_queries(&bvh, &mut rng, 35.0);
            }
        }
        assert!(
            bvh.rebuild_count() >= 1,
            "the first update_pairs builds the reference"
        );
        assert!(bvh.height() < 40, "height {} for 300 leaves", bvh.height());
    }
}

#[test]
fn degenerate_inputs() {
    // All identical, all on one point, huge and tiny mixed, around 1e6.
    let sets: Vec<Vec<Aabb>> = vec![
        (0..200).map(|_| aabb([1.0, 2.0, 3.0], [0.5; 3])).collect(),
        (0..200).map(|_| aabb([4.0, 4.0, 4.0], [0.0; 3])).collect(),
        (0..200)
            .map(|i| {
                let h = if i % 3 == 0 { 1e5 } else { 1e-5 };
                aabb([(i as f64) * 0.7, 0.0, -(i as f64)], [h; 3])
            })
            .collect(),
        (0..200)
            .map(|i| {
                aabb(
                    [1e6 + (i % 17) as f64, 1e6 - (i / 17) as f64, -1e6],
                    [0.75; 3],
                )
            })
            .collect(),
    ];
    for (n, set) in sets.iter().enumerate() {
        for margin in [0.0, 0.1] {
            let mut bvh = DynamicBvh::new(BvhConfig {
                margin,
                rebuild_min_proxies: 2,
                ..BvhConfig::default()
            })
            .unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
            let ids: Vec<_> = set
                .iter()
                .enumerate()
                .map(|(u, b)| {
                    let id = bvh.insert(*b, u as u64);
                    bvh.validate().unwrap();
                    id
                })
                .collect();
            let mut out = Vec::new();
            bvh.update_pairs(&mut out);
            assert_eq!(out, brute_pairs(&pair_boxes(&bvh)), "set {n}");
            check_queries(&bvh, &mut rng, 10.0);
            bvh.rebuild();
            bvh.validate().unwrap();
            check_queries(&bvh, &mut rng, 10.0);
            for id in ids.iter().step_by(2) {
                assert!(bvh.remove(*id));
                bvh.validate().unwrap();
            }
            bvh.update_pairs(&mut out);
            assert_eq!(
                out,
                brute_pairs(&pair_boxes(&bvh)),
                "set {n} after removals"
            );
        }
    }
}

#[test]
fn coordinates_near_real_max_stay_finite() {
    let mut bvh = DynamicBvh::default();
    let big = Real::MAX / 2.0;
    let b = Aabb::new(Point3::new(-big, -big, -big), Point3::new(big, big, big)).unwrap();
    let a = bvh.insert(b, 0);
    let c = bvh.insert(b, 1);
    let huge = Vector3::new(Real::MAX, -Real::MAX, Real::INFINITY);
    assert!(bvh.update(
        a,
        Aabb::new(
            Point3::new(-Real::MAX, -big, -big),
            Point3::new(big, big, Real::MAX)
        )
        .unwrap(),
        huge
    ));
    let fat = bvh.stored_aabb(a).unwrap();
    assert!((0..3).all(|k| fat.min()[k].is_finite() && fat.max()[k].is_finite()));
    bvh.validate().unwrap();
    let mut out = Vec::new();
    bvh.update_pairs(&mut out);
    assert_eq!(out, vec![(a, c)]);
    bvh.rebuild();
    bvh.validate().unwrap();
}

#[test]
fn stale_handles_are_rejected() {
    let mut bvh = DynamicBvh::default();
    let a = bvh.insert(aabb([0.0; 3], [1.0; 3]), 10);
    assert!(bvh.remove(a));
    let b = bvh.insert(aabb([0.0; 3], [1.0; 3]), 11);
    assert_eq!(a.index, b.index, "the slot is reused");
    assert_ne!(a, b);
    assert_eq!(bvh.user(a), None);
    assert_eq!(bvh.user(b), Some(11));
    assert!(!bvh.remove(a));
    assert!(!bvh.update(a, aabb([5.0; 3], [1.0; 3]), Vector3::zeros()));
    let unknown = ProxyId {
        index: 99,
        generation: 0,
    };
    assert_eq!(bvh.stored_aabb(unknown), None);
    assert!(!bvh.remove(unknown));
    bvh.validate().unwrap();
}

#[test]
fn small_moves_do_not_touch_the_tree() {
    let mut bvh = DynamicBvh::default();
    let a = bvh.insert(aabb([0.0; 3], [1.0; 3]), 0);
    let b = bvh.insert(aabb([5.0, 0.0, 0.0], [1.0; 3]), 1);
    let mut out = Vec::new();
    bvh.update_pairs(&mut out);
    assert!(out.is_empty());
    let fat = bvh.stored_aabb(a).unwrap();
    assert!(bvh.update(a, aabb([0.05, 0.0, 0.0], [1.0; 3]), Vector3::zeros()));
    assert_eq!(bvh.stored_aabb(a).unwrap(), fat);
    // Leaving the fat box moves the proxy, with the predicted displacement ahead of it.
    let d = Vector3::new(1.0, 0.0, 0.0);
    assert!(bvh.update(a, aabb([3.0, 0.0, 0.0], [1.0; 3]), d));
    let fat = bvh.stored_aabb(a).unwrap();
    let c = BvhConfig::default();
    assert_eq!(fat.max().x, 4.0 + c.margin + c.prediction);
    assert_eq!(fat.min().x, 2.0 - c.margin);
    bvh.update_pairs(&mut out);
    assert_eq!(out, vec![(a, b)]);
    // Pairs persist across frames where nothing moves, and disappear with a removal.
    bvh.update_pairs(&mut out);
    assert_eq!(out, vec![(a, b)]);
    assert!(bvh.remove(b));
    bvh.update_pairs(&mut out);
    assert!(out.is_empty());
}

#[test]
fn ray_clip_and_stop() {
    let mut bvh = DynamicBvh::new(BvhConfig {
        margin: 0.0,
        ..BvhConfig::default()
    })
    .unwrap();
    let ids: Vec<_> = (0..20)
        .map(|i| bvh.insert(aabb([2.0 * i as f64, 0.0, 0.0], [0.5; 3]), i))
        .collect();
    let ray = Ray::new(Point3::new(-10.0, 0.0, 0.0), Vector3::x(), Real::INFINITY).unwrap();
    assert_eq!(bvh.cast_ray_closest(&ray), Some((ids[0], 9.5)));
    let mut all = Vec::new();
    bvh.cast_ray_all(&ray, &mut all);
    assert_eq!(all.len(), 20);
    // Clipping at 15 keeps only boxes entered at t <= 15 (x <= 5: boxes 0..=2).
    let mut seen = Vec::new();
    bvh.cast_ray(&ray, |id, t| {
        seen.push(id);
        assert!(t <= 15.0);
        RayStep::Clip(15.0)
    });
    assert!(seen.len() <= 4);
    let mut n = 0;
    bvh.cast_ray(&ray, |_, _| {
        n += 1;
        RayStep::Stop
    });
    assert_eq!(n, 1);
    // Origin inside a box: distance 0.
    let inside = Ray::new(Point3::new(0.0, 0.0, 0.0), Vector3::y(), 1.0).unwrap();
    assert_eq!(bvh.cast_ray_closest(&inside), Some((ids[0], 0.0)));
}

#[test]
fn pairs_between_two_trees() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut a = DynamicBvh::default();
    let mut b = DynamicBvh::new(BvhConfig {
        margin: 0.0,
        ..BvhConfig::default()
    })
    .unwrap();
    for u in 0..150 {
        let mut r = || rng.random_range(-10.0..10.0);
        a.insert(aabb([r(), r(), r()], [0.7; 3]), u);
        b.insert(aabb([r(), r(), r()], [0.4, 1.0, 0.2]), u);
    }
    let (sa, sb) = (stored(&a), stored(&b));
    let mut want = Vec::new();
    for (ia, ba) in &sa {
        for (ib, bb) in &sb {
            if overlaps(ba, bb) {
                want.push((*ia, *ib));
            }
        }
    }
    want.sort();
    let mut got = Vec::new();
    let stats = a.pairs_with(&b, |x, y| {
        got.push((x, y));
        Visit::Continue
    });
    got.sort();
    assert_eq!(got, want);
    assert_eq!(stats.hits, want.len());
    let mut n = 0;
    a.pairs_with(&b, |_, _| {
        n += 1;
        Visit::Stop
    });
    assert_eq!(n, 1.min(want.len()));
    assert_eq!(
        a.pairs_with(&DynamicBvh::default(), |_, _| Visit::Continue)
            .hits,
        0
    );
}

#[test]
fn walk_prunes_and_stops() {
    let mut bvh = DynamicBvh::default();
    for i in 0..64 {
        bvh.insert(aabb([i as f64, 0.0, 0.0], [0.25; 3]), i);
    }
    let mut leaves = 0;
    let stats = bvh.walk(|id, _| {
        leaves += id.is_some() as usize;
        Walk::Prune
    });
    assert_eq!((leaves, stats.nodes_visited), (0, 1));
    let mut leaves = 0;
    bvh.walk(|id, _| {
        leaves += id.is_some() as usize;
        if leaves == 3 {
            Walk::Stop
        } else {
            Walk::Continue
        }
    });
    assert_eq!(leaves, 3);
}

#[test]
fn config_is_checked() {
    assert!(BvhConfig::default().check().is_ok());
    let bad = |c: BvhConfig| DynamicBvh::new(c).unwrap_err().field;
    let d = BvhConfig::default();
    assert_eq!(bad(BvhConfig { margin: -1.0, ..d }), "margin");
    assert_eq!(
        bad(BvhConfig {
            margin: Real::NAN,
            ..d
        }),
        "margin"
    );
    assert_eq!(
        bad(BvhConfig {
            prediction: Real::INFINITY,
            ..d
        }),
        "prediction"
    );
    assert_eq!(
        bad(BvhConfig {
            full_rebuild_fraction: Real::NAN,
            ..d
        }),
        "full_rebuild_fraction"
    );
    assert_eq!(
        bad(BvhConfig {
            full_rebuild_fraction: -0.5,
            ..d
        }),
        "full_rebuild_fraction"
    );
    assert_eq!(
        bad(BvhConfig {
            rebuild_ratio: 0.5,
            ..d
        }),
        "rebuild_ratio"
    );
    assert_eq!(
        bad(BvhConfig {
            rebuild_ratio: Real::NAN,
            ..d
        }),
        "rebuild_ratio"
    );
}

#[test]
fn rebuild_trigger_and_quality() {
    // Insert in a sorted sweep (a bad order for incremental insertion), then check the SAH
    // trigger rebuilds and the rebuild does not make the tree worse.
    let mut bvh = DynamicBvh::new(BvhConfig {
        rebuild_min_proxies: 8,
        ..BvhConfig::default()
    })
    .unwrap();
    for i in 0..500 {
        bvh.insert(aabb([(i % 50) as f64, (i / 50) as f64, 0.0], [0.3; 3]), i);
    }
    let incremental = bvh.sah_cost();
    bvh.rebuild();
    let built = bvh.sah_cost();
    bvh.validate().unwrap();
    assert!(
        built <= incremental * 1.5,
        "built {built} vs incremental {incremental}"
    );
    assert!(bvh.height() <= 24, "height {}", bvh.height());
    let mut out = Vec::new();
    bvh.update_pairs(&mut out);
    let n = bvh.rebuild_count();
    // Scatter everything: the cost rises far above the built cost, so the next call rebuilds.
    let ids: Vec<_> = bvh.proxies().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for id in ids {
        let mut r = || rng.random_range(-200.0..200.0);
        let big = aabb([r(), r(), r()], [rng.random_range(0.0..30.0); 3]);
        bvh.update(id, big, Vector3::zeros());
    }
    let before = bvh.sah_cost();
    bvh.update_pairs(&mut out);
    bvh.validate().unwrap();
    assert_eq!(out, brute_pairs(&pair_boxes(&bvh)));
    if before > 1.5 * built {
        assert_eq!(bvh.rebuild_count(), n + 1);
    }
}

/// Bulk loading gives a valid tree with the same pairs as brute force, answers every query
/// like the tree built one insertion at a time, and mixes with later single insertions.
#[test]
fn insert_many_matches_incremental_insertion() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let boxes: Vec<(Aabb, u64)> = (0..2000)
        .map(|u| {
            let c = [0; 3].map(|_| rng.random_range(-20.0..20.0));
            let h = [0; 3].map(|_| rng.random_range(0.0..1.5));
            (aabb(c, h), u)
        })
        .collect();
    let mut bulk = DynamicBvh::default();
    let mut ids = Vec::new();
    bulk.insert_many(boxes.iter().copied(), &mut ids);
    bulk.validate().unwrap();
    assert_eq!(ids.len(), boxes.len());
    assert_eq!(bulk.len(), boxes.len());
    let mut one_by_one = DynamicBvh::default();
    for &(b, u) in &boxes {
        one_by_one.insert(b, u);
    }
    let (mut p1, mut p2) = (Vec::new(), Vec::new());
    bulk.update_pairs(&mut p1);
    one_by_one.update_pairs(&mut p2);
    assert_eq!(p1, brute_pairs(&pair_boxes(&bulk)));
    assert_eq!(p1, p2, "same handles, same boxes, same pairs");
    check_queries(&bulk, &mut rng, 20.0);
    // Later single insertions and a second bulk load keep everything consistent.
    for u in 0..100 {
        let c = [0; 3].map(|_| rng.random_range(-20.0..20.0));
        bulk.insert(aabb(c, [0.5; 3]), 10_000 + u);
        bulk.validate().unwrap();
    }
    bulk.insert_many(boxes.iter().take(300).copied(), &mut ids);
    bulk.validate().unwrap();
    bulk.update_pairs(&mut p1);
    assert_eq!(p1, brute_pairs(&pair_boxes(&bulk)));
}

/// The whole-tree pair search tests its flat runs in lanes, and the incremental one walks the
/// tree for several moved proxies at once in lanes (AVX where the CPU has it): the portable
/// build and the detected one find the same pairs as brute force, on dense clusters
/// (runs full of pairs), boxes touching exactly at a face or corner (closed sets), identical
/// boxes and run lengths that are no multiple of the lane count.
#[test]
fn lane_and_portable_sweeps_agree() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mut trees = [DynamicBvh::default(), DynamicBvh::default()];
    let mut ids: Vec<[ProxyId; 2]> = Vec::new();
    let mut boxes = Vec::new();
    for u in 0..700u64 {
        let b = match u % 7 {
            // Unit cubes on the integer lattice: neighbours touch exactly.
            0 | 1 => {
                let c = [0; 3].map(|_| rng.random_range(0..6) as f64);
                aabb([c[0] + 0.5, c[1] + 0.5, c[2] + 0.5], [0.5; 3])
            }
            // The same box many times.
            2 => aabb([3.0, 3.0, 3.0], [0.25, 0.25, 0.25]),
            _ => {
                let c = [0; 3].map(|_| rng.random_range(-2.0..8.0));
                let h = [0; 3].map(|_| rng.random_range(0.05..0.9));
                aabb(c, h)
            }
        };
        ids.push([trees[0].insert(b, u), trees[1].insert(b, u)]);
        boxes.push(b);
    }
    let (mut lanes, mut portable) = (Vec::new(), Vec::new());
    // A third of the proxies move each frame for the first frames (the whole-tree search),
    // one in 50 after (the incremental search's packet walks).
    for frame in 0..24 {
        let every = if frame < 12 { 3 } else { 50 };
        for (k, id) in ids.iter().enumerate() {
            if (k + frame) % every == 0 {
                let d = [0; 3].map(|_| rng.random_range(-0.3..0.3) as Real);
                let b = Aabb::from_center_half_extents(
                    boxes[k].center() + Vector3::new(d[0], d[1], d[2]),
                    boxes[k].half_extents(),
                )
                .unwrap();
                boxes[k] = b;
                for (t, tree) in trees.iter_mut().enumerate() {
                    assert!(tree.update(id[t], b, Vector3::zeros()));
                }
            }
        }
        trees[0].update_pairs(&mut lanes);
        #[cfg(target_arch = "x86_64")]
        sepax_simd::force_portable(true);
        trees[1].update_pairs(&mut portable);
        #[cfg(target_arch = "x86_64")]
        sepax_simd::force_portable(false);
        assert!(!lanes.is_empty());
        assert_eq!(lanes, portable, "frame {frame}");
        assert_eq!(lanes, brute_pairs(&pair_boxes(&trees[0])), "frame {frame}");
    }
}
