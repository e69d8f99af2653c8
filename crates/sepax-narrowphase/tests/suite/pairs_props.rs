//! Property tests for the sphere, capsule and triangle pair tests: invariance under a common
//! rigid motion (for pairs clearly away from touching), monotonicity in the radius, capsules
//! with `p0 == p1` behave as spheres, radius-0 spheres agree with `contains_point`, and AABBs
//! agree with the same box as an `Obb` (`Obb::from_aabb`). "Clearly" means an exact gap (from
//! `sepax-exact`) at least `1e-3` times the pair's size, far outside every documented band.

#![allow(clippy::unnecessary_cast)] // `as f64` is needed when `Real` is f32.

use nalgebra::Translation3;
use sepax_testkit as common;

use common::strategies::{coord, point, rotation, size as radius};
use proptest::prelude::*;
use sepax_exact as ex;
use sepax_narrowphase::intersect as ix;
use sepax_shapes::math::{Isometry3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Sphere, Triangle};

fn f3(p: &Point3) -> [f64; 3] {
    [p.x as f64, p.y as f64, p.z as f64]
}

fn half_extents() -> impl Strategy<Value = Vector3> {
    (
        0.0 as Real..2.0 as Real,
        0.0 as Real..2.0 as Real,
        0.0 as Real..2.0 as Real,
    )
        .prop_map(|(x, y, z)| Vector3::new(x, y, z))
}
fn aabb() -> impl Strategy<Value = Aabb> {
    (point(), half_extents()).prop_map(|(c, h)| Aabb::new(c - h, c + h).unwrap())
}
fn obb() -> impl Strategy<Value = Obb> {
    (point(), rotation(), half_extents()).prop_map(|(c, q, h)| Obb::from_rotation(c, q, h).unwrap())
}
fn triangle() -> impl Strategy<Value = Triangle> {
    (point(), point(), point()).prop_map(|(a, b, c)| Triangle::new(a, b, c).unwrap())
}
fn exact_aabb(b: &Aabb) -> ex::ExactBox {
    ex::ExactBox::from_aabb(f3(&b.min()), f3(&b.max()))
}

/// The core of a radius shape.
#[derive(Debug, Clone, Copy)]
enum Round {
    S(Sphere),
    C(Capsule),
}
impl Round {
    fn radius(&self) -> Real {
        match self {
            Round::S(s) => s.radius(),
            Round::C(c) => c.radius(),
        }
    }
    fn ends(&self) -> (Point3, Point3) {
        match self {
            Round::S(s) => (s.center(), s.center()),
            Round::C(c) => (c.p0(), c.p1()),
        }
    }
    fn with_radius(&self, r: Real) -> Round {
        match self {
            Round::S(s) => Round::S(Sphere::new(s.center(), r).unwrap()),
            Round::C(c) => Round::C(Capsule::new(c.p0(), c.p1(), r).unwrap()),
        }
    }
    fn moved(&self, m: &Isometry3) -> Round {
        match self {
            Round::S(s) => Round::S(Sphere::new(m * s.center(), s.radius()).unwrap()),
            Round::C(c) => Round::C(Capsule::new(m * c.p0(), m * c.p1(), c.radius()).unwrap()),
        }
    }
}
fn round() -> impl Strategy<Value = Round> {
    prop_oneof![
        (point(), radius()).prop_map(|(c, r)| Round::S(Sphere::new(c, r).unwrap())),
        (point(), point(), radius()).prop_map(|(p, q, r)| Round::C(Capsule::new(p, q, r).unwrap())),
        // p0 == p1 capsules.
        (point(), radius()).prop_map(|(p, r)| Round::C(Capsule::new(p, p, r).unwrap())),
    ]
}

/// Every pair with a radius shape first, and a partner.
#[derive(Debug, Clone, Copy)]
enum Other {
    R(Round),
    A(Aabb),
    O(Obb),
    T(Triangle),
}
fn other() -> impl Strategy<Value = Other> {
    prop_oneof![
        round().prop_map(Other::R),
        aabb().prop_map(Other::A),
        obb().prop_map(Other::O),
        triangle().prop_map(Other::T)
    ]
}

fn ours(a: &Round, b: &Other) -> bool {
    match (a, b) {
        (Round::S(s), Other::R(Round::S(t))) => ix::intersects(s, t),
        (Round::S(s), Other::R(Round::C(c))) => ix::intersects(s, c),
        (Round::C(c), Other::R(Round::S(s))) => ix::intersects(s, c),
        (Round::C(c), Other::R(Round::C(d))) => ix::intersects(c, d),
        (Round::S(s), Other::A(b)) => ix::intersects(s, b),
        (Round::S(s), Other::O(b)) => ix::intersects(s, b),
        (Round::S(s), Other::T(t)) => ix::intersects(s, t),
        (Round::C(c), Other::A(b)) => ix::intersects(c, b),
        (Round::C(c), Other::O(b)) => ix::intersects(c, b),
        (Round::C(c), Other::T(t)) => ix::intersects(c, t),
    }
}

/// Exact-reference gap (distance minus radii, f64) and a size for the pair.
fn gap(a: &Round, b: &Other) -> (f64, f64) {
    let (p, q) = a.ends();
    let (p, q) = (f3(&p), f3(&q));
    let (d2, rb, size) = match b {
        Other::R(r) => {
            let (u, v) = r.ends();
            (
                ex::segment_segment_distance_sq(p, q, f3(&u), f3(&v)),
                r.radius() as f64,
                1.0,
            )
        }
        Other::A(bx) => (ex::segment_box_distance_sq(p, q, &exact_aabb(bx)), 0.0, 1.0),
        Other::O(bx) => (
            ex::segment_box_distance_sq(p, q, &common::obb_exact(bx)),
            0.0,
            1.0,
        ),
        Other::T(t) => (
            ex::segment_triangle_distance_sq(p, q, t.vertices().map(|v| f3(&v))),
            0.0,
            1.0,
        ),
    };
    (d2.sqrt() - a.radius() as f64 - rb, size)
}

fn moved_other(b: &Other, m: &Isometry3) -> Other {
    match b {
        Other::R(r) => Other::R(r.moved(m)),
        // An AABB only moves by the translation part (callers use pure translations for it).
        Other::A(bx) => Other::A(
            Aabb::new(
                bx.min() + m.translation.vector,
                bx.max() + m.translation.vector,
            )
            .unwrap(),
        ),
        Other::O(bx) => Other::O(
            Obb::from_rotation(
                m * bx.center(),
                m.rotation * UnitQuaternion::from_matrix(bx.axes()),
                bx.half_extents(),
            )
            .unwrap(),
        ),
        Other::T(t) => {
            let [a, b, c] = t.vertices();
            Other::T(Triangle::new(m * a, m * b, m * c).unwrap())
        }
    }
}

const CLEAR: f64 = 1e-2;

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    /// A common rigid motion (a translation up to 1e3 and, except for AABBs, a rotation)
    /// leaves clear verdicts unchanged.
    #[test]
    fn rigid_motion_invariance(a in round(), b in other(), q in rotation(), t in (coord(), coord(), coord())) {
        let (g, size) = gap(&a, &b);
        prop_assume!(g.abs() > CLEAR * size);
        let rot = if matches!(b, Other::A(_)) { UnitQuaternion::identity() } else { q };
        let m = Isometry3::from_parts(Translation3::new(t.0 * 250.0, t.1 * 250.0, t.2 * 250.0), rot);
        let (a2, b2) = (a.moved(&m), moved_other(&b, &m));
        // The motion is applied in floating point: make sure the moved pair is still clear.
        let (g2, _) = gap(&a2, &b2);
        prop_assume!(g2.abs() > CLEAR * size && (g2 > 0.0) == (g > 0.0));
        prop_assert_eq!(ours(&a, &b), g <= 0.0);
        prop_assert_eq!(ours(&a2, &b2), g2 <= 0.0);
    }

    /// Inflating the radius never turns a hit into a miss.
    #[test]
    fn inflating_the_radius_keeps_hits(a in round(), b in other(), extra in 0.0 as Real..1.0 as Real) {
        if ours(&a, &b) {
            prop_assert!(ours(&a.with_radius(a.radius() + extra), &b));
        }
    }

    /// A capsule with `p0 == p1` agrees with the sphere of the same centre and radius on
    /// clear cases.
    #[test]
    fn point_capsule_is_a_sphere(c in point(), r in radius(), b in other()) {
        let s = Round::S(Sphere::new(c, r).unwrap());
        let k = Round::C(Capsule::new(c, c, r).unwrap());
        let (g, size) = gap(&s, &b);
        prop_assume!(g.abs() > CLEAR * size);
        prop_assert_eq!(ours(&s, &b), ours(&k, &b));
        prop_assert_eq!(ours(&s, &b), g <= 0.0);
    }

    /// A radius-0 sphere hits a box whenever the box contains its centre, and otherwise only
    /// within the documented band of the box.
    #[test]
    fn radius_zero_sphere_matches_contains_point(c in point(), a in aabb(), o in obb()) {
        let s = Sphere::new(c, 0.0).unwrap();
        let hit = ix::intersects(&s, &a);
        if a.contains_point(&c) {
            prop_assert!(hit);
        } else if hit {
            let scale = 32.0 * (f3(&(a.min() - c.coords)).iter().chain(f3(&(a.max() - c.coords)).iter()).map(|x| x.abs()).sum::<f64>());
            prop_assert!(a.distance_to_point(&c) as f64 <= scale * Real::EPSILON as f64);
        }
        let hit = ix::intersects(&s, &o);
        if o.contains_point(&c) {
            prop_assert!(hit);
        } else if hit {
            prop_assert!((o.distance_to_point(&c) as f64) <= 1e-4 * (1.0 + (c - o.center()).norm() as f64));
        }
    }

    /// An AABB and the same box as an `Obb` give the same verdict on clear cases.
    #[test]
    fn aabb_and_obb_agree(a in round(), bx in aabb(), t in triangle()) {
        let o = Obb::from_aabb(&bx);
        let (g, size) = gap(&a, &Other::A(bx));
        if g.abs() > CLEAR * size {
            prop_assert_eq!(ours(&a, &Other::A(bx)), ours(&a, &Other::O(o)));
        }
        let by_aabb = ix::intersects(&t, &bx);
        let by_obb = ix::intersects(&t, &o);
        if by_aabb != by_obb {
            // Only near touching: the exact answer must be within both bands.
            let tv = t.vertices().map(|v| f3(&v));
            let mut d2 = f64::INFINITY;
            for i in 0..3 {
                d2 = d2.min(ex::segment_box_distance_sq(tv[i], tv[(i + 1) % 3], &exact_aabb(&bx)));
            }
            prop_assert!(d2.sqrt() <= 1e-4, "disagreement at distance {}", d2.sqrt());
        }
    }
}
