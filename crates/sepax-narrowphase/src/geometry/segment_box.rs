//! Distance between a segment and a box (AABB or OBB), computed in the box's frame.

use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::Obb;

use super::segment::segment_segment_distance_squared;

/// Squared distance from the point `p` to the box `[-h, h]` (centred at the origin, axis
/// aligned): clamp, then measure (Ericson, *Real-Time Collision Detection*, §5.1.3). The clamp
/// is exact, so a point on the boundary gets exactly 0.
#[inline]
pub fn point_local_box_distance_squared(p: &Vector3, h: &Vector3) -> Real {
    let mut d = 0.0;
    for k in 0..3 {
        let e = (p[k].abs() - h[k]).max(0.0);
        d += e * e;
    }
    d
}

/// Clips the parameter interval `[0, 1]` of the closed segment `p + t (q - p)` against the
/// three slabs of the box `[-h, h]` (Ericson §5.3.3): the entry parameter when the segment meets
/// the box, `None` otherwise. A direction component of exactly zero keeps the interval when the
/// start lies in the (closed) slab and empties it otherwise; no division by zero, no `0 * inf`.
pub fn clip_segment_local_box(p: &Vector3, q: &Vector3, h: &Vector3) -> Option<Real> {
    let d = q - p;
    let (mut t0, mut t1): (Real, Real) = (0.0, 1.0);
    for k in 0..3 {
        if d[k] == 0.0 {
            if p[k].abs() > h[k] {
                return None;
            }
            continue;
        }
        let ta = (-h[k] - p[k]) / d[k];
        let tb = (h[k] - p[k]) / d[k];
        let (lo, hi) = if ta <= tb { (ta, tb) } else { (tb, ta) };
        t0 = t0.max(lo);
        t1 = t1.min(hi);
        if t0 > t1 {
            return None;
        }
    }
    Some(t0)
}

/// Squared distance between the closed segment `p q` and the box `[-h, h]` (centred at the
/// origin, axis aligned); 0 when they meet.
///
/// First the slab clip; if it misses, the two convex sets are disjoint and a closest pair has a
/// segment end point or a point on one of the box's 12 edges (a segment interior point facing a
/// face interior would make the segment parallel to that face, and then an end point or an
/// edge does as well): the minimum of the two end point–box distances and the twelve
/// segment–edge distances. A meeting that the clip misjudges by rounding (grazing contact,
/// segment nearly parallel to a face) is then measured by these accurate candidates, so the
/// result is within a few `u` times the inputs' magnitude of the exact distance.
pub fn segment_local_box_distance_squared(p: &Vector3, q: &Vector3, h: &Vector3) -> Real {
    if clip_segment_local_box(p, q, h).is_some() {
        return 0.0;
    }
    let mut best =
        point_local_box_distance_squared(p, h).min(point_local_box_distance_squared(q, h));
    let (pp, qq) = (Point3::from(*p), Point3::from(*q));
    // Edge k runs along axis k; the other two coordinates take the four sign combinations.
    for k in 0..3 {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        for (si, sj) in [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)] {
            let mut a = Point3::origin();
            a[i] = si * h[i];
            a[j] = sj * h[j];
            let mut b = a;
            a[k] = -h[k];
            b[k] = h[k];
            best = best.min(segment_segment_distance_squared(&pp, &qq, &a, &b));
            if best == 0.0 {
                return 0.0;
            }
        }
    }
    best
}

/// Squared distance between the closed segment `p q` and an OBB (0 when they meet), measured in
/// the box frame (`A^T (x - c)`). For axes that are orthonormal up to [`Obb::axes_error`] the
/// local distance differs from the world one by a relative amount of that order.
pub fn segment_obb_distance_squared(p: &Point3, q: &Point3, obb: &Obb) -> Real {
    let pl = obb.to_local(p);
    let ql = obb.to_local(q);
    segment_local_box_distance_squared(&pl, &ql, &obb.half_extents())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::Aabb;

    fn v(x: Real, y: Real, z: Real) -> Vector3 {
        Vector3::new(x, y, z)
    }

    #[test]
    fn segment_box_cases() {
        let h = v(1.0, 2.0, 3.0);
        // Through the box.
        assert_eq!(
            segment_local_box_distance_squared(&v(-5.0, 0.0, 0.0), &v(5.0, 0.0, 0.0), &h),
            0.0
        );
        // Touching a face with an end point.
        assert_eq!(
            segment_local_box_distance_squared(&v(1.0, 0.0, 0.0), &v(5.0, 0.0, 0.0), &h),
            0.0
        );
        // Parallel to a face, outside.
        assert_eq!(
            segment_local_box_distance_squared(&v(3.0, -1.0, 0.0), &v(3.0, 1.0, 0.0), &h),
            4.0
        );
        // Skew past an edge: the edge x = 1, y = 2 (along z); the segment passes at x + y = 5.
        let d = segment_local_box_distance_squared(&v(5.0, 0.0, -1.0), &v(0.0, 5.0, 1.0), &h);
        assert!((d - 2.0).abs() <= 8.0 * Real::EPSILON, "{d}");
        // Zero direction component on the slab boundary.
        assert_eq!(
            segment_local_box_distance_squared(&v(1.0, -9.0, 0.0), &v(1.0, 9.0, 0.0), &h),
            0.0
        );
    }

    #[test]
    fn zero_extent_box_is_a_point() {
        let h = Vector3::zeros();
        assert_eq!(
            segment_local_box_distance_squared(&v(-1.0, 0.0, 0.0), &v(1.0, 0.0, 0.0), &h),
            0.0
        );
        assert_eq!(
            segment_local_box_distance_squared(&v(-1.0, 2.0, 0.0), &v(1.0, 2.0, 0.0), &h),
            4.0
        );
    }

    #[test]
    fn aabb_far_from_origin() {
        let aabb = Aabb::new(
            Point3::new(1e4, 1e4, 1e4),
            Point3::new(1e4 + 1.0, 1e4 + 1.0, 1e4 + 1.0),
        )
        .unwrap();
        let obb = Obb::from_aabb(&aabb);
        let d = segment_obb_distance_squared(
            &Point3::new(1e4 + 2.0, 1e4, 1e4),
            &Point3::new(1e4 + 2.0, 1e4 + 1.0, 1e4),
            &obb,
        );
        assert_eq!(d, 1.0);
        let d = segment_obb_distance_squared(
            &Point3::new(1e4 + 1.0, 1e4, 1e4),
            &Point3::new(1e4 + 2.0, 1e4 + 1.0, 1e4),
            &obb,
        );
        assert_eq!(d, 0.0);
    }
}
