//! Ray vs capsule.

use super::sphere::ball_entry;
use super::{impl_cast_segment, RayHit};
use crate::math::{Point3, Real, Vector3};
use crate::scale;
use crate::shape::segment::closest_on_segment;
use crate::shape::{Capsule, Ray};

/// Entry of the ray `o + t d` into the lateral surface of the cylinder of radius `r` around
/// `a b`, for an origin outside the capsule, when the entry point projects inside `[a, b]`
/// (Ericson, *Real-Time Collision Detection*, §5.3.7, in the stable form of `ball_entry`):
/// ```text
/// perp(v) = v - n (v . n) / (n . n)          (component across the axis n = b - a)
/// |perp(m) + t perp(d)|^2 = r^2, m = o - a:  A t^2 + 2 B t + C' = 0
/// l = perp(m) - (B / A) perp(d);  disc / A = r^2 - l . l
/// t = C' / (-B + sqrt(A) sqrt(r^2 - l . l))
/// ```
fn lateral_entry(a: &Vector3, b: &Vector3, r: Real, o: &Vector3, d: &Vector3) -> Option<Real> {
    let n = b - a;
    let nn = n.norm_squared();
    if nn == 0.0 {
        return None;
    }
    let perp = |v: &Vector3| v - n * (v.dot(&n) / nn);
    let m = o - a;
    let (pm, pd) = (perp(&m), perp(d));
    let aa = pd.norm_squared();
    let bb = pm.dot(&pd);
    let cc = pm.norm_squared() - r * r;
    // Parallel to the axis, already within the infinite cylinder, or moving away: the end
    // spheres decide.
    if aa == 0.0 || cc <= 0.0 || bb >= 0.0 {
        return None;
    }
    let l = pm - pd * (bb / aa);
    let disc = r * r - l.norm_squared();
    if disc < 0.0 {
        return None;
    }
    let t = cc / (-bb + aa.sqrt() * disc.sqrt());
    let u = (m + d * t).dot(&n) / nn;
    (0.0..=1.0).contains(&u).then_some(t)
}

impl Capsule {
    /// The first hit of `ray` on the capsule (solid-aware: see [`crate::cast`]).
    ///
    /// A capsule is the union of its two end balls and the finite cylinder between them; the
    /// cylinder's end discs lie inside the balls, so for an origin outside, the entry distance is
    /// the least of the two ball entries and the lateral entry. Runs on rescaled numbers.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray) -> Option<RayHit> {
        let o = ray.origin();
        if self.contains_point(&o) {
            return Some(RayHit::inside(o));
        }
        let (p0, p1, r) = (self.p0(), self.p1(), self.radius());
        let s = scale::pow2_scale(scale::max_abs(&[o, p0, p1]).max(r));
        let (a, b, os, rs) = (p0.coords / s, p1.coords / s, o.coords / s, r / s);
        let d = ray.direction();
        let t = [
            ball_entry(&a, rs, &os, &d),
            ball_entry(&b, rs, &os, &d),
            lateral_entry(&a, &b, rs, &os, &d),
        ]
        .into_iter()
        .flatten()
        .fold(Real::INFINITY, Real::min);
        let ts = t * s;
        if !(ts.is_finite() && ts <= ray.max_distance()) {
            return None;
        }
        let p = Point3::from(os + d * t);
        let q = closest_on_segment(&Point3::from(a), &Point3::from(b), &p);
        let normal = super::entry_normal(scale::unit_from_to(&q, &p), &d, r);
        let point = Point3::from((q.coords + normal * rs) * s);
        Some(RayHit {
            distance: ts,
            point,
            normal,
        })
    }
}

impl_cast_segment!(Capsule);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lateral_and_caps() {
        let c = Capsule::new(Point3::origin(), Point3::new(0.0, 2.0, 0.0), 0.5).unwrap();
        let r = Ray::new(Point3::new(-3.0, 1.0, 0.0), Vector3::x(), Real::INFINITY).unwrap();
        let h = c.cast_ray(&r).unwrap();
        assert_eq!((h.distance, h.normal), (2.5, -Vector3::x()));
        let r = Ray::new(Point3::new(0.0, 5.0, 0.0), -Vector3::y(), Real::INFINITY).unwrap();
        let h = c.cast_ray(&r).unwrap();
        assert_eq!((h.distance, h.normal), (2.5, Vector3::y()));
        let r = Ray::new(Point3::new(-3.0, 2.4, 0.0), Vector3::x(), Real::INFINITY).unwrap();
        let h = c.cast_ray(&r).unwrap();
        assert!(h.point.y > 2.0 && h.normal.x < 0.0 && h.normal.y > 0.0);
        let r = Ray::new(Point3::new(-3.0, 2.6, 0.0), Vector3::x(), Real::INFINITY).unwrap();
        assert!(c.cast_ray(&r).is_none());
    }
}
