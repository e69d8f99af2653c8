//! Ray.

use crate::error::{check_finite_slice, check_size, ShapeError};
use crate::math::{Point3, Real, Vector3};

/// A ray `origin + t * direction`, `0 <= t <= max_distance`, with a unit direction, so that `t`
/// is a distance in world units. `max_distance` may be infinite.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    origin: Point3,
    direction: Vector3,
    max_distance: Real,
}

impl Ray {
    /// A ray; `direction` must be finite and non-zero and is normalised; `max_distance` must be
    /// `>= 0` and not NaN (`Real::INFINITY` is allowed).
    pub fn new(origin: Point3, direction: Vector3, max_distance: Real) -> Result<Self, ShapeError> {
        check_finite_slice("Ray", "origin", origin.coords.as_slice())?;
        check_finite_slice("Ray", "direction", direction.as_slice())?;
        if max_distance != Real::INFINITY {
            check_size("Ray", "max_distance", None, max_distance)?;
        }
        if direction.amax() == 0.0 {
            return Err(ShapeError::Degenerate {
                shape: "Ray",
                field: "direction",
                reason: "zero length",
            });
        }
        // Normalise the rescaled vector: `direction / n` could underflow or overflow.
        let s = crate::scale::pow2_scale(direction.amax());
        Ok(Self {
            origin,
            direction: (direction / s).normalize(),
            max_distance,
        })
    }

    /// The origin.
    #[inline]
    pub fn origin(&self) -> Point3 {
        self.origin
    }

    /// The unit direction.
    #[inline]
    pub fn direction(&self) -> Vector3 {
        self.direction
    }

    /// The largest `t` considered.
    #[inline]
    pub fn max_distance(&self) -> Real {
        self.max_distance
    }

    /// The point at distance `t`.
    #[inline]
    pub fn point_at(&self, t: Real) -> Point3 {
        self.origin + self.direction * t
    }
}
