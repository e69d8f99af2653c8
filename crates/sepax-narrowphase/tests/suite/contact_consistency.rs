//! Contacts agree with the overlap test and are minimum translations, for every ordered pair of
//! kinds and every adversarial category of `common::kinds` (touching, near contact, degenerate,
//! far from the origin, tiny, huge, near `Real::MAX`, near-parallel, identical, nested, centres
//! on features of rotated boxes), in the precision of the build (run it again with
//! `--features f64`).
//!
//! For each pair, with margin 0:
//! - `contact_manifold` returns a manifold exactly when `intersects_shapes` reports an
//!   intersection (and so never for a pair that `classify` certifies as separated);
//! - every number in the manifold is finite, the normal is a unit vector, 1 to 4 points;
//! - the depth is the penetration along the normal: moving `B` by `(depth + tol) n` makes the
//!   pair exactly disjoint, and by `(depth - tol) n` (when positive) leaves it exactly
//!   intersecting (the big-integer reference, the translation taken exactly), with
//!   `tol = (256 u + 16 delta) m` (`m` the pair's largest coordinate or size, `delta` the boxes'
//!   axes defects) plus, for two boxes, the tie-break preference `CONTACT_AXIS_PREFERENCE * S`.
//!
//! The first of these is asserted as a count of violations per pair kind and category, printed
//! in full when not zero.

// Real -> f64 casts are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;

use common::kinds::{pair_scale_any, PairCategory, PAIR_CATEGORIES};
use common::{exact_shape, Gen};
use sepax_narrowphase::contact::{contact_manifold_shapes, ContactConfig, ContactManifold};
use sepax_narrowphase::intersect::intersects_shapes;
use sepax_shapes::math::Real;
use sepax_shapes::tolerance::{CONTACT_AXIS_PREFERENCE, UNIT_ROUNDOFF};
use sepax_shapes::{Shape, ShapeKind};

/// Pairs per ordered kind pair and category.
const ROUNDS: usize = 40;

fn is_box(s: &Shape) -> bool {
    matches!(s, Shape::Aabb(_) | Shape::Obb(_))
}

fn defect(s: &Shape) -> f64 {
    match s {
        Shape::Obb(b) => b.axes_error() as f64,
        _ => 0.0,
    }
}

/// The tolerance of the minimum-translation check (see the module docs).
fn tolerance(a: &Shape, b: &Shape) -> f64 {
    let (s, m) = pair_scale_any(a, b);
    let u = UNIT_ROUNDOFF as f64;
    let mut tol = (256.0 * u + 16.0 * (defect(a) + defect(b))) * m.max(s);
    if is_box(a) && is_box(b) {
        tol += CONTACT_AXIS_PREFERENCE as f64 * s;
    }
    tol
}

/// Whether `a` and `b` moved by `t n` meet, exactly.
fn meets_moved(a: &Shape, b: &Shape, m: &ContactManifold, t: f64) -> bool {
    let n = [m.normal.x as f64, m.normal.y as f64, m.normal.z as f64];
    sepax_exact::shapes_intersect_translated(&exact_shape(a), &exact_shape(b), n, t)
}

/// What is wrong with the margin-0 manifold `m` of `a`, `b`, if anything.
fn problem(a: &Shape, b: &Shape, m: &Option<ContactManifold>) -> Option<String> {
    let hit = intersects_shapes(a, b);
    let Some(m) = m else {
        return hit.then(|| "intersecting pair without manifold".to_string());
    };
    if !hit {
        return Some(format!("manifold for a separated pair (depth {})", m.depth));
    }
    let finite = m.normal.iter().all(|x| x.is_finite())
        && m.depth.is_finite()
        && m.points.iter().all(|p| {
            p.depth.is_finite()
                && p.point_a.iter().all(|x| x.is_finite())
                && p.point_b.iter().all(|x| x.is_finite())
        });
    if !finite {
        return Some("non-finite number".into());
    }
    if (m.normal.norm() - 1.0).abs() > 1e-4 || m.points.is_empty() || m.points.len() > 4 {
        return Some("normal not unit, or no points".into());
    }
    if m.depth == Real::MAX {
        return None; // saturated: the true depth is beyond the range
    }
    let tol = tolerance(a, b);
    let d = m.depth as f64;
    if !(d.abs() + tol).is_finite() {
        // f64 pairs spanning the whole range: the check's own translation overflows.
        return None;
    }
    if meets_moved(a, b, m, d.max(0.0) + tol) {
        return Some(format!(
            "moving B by depth + tol ({tol:e}) along n does not separate"
        ));
    }
    if d > tol && !meets_moved(a, b, m, d - tol) {
        return Some(format!(
            "moving B by depth - tol ({tol:e}) already separates (depth too large)"
        ));
    }
    None
}

#[test]
fn manifold_iff_intersecting_and_minimum_translation_for_every_pair_and_category() {
    let mut gen = Gen::new(0x00c0_5157);
    let config = ContactConfig::default();
    let mut failures = Vec::new();
    let mut hits = [[0usize; 5]; 5];
    for cat in PAIR_CATEGORIES {
        let mut made = 0;
        for ka in ShapeKind::ALL {
            for kb in ShapeKind::ALL {
                for round in 0..ROUNDS {
                    let Some((a, b)) = gen.kind_pair(ka, kb, cat) else {
                        continue;
                    };
                    made += 1;
                    let m = contact_manifold_shapes(&a, &b, &config);
                    if m.is_some() {
                        hits[ka as usize][kb as usize] += 1;
                    }
                    if let Some(why) = problem(&a, &b, &m) {
                        let exact = common::exact_shapes_intersect(&a, &b);
                        failures.push(format!(
                            "{cat:?} {}-{} round {round}: {why} (exact: {exact})\n  a = {a:?}\n  b = {b:?}\n  m = {m:?}",
                            ka.name(),
                            kb.name()
                        ));
                    }
                }
            }
        }
        assert!(
            made > 25 * ROUNDS / 3,
            "{cat:?}: only {made} pairs generated"
        );
    }
    for ka in ShapeKind::ALL {
        for kb in ShapeKind::ALL {
            assert!(
                hits[ka as usize][kb as usize] >= ROUNDS,
                "too few contacts for {}-{}: {}",
                ka.name(),
                kb.name(),
                hits[ka as usize][kb as usize]
            );
        }
    }
    let shown: Vec<_> = failures.iter().take(400).cloned().collect();
    assert!(
        failures.is_empty(),
        "{} failures, the first ones:\n{}",
        failures.len(),
        shown.join("\n")
    );
}

/// With a positive margin `M`: a manifold for every pair whose exact distance is at most
/// `M - tol` (box pairs excepted: their speculative contacts are the box kernel's), none whose
/// gap exceeds `M + tol`; the depth is minus the distance for pairs with a sphere or capsule,
/// and minus the SAT gap (at most the distance) for two polytopes.
#[test]
fn speculative_margin_agrees_with_the_exact_distance() {
    let mut gen = Gen::new(0x5bec);
    let mut failures = Vec::new();
    let mut speculative = 0;
    for cat in [
        PairCategory::NearContact,
        PairCategory::Random,
        PairCategory::FarFromOrigin,
    ] {
        for ka in ShapeKind::ALL {
            for kb in ShapeKind::ALL {
                for _ in 0..12 {
                    let Some((a, b)) = gen.kind_pair(ka, kb, cat) else {
                        continue;
                    };
                    let (s, _) = pair_scale_any(&a, &b);
                    let margin = 0.02 * s;
                    let m = contact_manifold_shapes(
                        &a,
                        &b,
                        &ContactConfig::with_margin(margin as Real),
                    );
                    let d = sepax_exact::shape_distance(&exact_shape(&a), &exact_shape(&b));
                    let tol = tolerance(&a, &b);
                    // Pairs of polytopes (boxes, triangles) measure the gap on the SAT axes,
                    // which is at most the distance; the others measure the distance.
                    let round = |x: &Shape| matches!(x, Shape::Sphere(_) | Shape::Capsule(_));
                    let sat_gap = !round(&a) && !round(&b);
                    let boxes = is_box(&a) && is_box(&b);
                    let why = match &m {
                        // (The box kernel's speculative contacts are h-sym's: not checked.)
                        None if d <= margin - tol && !boxes => {
                            Some("no manifold within the margin")
                        }
                        Some(m) if -(m.depth as f64) > margin + tol => {
                            Some("manifold beyond the margin")
                        }
                        Some(_) if d > margin + tol && !sat_gap => {
                            Some("manifold beyond the margin")
                        }
                        Some(m) if -(m.depth as f64) > d + tol => {
                            Some("gap larger than the distance")
                        }
                        Some(m) if !sat_gap && d > 0.0 && (m.depth as f64 + d).abs() > tol => {
                            Some("depth is not minus the distance")
                        }
                        _ => None,
                    };
                    if m.as_ref().is_some_and(|m| m.depth < 0.0) {
                        speculative += 1;
                    }
                    if let Some(why) = why {
                        failures.push(format!("{cat:?}: {why}: d={d:e} a={a:?} b={b:?} m={m:?}"));
                    }
                }
            }
        }
    }
    assert!(speculative > 100, "{speculative}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The cases of issue 13, one by one (they also occur in the categories above).
#[test]
fn reported_cases() {
    use sepax_shapes::math::{Point3, Vector3};
    use sepax_shapes::{Capsule, Sphere, Triangle};
    let p = |x: Real, y: Real, z: Real| Point3::new(x, y, z);
    let cfg = ContactConfig::default();
    // Spheres and capsules far from the origin and tiny: the normal is +x, the depth 1/4 of
    // the unit.
    for unit in [1e19 as Real, 1e20 as Real, 1e-25 as Real] {
        let a = Shape::Sphere(Sphere::new(p(unit, 0.0, 0.0), unit).unwrap());
        let b = Shape::Sphere(Sphere::new(p(2.75 * unit, 0.0, 0.0), unit).unwrap());
        let c = Shape::Capsule(
            Capsule::new(p(2.75 * unit, 0.0, -unit), p(2.75 * unit, 0.0, unit), unit).unwrap(),
        );
        for (x, y) in [(&a, &b), (&a, &c)] {
            let m = contact_manifold_shapes(x, y, &cfg).expect("penetrating");
            assert!((m.normal - Vector3::x()).norm() < 1e-5, "{unit:e}: {m:?}");
            assert!((m.depth / unit - 0.25).abs() < 1e-5, "{unit:e}: {m:?}");
        }
    }
    // Two point capsules at one point.
    let q = Shape::Capsule(Capsule::new(p(1.0, 2.0, 3.0), p(1.0, 2.0, 3.0), 0.5).unwrap());
    let m = contact_manifold_shapes(&q, &q, &cfg).expect("identical");
    assert!((m.depth - 1.0).abs() < 1e-6, "{m:?}");
    // A point triangle touching a degenerate (collinear) triangle.
    let t0 = Shape::Triangle(
        Triangle::new(p(1.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(1.0, 0.0, 0.0)).unwrap(),
    );
    let t1 = Shape::Triangle(
        Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(2.0, 0.0, 0.0)).unwrap(),
    );
    for (x, y) in [(&t0, &t1), (&t1, &t0)] {
        let m = contact_manifold_shapes(x, y, &cfg).expect("touching");
        assert!(m.depth.abs() < 1e-6, "{m:?}");
    }
    // A flat OBB touched at a corner by a point OBB.
    {
        use sepax_shapes::math::UnitQuaternion;
        use sepax_shapes::Obb;
        let q = UnitQuaternion::from_euler_angles(0.4, 0.2, -0.9);
        let flat = Obb::from_rotation(p(0.3, -0.2, 0.1), q, Vector3::new(1.0, 0.5, 0.0)).unwrap();
        for corner in [0, 3, 5, 6] {
            let c = flat.corners()[corner];
            let pt = Obb::from_rotation(c, UnitQuaternion::identity(), Vector3::zeros()).unwrap();
            let (x, y) = (Shape::Obb(flat), Shape::Obb(pt));
            for (u, v) in [(&x, &y), (&y, &x)] {
                let m = contact_manifold_shapes(u, v, &cfg);
                assert!(problem(u, v, &m).is_none(), "corner {corner}: {m:?}");
            }
        }
    }
    // Triangles spanning ±3e38 that cross.
    let big = 3e38 as Real;
    let u = Shape::Triangle(
        Triangle::new(p(-big, -big, 0.0), p(big, -big, 0.0), p(0.0, big, 0.0)).unwrap(),
    );
    let v = Shape::Triangle(
        Triangle::new(p(0.0, 0.0, -big), p(0.0, 0.0, big), p(0.0, big / 2.0, 0.0)).unwrap(),
    );
    let m = contact_manifold_shapes(&u, &v, &cfg).expect("crossing");
    assert!(problem(&u, &v, &Some(m.clone())).is_none(), "{m:?}");
}

#[test]
fn categories_are_all_generated() {
    let mut gen = Gen::new(1);
    for cat in PAIR_CATEGORIES {
        let n = (0..50)
            .filter(|_| {
                gen.kind_pair(ShapeKind::Sphere, ShapeKind::Obb, cat)
                    .is_some()
            })
            .count();
        assert!(n > 10, "{cat:?}: {n}");
    }
    let _ = PairCategory::Random;
}
