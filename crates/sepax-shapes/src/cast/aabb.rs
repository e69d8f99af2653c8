//! Ray vs axis-aligned box: slabs (Williams, Barrus, Morley, Shirley 2005, "An efficient and
//! robust ray-box intersection algorithm"; Ericson, *Real-Time Collision Detection*, §5.3.3).

use super::{impl_cast_segment, RayHit};
use crate::math::{Real, Vector3};
use crate::shape::{Aabb, Ray};

/// Entry into the box `[lo, hi]` of a ray `o + t d`, `0 <= t <= t_max`, whose origin is
/// **outside** the box: the entry distance and the axis of the entry face.
///
/// ```text
/// for each axis k:
///   d_k == 0: the ray is parallel to the slab; it stays in it iff lo_k <= o_k <= hi_k
///             (on a slab plane counts as in: the box is closed). Never form (lo_k - o_k) / 0,
///             whose 0 * inf = NaN when o_k lies on the plane is the trap Williams et al. note.
///   else:     [t_a, t_b] = sorted((lo_k - o_k) / d_k, (hi_k - o_k) / d_k)
///             t0 = max(t0, t_a) (remember k), t1 = min(t1, t_b); empty -> miss
/// ```
/// Dividing (rather than multiplying by `1 / d_k`) keeps a subnormal `d_k` from producing an
/// infinite reciprocal and then `0 * inf`.
pub(crate) fn slab_entry(
    o: &Vector3,
    d: &Vector3,
    lo: &Vector3,
    hi: &Vector3,
    t_max: Real,
) -> Option<(Real, usize)> {
    let (mut t0, mut t1, mut axis) = (0.0 as Real, t_max, None);
    for k in 0..3 {
        if d[k] == 0.0 {
            if o[k] < lo[k] || o[k] > hi[k] {
                return None;
            }
            continue;
        }
        let (ta, tb) = ((lo[k] - o[k]) / d[k], (hi[k] - o[k]) / d[k]);
        let (ta, tb) = if ta <= tb { (ta, tb) } else { (tb, ta) };
        if ta > t0 {
            t0 = ta;
            axis = Some(k);
        }
        t1 = t1.min(tb);
        if t0 > t1 {
            return None;
        }
    }
    let k = axis?;
    t0.is_finite().then_some((t0, k))
}

/// The hit point on the entry face: `o + t d` clamped into the box, with the entry coordinate set
/// exactly on the face; and the outward normal of that face.
pub(crate) fn entry_point(
    o: &Vector3,
    d: &Vector3,
    lo: &Vector3,
    hi: &Vector3,
    t: Real,
    k: usize,
) -> (Vector3, Vector3) {
    let mut p = (o + d * t).sup(lo).inf(hi);
    let mut n = Vector3::zeros();
    if d[k] > 0.0 {
        p[k] = lo[k];
        n[k] = -1.0;
    } else {
        p[k] = hi[k];
        n[k] = 1.0;
    }
    (p, n)
}

impl Aabb {
    /// The first hit of `ray` on the box (solid-aware: see [`crate::cast`]).
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray) -> Option<RayHit> {
        let o = ray.origin();
        if self.contains_point(&o) {
            return Some(RayHit::inside(o));
        }
        let (lo, hi, d) = (self.min().coords, self.max().coords, ray.direction());
        let (t, k) = slab_entry(&o.coords, &d, &lo, &hi, ray.max_distance())?;
        let (p, normal) = entry_point(&o.coords, &d, &lo, &hi, t, k);
        Some(RayHit {
            distance: t,
            point: p.into(),
            normal,
        })
    }
}

impl_cast_segment!(Aabb);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point3;

    fn unit_box() -> Aabb {
        Aabb::new(Point3::origin(), Point3::new(1.0, 1.0, 1.0)).unwrap()
    }

    fn ray(o: [Real; 3], d: [Real; 3]) -> Ray {
        Ray::new(Point3::from(o), Vector3::from(d), Real::INFINITY).unwrap()
    }

    #[test]
    fn basic_hit_and_inside() {
        let h = unit_box()
            .cast_ray(&ray([-1.0, 0.5, 0.5], [1.0, 0.0, 0.0]))
            .unwrap();
        assert_eq!(h.distance, 1.0);
        assert_eq!(h.point, Point3::new(0.0, 0.5, 0.5));
        assert_eq!(h.normal, -Vector3::x());
        let h = unit_box()
            .cast_ray(&ray([0.5, 0.5, 0.5], [1.0, 0.0, 0.0]))
            .unwrap();
        assert_eq!((h.distance, h.normal), (0.0, Vector3::zeros()));
        assert!(unit_box()
            .cast_ray(&ray([-1.0, 0.5, 0.5], [-1.0, 0.0, 0.0]))
            .is_none());
    }

    /// The 0 * inf trap: origin exactly on a slab plane with a zero direction component.
    #[test]
    fn origin_on_slab_plane_with_parallel_direction() {
        // y = 1 is the box's top plane; the ray runs along it and must touch the closed box.
        let h = unit_box()
            .cast_ray(&ray([-1.0, 1.0, 0.5], [1.0, 0.0, 0.0]))
            .unwrap();
        assert_eq!(h.distance, 1.0);
        assert_eq!(h.point, Point3::new(0.0, 1.0, 0.5));
        // On the y = 0 plane, z = 0 plane too (an edge line).
        let h = unit_box()
            .cast_ray(&ray([-2.0, 0.0, 0.0], [1.0, 0.0, 0.0]))
            .unwrap();
        assert_eq!(h.distance, 2.0);
        // Just outside the slab: a miss, not a NaN-driven hit.
        let above = 1.0 + Real::EPSILON;
        assert!(unit_box()
            .cast_ray(&ray([-1.0, above, 0.5], [1.0, 0.0, 0.0]))
            .is_none());
        // Flat box (zero extent on y) with the ray in its plane.
        let flat = Aabb::new(Point3::new(0.0, 1.0, 0.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
        assert!(flat
            .cast_ray(&ray([-1.0, 1.0, 0.5], [1.0, 0.0, 0.0]))
            .is_some());
        // Origin on the plane of the entry face, moving in.
        let h = unit_box()
            .cast_ray(&ray([0.0, 2.0, 0.5], [0.0, -1.0, 0.0]))
            .unwrap();
        assert_eq!((h.distance, h.normal), (1.0, Vector3::y()));
    }

    #[test]
    fn max_distance_and_segments() {
        let r = Ray::new(Point3::new(-1.0, 0.5, 0.5), Vector3::x(), 0.5).unwrap();
        assert!(unit_box().cast_ray(&r).is_none());
        let s = crate::shape::Segment::new(Point3::new(-1.0, 0.5, 0.5), Point3::new(0.0, 0.5, 0.5))
            .unwrap();
        assert_eq!(unit_box().cast_segment(&s).unwrap().distance, 1.0);
        let p = crate::shape::Segment::new(Point3::new(0.5, 0.5, 0.5), Point3::new(0.5, 0.5, 0.5))
            .unwrap();
        assert_eq!(unit_box().cast_segment(&p).unwrap().distance, 0.0);
    }
}
