//! The common view of an AABB or an OBB that the SAT kernels take.

use sepax_shapes::math::{Matrix3, Real, Vector3};
use sepax_shapes::{Aabb, Obb};

/// A box as the SAT kernels see it. The centre is an unevaluated sum `center + center_lo`
/// (exact for an AABB, whose `(min + max) / 2` is generally not a float), so that the
/// translation between two boxes far from the origin is computed with an error relative to the
/// translation itself, not to the coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxFrame {
    /// Leading part of the centre.
    pub center: Vector3,
    /// Trailing part of the centre (0 for an OBB).
    pub center_lo: Vector3,
    /// Axes as columns (identity for an AABB).
    pub axes: Matrix3,
    /// Half-extents (for an AABB the leading part of `(max - min) / 2`).
    pub half: Vector3,
    /// Trailing part of the half-extents (0 for an OBB), so that `half + half_lo` is exact.
    pub half_lo: Vector3,
    /// Upper bound on `max |a_i . a_j - delta_ij|` (0 for an AABB).
    pub axes_error: Real,
    /// Whether the axes are exactly the identity (an AABB).
    pub axis_aligned: bool,
}

/// `s + e = a + b` exactly (Knuth's TwoSum), barring overflow.
#[inline(always)]
pub(crate) fn two_sum(a: Real, b: Real) -> (Real, Real) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

impl From<&Aabb> for BoxFrame {
    #[inline]
    fn from(b: &Aabb) -> Self {
        let (min, max) = (b.min(), b.max());
        let mut center = Vector3::zeros();
        let mut center_lo = Vector3::zeros();
        let mut half = Vector3::zeros();
        let mut half_lo = Vector3::zeros();
        for k in 0..3 {
            // Halve first so that `min + max` cannot overflow; halving is exact barring
            // subnormals, and TwoSum then carries the exact sum.
            let (lo, hi) = (min[k] * 0.5, max[k] * 0.5);
            let (s, e) = two_sum(lo, hi);
            center[k] = s;
            center_lo[k] = e;
            let (s, e) = two_sum(hi, -lo);
            half[k] = s;
            half_lo[k] = e;
        }
        BoxFrame {
            center,
            center_lo,
            axes: Matrix3::identity(),
            half,
            half_lo,
            axes_error: 0.0,
            axis_aligned: true,
        }
    }
}

impl From<&Obb> for BoxFrame {
    #[inline]
    fn from(b: &Obb) -> Self {
        BoxFrame {
            center: b.center().coords,
            center_lo: Vector3::zeros(),
            axes: *b.axes(),
            half: b.half_extents(),
            half_lo: Vector3::zeros(),
            axes_error: b.axes_error(),
            axis_aligned: false,
        }
    }
}

impl BoxFrame {
    /// `c_other - c_self`, accurate to about 2 ulps of the result.
    #[inline(always)]
    pub fn offset_to(&self, other: &BoxFrame) -> Vector3 {
        (other.center - self.center) + (other.center_lo - self.center_lo)
    }
}
