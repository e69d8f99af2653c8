//! Swept AABB against AABB: the first time two moving axis-aligned boxes touch.
//!
//! Relative to `A`, `B` moves with `v = v_B - v_A`. On axis `k` the two intervals overlap for
//! `t` in `[enter_k, exit_k]` (Ericson, *Real-Time Collision Detection*, §5.5.8, the
//! slab method); the boxes overlap on the intersection of the three windows, so the first
//! contact is `max_k enter_k` if that is not past `min_k exit_k`.
//!
//! Rounding: `enter_k = gap / v_k` is a subtraction and a division, each rounded once, so the
//! computed value is within `2u` (relative) of the exact one; it is moved down by `4u |enter_k|`
//! and `exit_k` up by `4u |exit_k|`, so the reported time is never later than the exact first
//! contact and a contact is never missed because of rounding.

use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::Aabb;

/// The first contact of a swept AABB pair.
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct SweptAabbHit {
    /// Time of first contact, in `[0, t_max]` (0 when the boxes overlap at the start).
    pub time: Real,
    /// Unit contact normal from `A` to `B`: the axis whose slab was entered last, signed by the
    /// approach; when the boxes overlap at the start, the axis of least overlap signed by the
    /// centres (the classic AABB penetration direction).
    pub normal: Vector3,
}

use sepax_shapes::tolerance::SWEPT_AABB_SLACK as SLACK;

/// The first time in `[0, t_max]` at which `a` moving with velocity `va` and `b` moving with `vb`
/// touch, or `None` if they do not within that window (or the inputs are not finite).
pub fn sweep_aabb_aabb(
    a: &Aabb,
    va: &Vector3,
    b: &Aabb,
    vb: &Vector3,
    t_max: Real,
) -> Option<SweptAabbHit> {
    let v = vb - va;
    if !(v.iter().all(|x| x.is_finite()) && t_max.is_finite() && t_max >= 0.0) {
        return None;
    }
    let (amin, amax, bmin, bmax) = (a.min(), a.max(), b.min(), b.max());
    let mut enter: Real = Real::NEG_INFINITY;
    let mut exit: Real = Real::INFINITY;
    let mut axis: Option<(usize, Real)> = None;
    for k in 0..3 {
        if v[k] == 0.0 {
            if bmax[k] < amin[k] || bmin[k] > amax[k] {
                return None;
            }
            continue;
        }
        // B below A on this axis approaches with v > 0: the normal from A to B is -e_k.
        let (t0, t1, sign) = if v[k] > 0.0 {
            ((amin[k] - bmax[k]) / v[k], (amax[k] - bmin[k]) / v[k], -1.0)
        } else {
            ((amax[k] - bmin[k]) / v[k], (amin[k] - bmax[k]) / v[k], 1.0)
        };
        let t0 = t0 - SLACK * t0.abs();
        let t1 = t1 + SLACK * t1.abs();
        if t0 > enter {
            enter = t0;
            axis = Some((k, sign));
        }
        exit = exit.min(t1);
    }
    if enter > exit || exit < 0.0 || enter > t_max {
        return None;
    }
    if enter > 0.0 {
        let (k, sign) = axis?;
        let mut normal = Vector3::zeros();
        normal[k] = sign;
        return Some(SweptAabbHit {
            time: enter,
            normal,
        });
    }
    // Overlapping at t = 0: the least-overlap axis, signed by the centres.
    let mut best = (0, Real::INFINITY);
    for k in 0..3 {
        let overlap = amax[k].min(bmax[k]) - amin[k].max(bmin[k]);
        if overlap < best.1 {
            best = (k, overlap);
        }
    }
    let k = best.0;
    let dc = (bmin[k] + bmax[k]) * 0.5 - (amin[k] + amax[k]) * 0.5;
    let mut normal = Vector3::zeros();
    normal[k] = if dc < 0.0 { -1.0 } else { 1.0 };
    Some(SweptAabbHit { time: 0.0, normal })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Point3;

    fn bx(min: [Real; 3], max: [Real; 3]) -> Aabb {
        Aabb::new(Point3::from(min), Point3::from(max)).unwrap()
    }

    #[test]
    fn head_on() {
        let a = bx([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]);
        let b = bx([3.0, 0.0, 0.0], [4.0, 1.0, 1.0]);
        let h = sweep_aabb_aabb(
            &a,
            &Vector3::zeros(),
            &b,
            &Vector3::new(-1.0, 0.0, 0.0),
            5.0,
        )
        .unwrap();
        assert!(h.time <= 2.0 && h.time > 2.0 - 1e-5);
        assert_eq!(h.normal, Vector3::x());
        assert!(sweep_aabb_aabb(
            &a,
            &Vector3::zeros(),
            &b,
            &Vector3::new(-1.0, 0.0, 0.0),
            1.5
        )
        .is_none());
        // Moving apart or sideways past.
        assert!(
            sweep_aabb_aabb(&a, &Vector3::zeros(), &b, &Vector3::new(1.0, 0.0, 0.0), 9.0).is_none()
        );
        let c = bx([3.0, 2.0, 0.0], [4.0, 3.0, 1.0]);
        assert!(sweep_aabb_aabb(
            &a,
            &Vector3::zeros(),
            &c,
            &Vector3::new(-1.0, 0.0, 0.0),
            9.0
        )
        .is_none());
    }

    #[test]
    fn overlapping_at_start() {
        let a = bx([0.0, 0.0, 0.0], [2.0, 2.0, 2.0]);
        let b = bx([1.9, 0.5, 0.5], [3.0, 1.5, 1.5]);
        let h = sweep_aabb_aabb(&a, &Vector3::zeros(), &b, &Vector3::zeros(), 1.0).unwrap();
        assert_eq!((h.time, h.normal), (0.0, Vector3::x()));
    }
}
