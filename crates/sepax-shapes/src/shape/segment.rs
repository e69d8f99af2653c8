//! Line segment.

use crate::error::{check_finite_slice, ShapeError};
use crate::math::{Point3, Real, Vector3};
use crate::scale;
use crate::shape::Aabb;
use crate::tolerance::FLAT_CONTAINMENT_TOLERANCE;

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

    /// The point of the segment closest to `p`: the projection parameter clamped to `[0, 1]`,
    /// computed on rescaled coordinates so that nothing overflows.
    pub fn closest_point(&self, p: &Point3) -> Point3 {
        let s = scale::scale_of(&[self.a, self.b, *p]);
        let q = closest_on_segment(
            &scale::down(&self.a, s),
            &scale::down(&self.b, s),
            &scale::down(p, s),
        );
        Point3::from(q.coords * s)
    }

    /// Euclidean distance from `p` to the segment.
    pub fn distance_to_point(&self, p: &Point3) -> Real {
        scale::distance(p, &self.closest_point(p))
    }

    /// Whether `p` lies on the segment, within `FLAT_CONTAINMENT_TOLERANCE * m` where `m` is the
    /// largest absolute coordinate of `a`, `b` and `p` (a zero-volume set needs a tolerance: see
    /// [`FLAT_CONTAINMENT_TOLERANCE`]). Agrees with [`Segment::distance_to_point`] by construction.
    pub fn contains_point(&self, p: &Point3) -> bool {
        let m = scale::max_abs(&[self.a, self.b, *p]);
        self.distance_to_point(p) <= FLAT_CONTAINMENT_TOLERANCE * m
    }

    /// The world AABB (exact: the componentwise min and max of the end points).
    pub fn world_aabb(&self) -> Aabb {
        Aabb::new_unchecked(self.a.inf(&self.b), self.a.sup(&self.b))
    }
}

/// The point of segment `a b` closest to `p`, for coordinates of moderate magnitude
/// (Ericson, *Real-Time Collision Detection*, §5.1.2).
pub(crate) fn closest_on_segment(a: &Point3, b: &Point3, p: &Point3) -> Point3 {
    let ab = b - a;
    let len_sq = ab.norm_squared();
    if len_sq == 0.0 {
        return *a;
    }
    let t = ((p - a).dot(&ab) / len_sq).clamp(0.0, 1.0);
    a + ab * t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_and_contains() {
        let s = Segment::new(Point3::origin(), Point3::new(2.0, 0.0, 0.0)).unwrap();
        assert_eq!(
            s.closest_point(&Point3::new(1.0, 3.0, 0.0)),
            Point3::new(1.0, 0.0, 0.0)
        );
        assert_eq!(
            s.closest_point(&Point3::new(-1.0, 1.0, 0.0)),
            Point3::origin()
        );
        assert_eq!(s.distance_to_point(&Point3::new(1.0, 3.0, 0.0)), 3.0);
        assert!(s.contains_point(&Point3::new(0.5, 0.0, 0.0)));
        assert!(!s.contains_point(&Point3::new(0.5, 1e-3, 0.0)));
        let p = Segment::new(Point3::new(1.0, 1.0, 1.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
        assert_eq!(
            p.closest_point(&Point3::origin()),
            Point3::new(1.0, 1.0, 1.0)
        );
    }
}
