//! Ray vs plane.

use super::{impl_cast_segment, RayHit};
use crate::scale;
use crate::shape::{Plane, Ray};

impl Plane {
    /// The first hit of `ray` on the plane, seen as a two-sided surface with zero thickness
    /// (solid-aware like the other shapes: an origin on the plane, within the tolerance of
    /// [`Plane::contains_point`], hits at distance 0 with a zero normal). The normal faces the
    /// side the ray comes from; a ray parallel to the plane and off it misses.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray) -> Option<RayHit> {
        let o = ray.origin();
        if self.contains_point(&o) {
            return Some(RayHit::inside(o));
        }
        let (n, d) = (self.normal(), ray.direction());
        let rate = n.dot(&d);
        if rate == 0.0 {
            return None;
        }
        let s = scale::pow2_scale(o.coords.amax().max(self.d().abs()));
        let sd = n.dot(&(o.coords / s)) - self.d() / s;
        let t = -sd / rate * s;
        if !(t >= 0.0 && t.is_finite() && t <= ray.max_distance()) {
            return None;
        }
        let normal = if rate < 0.0 { n } else { -n };
        Some(RayHit {
            distance: t,
            point: self.closest_point(&ray.point_at(t)),
            normal,
        })
    }
}

impl_cast_segment!(Plane);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point3, Real, Vector3};

    #[test]
    fn both_sides() {
        let pl = Plane::from_point_normal(Point3::new(0.0, 1.0, 0.0), Vector3::y()).unwrap();
        let down = Ray::new(Point3::new(0.0, 3.0, 0.0), -Vector3::y(), Real::INFINITY).unwrap();
        let h = pl.cast_ray(&down).unwrap();
        assert_eq!((h.distance, h.normal), (2.0, Vector3::y()));
        let up = Ray::new(Point3::new(0.0, -3.0, 0.0), Vector3::y(), Real::INFINITY).unwrap();
        assert_eq!(pl.cast_ray(&up).unwrap().normal, -Vector3::y());
        let away = Ray::new(Point3::new(0.0, 3.0, 0.0), Vector3::y(), Real::INFINITY).unwrap();
        assert!(pl.cast_ray(&away).is_none());
        let along = Ray::new(Point3::new(0.0, 3.0, 0.0), Vector3::x(), Real::INFINITY).unwrap();
        assert!(pl.cast_ray(&along).is_none());
    }
}
