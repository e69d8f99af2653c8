//! Ray vs oriented box: the ray moved into the box frame, then slabs against `[-h, h]`.

use super::aabb::{entry_point, slab_entry};
use super::{impl_cast_segment, RayHit};
use crate::math::Real;
use crate::shape::{Obb, Ray};

impl Obb {
    /// The first hit of `ray` on the box (solid-aware: see [`crate::cast`]). The origin is
    /// mapped with [`Obb::to_local`] and the direction by `A^T`; the inside test uses the same
    /// local origin as [`Obb::contains_point`], so the two agree.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray) -> Option<RayHit> {
        self.cast_ray_within(ray, ray.max_distance())
    }

    /// [`Obb::cast_ray`]'s hit when its distance is at most `limit`, else `None` (a hit beyond
    /// `limit` is never finished: no hit point or normal is computed for it; a NaN `limit` is
    /// no limit). The same numbers
    /// as `cast_ray`, bit for bit: the slab loop's exit bound starts at `min(limit,
    /// max_distance)` instead of `max_distance`, and since the loop's entry distance only grows
    /// and its exit bound only shrinks, it rejects at some axis exactly when the final entry
    /// exceeds the final bound, i.e. when `cast_ray` misses or hits beyond `limit`; the entry
    /// distance itself does not depend on the bound. For a closest-hit search, where `limit` is
    /// the nearest hit so far.
    #[must_use]
    #[inline]
    pub fn cast_ray_within(&self, ray: &Ray, limit: Real) -> Option<RayHit> {
        let limit = limit.min(ray.max_distance());
        let o = self.to_local(&ray.origin());
        let h = self.half_extents();
        if (0..3).all(|k| o[k].abs() <= h[k]) {
            return (0.0 <= limit).then(|| RayHit::inside(ray.origin()));
        }
        let d = self.axes().tr_mul(&ray.direction());
        let (t, k) = slab_entry(&o, &d, &-h, &h, limit)?;
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
