//! Capsule (swept sphere).

use crate::error::{check_finite_slice, check_size, ShapeError};
use crate::math::{Point3, Real};
use crate::shape::Segment;

/// The set of points within `radius` of the segment `p0 p1` (closed). `p0 == p1` is a sphere;
/// radius 0 is a segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capsule {
    segment: Segment,
    radius: Real,
}

impl Capsule {
    /// A capsule; errors on NaN/infinite numbers or a negative radius.
    pub fn new(p0: Point3, p1: Point3, radius: Real) -> Result<Self, ShapeError> {
        check_finite_slice("Capsule", "p0", p0.coords.as_slice())?;
        check_finite_slice("Capsule", "p1", p1.coords.as_slice())?;
        check_size("Capsule", "radius", None, radius)?;
        Ok(Self { segment: Segment::new_unchecked(p0, p1), radius })
    }

    /// A capsule from values the caller guarantees valid (debug-asserted).
    #[inline]
    pub fn new_unchecked(p0: Point3, p1: Point3, radius: Real) -> Self {
        debug_assert!(Self::new(p0, p1, radius).is_ok());
        Self { segment: Segment::new_unchecked(p0, p1), radius }
    }

    /// The core segment.
    #[inline]
    pub fn segment(&self) -> &Segment {
        &self.segment
    }

    /// First end point of the core segment.
    #[inline]
    pub fn p0(&self) -> Point3 {
        self.segment.a()
    }

    /// Second end point of the core segment.
    #[inline]
    pub fn p1(&self) -> Point3 {
        self.segment.b()
    }

    /// The radius.
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }
}
