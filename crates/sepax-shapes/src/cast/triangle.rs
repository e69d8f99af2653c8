//! Ray vs triangle.

use super::{impl_cast_segment, RayHit};
use crate::math::{Point3, Real, Vector3};
use crate::scale;
use crate::shape::triangle::closest_on_triangle;
use crate::shape::{Capsule, Ray, Triangle};
use crate::tolerance::FLAT_CONTAINMENT_TOLERANCE;

impl Triangle {
    /// The first hit of `ray` on the triangle, a closed two-sided surface treated as a
    /// zero-thickness solid (see [`crate::cast`]); the normal faces the side the ray comes
    /// from. Point membership uses the tolerance of [`Triangle::contains_point`], so rays through
    /// a shared edge of two triangles hit at least one of them.
    ///
    /// ```text
    /// origin on the triangle                 -> distance 0
    /// origin within tolerance of the plane   -> clip the ray against the three edge slabs
    ///                                           (a ray in the plane enters through an edge)
    /// otherwise t = -(n . (o - a)) / (n . d) -> hit if o + t d is on the triangle
    /// degenerate triangle                    -> its three edges, as zero-radius capsules
    /// ```
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray) -> Option<RayHit> {
        let o = ray.origin();
        if self.contains_point(&o) {
            return Some(RayHit::inside(o));
        }
        let Some(n) = self.normal() else {
            return self.cast_degenerate(ray);
        };
        let s = scale::scale_of(&[self.a(), self.b(), self.c(), o]);
        let [a, b, c] = self.vertices().map(|v| scale::down(&v, s));
        let os = scale::down(&o, s);
        let d = ray.direction();
        let tol = FLAT_CONTAINMENT_TOLERANCE * scale::max_abs(&[a, b, c, os]);
        let sd = n.dot(&(os - a));
        let rate = n.dot(&d);
        let t_max = ray.max_distance() / s;
        if sd.abs() <= tol {
            if let Some((t, normal)) = in_plane_entry(&[a, b, c], &n, &os, &d, t_max) {
                if (sd + rate * t).abs() <= tol {
                    let p = closest_on_triangle(&a, &b, &c, &(os + d * t));
                    return finish(t * s, Point3::from(p.coords * s), normal, ray);
                }
            }
        }
        if rate == 0.0 {
            return None;
        }
        let t = -sd / rate;
        if !(t >= 0.0 && t <= t_max) {
            return None;
        }
        let p = os + d * t;
        let q = closest_on_triangle(&a, &b, &c, &p);
        if (q - p).norm() > FLAT_CONTAINMENT_TOLERANCE * scale::max_abs(&[a, b, c, p]) {
            return None;
        }
        let normal = if rate < 0.0 { n } else { -n };
        finish(t * s, Point3::from(q.coords * s), normal, ray)
    }

    /// A collinear or point triangle: the nearest hit among its edges.
    fn cast_degenerate(&self, ray: &Ray) -> Option<RayHit> {
        let [a, b, c] = self.vertices();
        [(a, b), (b, c), (c, a)]
            .into_iter()
            .filter_map(|(p, q)| Capsule::new(p, q, 0.0).ok()?.cast_ray(ray))
            .min_by(|x, y| x.distance.total_cmp(&y.distance))
    }
}

impl_cast_segment!(Triangle);

fn finish(t: Real, point: Point3, normal: Vector3, ray: &Ray) -> Option<RayHit> {
    (t.is_finite() && t <= ray.max_distance()).then_some(RayHit {
        distance: t,
        point,
        normal,
    })
}

/// Entry of `o + t d` into the prism over the triangle (the intersection of the three slabs
/// bounded by the edges, perpendicular to the plane), Liang–Barsky style; with the outward
/// in-plane normal of the entry edge. `None` without an entry edge in `[0, t_max]`.
fn in_plane_entry(
    v: &[Point3; 3],
    n: &Vector3,
    o: &Point3,
    d: &Vector3,
    t_max: Real,
) -> Option<(Real, Vector3)> {
    let (mut t0, mut t1, mut entry) = (0.0 as Real, t_max, None);
    for i in 0..3 {
        let (p, q, r) = (v[i], v[(i + 1) % 3], v[(i + 2) % 3]);
        let mut m = n.cross(&(q - p));
        if m.dot(&(r - p)) < 0.0 {
            m = -m;
        }
        let (num, den) = (m.dot(&(o - p)), m.dot(d));
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
            continue;
        }
        let t = -num / den;
        if den > 0.0 {
            if t > t0 {
                t0 = t;
                entry = Some(-m);
            }
        } else {
            t1 = t1.min(t);
        }
        if t0 > t1 {
            return None;
        }
    }
    let m = entry?;
    let len = m.norm();
    (len > 0.0).then(|| (t0, m / len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri() -> Triangle {
        Triangle::new(
            Point3::origin(),
            Point3::new(2.0, 0.0, 0.0),
            Point3::new(0.0, 2.0, 0.0),
        )
        .unwrap()
    }

    fn ray(o: [Real; 3], d: [Real; 3]) -> Ray {
        Ray::new(Point3::from(o), Vector3::from(d), Real::INFINITY).unwrap()
    }

    #[test]
    fn through_face_and_edges() {
        let h = tri()
            .cast_ray(&ray([0.5, 0.5, 2.0], [0.0, 0.0, -1.0]))
            .unwrap();
        assert_eq!((h.distance, h.normal), (2.0, Vector3::z()));
        let h = tri()
            .cast_ray(&ray([0.5, 0.5, -2.0], [0.0, 0.0, 1.0]))
            .unwrap();
        assert_eq!(h.normal, -Vector3::z());
        assert!(
            tri()
                .cast_ray(&ray([1.0, 1.0, 2.0], [0.0, 0.0, -1.0]))
                .is_some(),
            "edge"
        );
        assert!(tri()
            .cast_ray(&ray([1.5, 1.5, 2.0], [0.0, 0.0, -1.0]))
            .is_none());
    }

    #[test]
    fn coplanar_ray_enters_through_an_edge() {
        let h = tri()
            .cast_ray(&ray([-1.0, 0.5, 0.0], [1.0, 0.0, 0.0]))
            .unwrap();
        assert!((h.distance - 1.0).abs() < 1e-6, "{h:?}");
        assert!((h.normal + Vector3::x()).norm() < 1e-6);
        assert!(tri()
            .cast_ray(&ray([-1.0, 3.0, 0.0], [1.0, 0.0, 0.0]))
            .is_none());
    }

    #[test]
    fn degenerate_triangle() {
        let t = Triangle::new(
            Point3::origin(),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(2.0, 0.0, 0.0),
        )
        .unwrap();
        let h = t.cast_ray(&ray([1.0, 0.0, 3.0], [0.0, 0.0, -1.0])).unwrap();
        assert_eq!(h.distance, 3.0);
        assert!(t
            .cast_ray(&ray([1.0, 0.5, 3.0], [0.0, 0.0, -1.0]))
            .is_none());
    }
}
