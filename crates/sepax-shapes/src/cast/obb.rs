//! Ray vs oriented box: the ray moved into the box frame, then slabs against `[-h, h]`.

use super::aabb::{entry_point, slab_entry};
use super::{impl_cast_segment, RayHit};
use crate::shape::{Obb, Ray};

impl Obb {
    /// The first hit of `ray` on the box (solid-aware: see [`crate::cast`]). The origin is
    /// mapped with [`Obb::to_local`] and the direction by `A^T`; the inside test uses the same
    /// local origin as [`Obb::contains_point`], so the two agree.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray) -> Option<RayHit> {
        let o = self.to_local(&ray.origin());
        let h = self.half_extents();
        if (0..3).all(|k| o[k].abs() <= h[k]) {
            return Some(RayHit::inside(ray.origin()));
        }
        let d = self.axes().tr_mul(&ray.direction());
        let (t, k) = slab_entry(&o, &d, &-h, &h, ray.max_distance())?;
        let (p, n) = entry_point(&o, &d, &-h, &h, t, k);
        let normal = (self.axes() * n).normalize();
        Some(RayHit {
            distance: t,
            point: self.center() + self.axes() * p,
            normal,
        })
    }
}

impl_cast_segment!(Obb);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point3, Real, UnitQuaternion, Vector3};

    #[test]
    fn rotated_box() {
        let q = UnitQuaternion::from_axis_angle(
            &Vector3::z_axis(),
            core::f64::consts::FRAC_PI_4 as Real,
        );
        let b = Obb::from_rotation(Point3::origin(), q, Vector3::new(1.0, 1.0, 1.0)).unwrap();
        let r = Ray::new(Point3::new(-5.0, 0.0, 0.0), Vector3::x(), Real::INFINITY).unwrap();
        let h = b.cast_ray(&r).unwrap();
        let sqrt2 = (2.0 as Real).sqrt();
        assert!((h.distance - (5.0 - sqrt2)).abs() < 1e-5, "{h:?}");
        assert!((h.point - Point3::new(-sqrt2, 0.0, 0.0)).norm() < 1e-5);
        assert!((h.normal.norm() - 1.0).abs() < 1e-5 && h.normal.x < 0.0);
        let inside = Ray::new(Point3::new(0.1, 0.0, 0.0), Vector3::y(), 1.0).unwrap();
        assert_eq!(b.cast_ray(&inside).unwrap().distance, 0.0);
    }
}
