//! Box–box contacts are symmetric under the swap of the two boxes, bit for bit: `(b, a)` gives
//! the mirror of `(a, b)` (normal negated, surface points swapped, feature ids mirrored by
//! `box_box::mirror_id`; `box_box::least_penetration`'s axis with the roles exchanged). Checked on the nine
//! adversarial categories of the box suites, as OBB pairs and AABB pairs too, with and without
//! a margin, through the single call, the in-place call, the batch (both builds of it) and the
//! dispatch on shape kinds; and on the pairs that need the later steps of the canonical order (equal
//! sizes; equal sizes and centres). Pairs of boxes equal in every bit are the call's own swap
//! and are left out (the normal cannot be both `n` and `-n`).

// Real -> f64 casts (in `common`) are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;
use sepax_testkit::with_boxes;

use common::{manifold_bits as bits, AnyBox, Gen, CATEGORIES};
use sepax_narrowphase::contact::box_box::{self, mirror, mirror_id, BoxPenetration};
use sepax_narrowphase::contact::{self, ContactConfig, ContactManifold, FeatureId};
use sepax_narrowphase::intersect::BoxShape;
use sepax_narrowphase::sat::SatAxis;
use sepax_shapes::math::{Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Obb, Shape};

const CONFIGS: [fn() -> ContactConfig; 2] =
    [ContactConfig::default, || ContactConfig::with_margin(0.05)];

fn mirrored(m: &ContactManifold) -> ContactManifold {
    let mut m = m.clone();
    mirror(&mut m);
    m
}

fn pen_bits(p: &BoxPenetration) -> (Vec<u64>, SatAxis) {
    let r = |x: Real| x.to_bits() as u64;
    (
        vec![r(p.normal.x), r(p.normal.y), r(p.normal.z), r(p.depth)],
        p.axis,
    )
}

fn swap_axis(a: SatAxis) -> SatAxis {
    match a {
        SatAxis::FaceA(i) => SatAxis::FaceB(i),
        SatAxis::FaceB(j) => SatAxis::FaceA(j),
        SatAxis::Edge(i, j) => SatAxis::Edge(j, i),
    }
}

/// Checks one pair in both orders through the single-pair entry points; returns whether it has
/// a manifold.
fn check_pair<A, B>(a: &A, b: &B, cfg: &ContactConfig, what: &str) -> bool
where
    A: BoxShape + std::fmt::Debug,
    B: BoxShape + std::fmt::Debug,
{
    let ab = box_box::manifold(a, b, cfg);
    let ba = box_box::manifold(b, a, cfg);
    assert_eq!(
        ab.is_some(),
        ba.is_some(),
        "{what}: only one order has a manifold: a={a:?} b={b:?}"
    );
    if let (Some(ab), Some(ba)) = (&ab, &ba) {
        assert_eq!(
            bits(ba),
            bits(&mirrored(ab)),
            "{what}: (b, a) is not the mirror of (a, b): a={a:?} b={b:?}\n{ab:?}\n{ba:?}"
        );
        // The in-place call agrees with the returning one in both orders.
        let mut m = ContactManifold::empty();
        assert!(box_box::manifold_into(b, a, cfg, &mut m));
        assert_eq!(bits(&m), bits(ba), "{what}: into (b, a)");
    }
    let (pab, pba) = (
        box_box::least_penetration(a, b),
        box_box::least_penetration(b, a),
    );
    let (nab, axis_ab) = pen_bits(&pab);
    let (nba, axis_ba) = pen_bits(&pba);
    let neg = pen_bits(&BoxPenetration {
        normal: -pab.normal,
        ..pab
    })
    .0;
    assert_eq!(
        nba, neg,
        "{what}: box_box::least_penetration (b, a): a={a:?} b={b:?}"
    );
    assert_ne!(nab.len(), 0);
    assert_eq!(
        axis_ba,
        swap_axis(axis_ab),
        "{what}: box_box::least_penetration axis"
    );
    ab.is_some()
}

fn same_bits(a: &AnyBox, b: &AnyBox) -> bool {
    match (a, b) {
        (AnyBox::A(x), AnyBox::A(y)) => {
            bits_of(&[x.min(), x.max()]) == bits_of(&[y.min(), y.max()])
        }
        (AnyBox::O(x), AnyBox::O(y)) => {
            bits_of(&[x.center()]) == bits_of(&[y.center()])
                && x.half_extents().map(Real::to_bits) == y.half_extents().map(Real::to_bits)
                && x.axes().map(Real::to_bits) == y.axes().map(Real::to_bits)
        }
        _ => false,
    }
}

fn bits_of(p: &[Point3]) -> Vec<u64> {
    p.iter()
        .flat_map(|q| {
            q.coords
                .iter()
                .map(|x| x.to_bits() as u64)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn swap_gives_the_mirrored_manifold_on_every_category() {
    let mut gen = Gen::new(0x5a4b_3c2d);
    for cfg in CONFIGS {
        let cfg = cfg();
        for cat in CATEGORIES {
            let (mut some, mut checked) = (0, 0);
            for _ in 0..600 {
                let (a, b) = gen.pair(cat);
                if same_bits(&a, &b) {
                    continue;
                }
                checked += 1;
                let what = format!("{cat:?}");
                let hit = with_boxes!(&a, &b, |x, y| check_pair(x, y, &cfg, &what));
                some += usize::from(hit);
                // The same pair as OBBs, and as their world AABBs.
                let (oa, ob) = (a.as_obb(), b.as_obb());
                check_pair(&oa, &ob, &cfg, &format!("{what} as OBBs"));
                let (wa, wb) = (oa.world_aabb(), ob.world_aabb());
                check_pair(&wa, &wb, &cfg, &format!("{what} as AABBs"));
                // The dispatch on shape kinds (which also arbitrates the box kernel's rounding band
                // against the certified overlap test): swapped, the mirrored bits.
                let (sa, sb) = (Shape::Obb(oa), Shape::Obb(ob));
                let d = contact::contact_manifold_shapes(&sb, &sa, &cfg);
                let want =
                    contact::contact_manifold_shapes(&sa, &sb, &cfg).map(|m| bits(&mirrored(&m)));
                assert_eq!(d.map(|m| bits(&m)), want, "{what}: dispatch");
            }
            assert!(checked > 300, "{cat:?}: {checked} pairs");
            assert!(some > 0, "{cat:?}: no pair in contact");
        }
    }
}

#[test]
fn swap_is_symmetric_in_the_batch() {
    let mut gen = Gen::new(0xba7c_5a4b);
    let mut pairs = Vec::new();
    for _ in 0..300 {
        for cat in CATEGORIES {
            let (a, b) = gen.pair(cat);
            if !same_bits(&a, &b) {
                pairs.push((a.as_obb(), b.as_obb()));
            }
        }
    }
    for cfg in CONFIGS {
        let cfg = cfg();
        let ab: Vec<_> = pairs.iter().map(|(a, b)| (a, b)).collect();
        let ba: Vec<_> = pairs.iter().map(|(a, b)| (b, a)).collect();
        for batch in [
            box_box::manifolds_into::<Obb, Obb>,
            box_box::manifolds_into_portable,
        ] {
            let mut got_ab = vec![ContactManifold::empty(); ab.len()];
            let mut got_ba = vec![ContactManifold::empty(); ab.len()];
            let n = batch(&ab, &cfg, &mut got_ab);
            assert_eq!(batch(&ba, &cfg, &mut got_ba), n);
            for (k, (x, y)) in got_ab.iter().zip(&got_ba).enumerate() {
                if x.points.is_empty() {
                    assert!(y.points.is_empty(), "pair {k}");
                    continue;
                }
                assert_eq!(
                    bits(y),
                    bits(&mirrored(x)),
                    "batch pair {k}: {:?}",
                    pairs[k]
                );
                // And the same as the single call.
                let single = box_box::manifold(ab[k].1, ab[k].0, &cfg).unwrap();
                assert_eq!(
                    bits(y),
                    bits(&single),
                    "batch pair {k} against the single call"
                );
            }
        }
    }
}

/// Boxes of equal sizes (the order's step 3, the direction between the centres) and of equal
/// sizes and centres (step 4, the bits), resting, stacked and rotated.
#[test]
fn swap_is_symmetric_for_equal_sizes_and_centres() {
    let mut gen = Gen::new(0xe9a1_5123);
    let cfg = ContactConfig::with_margin(0.01);
    let mut hits = 0;
    for _ in 0..1500 {
        let h = gen.half_extents(0.1, 2.0);
        let ca = Point3::from(gen.vector(1.0));
        let (ra, rb) = (gen.rotation(), gen.rotation());
        let a = Obb::from_rotation(ca, ra, h).unwrap();
        // Equal size, another place; a stack with jitter; equal centre, another rotation.
        let b1 = Obb::from_rotation(Point3::from(gen.vector(1.5)), rb, h).unwrap();
        let top = ca
            + Vector3::new(
                gen.uniform(-1e-3, 1e-3),
                2.0 * h.y,
                gen.uniform(-1e-3, 1e-3),
            );
        let b2 = Obb::new(top, *a.axes(), h).unwrap();
        let b3 = Obb::from_rotation(ca, rb, h).unwrap();
        for b in [b1, b2, b3] {
            hits += usize::from(check_pair(&a, &b, &cfg, "equal sizes"));
        }
        let wa = a.world_aabb();
        let wb = Aabb::from_center_half_extents(wa.center(), wa.half_extents()).unwrap();
        let moved = wb.translate(&gen.vector(1.0)).unwrap();
        for b in [wb, moved] {
            if b.min() != wa.min() || b.max() != wa.max() {
                check_pair(&wa, &b, &cfg, "equal AABBs");
            }
        }
        // A mixed pair: the AABB is evaluated first whichever order the call gives.
        check_pair(&wa, &b1, &cfg, "AABB and OBB");
    }
    assert!(hits > 1000, "{hits}");
}

/// The mirror of a feature id is an involution and tells the reference box's role.
#[test]
fn mirror_id_is_an_involution() {
    let a = Obb::from_rotation(
        Point3::new(0.0, 0.0, 0.0),
        UnitQuaternion::identity(),
        Vector3::new(2.0, 0.5, 2.0),
    )
    .unwrap();
    let b = Obb::from_rotation(
        Point3::new(0.1, 0.9, -0.2),
        UnitQuaternion::from_euler_angles(0.0, 0.3, 0.0),
        Vector3::new(0.5, 0.5, 0.5),
    )
    .unwrap();
    let m = box_box::manifold(&a, &b, &ContactConfig::default()).unwrap();
    let n = box_box::manifold(&b, &a, &ContactConfig::default()).unwrap();
    assert_eq!(m.points.len(), 4);
    for (p, q) in m.points.iter().zip(&n.points) {
        assert_ne!(p.id, q.id);
        assert_eq!(mirror_id(p.id), q.id);
        assert_eq!(mirror_id(mirror_id(p.id)), p.id);
    }
    for w in [0u32, 8, 0x3ff, 0x0300 | (5 << 11) | (9 << 16), u32::MAX] {
        assert_eq!(mirror_id(mirror_id(FeatureId(w))), FeatureId(w));
    }
}
