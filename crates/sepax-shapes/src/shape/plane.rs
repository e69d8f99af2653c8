//! Plane.

use crate::error::{check_finite, check_finite_slice, ShapeError};
use crate::math::{Point3, Real, Vector3};
use crate::scale;
use crate::tolerance::FLAT_CONTAINMENT_TOLERANCE;

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
        let d = n.dot(&point.coords);
        check_finite("Plane", "d", None, d)?;
        Ok(Self { normal: n, d })
    }

    /// A plane `n . x = d` from a non-zero normal and offset; both are divided by `|n|`.
    pub fn new(normal: Vector3, d: Real) -> Result<Self, ShapeError> {
        check_finite("Plane", "d", None, d)?;
        check_finite_slice("Plane", "normal", normal.as_slice())?;
        let len = crate::scale::safe_norm(&normal);
        let n = Self::unit_normal(normal)?;
        let d = d / len;
        check_finite("Plane", "d", None, d)?;
        Ok(Self { normal: n, d })
    }

    fn unit_normal(normal: Vector3) -> Result<Vector3, ShapeError> {
        check_finite_slice("Plane", "normal", normal.as_slice())?;
        if normal.amax() == 0.0 {
            return Err(ShapeError::Degenerate {
                shape: "Plane",
                field: "normal",
                reason: "zero length",
            });
        }
        // Normalise the rescaled vector so that huge or tiny normals neither overflow nor vanish.
        let s = crate::scale::pow2_scale(normal.amax());
        Ok((normal / s).normalize())
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

    /// Signed distance from `p` on rescaled numbers (no overflow of the products) and that scale.
    fn scaled_signed_distance(&self, p: &Point3) -> (Real, Real) {
        let s = scale::pow2_scale(p.coords.amax().max(self.d.abs()));
        (self.normal.dot(&(p.coords / s)) - self.d / s, s)
    }

    /// The point of the plane closest to `p`: `p - n (n . p - d)`.
    pub fn closest_point(&self, p: &Point3) -> Point3 {
        let (sd, s) = self.scaled_signed_distance(p);
        Point3::from((p.coords / s - self.normal * sd) * s)
    }

    /// Unsigned distance from `p` to the plane.
    pub fn distance_to_point(&self, p: &Point3) -> Real {
        let (sd, s) = self.scaled_signed_distance(p);
        sd.abs() * s
    }

    /// Whether `p` lies on the plane, within `FLAT_CONTAINMENT_TOLERANCE * m` where `m` is the
    /// largest of `|d|` and `p`'s absolute coordinates (a plane has no volume, so an exact test
    /// would accept only points that happen to round onto it).
    pub fn contains_point(&self, p: &Point3) -> bool {
        let m = p.coords.amax().max(self.d.abs());
        self.distance_to_point(p) <= FLAT_CONTAINMENT_TOLERANCE * m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries() {
        let pl = Plane::new(Vector3::new(0.0, 0.0, 2.0), 2.0).unwrap();
        assert_eq!(pl.d(), 1.0);
        let p = Point3::new(3.0, 4.0, 5.0);
        assert_eq!(pl.closest_point(&p), Point3::new(3.0, 4.0, 1.0));
        assert_eq!(pl.distance_to_point(&p), 4.0);
        assert!(pl.contains_point(&pl.closest_point(&p)));
        assert!(!pl.contains_point(&p));
        assert!(Plane::new(Vector3::new(1e-30, 0.0, 0.0), Real::MAX).is_err());
        assert!(Plane::new(Vector3::zeros(), 0.0).is_err());
    }
}
