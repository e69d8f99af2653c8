//! Sphere.

use crate::error::{check_finite_slice, check_size, ShapeError};
use crate::math::{Point3, Real};

/// A closed ball: centre and radius `>= 0` (radius 0 is a point).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    center: Point3,
    radius: Real,
}

impl Sphere {
    /// A sphere; errors on NaN/infinite numbers or a negative radius.
    pub fn new(center: Point3, radius: Real) -> Result<Self, ShapeError> {
        check_finite_slice("Sphere", "center", center.coords.as_slice())?;
        check_size("Sphere", "radius", None, radius)?;
        Ok(Self { center, radius })
    }

    /// A sphere from values the caller guarantees valid (debug-asserted).
    #[inline]
    pub fn new_unchecked(center: Point3, radius: Real) -> Self {
        debug_assert!(Self::new(center, radius).is_ok());
        Self { center, radius }
    }

    /// The centre.
    #[inline]
    pub fn center(&self) -> Point3 {
        self.center
    }

    /// The radius.
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }
}
