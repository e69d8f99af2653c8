//! Triangle–OBB overlap: the triangle is moved into the box frame (vertices relative to the
//! box centre, then `A^T`) and tested with the 13-axis separating-axis test of
//! [`super::triangle_aabb`] (Akenine-Möller 2001). Intersection is invariant under the affine
//! map to the box frame, so only the map's rounding and the axes' non-orthonormality need an
//! allowance.
//!
//! Band: with `S = sum_i |v_i - c|_1 + |h|_1` and `e` the box's [`Obb::axes_error`], a pair
//! whose exact gap is at most `2 (ALLOWANCE + AXES_FACTOR e) S` may be reported as touching
//! (the per-axis allowance is `(ALLOWANCE + AXES_FACTOR e) S |a|_1`, ambiguous pairs are
//! decided by distance as in `triangle_aabb`); an intersecting pair is never reported as
//! separated.

use sepax_shapes::{Obb, Triangle};

use super::triangle_aabb::{triangle_local_box, triangle_scale};
use crate::geometry::robust::norm1;

use sepax_shapes::tolerance::TRIANGLE_OBB_ALLOWANCE as ALLOWANCE;

use sepax_shapes::tolerance::TRIANGLE_OBB_AXES_FACTOR as AXES_FACTOR;

/// Whether a closed triangle and a closed OBB intersect (touching counts).
pub fn intersects(a: &Triangle, b: &Obb) -> bool {
    let c = b.center();
    let w = a.vertices().map(|p| p - c);
    let k = triangle_scale(&w, &b.half_extents());
    let (w, h) = (w.map(|x| x * k), b.half_extents() * k);
    let v = w.map(|x| b.axes().tr_mul(&x));
    let s = norm1(&w[0]) + norm1(&w[1]) + norm1(&w[2]) + norm1(&h);
    triangle_local_box(&v, &h, (ALLOWANCE + AXES_FACTOR * b.axes_error()) * s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Real;
    use sepax_shapes::math::{Point3, UnitQuaternion, Vector3};

    fn t(a: [Real; 3], b: [Real; 3], c: [Real; 3]) -> Triangle {
        Triangle::new(Point3::from(a), Point3::from(b), Point3::from(c)).unwrap()
    }

    #[test]
    fn cases() {
        let q = UnitQuaternion::from_axis_angle(
            &Vector3::z_axis(),
            core::f64::consts::FRAC_PI_4 as Real,
        );
        let b =
            Obb::from_rotation(Point3::new(0.0, 0.0, 1e3), q, Vector3::new(1.0, 1.0, 1.0)).unwrap();
        // A vertical triangle in the plane x = d: the box reaches x = sqrt(2).
        let tri = |d: Real| {
            t(
                [d, -1.0, 1e3 - 1.0],
                [d, 1.0, 1e3 - 1.0],
                [d, 0.0, 1e3 + 1.0],
            )
        };
        assert!(intersects(&tri(1.41), &b));
        assert!(!intersects(&tri(1.42), &b));
        // A point triangle inside.
        let p = t([0.5, 0.0, 1e3], [0.5, 0.0, 1e3], [0.5, 0.0, 1e3]);
        assert!(intersects(&p, &b));
    }

    #[test]
    fn agrees_with_aabb_version_when_axis_aligned() {
        let aabb = sepax_shapes::Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 2.0, 0.0))
            .unwrap();
        let obb = Obb::from_aabb(&aabb);
        let tr = t([0.5, 1.0, -1.0], [0.5, 1.0, 1.0], [3.0, 1.0, 0.0]);
        assert!(intersects(&tr, &obb));
        assert!(super::super::triangle_aabb::intersects(&tr, &aabb));
        let tr = t([0.5, 1.0, 0.25], [0.5, 1.5, 1.0], [3.0, 1.0, 0.5]);
        assert!(!intersects(&tr, &obb));
        assert!(!super::super::triangle_aabb::intersects(&tr, &aabb));
    }
}
