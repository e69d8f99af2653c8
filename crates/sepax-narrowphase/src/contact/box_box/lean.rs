//! A box as the contact kernels read it: an `Obb` in place, an AABB through its `BoxFrame`.

use super::*;

/// A box as the contact kernels read it, in place: an [`Obb`] directly (no copy into a
/// [`BoxFrame`], and no zero low parts whose additions the compiler cannot remove: `x + 0.0` is
/// not `x` for `x = -0.0`), an AABB through its frame (whose centre carries an exact low part).
pub(super) trait LeanBox {
    /// The frame, for the cold accurate edge path.
    fn full_frame(&self) -> BoxFrame;
    /// Axes as columns.
    fn axes(&self) -> &Matrix3;
    /// Whether the axes are exactly the identity.
    fn axis_aligned(&self) -> bool;
    /// Leading part of the centre.
    fn center_hi(&self) -> Vector3;
    /// Whether the centre has a trailing part (constant `false` for an OBB).
    fn has_lo(&self) -> bool;
    /// Trailing part of the centre (zero when `!has_lo()`).
    fn center_lo(&self) -> Vector3;
    /// Half-extents.
    fn half(&self) -> Vector3;
    /// The axes' orthonormality defect bound.
    fn axes_error(&self) -> Real;
    /// The box scaled about the origin by `f`, a power of two (exact, barring subnormals).
    fn scaled(&self, f: Real) -> Self;
}

impl LeanBox for Obb {
    #[inline(always)]
    fn full_frame(&self) -> BoxFrame {
        BoxFrame::from(self)
    }
    #[inline(always)]
    fn axes(&self) -> &Matrix3 {
        Obb::axes(self)
    }
    #[inline(always)]
    fn axis_aligned(&self) -> bool {
        false
    }
    #[inline(always)]
    fn center_hi(&self) -> Vector3 {
        self.center().coords
    }
    #[inline(always)]
    fn has_lo(&self) -> bool {
        false
    }
    #[inline(always)]
    fn center_lo(&self) -> Vector3 {
        Vector3::zeros()
    }
    #[inline(always)]
    fn half(&self) -> Vector3 {
        self.half_extents()
    }
    #[inline(always)]
    fn axes_error(&self) -> Real {
        Obb::axes_error(self)
    }
    fn scaled(&self, f: Real) -> Obb {
        // The same axes (so the same defect bound); the centre and sizes scaled exactly.
        Obb::new_unchecked(
            Point3::from(self.center().coords * f),
            *Obb::axes(self),
            self.half_extents() * f,
        )
    }
}

impl LeanBox for BoxFrame {
    #[inline(always)]
    fn full_frame(&self) -> BoxFrame {
        *self
    }
    #[inline(always)]
    fn axes(&self) -> &Matrix3 {
        &self.axes
    }
    #[inline(always)]
    fn axis_aligned(&self) -> bool {
        self.axis_aligned
    }
    #[inline(always)]
    fn center_hi(&self) -> Vector3 {
        self.center
    }
    #[inline(always)]
    fn has_lo(&self) -> bool {
        true
    }
    #[inline(always)]
    fn center_lo(&self) -> Vector3 {
        self.center_lo
    }
    #[inline(always)]
    fn half(&self) -> Vector3 {
        self.half
    }
    #[inline(always)]
    fn axes_error(&self) -> Real {
        self.axes_error
    }
    fn scaled(&self, f: Real) -> BoxFrame {
        BoxFrame {
            center: self.center * f,
            center_lo: self.center_lo * f,
            half: self.half * f,
            half_lo: self.half_lo * f,
            ..*self
        }
    }
}

/// `c_b - c_a` as [`BoxFrame::offset_to`] computes it (the low parts' term dropped when both
/// are zero; the result then differs at most in the sign of a zero).
#[inline(always)]
pub(super) fn offset<A: LeanBox, B: LeanBox>(a: &A, b: &B) -> Vector3 {
    let d = b.center_hi() - a.center_hi();
    if a.has_lo() || b.has_lo() {
        d + (b.center_lo() - a.center_lo())
    } else {
        d
    }
}

/// The centre in world space (`hi + lo`, rounded).
#[inline(always)]
pub(super) fn world_center<A: LeanBox>(a: &A) -> Vector3 {
    if a.has_lo() {
        a.center_hi() + a.center_lo()
    } else {
        a.center_hi()
    }
}

/// A box's centre and axes, for taking points back to world space; the axes are read in place
/// (only the three a face contact uses are loaded).
pub(super) struct WorldFrame<'f> {
    pub(super) c: [Real; 3],
    pub(super) axes: &'f [[Real; 3]; 3],
}

impl<'f> WorldFrame<'f> {
    #[inline(always)]
    pub(super) fn new<F: LeanBox>(b: &'f F) -> WorldFrame<'f> {
        let c = world_center(b);
        WorldFrame {
            c: [c.x, c.y, c.z],
            axes: &b.axes().data.0,
        }
    }
}
