//! Sphere–sphere overlap.
//!
//! Centre distance against the sum of radii, squared (no square root). The centre difference
//! is taken first, so spheres far from the origin keep their precision.
//!
//! Band: with `S = |c_b - c_a|_1 + r_a + r_b`, a pair whose exact gap is at most
//! `2 * ALLOWANCE * S` may be reported as touching; an intersecting pair is never reported as
//! separated.

use sepax_shapes::Sphere;

use crate::geometry::robust::{max_abs, norm1, unit_scale, within_reach};

use sepax_shapes::tolerance::SPHERE_SPHERE_ALLOWANCE as ALLOWANCE;

/// Whether two closed balls intersect (touching counts).
pub fn intersects(a: &Sphere, b: &Sphere) -> bool {
    let d = b.center() - a.center();
    let k = unit_scale(max_abs(&[&d], &[a.radius(), b.radius()]));
    let (d, r) = (d * k, (a.radius() + b.radius()) * k);
    let s = norm1(&d) + r;
    within_reach(d.norm_squared(), r + ALLOWANCE * s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Point3;
    use sepax_shapes::math::Real;

    fn s(x: Real, y: Real, z: Real, r: Real) -> Sphere {
        Sphere::new(Point3::new(x, y, z), r).unwrap()
    }

    #[test]
    fn hits_misses_and_touching() {
        assert!(intersects(&s(0.0, 0.0, 0.0, 1.0), &s(1.5, 0.0, 0.0, 1.0)));
        assert!(intersects(&s(0.0, 0.0, 0.0, 1.0), &s(2.0, 0.0, 0.0, 1.0)));
        assert!(intersects(&s(0.0, 0.0, 0.0, 2.0), &s(3.0, 4.0, 0.0, 3.0)));
        assert!(!intersects(&s(0.0, 0.0, 0.0, 1.0), &s(2.01, 0.0, 0.0, 1.0)));
    }

    #[test]
    fn points_and_far_from_origin() {
        assert!(intersects(&s(1.0, 2.0, 3.0, 0.0), &s(1.0, 2.0, 3.0, 0.0)));
        assert!(!intersects(&s(1.0, 2.0, 3.0, 0.0), &s(1.0, 2.0, 3.5, 0.0)));
        assert!(intersects(
            &s(1e4, 1e4, 1e4, 0.25),
            &s(1e4 + 0.5, 1e4, 1e4, 0.25)
        ));
        assert!(!intersects(
            &s(1e4, 1e4, 1e4, 0.25),
            &s(1e4 + 0.5, 1e4 + 0.125, 1e4, 0.25)
        ));
    }
}
