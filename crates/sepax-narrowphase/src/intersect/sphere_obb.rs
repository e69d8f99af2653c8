//! Sphere–OBB overlap.
//!
//! Clamp the centre in the box frame and compare squared distances (Ericson, *Real-Time
//! Collision Detection*, §5.2.6 with §5.1.4's closest point on an OBB). The centre is taken
//! relative to the box centre before rotating into the frame.
//!
//! Band: with `v = c - c_box`, `S = |v|_1 + |h|_1 + r` and `e` the box's
//! [`Obb::axes_error`], a pair whose exact gap is at most `2 (ALLOWANCE + AXES_FACTOR e) S` may
//! be reported as touching; an intersecting pair is never reported as separated.

use sepax_shapes::math::Vector3;
use sepax_shapes::{Obb, Sphere};

use crate::geometry::robust::{max_abs, norm1, unit_scale, within_reach};

use sepax_shapes::tolerance::SPHERE_OBB_ALLOWANCE as ALLOWANCE;

use sepax_shapes::tolerance::SPHERE_OBB_AXES_FACTOR as AXES_FACTOR;

/// Whether a closed ball and a closed OBB intersect (touching counts).
pub fn intersects(a: &Sphere, b: &Obb) -> bool {
    let (v, h) = (a.center() - b.center(), b.half_extents());
    let k = unit_scale(max_abs(&[&v, &h], &[a.radius()]));
    let (v, h, radius) = (v * k, h * k, a.radius() * k);
    let l = b.axes().tr_mul(&v);
    let d = Vector3::from_fn(|k, _| (l[k].abs() - h[k]).max(0.0));
    let s = norm1(&v) + norm1(&h) + radius;
    let allowance = (ALLOWANCE + AXES_FACTOR * b.axes_error()) * s;
    within_reach(d.norm_squared(), radius + allowance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Real;
    use sepax_shapes::math::{Point3, UnitQuaternion};

    fn rotated(c: [Real; 3], h: [Real; 3]) -> Obb {
        let q = UnitQuaternion::from_axis_angle(
            &Vector3::z_axis(),
            core::f64::consts::FRAC_PI_4 as Real,
        );
        Obb::from_rotation(Point3::from(c), q, Vector3::from(h)).unwrap()
    }

    #[test]
    fn cases() {
        let b = rotated([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]);
        // The box's corner along +x is at sqrt(2).
        assert!(intersects(
            &Sphere::new(Point3::new(2.0, 0.0, 0.0), 0.6).unwrap(),
            &b
        ));
        assert!(!intersects(
            &Sphere::new(Point3::new(2.0, 0.0, 0.0), 0.58).unwrap(),
            &b
        ));
        assert!(intersects(
            &Sphere::new(Point3::new(0.0, 0.0, 3.0), 2.0).unwrap(),
            &b
        ));
        assert!(!intersects(
            &Sphere::new(Point3::new(0.0, 0.0, 3.0), 1.99).unwrap(),
            &b
        ));
    }

    #[test]
    fn axis_aligned_is_exact_at_touching() {
        let aabb =
            sepax_shapes::Aabb::new(Point3::new(1e4, 0.0, 0.0), Point3::new(1e4 + 2.0, 2.0, 2.0))
                .unwrap();
        let b = Obb::from_aabb(&aabb);
        assert!(intersects(
            &Sphere::new(Point3::new(1e4 + 3.0, 1.0, 1.0), 1.0).unwrap(),
            &b
        ));
        assert!(!intersects(
            &Sphere::new(Point3::new(1e4 + 3.0, 1.0, 1.0), 0.99).unwrap(),
            &b
        ));
        // Zero-extent box (a point).
        let p =
            Obb::from_aabb(&sepax_shapes::Aabb::new(Point3::origin(), Point3::origin()).unwrap());
        assert!(intersects(
            &Sphere::new(Point3::new(0.0, 3.0, 4.0), 5.0).unwrap(),
            &p
        ));
        assert!(!intersects(
            &Sphere::new(Point3::new(0.0, 3.0, 4.0), 4.99).unwrap(),
            &p
        ));
    }
}
