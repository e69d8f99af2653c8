//! Capsule–OBB overlap: the core segment's distance to the box, measured in the box frame
//! (end points relative to the box centre, then `A^T`), against the radius (Ericson,
//! *Real-Time Collision Detection*, §5.3.3 and §5.1.9; see [`crate::geometry::segment_box`]).
//!
//! Band: with `p`, `q` the end points relative to the box centre, `S = |p|_1 + |q|_1 + |h|_1 +
//! r` and `e` the box's [`Obb::axes_error`], a pair whose exact gap is at most
//! `2 (ALLOWANCE + AXES_FACTOR e) S` may be reported as touching; an intersecting pair is never
//! reported as separated.

use sepax_shapes::{Capsule, Obb};

use crate::geometry::robust::{max_abs, norm1, unit_scale, within_reach};
use crate::geometry::segment_box::segment_local_box_distance_squared;

use sepax_shapes::tolerance::CAPSULE_OBB_ALLOWANCE as ALLOWANCE;

use sepax_shapes::tolerance::CAPSULE_OBB_AXES_FACTOR as AXES_FACTOR;

/// Whether a closed capsule and a closed OBB intersect (touching counts).
pub fn intersects(a: &Capsule, b: &Obb) -> bool {
    let c = b.center();
    let (v0, v1, h) = (a.p0() - c, a.p1() - c, b.half_extents());
    let k = unit_scale(max_abs(&[&v0, &v1, &h], &[a.radius()]));
    let (v0, v1, h, radius) = (v0 * k, v1 * k, h * k, a.radius() * k);
    let p = b.axes().tr_mul(&v0);
    let q = b.axes().tr_mul(&v1);
    let s = norm1(&v0) + norm1(&v1) + norm1(&h) + radius;
    let allowance = (ALLOWANCE + AXES_FACTOR * b.axes_error()) * s;
    within_reach(
        segment_local_box_distance_squared(&p, &q, &h),
        radius + allowance,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Real;
    use sepax_shapes::math::{Point3, UnitQuaternion, Vector3};

    #[test]
    fn cases() {
        let q = UnitQuaternion::from_axis_angle(
            &Vector3::z_axis(),
            core::f64::consts::FRAC_PI_4 as Real,
        );
        let b =
            Obb::from_rotation(Point3::new(1e3, 0.0, 0.0), q, Vector3::new(1.0, 1.0, 1.0)).unwrap();
        // The corner along +x is at 1e3 + sqrt(2) ~ 1e3 + 1.41421.
        let cap = |x: Real, r: Real| {
            Capsule::new(
                Point3::new(1e3 + x, 0.0, -5.0),
                Point3::new(1e3 + x, 0.0, 5.0),
                r,
            )
            .unwrap()
        };
        assert!(intersects(&cap(2.0, 0.59), &b));
        assert!(!intersects(&cap(2.0, 0.58), &b));
        assert!(intersects(&cap(1.4, 0.0), &b));
        // Degenerate capsule (a point) inside.
        let c = Capsule::new(Point3::new(1e3, 0.5, 0.5), Point3::new(1e3, 0.5, 0.5), 0.0).unwrap();
        assert!(intersects(&c, &b));
    }
}
