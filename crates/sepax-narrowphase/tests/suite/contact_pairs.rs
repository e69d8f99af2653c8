//! Contacts for all 25 ordered pairs of kinds: every pair dispatched, consistent with the exact
//! overlap reference, with depths that are minimum translation distances, and analytic depths
//! for spheres and capsules.
//!
//! The minimum-translation property is checked with exact arithmetic: for a manifold with normal
//! `n` and depth `d`, moving `B` by `(d + eps) n` makes the pair exactly disjoint, and moving it by
//! `(d - eps) n` (when `d > eps`) leaves it exactly intersecting, which pins `d` to the true
//! penetration depth within `eps` (any shorter translation keeps penetrating shapes
//! intersecting). `eps = 4e-3` of the shapes' size covers the box tie-break preference
//! (`CONTACT_AXIS_PREFERENCE`) and rounding.

// Real -> f64 casts are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;

use common::{exact_shapes_intersect, p64, Gen};
use sepax_narrowphase::contact::{contact_manifold_shapes, penetration_shapes, ContactConfig};
use sepax_narrowphase::intersect::intersects_shapes;
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, ShapeKind, Sphere, Triangle};

const EPS: Real = 4e-3;

/// A random pair of kinds `ka`, `kb` around `at` (unit size, zero sizes with probability
/// `p_zero`, as [`Gen::shape`]), or `None` when a draw is not a valid shape. Both are drawn
/// either way, so the generator's sequence does not depend on the first draw.
fn shape_pair(
    gen: &mut Gen,
    ka: ShapeKind,
    kb: ShapeKind,
    at: &Point3,
    p_zero: f64,
) -> Option<(Shape, Shape)> {
    let (a, b) = (
        gen.shape(ka, at, 1.0, p_zero),
        gen.shape(kb, at, 1.0, p_zero),
    );
    Some((a.ok()?, b.ok()?))
}

fn translated(s: &Shape, v: &Vector3) -> Shape {
    match s {
        Shape::Aabb(b) => Shape::Aabb(b.translate(v).unwrap()),
        Shape::Obb(b) => Shape::Obb(b.translate(v).unwrap()),
        Shape::Sphere(b) => Shape::Sphere(Sphere::new(b.center() + v, b.radius()).unwrap()),
        Shape::Capsule(c) => {
            Shape::Capsule(Capsule::new(c.p0() + v, c.p1() + v, c.radius()).unwrap())
        }
        Shape::Triangle(t) => {
            let [a, b, c] = t.vertices();
            Shape::Triangle(Triangle::new(a + v, b + v, c + v).unwrap())
        }
    }
}

/// Every ordered pair of kinds reaches its kernel: with margin 0, a manifold exactly when the
/// overlap test reports an intersection, and both answers occur for every pair.
#[test]
fn every_pair_is_dispatched() {
    let mut gen = Gen::new(0xc0_7ac6);
    let config = ContactConfig::default();
    for ka in ShapeKind::ALL {
        for kb in ShapeKind::ALL {
            let (mut hits, mut misses) = (0, 0);
            for _ in 0..200 {
                let Some((a, b)) = shape_pair(&mut gen, ka, kb, &Point3::origin(), 0.0) else {
                    continue;
                };
                let m = contact_manifold_shapes(&a, &b, &config);
                let hit = intersects_shapes(&a, &b);
                assert_eq!(m.is_some(), hit, "a={a:?} b={b:?} m={m:?}");
                if hit {
                    hits += 1;
                } else {
                    misses += 1;
                }
            }
            assert!(
                hits > 0 && misses > 0,
                "({}, {}): {hits} hits, {misses} misses",
                ka.name(),
                kb.name()
            );
        }
    }
}

#[derive(Default, Debug)]
struct Tally {
    pairs: usize,
    intersecting: usize,
    deep: usize,
}

#[test]
fn manifolds_are_minimum_translations_for_every_pair() {
    let mut gen = Gen::new(0xc0_7ac7);
    let config = ContactConfig::with_margin(EPS);
    let mut tally = [[(); 5]; 5].map(|r| r.map(|_| Tally::default()));
    for round in 0..400 {
        for ka in ShapeKind::ALL {
            for kb in ShapeKind::ALL {
                let Some((a, b)) = shape_pair(&mut gen, ka, kb, &Point3::origin(), 0.1) else {
                    continue;
                };
                let t = &mut tally[ka as usize][kb as usize];
                t.pairs += 1;
                let exact = exact_shapes_intersect(&a, &b);
                let m0 = contact_manifold_shapes(&a, &b, &config);
                let ctx = || format!("round {round}: a={a:?} b={b:?} m={m0:?}");
                if exact {
                    t.intersecting += 1;
                }
                let Some(m) = m0.clone() else {
                    assert!(!exact, "intersecting pair without manifold: {}", ctx());
                    continue;
                };
                assert!((m.normal.norm() - 1.0).abs() < 1e-4, "{}", ctx());
                assert!(!m.points.is_empty() && m.points.len() <= 4, "{}", ctx());
                if m.depth > EPS {
                    assert!(
                        exact,
                        "manifold of depth {} for a disjoint pair: {}",
                        m.depth,
                        ctx()
                    );
                }
                // Moving B by (depth + eps) n separates the pair exactly.
                let out = translated(&b, &(m.normal * (m.depth.max(0.0) + EPS)));
                assert!(
                    !exact_shapes_intersect(&a, &out),
                    "moving B by depth + eps along n does not separate: {}",
                    ctx()
                );
                if m.depth > EPS {
                    t.deep += 1;
                    let less = translated(&b, &(m.normal * (m.depth - EPS)));
                    assert!(
                        exact_shapes_intersect(&a, &less),
                        "moving B by depth - eps already separates (depth too large): {}",
                        ctx()
                    );
                }
                // Points: point_a in (or on) A, point_b in (or on) B; depths consistent.
                for p in &m.points {
                    assert!(
                        a.distance_to_point(&p.point_a) < 1e-3,
                        "point_a off A: {}",
                        ctx()
                    );
                    assert!(
                        b.distance_to_point(&p.point_b) < 1e-3,
                        "point_b off B: {}",
                        ctx()
                    );
                    let pd = (p.point_a - p.point_b).dot(&m.normal);
                    assert!((pd - p.depth).abs() < 5e-3, "point depth: {}", ctx());
                }
                // The swapped order agrees: same depth (within the preference) and, away from
                // ties, the opposite normal.
                let r = contact_manifold_shapes(&b, &a, &config);
                if m.depth > EPS {
                    let r =
                        r.unwrap_or_else(|| panic!("swapped order lost the contact: {}", ctx()));
                    assert!(
                        (r.depth - m.depth).abs() <= EPS,
                        "swapped depth {}: {}",
                        r.depth,
                        ctx()
                    );
                }
                // `penetration` agrees with the manifold for penetrating pairs.
                if m.depth > EPS {
                    let p = penetration_shapes(&a, &b).expect("penetrating");
                    assert!(
                        (p.depth - m.depth).abs() <= 1e-5 * (1.0 + m.depth),
                        "{}",
                        ctx()
                    );
                }
            }
        }
    }
    for ka in ShapeKind::ALL {
        for kb in ShapeKind::ALL {
            let t = &tally[ka as usize][kb as usize];
            eprintln!("{:>8} {:>8} {t:?}", ka.name(), kb.name());
            assert!(
                t.deep >= 20,
                "too few penetrating {}-{} pairs: {t:?}",
                ka.name(),
                kb.name()
            );
        }
    }
}

fn sq_to_depth(rsum: f64, sq: f64) -> f64 {
    rsum - sq.sqrt()
}

/// Analytic references: for sphere and capsule pairs whose cores are disjoint the depth is
/// `r_A + r_B - dist(cores)`, with the distance from the exact reference.
#[test]
fn sphere_and_capsule_depths_match_closed_forms() {
    use sepax_exact as ex;
    let mut gen = Gen::new(77);
    let config = ContactConfig::with_margin(10.0);
    let mut checked = 0;
    for _ in 0..3000 {
        let o = Point3::origin();
        let kinds = [
            ShapeKind::Sphere,
            ShapeKind::Capsule,
            ShapeKind::Aabb,
            ShapeKind::Obb,
            ShapeKind::Triangle,
        ];
        let ka = kinds[gen.rng.random_range(0..2)];
        let kb = kinds[gen.rng.random_range(0..5)];
        let Some((a, b)) = shape_pair(&mut gen, ka, kb, &o, 0.05) else {
            continue;
        };
        let (core_a, ra) = match &a {
            Shape::Sphere(s) => ((s.center(), s.center()), s.radius() as f64),
            Shape::Capsule(c) => ((c.p0(), c.p1()), c.radius() as f64),
            _ => unreachable!(),
        };
        let (p0, p1) = (p64(&core_a.0), p64(&core_a.1));
        let (sq, rb) = match &b {
            Shape::Sphere(s) => (
                ex::segment_segment_distance_sq(p0, p1, p64(&s.center()), p64(&s.center())),
                s.radius() as f64,
            ),
            Shape::Capsule(c) => (
                ex::segment_segment_distance_sq(p0, p1, p64(&c.p0()), p64(&c.p1())),
                c.radius() as f64,
            ),
            Shape::Aabb(x) => (
                ex::segment_box_distance_sq(p0, p1, &common::AnyBox::A(*x).exact()),
                0.0,
            ),
            Shape::Obb(x) => (
                ex::segment_box_distance_sq(p0, p1, &common::obb_exact(x)),
                0.0,
            ),
            Shape::Triangle(t) => (
                ex::segment_triangle_distance_sq(p0, p1, t.vertices().map(|v| p64(&v))),
                0.0,
            ),
        };
        if sq == 0.0 {
            continue; // cores meet: covered by the minimum-translation test
        }
        let want = sq_to_depth(ra + rb, sq);
        for (m, flip) in [
            (contact_manifold_shapes(&a, &b, &config), false),
            (contact_manifold_shapes(&b, &a, &config), true),
        ] {
            let m = m.expect("within the 10.0 margin");
            let tol =
                1e-5 * (1.0 + sq.sqrt() + ra + rb) * if cfg!(feature = "f64") { 1e-6 } else { 1.0 }
                    + 64.0 * Real::EPSILON as f64 * 4.0;
            assert!(
                (m.depth as f64 - want).abs() <= tol,
                "depth {} want {want} (flip {flip}): a={a:?} b={b:?}",
                m.depth
            );
            checked += 1;
        }
    }
    assert!(checked > 3000, "{checked}");
}

#[test]
fn simple_analytic_cases() {
    let p = |x: Real, y: Real, z: Real| Point3::new(x, y, z);
    let cfg = ContactConfig::default();
    // Sphere–sphere.
    let a = Shape::Sphere(Sphere::new(p(0.0, 0.0, 0.0), 1.0).unwrap());
    let b = Shape::Sphere(Sphere::new(p(1.5, 0.0, 0.0), 1.0).unwrap());
    let m = contact_manifold_shapes(&a, &b, &cfg).unwrap();
    assert!((m.depth - 0.5).abs() < 1e-6 && (m.normal - Vector3::x()).norm() < 1e-6);
    assert!((m.points[0].point_a - p(1.0, 0.0, 0.0)).norm() < 1e-6);
    assert!((m.points[0].point_b - p(0.5, 0.0, 0.0)).norm() < 1e-6);
    // Capsule–capsule crossing at right angles, 0.2 apart, radii 0.25 each.
    let c = Shape::Capsule(Capsule::new(p(-1.0, 0.0, 0.0), p(1.0, 0.0, 0.0), 0.25).unwrap());
    let d = Shape::Capsule(Capsule::new(p(0.0, 0.2, -1.0), p(0.0, 0.2, 1.0), 0.25).unwrap());
    let m = contact_manifold_shapes(&c, &d, &cfg).unwrap();
    assert!((m.depth - 0.3).abs() < 1e-6 && (m.normal - Vector3::y()).norm() < 1e-6);
    // Sphere on a triangle's face.
    let t = Shape::Triangle(
        Triangle::new(p(-1.0, 0.0, -1.0), p(1.0, 0.0, -1.0), p(0.0, 0.0, 1.0)).unwrap(),
    );
    let s = Shape::Sphere(Sphere::new(p(0.0, 0.4, 0.0), 0.5).unwrap());
    let m = contact_manifold_shapes(&t, &s, &cfg).unwrap();
    assert!((m.depth - 0.1).abs() < 1e-6 && (m.normal - Vector3::y()).norm() < 1e-6);
    // Capsule lying on a box face: two points.
    let floor = Shape::Aabb(Aabb::new(p(-3.0, -1.0, -3.0), p(3.0, 0.0, 3.0)).unwrap());
    let cap = Shape::Capsule(Capsule::new(p(-1.0, 0.2, 0.5), p(1.0, 0.2, -0.5), 0.25).unwrap());
    let m = contact_manifold_shapes(&floor, &cap, &cfg).unwrap();
    assert_eq!(m.points.len(), 2);
    assert!((m.depth - 0.05).abs() < 1e-6);
    // Triangle cutting into a box.
    let bx = Shape::Obb(Obb::from_aabb(
        &Aabb::new(p(-1.0, -1.0, -1.0), p(1.0, 1.0, 1.0)).unwrap(),
    ));
    let tri = Shape::Triangle(
        Triangle::new(p(-2.0, 0.9, -2.0), p(2.0, 0.9, -2.0), p(0.0, 0.9, 2.0)).unwrap(),
    );
    let m = contact_manifold_shapes(&bx, &tri, &cfg).unwrap();
    assert!(
        (m.depth - 0.1).abs() < 1e-6 && (m.normal - Vector3::y()).norm() < 1e-6,
        "{m:?}"
    );
}

use rand::Rng;
