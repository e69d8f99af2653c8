//! Capsule (swept sphere).

use crate::error::{check_finite_slice, check_size, ShapeError};
use crate::math::{Point3, Real, Vector3};
use crate::scale;
use crate::shape::{Aabb, Segment};

/// The set of points within `radius` of the segment `p0 p1` (closed). `p0 == p1` is a sphere;
/// radius 0 is a segment.
///
/// Invariants: every number finite, `radius >= 0`, and each end point `± radius` finite.
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
        scale::check_reach("Capsule", "radius", &p0, radius)?;
        scale::check_reach("Capsule", "radius", &p1, radius)?;
        Ok(Self {
            segment: Segment::new_unchecked(p0, p1),
            radius,
        })
    }

    /// A capsule from values the caller guarantees valid (debug-asserted).
    #[inline]
    pub fn new_unchecked(p0: Point3, p1: Point3, radius: Real) -> Self {
        debug_assert!(Self::new(p0, p1, radius).is_ok());
        Self {
            segment: Segment::new_unchecked(p0, p1),
            radius,
        }
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

    /// Whether `p` lies in the closed capsule: distance to the core segment `<= radius`, with the
    /// same computed distance as [`Capsule::distance_to_point`].
    pub fn contains_point(&self, p: &Point3) -> bool {
        scale::distance(p, &self.segment.closest_point(p)) <= self.radius
    }

    /// Euclidean distance from `p` to the capsule (0 inside).
    pub fn distance_to_point(&self, p: &Point3) -> Real {
        (scale::distance(p, &self.segment.closest_point(p)) - self.radius).max(0.0)
    }

    /// The point of the capsule closest to `p` (`p` itself when inside).
    pub fn closest_point(&self, p: &Point3) -> Point3 {
        let q = self.segment.closest_point(p);
        if scale::distance(p, &q) <= self.radius {
            return *p;
        }
        match scale::unit_from_to(&q, p) {
            Some(u) => q + u * self.radius,
            None => q,
        }
    }

    /// The world AABB: the end points' box grown by the radius, rounded outward.
    pub fn world_aabb(&self) -> Aabb {
        let r = Vector3::repeat(self.radius);
        let (a, b) = (self.p0().coords, self.p1().coords);
        Aabb::rounded_outward(a.inf(&b) - r, a.sup(&b) + r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries() {
        let c = Capsule::new(Point3::origin(), Point3::new(0.0, 2.0, 0.0), 0.5).unwrap();
        assert!(c.contains_point(&Point3::new(0.5, 1.0, 0.0)));
        assert!(c.contains_point(&Point3::new(0.0, 2.5, 0.0)));
        assert!(!c.contains_point(&Point3::new(0.4, 2.4, 0.0)));
        assert_eq!(c.distance_to_point(&Point3::new(2.0, 1.0, 0.0)), 1.5);
        assert_eq!(
            c.closest_point(&Point3::new(2.0, 1.0, 0.0)),
            Point3::new(0.5, 1.0, 0.0)
        );
        let b = c.world_aabb();
        assert!(b.contains_point(&Point3::new(-0.5, -0.5, -0.5)));
        assert!(b.contains_point(&Point3::new(0.5, 2.5, 0.5)));
    }
}
