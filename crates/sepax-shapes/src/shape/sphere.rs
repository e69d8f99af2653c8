//! Sphere.

use crate::error::{check_finite_slice, check_size, ShapeError};
use crate::math::{Point3, Real, Vector3};
use crate::scale;
use crate::shape::Aabb;

/// A closed ball: centre and radius `>= 0` (radius 0 is a point).
///
/// Invariants: every number finite, `radius >= 0`, and `center ± radius` finite on every axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    center: Point3,
    radius: Real,
}

impl Sphere {
    /// A sphere; errors on NaN/infinite numbers, a negative radius, or a ball reaching past the
    /// finite range.
    pub fn new(center: Point3, radius: Real) -> Result<Self, ShapeError> {
        check_finite_slice("Sphere", "center", center.coords.as_slice())?;
        check_size("Sphere", "radius", None, radius)?;
        scale::check_reach("Sphere", "radius", &center, radius)?;
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

    /// Whether `p` lies in the closed ball: `|p - c| <= r`, with the same computed distance as
    /// [`Sphere::distance_to_point`], so the two always agree.
    pub fn contains_point(&self, p: &Point3) -> bool {
        scale::distance(p, &self.center) <= self.radius
    }

    /// Euclidean distance from `p` to the ball (0 inside).
    pub fn distance_to_point(&self, p: &Point3) -> Real {
        (scale::distance(p, &self.center) - self.radius).max(0.0)
    }

    /// The point of the ball closest to `p` (`p` itself when inside).
    pub fn closest_point(&self, p: &Point3) -> Point3 {
        if self.contains_point(p) {
            return *p;
        }
        match scale::unit_from_to(&self.center, p) {
            Some(u) => self.center + u * self.radius,
            None => self.center,
        }
    }

    /// The world AABB, `c ± r` rounded outward.
    pub fn world_aabb(&self) -> Aabb {
        let r = Vector3::repeat(self.radius);
        Aabb::rounded_outward(self.center.coords - r, self.center.coords + r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries() {
        let s = Sphere::new(Point3::new(1.0, 0.0, 0.0), 2.0).unwrap();
        assert!(s.contains_point(&Point3::new(3.0, 0.0, 0.0)));
        assert!(!s.contains_point(&Point3::new(3.1, 0.0, 0.0)));
        assert_eq!(s.distance_to_point(&Point3::new(1.0, 5.0, 0.0)), 3.0);
        assert_eq!(
            s.closest_point(&Point3::new(1.0, 5.0, 0.0)),
            Point3::new(1.0, 2.0, 0.0)
        );
        assert!(s.world_aabb().contains_point(&Point3::new(-1.0, 2.0, -2.0)));
    }

    #[test]
    fn huge_sphere_has_finite_answers() {
        let s = Sphere::new(Point3::new(Real::MAX / 2.0, 0.0, 0.0), Real::MAX / 4.0).unwrap();
        let p = Point3::new(-Real::MAX, Real::MAX, 0.0);
        assert!(s.closest_point(&p).coords.iter().all(|v| v.is_finite()));
        assert!(!s.distance_to_point(&p).is_nan());
        assert!(Sphere::new(Point3::new(Real::MAX, 0.0, 0.0), Real::MAX).is_err());
    }
}
