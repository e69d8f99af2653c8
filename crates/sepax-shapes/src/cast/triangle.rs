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
    /// The reported distance is that of the first ray point [`Triangle::contains_point`]
    /// accepts: up to `tolerance / cos(incidence)` before the geometric plane crossing, so that
    /// the cast and containment agree (the hit point itself is projected onto the triangle).
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
        let face = if rate < 0.0 { n } else { -n };
        let t = -sd / rate;
        if rate != 0.0 && t >= 0.0 && t <= t_max {
            let p = os + d * t;
            let q = closest_on_triangle(&a, &b, &c, &p);
            if (q - p).norm() <= FLAT_CONTAINMENT_TOLERANCE * scale::max_abs(&[a, b, c, p]) {
                // A grazing ray enters the tolerance band tol / |rate| before the crossing:
                // report the first contained point, as containment sees it.
                let band = (t - tol / rate.abs()).max(0.0) * s;
                let t = self.first_contained(ray, band, t * s);
                let q = self.closest_point(&ray.point_at(t));
                return finish(t, q, face, ray);
            }
        }
        self.cast_grazing(ray, face)
    }

    /// The first `t` in `[lo, hi]` whose ray point is contained, given that `hi`'s is: `lo` if
    /// contained, else bisection (the contained part of a ray is an interval: the tolerance
    /// region of a triangle is convex).
    fn first_contained(&self, ray: &Ray, lo: Real, hi: Real) -> Real {
        if lo >= hi || self.contains_point(&ray.point_at(lo)) {
            return lo.min(hi);
        }
        let (mut out, mut hit) = (lo, hi);
        loop {
            let mid = out + (hit - out) * 0.5;
            if mid <= out || mid >= hit {
                return hit;
            }
            if self.contains_point(&ray.point_at(mid)) {
                hit = mid;
            } else {
                out = mid;
            }
        }
    }

    /// The slow path for rays that do not cross the plane on the triangle but may pass within
    /// the containment tolerance of it (grazing rays near an edge): the first point of the ray
    /// that [`Triangle::contains_point`] accepts, so that casts agree with containment.
    ///
    /// ```text
    /// [t0, t1] = the ray inside the triangle's AABB grown by the tolerance (slabs); else miss
    /// f(t) = dist(o + t d, T) is convex: golden-section search for its minimum t*
    /// contains(o + t* d) false -> miss; else bisect [t0, t*] for the first contained point
    /// ```
    fn cast_grazing(&self, ray: &Ray, face: Vector3) -> Option<RayHit> {
        let b = self.world_aabb();
        let grow =
            FLAT_CONTAINMENT_TOLERANCE * scale::max_abs(&[b.min(), b.max(), ray.origin()]) * 2.0;
        let (lo, hi) = (
            b.min().coords.add_scalar(-grow),
            b.max().coords.add_scalar(grow),
        );
        let (o, d) = (ray.origin().coords, ray.direction());
        let t_max = ray.max_distance();
        let inside_box = (0..3).all(|k| lo[k] <= o[k] && o[k] <= hi[k]);
        let t0 = if inside_box {
            0.0
        } else {
            super::aabb::slab_entry(&o, &d, &lo, &hi, t_max)?.0
        };
        let mut t1 = t_max;
        for k in 0..3 {
            if d[k] != 0.0 {
                t1 = t1.min(((lo[k] - o[k]) / d[k]).max((hi[k] - o[k]) / d[k]));
            }
        }
        if !(t1.is_finite() && t0 <= t1) {
            return None;
        }
        let f = |t: Real| self.distance_to_point(&ray.point_at(t));
        const STEPS: usize = 64;
        let g = (5.0_f64.sqrt() as Real - 1.0) / 2.0;
        let (mut l, mut r) = (t0, t1);
        for _ in 0..STEPS {
            let (m1, m2) = (r - g * (r - l), l + g * (r - l));
            if f(m1) <= f(m2) {
                r = m2;
            } else {
                l = m1;
            }
        }
        let best = [t0, l, r, t1]
            .into_iter()
            .min_by(|x, y| f(*x).total_cmp(&f(*y)))?;
        if !self.contains_point(&ray.point_at(best)) {
            return None;
        }
        let hit = self.first_contained(ray, t0, best);
        let x = ray.point_at(hit);
        let q = self.closest_point(&x);
        // Through an edge: the direction from the edge; through the face band: the face normal.
        let v = x - q;
        let in_plane = v - face * face.dot(&v);
        let normal = if in_plane.norm() > face.dot(&v).abs() {
            super::entry_normal(scale::unit_from_to(&q, &x), &d, 1.0)
        } else {
            face
        };
        finish(hit, q, normal, ray)
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
        // The first point containment accepts: the tolerance band, 2 * 256 u before the plane.
        assert!(
            (h.distance - 2.0).abs() <= 2.0 * FLAT_CONTAINMENT_TOLERANCE * 2.0,
            "{h:?}"
        );
        assert_eq!(
            (h.point, h.normal),
            (Point3::new(0.5, 0.5, 0.0), Vector3::z())
        );
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
