//! Spheres, capsules and the other rounded pairs at the ends of the range, and contacts whose
//! sphere or capsule sits on a feature of a rotated box:
//!
//! - distances and closest points of every pair with a sphere or capsule at sizes about 1e-25
//!   and 1e19 .. 1e20 (1e-150 and 1e150 in f64) and near `Real::MAX`: the distance within
//!   `64 u S` of the exact one (docs/tolerance.md §7), finite points;
//! - contacts of spheres and capsules whose centre (end point) lies on a face, an edge or a
//!   corner of a rotated OBB, exactly or a few ulps off it: the normal is a minimum translation
//!   direction (moving B by the depth plus `256 u m` along it separates the pair exactly, and by
//!   the depth minus that leaves it intersecting);
//! - a box resting `0.5 * 64 u S` above a 120 m floor 60 m from the origin: certified separated,
//!   so no manifold with margin 0.

// Real -> f64 casts are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;

use common::kinds::{pair_scale_any, PairCategory};
use common::{exact_shape, Gen};
use rand::Rng;
use sepax_narrowphase::contact::{contact_manifold_shapes, ContactConfig};
use sepax_narrowphase::distance::closest_points_shapes;
use sepax_narrowphase::intersect::{classify, intersects_shapes, Classification};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::tolerance::{SEPARATION_TOLERANCE, UNIT_ROUNDOFF};
use sepax_shapes::{Aabb, Shape, ShapeKind};

const ROUND: [ShapeKind; 2] = [ShapeKind::Sphere, ShapeKind::Capsule];

#[test]
fn distances_of_rounded_pairs_at_the_ends_of_the_range() {
    let mut gen = Gen::new(0x0d15_7a4c);
    let u = UNIT_ROUNDOFF as f64;
    let mut checked = 0;
    for cat in [
        PairCategory::Tiny,
        PairCategory::Huge,
        PairCategory::NearMax,
    ] {
        for ka in ROUND {
            for kb in ShapeKind::ALL {
                for _ in 0..40 {
                    let Some((a, b)) = gen.kind_pair(ka, kb, cat) else {
                        continue;
                    };
                    for (x, y) in [(&a, &b), (&b, &a)] {
                        let c = closest_points_shapes(x, y);
                        let want = sepax_exact::shape_distance(&exact_shape(x), &exact_shape(y));
                        let (s, _) = pair_scale_any(x, y);
                        let ctx = || format!("{cat:?}: x={x:?} y={y:?} c={c:?} want {want:e}");
                        assert!(c.distance.is_finite(), "{}", ctx());
                        assert!(
                            c.point_a
                                .iter()
                                .chain(c.point_b.iter())
                                .all(|v| v.is_finite()),
                            "{}",
                            ctx()
                        );
                        // (The reference squares the distance, which overflows f64 near its top.)
                        if s.is_finite() && want.is_finite() {
                            assert!(
                                (c.distance as f64 - want).abs() <= 64.0 * u * s,
                                "{}",
                                ctx()
                            );
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

/// The spheres and capsules: unit sizes scaled to 1e19, 1e20 and 1e-25 (f32), the
/// distance 1/2 unit along x.
#[test]
fn far_and_tiny_sphere_and_capsule_distances() {
    use sepax_shapes::{Capsule, Sphere};
    let p = |x: Real, y: Real, z: Real| Point3::new(x, y, z);
    for unit in [1e19 as Real, 1e20 as Real, 1e-25 as Real] {
        let a = Shape::Sphere(Sphere::new(p(unit, 0.0, 0.0), unit).unwrap());
        let b = Shape::Sphere(Sphere::new(p(3.5 * unit, 0.0, 0.0), unit).unwrap());
        let c = Shape::Capsule(
            Capsule::new(p(3.5 * unit, 0.0, -unit), p(3.5 * unit, 0.0, unit), unit).unwrap(),
        );
        for (x, y) in [(&a, &b), (&a, &c), (&c, &a)] {
            let cp = closest_points_shapes(x, y);
            assert!((cp.distance / unit - 0.5).abs() < 1e-5, "{unit:e}: {cp:?}");
            assert!((cp.normal.x.abs() - 1.0).abs() < 1e-5, "{unit:e}: {cp:?}");
        }
    }
}

#[test]
fn sphere_and_capsule_centres_on_features_of_rotated_boxes() {
    let mut gen = Gen::new(0x0fea_70e5);
    let config = ContactConfig::default();
    let u = UNIT_ROUNDOFF as f64;
    let mut deep = 0;
    for round in 0..3000 {
        let kb = ROUND[round % 2];
        let Some((a, b)) = gen.kind_pair(ShapeKind::Obb, kb, PairCategory::OnFeature) else {
            continue;
        };
        // Both orders: the box first and second.
        for (x, y) in [(&a, &b), (&b, &a)] {
            let Some(m) = contact_manifold_shapes(x, y, &config) else {
                // Only a point (radius 0) moved a few ulps off the box may miss it.
                assert!(
                    !intersects_shapes(x, y),
                    "centre on the box, no contact: {x:?} {y:?}"
                );
                continue;
            };
            let (s, mag) = pair_scale_any(x, y);
            let tol = (256.0 * u + 64.0 * 1e-6) * mag.max(s);
            let n = [m.normal.x as f64, m.normal.y as f64, m.normal.z as f64];
            let moved = |t: f64| {
                sepax_exact::shapes_intersect_translated(&exact_shape(x), &exact_shape(y), n, t)
            };
            let d = m.depth as f64;
            assert!(
                !moved(d.max(0.0) + tol),
                "round {round}: moving by depth + tol leaves overlap: {x:?} {y:?} {m:?}"
            );
            if d > tol {
                deep += 1;
                assert!(
                    moved(d - tol),
                    "round {round}: depth too large: {x:?} {y:?} {m:?}"
                );
            }
        }
    }
    assert!(deep > 3000, "{deep}");
}

/// With the centre exactly on a face, an edge or a corner of a box rotated about several axes,
/// the normal is the face normal or lies in the normal cone of the edge / corner: moving the
/// sphere by its radius along it separates.
#[test]
fn sphere_centre_exactly_on_rotated_box_features() {
    use sepax_shapes::math::UnitQuaternion;
    use sepax_shapes::{Obb, Sphere};
    let q = UnitQuaternion::from_euler_angles(0.3, -1.1, 0.7);
    let bx =
        Obb::from_rotation(Point3::new(0.5, -2.0, 1.0), q, Vector3::new(1.0, 0.5, 2.0)).unwrap();
    let mut gen = Gen::new(5);
    let config = ContactConfig::default();
    for _ in 0..500 {
        let c = gen.feature_point(&Shape::Obb(bx));
        let r = gen.uniform(0.1, 1.0);
        let s = Shape::Sphere(Sphere::new(c, r).unwrap());
        let m = contact_manifold_shapes(&Shape::Obb(bx), &s, &config).unwrap();
        let n = [m.normal.x as f64, m.normal.y as f64, m.normal.z as f64];
        let tol = 1e3 * UNIT_ROUNDOFF as f64;
        assert!((m.depth as f64 - r as f64).abs() <= tol, "{m:?}");
        assert!(
            !sepax_exact::shapes_intersect_translated(
                &exact_shape(&Shape::Obb(bx)),
                &exact_shape(&s),
                n,
                m.depth as f64 + tol
            ),
            "centre {c:?}: {m:?}"
        );
    }
    let _ = gen.rng.random::<u8>();
}

#[test]
fn box_certified_separated_above_a_far_floor_has_no_contact() {
    let p = |x: Real, y: Real, z: Real| Point3::new(x, y, z);
    // A 120 m floor whose centre is 60 m from the origin.
    let floor = Aabb::new(p(0.0, -1.0, -60.0), p(120.0, 0.0, 60.0)).unwrap();
    // S = sum h + |c_B - c_A|_1 of the pair, for a 2 m box at x = 60 on top.
    let s: Real = (60.0 + 0.5 + 60.0) + 3.0 + 1.5;
    let gap = 0.5 * SEPARATION_TOLERANCE * s;
    let bx = Aabb::new(p(59.0, gap, -1.0), p(61.0, gap + 2.0, 1.0)).unwrap();
    assert_eq!(classify(&floor, &bx), Classification::Separated);
    let (a, b) = (Shape::Aabb(floor), Shape::Aabb(bx));
    assert!(contact_manifold_shapes(&a, &b, &ContactConfig::default()).is_none());
    assert!(contact_manifold_shapes(&b, &a, &ContactConfig::default()).is_none());
    // Within a margin the speculative contact is there, with the gap as its depth.
    let m = contact_manifold_shapes(&a, &b, &ContactConfig::with_margin(2.0 * gap))
        .expect("within the margin");
    assert!((m.depth + gap).abs() <= 0.01 * gap + 1e-9, "{m:?}");
    // Resting exactly on the floor: a contact.
    let on = Aabb::new(p(59.0, 0.0, -1.0), p(61.0, 2.0, 1.0)).unwrap();
    assert!(contact_manifold_shapes(&a, &Shape::Aabb(on), &ContactConfig::default()).is_some());
}
