//! 2D axis-aligned box (UI hit areas, 2D games).

use crate::error::{check_finite_slice, check_size_slice, ShapeError};
use crate::math::{Point2, Real, Vector2};
use crate::shape::Obb2;

/// A 2D axis-aligned box, stored as `min` and `max` corners.
///
/// Invariants: every coordinate finite, `min <= max` on both axes (zero extents are legal). Closed:
/// touching counts as intersecting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb2 {
    min: Point2,
    max: Point2,
}

impl Aabb2 {
    /// A box from its corners; errors on NaN/infinite coordinates or `min > max` on an axis.
    pub fn new(min: Point2, max: Point2) -> Result<Self, ShapeError> {
        check_finite_slice("Aabb2", "min", min.coords.as_slice())?;
        check_finite_slice("Aabb2", "max", max.coords.as_slice())?;
        for axis in 0..2 {
            if min[axis] > max[axis] {
                return Err(ShapeError::MinAboveMax {
                    shape: "Aabb2",
                    axis,
                    min: min[axis] as f64,
                    max: max[axis] as f64,
                });
            }
        }
        Ok(Self { min, max })
    }

    /// A box from its centre and non-negative half-extents.
    pub fn from_center_half_extents(
        center: Point2,
        half_extents: Vector2,
    ) -> Result<Self, ShapeError> {
        check_finite_slice("Aabb2", "center", center.coords.as_slice())?;
        check_size_slice("Aabb2", "half_extents", half_extents.as_slice())?;
        Self::new(center - half_extents, center + half_extents)
    }

    /// A box from corners the caller guarantees valid (debug-asserted).
    #[inline]
    pub fn new_unchecked(min: Point2, max: Point2) -> Self {
        debug_assert!(Self::new(min, max).is_ok(), "invalid Aabb2 {min:?} {max:?}");
        Self { min, max }
    }

    /// The minimum corner.
    #[inline]
    pub fn min(&self) -> Point2 {
        self.min
    }

    /// The maximum corner.
    #[inline]
    pub fn max(&self) -> Point2 {
        self.max
    }

    /// The centre (halving first, so no overflow).
    #[inline]
    pub fn center(&self) -> Point2 {
        Point2::from(self.min.coords * 0.5 + self.max.coords * 0.5)
    }

    /// The half-extents (each `>= 0`).
    #[inline]
    pub fn half_extents(&self) -> Vector2 {
        self.max.coords * 0.5 - self.min.coords * 0.5
    }

    /// The four corners; bit `k` of the index selects max (1) or min (0) on axis `k`.
    pub fn corners(&self) -> [Point2; 4] {
        core::array::from_fn(|i| {
            Point2::new(
                if i & 1 != 0 { self.max.x } else { self.min.x },
                if i & 2 != 0 { self.max.y } else { self.min.y },
            )
        })
    }

    /// The smallest box containing both.
    #[inline]
    pub fn merge(&self, other: &Aabb2) -> Aabb2 {
        Aabb2 {
            min: self.min.inf(&other.min),
            max: self.max.sup(&other.max),
        }
    }

    /// Whether `p` lies in the closed box (exact).
    #[inline]
    pub fn contains_point(&self, p: &Point2) -> bool {
        (0..2).all(|k| self.min[k] <= p[k] && p[k] <= self.max[k])
    }

    /// The point of the box closest to `p` (exact: a clamp).
    #[inline]
    pub fn closest_point(&self, p: &Point2) -> Point2 {
        p.sup(&self.min).inf(&self.max)
    }

    /// Euclidean distance from `p` to the box (0 inside).
    pub fn distance_to_point(&self, p: &Point2) -> Real {
        let q = self.closest_point(p);
        let s = crate::scale::pow2_scale(p.coords.amax().max(q.coords.amax()));
        (p.coords / s - q.coords / s).norm() * s
    }

    /// Whether the two closed boxes overlap (exact comparisons; touching counts).
    #[inline]
    pub fn intersects_aabb2(&self, other: &Aabb2) -> bool {
        (0..2).all(|k| self.min[k] <= other.max[k] && other.min[k] <= self.max[k])
    }

    /// Whether this box and an oriented box overlap (2D SAT, see [`Obb2::intersects_obb2`]).
    pub fn intersects_obb2(&self, other: &Obb2) -> bool {
        Obb2::from_aabb2(self).intersects_obb2(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basics() {
        let a = Aabb2::new(Point2::new(0.0, 0.0), Point2::new(2.0, 1.0)).unwrap();
        let b = Aabb2::new(Point2::new(2.0, 1.0), Point2::new(3.0, 3.0)).unwrap();
        assert!(a.intersects_aabb2(&b), "touching counts");
        assert!(a.contains_point(&Point2::new(2.0, 0.5)));
        assert_eq!(
            a.closest_point(&Point2::new(5.0, -1.0)),
            Point2::new(2.0, 0.0)
        );
        assert_eq!(a.distance_to_point(&Point2::new(5.0, 5.0)), 5.0);
        assert_eq!(a.merge(&b).max(), Point2::new(3.0, 3.0));
        assert_eq!(a.corners()[3], Point2::new(2.0, 1.0));
        assert!(Aabb2::new(Point2::new(1.0, 0.0), Point2::new(0.0, 0.0)).is_err());
    }
}
