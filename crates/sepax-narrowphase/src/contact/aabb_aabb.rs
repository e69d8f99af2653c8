//! AABB–AABB penetration: the classic per-axis minimum translation vector.

use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::Aabb;

/// The minimum translation vector of two AABBs: along the axis of least overlap, signed by the
/// centres (from `a` toward `b`; a tie of the centres gives `+`), of length the overlap.
/// Translating `b` by it makes the boxes touch. `None` when the boxes are disjoint; the zero
/// vector when they touch. Among axes of equal overlap the first (x, then y, then z) wins.
/// Every component is finite: an overlap beyond the largest finite number (boxes spanning
/// `±3e38` in `f32`) is reported as `Real::MAX`, and the centres are compared without
/// overflow.
///
/// ```text
/// for k in x, y, z:
///     o_k = min(a.max_k - b.min_k, b.max_k - a.min_k)      (< 0: disjoint)
/// k* = argmin o_k;  s = sign(c_b - c_a)_k*;  mtv = s o_k* e_k*
/// ```
#[must_use]
pub fn aabb_min_translation(a: &Aabb, b: &Aabb) -> Option<Vector3> {
    let (amin, amax, bmin, bmax) = (a.min(), a.max(), b.min(), b.max());
    let mut best: Option<(usize, Real, Real)> = None;
    for k in 0..3 {
        // Move b up by this much, or down by this much (an overflow to +inf saturates below).
        let up = amax[k] - bmin[k];
        let down = bmax[k] - amin[k];
        if up < 0.0 || down < 0.0 {
            return None;
        }
        // Sign by the centres, compared without forming (min + max) / 2. The two differences
        // may overflow, but never to infinities of opposite signs (that would need
        // `b.max < 0 < b.min` or `a.max < 0 < a.min`), so the sum has the sign of the exact one.
        let c = (bmin[k] - amin[k]) + (bmax[k] - amax[k]);
        let sign: Real = if c >= 0.0 { 1.0 } else { -1.0 };
        let o = (if sign > 0.0 { up } else { down }).min(Real::MAX);
        if best.is_none_or(|(_, bo, _)| o < bo) {
            best = Some((k, o, sign));
        }
    }
    let (k, o, s) = best?;
    let mut v = Vector3::zeros();
    v[k] = s * o;
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Point3;

    fn bx(min: [Real; 3], max: [Real; 3]) -> Aabb {
        Aabb::new(Point3::from(min), Point3::from(max)).unwrap()
    }

    #[test]
    fn least_overlap_axis_signed_by_centres() {
        let a = bx([0.0, 0.0, 0.0], [2.0, 2.0, 2.0]);
        let b = bx([1.5, 0.5, -0.5], [3.5, 1.5, 1.0]);
        assert_eq!(
            aabb_min_translation(&a, &b),
            Some(Vector3::new(0.5, 0.0, 0.0))
        );
        assert_eq!(
            aabb_min_translation(&b, &a),
            Some(Vector3::new(-0.5, 0.0, 0.0))
        );
        let c = bx([0.5, -0.25, 0.5], [1.5, 0.5, 1.5]);
        assert_eq!(
            aabb_min_translation(&a, &c),
            Some(Vector3::new(0.0, -0.5, 0.0))
        );
    }

    #[test]
    fn touching_is_zero_and_disjoint_is_none() {
        let a = bx([0.0; 3], [1.0; 3]);
        let t = bx([1.0, 0.0, 0.0], [2.0, 1.0, 1.0]);
        assert_eq!(aabb_min_translation(&a, &t), Some(Vector3::zeros()));
        let d = bx([1.5, 0.0, 0.0], [2.0, 1.0, 1.0]);
        assert_eq!(aabb_min_translation(&a, &d), None);
    }

    #[test]
    fn huge_boxes_give_finite_vectors() {
        let m = Real::MAX;
        // p = 2^125 (4.3e37): a spans +-1.7e38 (its width overflows f32).
        let p = (2.0 as Real).powi(125);
        let a = bx([-4.0 * p; 3], [4.0 * p; 3]);
        let b = bx([0.0, -2.0 * p, 3.0 * p], [4.0 * p, 2.0 * p, 4.0 * p]);
        // z: b's centre is above a's, b moves up by 4p - 3p.
        assert_eq!(
            aabb_min_translation(&a, &b),
            Some(Vector3::new(0.0, 0.0, p))
        );
        assert_eq!(
            aabb_min_translation(&b, &a),
            Some(Vector3::new(0.0, 0.0, -p))
        );
        // Overlaps of 2^128 on every axis: beyond the f32 range, reported as MAX there.
        let full = (8.0 * p).min(m);
        assert_eq!(
            aabb_min_translation(&a, &a),
            Some(Vector3::new(full, 0.0, 0.0))
        );
        // Centres compared where the differences overflow: [-MAX, MAX] against [MAX/2, MAX].
        let w = bx([-m, -m, -m], [m, m, m]);
        let t = bx([0.5 * m, -m, -m], [m, m, m]);
        assert_eq!(
            aabb_min_translation(&w, &t),
            Some(Vector3::new(0.5 * m, 0.0, 0.0))
        );
        assert_eq!(
            aabb_min_translation(&t, &w),
            Some(Vector3::new(-0.5 * m, 0.0, 0.0))
        );
    }
}
