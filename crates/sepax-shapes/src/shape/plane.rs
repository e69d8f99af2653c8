//! Plane.

use crate::error::{check_finite, check_finite_slice, ShapeError};
use crate::math::{Point3, Real, Vector3};

/// The plane `{ x : n . x = d }` with unit normal `n`. Its *front* (positive) side is where
/// `n . x > d`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plane {
    normal: Vector3,
    d: Real,
}

impl Plane {
    /// A plane from a non-zero normal (normalised here) and a point on it.
    pub fn from_point_normal(point: Point3, normal: Vector3) -> Result<Self, ShapeError> {
        check_finite_slice("Plane", "point", point.coords.as_slice())?;
        let n = Self::unit_normal(normal)?;
        Ok(Self { normal: n, d: n.dot(&point.coords) })
    }

    /// A plane `n . x = d` from a non-zero normal and offset; both are divided by `|n|`.
    pub fn new(normal: Vector3, d: Real) -> Result<Self, ShapeError> {
        check_finite("Plane", "d", None, d)?;
        check_finite_slice("Plane", "normal", normal.as_slice())?;
        let len = normal.norm();
        let n = Self::unit_normal(normal)?;
        Ok(Self { normal: n, d: d / len })
    }

    fn unit_normal(normal: Vector3) -> Result<Vector3, ShapeError> {
        check_finite_slice("Plane", "normal", normal.as_slice())?;
        let len = normal.norm();
        if len == 0.0 || !len.is_finite() {
            return Err(ShapeError::Degenerate {
                shape: "Plane",
                field: "normal",
                reason: "zero or overflowing length",
            });
        }
        Ok(normal / len)
    }

    /// The unit normal.
    #[inline]
    pub fn normal(&self) -> Vector3 {
        self.normal
    }

    /// The offset `d` in `n . x = d`.
    #[inline]
    pub fn d(&self) -> Real {
        self.d
    }

    /// Signed distance from `p` (positive in front).
    #[inline]
    pub fn signed_distance(&self, p: &Point3) -> Real {
        self.normal.dot(&p.coords) - self.d
    }
}
