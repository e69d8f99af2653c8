//! Line segment.

use crate::error::{check_finite_slice, ShapeError};
use crate::math::{Point3, Vector3};

/// The closed segment from `a` to `b` (`a == b` is a point).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    a: Point3,
    b: Point3,
}

impl Segment {
    /// A segment; errors on NaN/infinite coordinates.
    pub fn new(a: Point3, b: Point3) -> Result<Self, ShapeError> {
        check_finite_slice("Segment", "a", a.coords.as_slice())?;
        check_finite_slice("Segment", "b", b.coords.as_slice())?;
        Ok(Self { a, b })
    }

    /// A segment from values the caller guarantees finite (debug-asserted).
    #[inline]
    pub fn new_unchecked(a: Point3, b: Point3) -> Self {
        debug_assert!(Self::new(a, b).is_ok());
        Self { a, b }
    }

    /// The start point.
    #[inline]
    pub fn a(&self) -> Point3 {
        self.a
    }

    /// The end point.
    #[inline]
    pub fn b(&self) -> Point3 {
        self.b
    }

    /// `b - a`.
    #[inline]
    pub fn direction(&self) -> Vector3 {
        self.b - self.a
    }
}
