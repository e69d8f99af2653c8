//! Sphere–AABB overlap.
//!
//! Clamp the centre to the box and compare the squared distance with `r^2` (Arvo 1990, "A
//! simple method for box-sphere intersection testing", Graphics Gems; Ericson, *Real-Time
//! Collision Detection*, §5.2.5). The box corners are taken relative to the sphere's centre
//! first, so the clamp works on small numbers far from the origin.
//!
//! Band: with `S = |min - c|_1 + |max - c|_1 + r`, a pair whose exact gap is at most
//! `2 * ALLOWANCE * S` may be reported as touching; an intersecting pair never as separated.

use sepax_shapes::math::Vector3;
use sepax_shapes::{Aabb, Sphere};

use crate::geometry::robust::{max_abs, norm1, unit_scale, within_reach};

use sepax_shapes::tolerance::SPHERE_AABB_ALLOWANCE as ALLOWANCE;

/// Whether a closed ball and a closed AABB intersect (touching counts).
pub fn intersects(a: &Sphere, b: &Aabb) -> bool {
    let c = a.center();
    let (lo, hi) = (b.min() - c, b.max() - c);
    let k = unit_scale(max_abs(&[&lo, &hi], &[a.radius()]));
    let (lo, hi, radius) = (lo * k, hi * k, a.radius() * k);
    // The vector from the centre (now the origin) to the closest box point.
    let d = Vector3::zeros().sup(&lo).inf(&hi);
    let s = norm1(&lo) + norm1(&hi) + radius;
    within_reach(d.norm_squared(), radius + ALLOWANCE * s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Point3;
    use sepax_shapes::math::Real;

    fn bx(min: [Real; 3], max: [Real; 3]) -> Aabb {
        Aabb::new(Point3::from(min), Point3::from(max)).unwrap()
    }
    fn s(c: [Real; 3], r: Real) -> Sphere {
        Sphere::new(Point3::from(c), r).unwrap()
    }

    #[test]
    fn cases() {
        let b = bx([0.0, 0.0, 0.0], [1.0, 2.0, 3.0]);
        assert!(intersects(&s([0.5, 0.5, 0.5], 0.1), &b)); // inside
        assert!(intersects(&s([2.0, 1.0, 1.0], 1.0), &b)); // touching a face
        assert!(!intersects(&s([2.0, 1.0, 1.0], 0.99), &b));
        assert!(intersects(&s([4.0, 6.0, 3.0], 5.0), &b)); // touching the edge x=1,y=2: 3-4-5
        assert!(!intersects(&s([4.0, 6.0, 3.0], 4.99), &b));
        // Radius 0 on the boundary.
        assert!(intersects(&s([1.0, 2.0, 3.0], 0.0), &b));
    }

    #[test]
    fn degenerate_and_far() {
        let p = bx([1.0, 1.0, 1.0], [1.0, 1.0, 1.0]);
        assert!(intersects(&s([1.0, 1.0, 2.0], 1.0), &p));
        assert!(!intersects(&s([1.0, 1.0, 2.5], 1.0), &p));
        let far = bx([1e4, 1e4, 1e4], [1e4 + 1.0, 1e4 + 1.0, 1e4 + 1.0]);
        assert!(intersects(&s([1e4 + 1.5, 1e4, 1e4], 0.5), &far));
        assert!(!intersects(&s([1e4 + 1.5, 1e4, 1e4], 0.4375), &far));
    }
}
