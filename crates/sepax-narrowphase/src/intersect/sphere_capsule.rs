//! Sphere–capsule overlap: the centre's distance to the core segment against the radius sum
//! (Ericson, *Real-Time Collision Detection*, §4.5.1 and §5.1.2). The segment is taken relative
//! to the sphere's centre first.
//!
//! Band: with `S = |p0 - c|_1 + |p1 - c|_1 + r_a + r_b`, a pair whose exact gap is at most
//! `2 * ALLOWANCE * S` may be reported as touching; an intersecting pair never as separated.

use sepax_shapes::math::Point3;
use sepax_shapes::{Capsule, Sphere};

use crate::geometry::robust::{max_abs, norm1, unit_scale, within_reach};
use crate::geometry::segment::point_segment_distance_squared;

use sepax_shapes::tolerance::SPHERE_CAPSULE_ALLOWANCE as ALLOWANCE;

/// Whether a closed ball and a closed capsule intersect (touching counts).
pub fn intersects(a: &Sphere, b: &Capsule) -> bool {
    let c = a.center();
    let (p, q) = (b.p0() - c, b.p1() - c);
    let k = unit_scale(max_abs(&[&p, &q], &[a.radius(), b.radius()]));
    let (p, q) = (Point3::from(p * k), Point3::from(q * k));
    let r = (a.radius() + b.radius()) * k;
    let s = norm1(&p.coords) + norm1(&q.coords) + r;
    within_reach(
        point_segment_distance_squared(&Point3::origin(), &p, &q),
        r + ALLOWANCE * s,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Real;

    fn cap(p: [Real; 3], q: [Real; 3], r: Real) -> Capsule {
        Capsule::new(Point3::from(p), Point3::from(q), r).unwrap()
    }
    fn s(c: [Real; 3], r: Real) -> Sphere {
        Sphere::new(Point3::from(c), r).unwrap()
    }

    #[test]
    fn cases() {
        let c = cap([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], 1.0);
        assert!(intersects(&s([2.0, 2.0, 0.0], 1.0), &c)); // touching the side
        assert!(!intersects(&s([2.0, 2.0, 0.0], 0.99), &c));
        assert!(intersects(&s([7.0, 4.0, 0.0], 4.0), &c)); // touching the end cap: 3-4-5
        assert!(!intersects(&s([7.0, 4.0, 0.0], 3.99), &c));
        assert!(intersects(&s([1.0, 0.0, 0.0], 0.0), &c)); // point on the core
    }

    #[test]
    fn degenerate_and_far() {
        // p0 == p1: a sphere.
        let c = cap([1e4, 1e4, 1e4], [1e4, 1e4, 1e4], 0.5);
        assert!(intersects(&s([1e4 + 1.0, 1e4, 1e4], 0.5), &c));
        assert!(!intersects(&s([1e4 + 1.0, 1e4, 1e4], 0.4375), &c));
        // Radius 0 everywhere: point on segment.
        let c = cap([1e4, 0.0, 0.0], [1e4 + 2.0, 0.0, 0.0], 0.0);
        assert!(intersects(&s([1e4 + 1.0, 0.0, 0.0], 0.0), &c));
        assert!(!intersects(&s([1e4 + 1.0, 0.0078125, 0.0], 0.0), &c));
    }
}
