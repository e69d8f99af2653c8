//! Ray vs sphere.

use super::{impl_cast_segment, RayHit};
use crate::math::{Real, Vector3};
use crate::scale;
use crate::shape::{Ray, Sphere};

/// Entry distance of the ray `o + t d` (unit `d`) into the ball `|x - c| <= r`, for moderate
/// magnitudes; `Some(0)` when the origin is inside.
///
/// Numerically stable form (Haines, Günther, Akenine-Möller, *Ray Tracing Gems* 2019, ch. 7):
/// ```text
/// m = o - c (centre subtracted first), b = m . d, c' = m . m - r^2
/// c' <= 0 -> inside; b >= 0 -> moving away, miss
/// l = m - b d                 (closest approach vector; avoids b^2 - c' cancellation)
/// disc = r^2 - l . l < 0      -> miss
/// q = -b + sqrt(disc) > 0     (no cancellation: both terms >= 0)
/// t = c' / q                  (the smaller root, from t0 t1 = c')
/// ```
pub(crate) fn ball_entry(c: &Vector3, r: Real, o: &Vector3, d: &Vector3) -> Option<Real> {
    let m = o - c;
    let cc = m.norm_squared() - r * r;
    if cc <= 0.0 {
        return Some(0.0);
    }
    let b = m.dot(d);
    if b >= 0.0 {
        return None;
    }
    let l = m - d * b;
    let disc = r * r - l.norm_squared();
    if disc < 0.0 {
        return None;
    }
    Some(cc / (-b + disc.sqrt()))
}

impl Sphere {
    /// The first hit of `ray` on the ball (solid-aware: see [`crate::cast`]). Runs on rescaled
    /// numbers; the hit point is projected onto the sphere along the outward normal.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray) -> Option<RayHit> {
        let o = ray.origin();
        if self.contains_point(&o) {
            return Some(RayHit::inside(o));
        }
        let c = self.center();
        let s = scale::pow2_scale(o.coords.amax().max(c.coords.amax()).max(self.radius()));
        let d = ray.direction();
        let t = ball_entry(&(c.coords / s), self.radius() / s, &(o.coords / s), &d)? * s;
        if !(t.is_finite() && t <= ray.max_distance()) {
            return None;
        }
        let p = o + d * t;
        let normal = super::entry_normal(scale::unit_from_to(&c, &p), &d, self.radius());
        Some(RayHit {
            distance: t,
            point: c + normal * self.radius(),
            normal,
        })
    }
}

impl_cast_segment!(Sphere);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point3;

    #[test]
    fn hits() {
        let s = Sphere::new(Point3::new(10.0, 0.0, 0.0), 1.0).unwrap();
        let r = Ray::new(Point3::origin(), Vector3::x(), Real::INFINITY).unwrap();
        let h = s.cast_ray(&r).unwrap();
        assert_eq!(h.distance, 9.0);
        assert_eq!(h.normal, -Vector3::x());
        let r = Ray::new(Point3::new(0.0, 1.0, 0.0), Vector3::x(), Real::INFINITY).unwrap();
        assert!(
            s.cast_ray(&r).is_some(),
            "tangent ray touches the closed ball"
        );
        let r = Ray::new(Point3::new(0.0, 1.01, 0.0), Vector3::x(), Real::INFINITY).unwrap();
        assert!(s.cast_ray(&r).is_none());
    }

    /// Far from the origin with a small radius: b^2 - c would cancel catastrophically.
    #[test]
    fn cancellation() {
        let s = Sphere::new(Point3::new(1e4, 1e4, 0.0), 0.01).unwrap();
        let dir = Vector3::new(1.0, 1.0, 0.0);
        let r = Ray::new(Point3::origin(), dir, Real::INFINITY).unwrap();
        let h = s.cast_ray(&r).unwrap();
        let expect = (2.0 as Real).sqrt() * 1e4 - 0.01;
        assert!(
            (h.distance - expect).abs() <= 1e-6 * expect,
            "{} vs {expect}",
            h.distance
        );
    }
}
