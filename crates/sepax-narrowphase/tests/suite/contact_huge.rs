//! Box–box contacts of boxes near the top of the range (`±3e38`, and near `Real::MAX` in each
//! build) hold finite numbers only: the depth is finite where the true depth is representable
//! (and `Real::MAX` where it is not), the points are finite and on the boxes. A pair beyond the
//! direct arithmetic's limits is computed scaled by a power of two, so its manifold is exactly
//! the manifold of the same pair scaled into the ordinary range, scaled back: checked bit for
//! bit on the adversarial categories of the box suites, through the single call, the batch,
//! `box_box::least_penetration` and the dispatch on shape kinds.

// Real -> f64 casts (in `common`) are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;
use sepax_testkit::with_boxes;

use common::{manifold_bits as bits, AnyBox, Gen, CATEGORIES};
use sepax_narrowphase::contact::box_box;
use sepax_narrowphase::contact::{self, ContactConfig, ContactManifold};
use sepax_shapes::math::{Matrix3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Obb, Shape};

fn aabb(min: [Real; 3], max: [Real; 3]) -> Aabb {
    Aabb::new(Point3::from(min), Point3::from(max)).unwrap()
}

/// Every number of `m` finite, its normal unit, its points within `slack` of both boxes'
/// world AABBs.
fn check_finite(m: &ContactManifold, a: &Aabb, b: &Aabb, what: &str) {
    assert!(m.depth.is_finite(), "{what}: depth {}", m.depth);
    assert!(m.normal.iter().all(|x| x.is_finite()), "{what}: {m:?}");
    assert!(
        (m.normal.norm() - 1.0).abs() < 1e-5,
        "{what}: normal {:?}",
        m.normal
    );
    assert!(!m.points.is_empty(), "{what}");
    for p in &m.points {
        assert!(p.depth.is_finite(), "{what}: point depth {}", p.depth);
        for (q, bx) in [(p.point_a, a), (p.point_b, b)] {
            for k in 0..3 {
                assert!(q[k].is_finite(), "{what}: point {q:?}");
                let slack = 1e-5 * bx.max()[k].abs().max(bx.min()[k].abs());
                assert!(
                    q[k] >= bx.min()[k] - slack && q[k] <= bx.max()[k] + slack,
                    "{what}: point {q:?} off its box {bx:?}"
                );
            }
        }
    }
}

#[test]
fn aabbs_spanning_3e38_give_finite_manifolds() {
    let cfg = ContactConfig::default();
    let big = aabb([-3e38; 3], [3e38; 3]);
    let half = aabb([0.0, -3e38, -3e38], [3e38, 3e38, 3e38]);
    let corner = aabb([1e38, 2e38, -3e38], [3e38, 3e38, -2.5e38]);
    for (a, b, what) in [
        (&big, &half, "big-half"),
        (&half, &big, "half-big"),
        (&big, &corner, "big-corner"),
        (&corner, &half, "corner-half"),
    ] {
        let m = box_box::manifold(a, b, &cfg).expect(what);
        check_finite(&m, a, b, what);
        let p = box_box::least_penetration(a, b);
        assert!(p.depth.is_finite() && p.depth > 0.0, "{what}: {p:?}");
        assert_eq!(p.depth, m.depth, "{what}");
        // Through the dispatch on shape kinds, as the CLI calls it.
        let d = contact::contact_manifold_shapes(&Shape::Aabb(*a), &Shape::Aabb(*b), &cfg).unwrap();
        assert_eq!(bits(&d), bits(&m), "{what}: dispatch");
    }
    // The depth of big-half: half must move 3e38 along -x (or +x by 3e38) to leave big.
    let m = box_box::manifold(&big, &half, &cfg).unwrap();
    let want = 3e38 as Real;
    assert!((m.depth - want).abs() <= 1e-6 * want, "{}", m.depth);
    // Identical boxes spanning +-3e38 overlap by 6e38: beyond f32, reported as MAX there.
    let m = box_box::manifold(&big, &big, &cfg).unwrap();
    let want = (3e38 as Real) + (3e38 as Real);
    assert_eq!(m.depth, want.min(Real::MAX));
    check_finite(&m, &big, &big, "big-big");
}

#[test]
fn boxes_near_the_largest_finite_number_give_finite_manifolds() {
    let cfg = ContactConfig::with_margin(1.0);
    let m = Real::MAX;
    let whole = aabb([-m; 3], [m; 3]);
    let top = aabb([0.5 * m, -m, 0.25 * m], [m, 0.75 * m, m]);
    let inner = aabb([-0.5 * m, -0.5 * m, 0.5 * m], [-0.25 * m, 0.0, 0.875 * m]);
    let rot = UnitQuaternion::from_euler_angles(0.3, -0.2, 0.7);
    let obb = Obb::from_rotation(
        Point3::new(0.25 * m, 0.0, -0.25 * m),
        rot,
        Vector3::repeat(0.3 * m),
    )
    .unwrap();
    let obb_aabb = obb.world_aabb();
    for (a, b, what) in [
        (&whole, &top, "whole-top"),
        (&top, &inner, "top-inner"),
        (&inner, &whole, "inner-whole"),
        (&top, &top, "top-top"),
    ] {
        if let Some(mf) = box_box::manifold(a, b, &cfg) {
            check_finite(&mf, a, b, what);
        }
        let p = box_box::least_penetration(a, b);
        assert!(p.depth.is_finite(), "{what}: {p:?}");
        // An OBB against the AABB.
        if let Some(mf) = box_box::manifold(a, &obb, &cfg) {
            check_finite(&mf, a, &obb_aabb, &format!("{what} obb"));
        }
    }
    assert!(box_box::manifold(&whole, &top, &cfg).is_some());
    assert!(box_box::manifold(&whole, &obb, &cfg).is_some());
}

/// The exponent `e` with every coordinate of the pair's boxes below `2^e`.
fn magnitude_exp(a: &AnyBox, b: &AnyBox) -> i32 {
    let mut m: Real = 1.0;
    for x in [a, b] {
        let w = x.as_obb().world_aabb();
        for k in 0..3 {
            m = m.max(w.min()[k].abs()).max(w.max()[k].abs());
        }
    }
    (m as f64).log2().floor() as i32 + 1
}

/// `b` scaled by `f`, a power of two (exact).
fn scale_box(b: &AnyBox, f: Real) -> AnyBox {
    match b {
        AnyBox::A(x) => AnyBox::A(
            Aabb::new(
                Point3::from(x.min().coords * f),
                Point3::from(x.max().coords * f),
            )
            .unwrap(),
        ),
        AnyBox::O(x) => AnyBox::O(Obb::new_unchecked(
            Point3::from(x.center().coords * f),
            *x.axes(),
            x.half_extents() * f,
        )),
    }
}

fn scale_manifold(m: &ContactManifold, f: Real) -> ContactManifold {
    let mut m = m.clone();
    m.depth *= f;
    for p in &mut m.points {
        p.point_a.coords *= f;
        p.point_b.coords *= f;
        p.depth *= f;
    }
    m
}

/// The categories' pairs scaled up to the top of the range give exactly the scaled manifold of
/// the ordinary pair (power-of-two scaling commutes with every operation, barring subnormals,
/// which the ordinary sizes stay clear of).
#[test]
fn huge_pairs_are_the_ordinary_pairs_scaled() {
    let mut gen = Gen::new(0x3e38_3e38);
    // Scaled up to within 8 binades of the top of the range, 20 binades below it, and just past
    // the direct path's size limit.
    for margin in [0.0, 0.05] {
        for cat in CATEGORIES {
            for k in 0..80 {
                let (a, b) = gen.pair(cat);
                let top = Real::MAX_EXP - 1 - magnitude_exp(&a, &b);
                let e = [top - 8, top - 20, Real::MAX_EXP / 4 + 4][k % 3];
                let f = (2.0 as Real).powi(e);
                let (ha, hb) = (scale_box(&a, f), scale_box(&b, f));
                let (cfg, big_cfg) = (
                    ContactConfig::with_margin(margin),
                    ContactConfig::with_margin(margin * f),
                );
                let small = with_boxes!(&a, &b, |x, y| box_box::manifold(x, y, &cfg));
                let big = with_boxes!(&ha, &hb, |x, y| box_box::manifold(x, y, &big_cfg));
                assert_eq!(
                    big.as_ref().map(bits),
                    small.as_ref().map(|m| bits(&scale_manifold(m, f))),
                    "{cat:?} x 2^{e}: a={a:?} b={b:?}"
                );
                if let Some(m) = &big {
                    assert!(m.depth.is_finite() && m.normal.iter().all(|x| x.is_finite()));
                }
                let (ps, pb) = (
                    with_boxes!(&a, &b, |x, y| box_box::least_penetration(x, y)),
                    with_boxes!(&ha, &hb, |x, y| box_box::least_penetration(x, y)),
                );
                assert_eq!(pb.depth.to_bits(), (ps.depth * f).to_bits(), "{cat:?}");
                assert_eq!(pb.normal, ps.normal, "{cat:?}");
                assert_eq!(pb.axis, ps.axis, "{cat:?}");
            }
        }
    }
}

/// The batch sends such pairs through the single-pair code: the same bits.
#[test]
fn batch_matches_single_on_huge_pairs() {
    let mut gen = Gen::new(0x3e38_ba7c);
    let mut pairs = Vec::new();
    for k in 0..400 {
        let (a, b) = gen.pair(CATEGORIES[k % CATEGORIES.len()]);
        let top = Real::MAX_EXP - 1 - magnitude_exp(&a, &b);
        let f = (2.0 as Real).powi([0, top - 8, Real::MAX_EXP / 4 + 4][k % 3]);
        let (a, b) = (scale_box(&a, f).as_obb(), scale_box(&b, f).as_obb());
        pairs.push((a, b));
    }
    // One far-out pair in an otherwise ordinary lane group.
    let far = Obb::new_unchecked(
        Point3::new(Real::MAX * 0.5, 0.0, 0.0),
        Matrix3::identity(),
        Vector3::repeat(1.0),
    );
    pairs.insert(
        1,
        (far, far.translate(&Vector3::new(0.0, 1.5, 0.0)).unwrap()),
    );
    let cfg = ContactConfig::default();
    let refs: Vec<_> = pairs.iter().map(|(a, b)| (a, b)).collect();
    let mut out = vec![ContactManifold::empty(); refs.len()];
    box_box::manifolds_into(&refs, &cfg, &mut out);
    for (k, (a, b)) in pairs.iter().enumerate() {
        let want = box_box::manifold(a, b, &cfg);
        assert_eq!(
            want.as_ref().map(bits),
            (!out[k].points.is_empty()).then(|| bits(&out[k])),
            "pair {k}"
        );
    }
    assert!(!out[1].points.is_empty());
}
