//! Capsule–AABB overlap: the core segment's distance to the box against the radius, with the
//! slab clip and edge fallback of [`crate::geometry::segment_box`] (Ericson, *Real-Time
//! Collision Detection*, §5.3.3 and §5.1.9). The segment is taken relative to the box's minimum
//! corner and then its centre, so boxes far from the origin keep their precision.
//!
//! Band: with `h` the half-extents and `p`, `q` the end points relative to the box centre,
//! `S = |p|_1 + |q|_1 + |h|_1 + r`; a pair whose exact gap is at most `2 * ALLOWANCE * S` may be
//! reported as touching; an intersecting pair is never reported as separated.

use sepax_shapes::{Aabb, Capsule};

use crate::geometry::robust::{max_abs, norm1, unit_scale, within_reach};
use crate::geometry::segment_box::segment_local_box_distance_squared;

use sepax_shapes::tolerance::CAPSULE_AABB_ALLOWANCE as ALLOWANCE;

/// Whether a closed capsule and a closed AABB intersect (touching counts).
pub fn intersects(a: &Capsule, b: &Aabb) -> bool {
    let min = b.min();
    // Halve before subtracting: `max - min` may overflow where `max/2 - min/2` does not.
    let h = b.max().coords * 0.5 - min.coords * 0.5;
    let p = (a.p0() - min) - h;
    let q = (a.p1() - min) - h;
    let k = unit_scale(max_abs(&[&p, &q, &h], &[a.radius()]));
    let (p, q, h, radius) = (p * k, q * k, h * k, a.radius() * k);
    let s = norm1(&p) + norm1(&q) + norm1(&h) + radius;
    within_reach(
        segment_local_box_distance_squared(&p, &q, &h),
        radius + ALLOWANCE * s,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Point3;
    use sepax_shapes::math::Real;

    fn cap(p: [Real; 3], q: [Real; 3], r: Real) -> Capsule {
        Capsule::new(Point3::from(p), Point3::from(q), r).unwrap()
    }
    fn bx(min: [Real; 3], max: [Real; 3]) -> Aabb {
        Aabb::new(Point3::from(min), Point3::from(max)).unwrap()
    }

    #[test]
    fn cases() {
        let b = bx([0.0, 0.0, 0.0], [2.0, 2.0, 2.0]);
        assert!(intersects(&cap([-1.0, 1.0, 1.0], [3.0, 1.0, 1.0], 0.0), &b)); // through
        assert!(intersects(&cap([3.0, 0.0, 1.0], [3.0, 2.0, 1.0], 1.0), &b)); // parallel, touching
        assert!(!intersects(
            &cap([3.0, 0.0, 1.0], [3.0, 2.0, 1.0], 0.99),
            &b
        ));
        // Skew past the edge x=2, y=2: the core passes at distance sqrt(2)/2 * 2 = sqrt(2).
        assert!(intersects(&cap([5.0, 1.0, 0.0], [1.0, 5.0, 2.0], 1.42), &b));
        assert!(!intersects(
            &cap([5.0, 1.0, 0.0], [1.0, 5.0, 2.0], 1.41),
            &b
        ));
    }

    #[test]
    fn degenerate_and_far() {
        let b = bx([1e4, 1e4, 1e4], [1e4 + 1.0, 1e4 + 1.0, 1e4 + 1.0]);
        // p0 == p1 (a sphere) touching a face.
        assert!(intersects(
            &cap([1e4 + 1.5, 1e4, 1e4], [1e4 + 1.5, 1e4, 1e4], 0.5),
            &b
        ));
        assert!(!intersects(
            &cap([1e4 + 1.5, 1e4, 1e4], [1e4 + 1.5, 1e4, 1e4], 0.4375),
            &b
        ));
        // Zero-extent box (a point) on the core.
        let p = bx([1.0, 1.0, 1.0], [1.0, 1.0, 1.0]);
        assert!(intersects(&cap([0.0, 0.0, 0.0], [2.0, 2.0, 2.0], 0.0), &p));
        assert!(!intersects(&cap([0.0, 0.0, 0.0], [2.0, 2.0, 1.0], 0.0), &p));
    }
}
