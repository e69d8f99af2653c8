//! Axis-aligned box.

use crate::error::{check_finite_slice, check_size_slice, ShapeError};
use crate::math::{Isometry3, Matrix3, Point3, Real, Vector3};

/// An axis-aligned box, stored as `min` and `max` corners (the form that merges and compares
/// exactly). The centre–half-extents view ([`Aabb::center`], [`Aabb::half_extents`]) is two
/// additions and two multiplications away.
///
/// Invariants: every coordinate finite, `min <= max` on every axis. Zero extents (flat, needle,
/// point boxes) are legal. As a set the box is closed: touching counts as intersecting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    min: Point3,
    max: Point3,
}

impl Aabb {
    /// A box from its corners; errors on NaN/infinite coordinates or `min > max` on an axis.
    pub fn new(min: Point3, max: Point3) -> Result<Self, ShapeError> {
        check_finite_slice("Aabb", "min", min.coords.as_slice())?;
        check_finite_slice("Aabb", "max", max.coords.as_slice())?;
        for axis in 0..3 {
            if min[axis] > max[axis] {
                return Err(ShapeError::MinAboveMax {
                    shape: "Aabb",
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
        center: Point3,
        half_extents: Vector3,
    ) -> Result<Self, ShapeError> {
        check_finite_slice("Aabb", "center", center.coords.as_slice())?;
        check_size_slice("Aabb", "half_extents", half_extents.as_slice())?;
        let b = Self {
            min: center - half_extents,
            max: center + half_extents,
        };
        // A huge centre plus a huge extent can overflow to infinity.
        check_finite_slice("Aabb", "min", b.min.coords.as_slice())?;
        check_finite_slice("Aabb", "max", b.max.coords.as_slice())?;
        Ok(b)
    }

    /// A box from corners the caller guarantees valid (debug-asserted).
    #[inline]
    pub fn new_unchecked(min: Point3, max: Point3) -> Self {
        debug_assert!(Self::new(min, max).is_ok(), "invalid Aabb {min:?} {max:?}");
        Self { min, max }
    }

    /// The box `[min, max]` rounded outward by one ulp per side: the bound of a shape whose extreme
    /// coordinates were computed with one rounding each.
    pub(crate) fn rounded_outward(min: Vector3, max: Vector3) -> Self {
        use crate::scale::{next_down, next_up};
        Self {
            min: Point3::from(min.map(next_down)),
            max: Point3::from(max.map(next_up)),
        }
    }

    /// The smallest box containing all `points`; `None` when there are none.
    /// Errors when a point is not finite.
    pub fn from_points(points: &[Point3]) -> Result<Option<Self>, ShapeError> {
        let mut it = points.iter();
        let Some(first) = it.next() else {
            return Ok(None);
        };
        check_finite_slice("Aabb", "points", first.coords.as_slice())?;
        let (mut min, mut max) = (*first, *first);
        for p in it {
            check_finite_slice("Aabb", "points", p.coords.as_slice())?;
            min = min.inf(p);
            max = max.sup(p);
        }
        Ok(Some(Self { min, max }))
    }

    /// The minimum corner.
    #[inline]
    pub fn min(&self) -> Point3 {
        self.min
    }

    /// The maximum corner.
    #[inline]
    pub fn max(&self) -> Point3 {
        self.max
    }

    /// The centre, `min / 2 + max / 2` (halving first so that boxes near `Real::MAX` do not
    /// overflow).
    #[inline]
    pub fn center(&self) -> Point3 {
        Point3::from(self.min.coords * 0.5 + self.max.coords * 0.5)
    }

    /// The half-extents, `max / 2 - min / 2` (each `>= 0`; halving first avoids overflow).
    #[inline]
    pub fn half_extents(&self) -> Vector3 {
        self.max.coords * 0.5 - self.min.coords * 0.5
    }

    /// The full extents, `max - min`.
    #[inline]
    pub fn extents(&self) -> Vector3 {
        self.max - self.min
    }

    /// Volume (zero for flat boxes).
    #[inline]
    pub fn volume(&self) -> Real {
        let e = self.extents();
        e.x * e.y * e.z
    }

    /// Surface area (the SAH cost of a box).
    #[inline]
    pub fn surface_area(&self) -> Real {
        let e = self.extents();
        2.0 * (e.x * e.y + e.y * e.z + e.z * e.x)
    }

    /// The eight corners; bit `k` of the index selects max (1) or min (0) on axis `k`.
    pub fn corners(&self) -> [Point3; 8] {
        core::array::from_fn(|i| {
            Point3::new(
                if i & 1 != 0 { self.max.x } else { self.min.x },
                if i & 2 != 0 { self.max.y } else { self.min.y },
                if i & 4 != 0 { self.max.z } else { self.min.z },
            )
        })
    }

    /// The box itself (every shape has a `world_aabb`; an AABB is its own).
    #[inline]
    pub fn world_aabb(&self) -> Aabb {
        *self
    }

    /// The smallest box containing both.
    #[inline]
    pub fn merge(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.inf(&other.min),
            max: self.max.sup(&other.max),
        }
    }

    /// The box grown by `margin` on every side. A negative margin shrinks it, clamped so that the
    /// box never inverts (it collapses to its centre). Errors on a non-finite margin.
    pub fn inflate(&self, margin: Real) -> Result<Aabb, ShapeError> {
        crate::error::check_finite("Aabb", "margin", None, margin)?;
        let m = Vector3::repeat(margin);
        let (min, max) = (self.min - m, self.max + m);
        if margin >= 0.0 {
            return Aabb::new(min, max);
        }
        let c = self.center();
        Aabb::new(min.inf(&c), max.sup(&c))
    }

    /// The box moved by `offset`. Errors when the result overflows.
    pub fn translate(&self, offset: &Vector3) -> Result<Aabb, ShapeError> {
        check_finite_slice("Aabb", "offset", offset.as_slice())?;
        Aabb::new(self.min + offset, self.max + offset)
    }

    /// Whether the two closed boxes share a point: touching (a shared face, edge or corner)
    /// counts, as everywhere in sepax (`docs/tolerance.md`, section 1). Exact: six comparisons
    /// and no tolerance, so the answer never depends on rounding.
    #[inline]
    pub fn intersects(&self, other: &Aabb) -> bool {
        let (amin, amax, bmin, bmax) = (self.min, self.max, other.min, other.max);
        amin.x <= bmax.x
            && bmin.x <= amax.x
            && amin.y <= bmax.y
            && bmin.y <= amax.y
            && amin.z <= bmax.z
            && bmin.z <= amax.z
    }

    /// Whether `p` lies in the closed box (exact: comparisons only).
    #[inline]
    pub fn contains_point(&self, p: &Point3) -> bool {
        (0..3).all(|k| self.min[k] <= p[k] && p[k] <= self.max[k])
    }

    /// Whether `other` lies entirely inside this box (exact).
    #[inline]
    pub fn contains_aabb(&self, other: &Aabb) -> bool {
        (0..3).all(|k| self.min[k] <= other.min[k] && other.max[k] <= self.max[k])
    }

    /// The point of the box closest to `p` (`p` itself when inside). Exact: a clamp.
    #[inline]
    pub fn closest_point(&self, p: &Point3) -> Point3 {
        p.sup(&self.min).inf(&self.max)
    }

    /// Squared Euclidean distance from `p` to the box (0 inside).
    #[inline]
    pub fn distance_squared_to_point(&self, p: &Point3) -> Real {
        (self.closest_point(p) - p).norm_squared()
    }

    /// Euclidean distance from `p` to the box (0 inside).
    #[inline]
    pub fn distance_to_point(&self, p: &Point3) -> Real {
        self.distance_squared_to_point(p).sqrt()
    }

    /// The world AABB of this box placed by `iso` (rotation then translation), by `|R| e`
    /// (Arvo 1990) without visiting corners. Conservative: rounded outward by a few ulps so that
    /// it contains the exactly transformed box.
    pub fn transformed(&self, iso: &Isometry3) -> Aabb {
        let r = iso.rotation.to_rotation_matrix().into_inner();
        let c = iso * self.center();
        Aabb::enclosing_rotated(&c, &r, &self.half_extents())
    }

    /// The AABB of a box with centre `c`, axes `r` (columns) and half-extents `e`: `c ± |R| e`,
    /// padded by a rounding allowance so the result contains the exact box and its corners as
    /// computed in floating point.
    pub fn enclosing_rotated(c: &Point3, r: &Matrix3, e: &Vector3) -> Aabb {
        let w = r.abs() * e;
        // |R| e has relative error <= gamma(3) per component and c ± w adds one rounding, so
        // gamma(4) (|c| + w) covers the exact box. Corners computed in floating point
        // (`Obb::corners`: three products and three additions onto c) stray from the exact box by
        // up to gamma(4) (|c| + w) more; gamma(8) covers both, so computed corners are inside too.
        let pad = (w + c.coords.abs()) * crate::tolerance::gamma(8);
        // Clamped to finite: a valid box fits in the finite range, so the clamp only trims padding.
        let lim = Vector3::repeat(Real::MAX);
        Aabb {
            min: Point3::from((c.coords - w - pad).sup(&-lim)),
            max: Point3::from((c.coords + w + pad).inf(&lim)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(lo: [Real; 3], hi: [Real; 3]) -> Aabb {
        Aabb::new(Point3::from(lo), Point3::from(hi)).expect("valid box")
    }

    /// Every pair of intervals with ends in a small set (touching, nested, disjoint, points),
    /// on each axis in turn with the other two overlapping or apart, against the overlap
    /// written as "the intersection box is not empty".
    #[test]
    fn intersects_is_closed_set_overlap() {
        let ends: [Real; 5] = [-1.0, 0.0, 0.5, 1.0, 2.0];
        let mut intervals = Vec::new();
        for (i, &lo) in ends.iter().enumerate() {
            for &hi in &ends[i..] {
                intervals.push((lo, hi));
            }
        }
        for axis in 0..3 {
            for other in [(0.0, 1.0, 0.5, 2.0), (0.0, 1.0, 1.5, 2.0)] {
                for &(a0, a1) in &intervals {
                    for &(b0, b1) in &intervals {
                        let (mut alo, mut ahi) = ([other.0; 3], [other.1; 3]);
                        let (mut blo, mut bhi) = ([other.2; 3], [other.3; 3]);
                        (alo[axis], ahi[axis], blo[axis], bhi[axis]) = (a0, a1, b0, b1);
                        let (x, y) = (b(alo, ahi), b(blo, bhi));
                        let expect = (0..3).all(|k| alo[k].max(blo[k]) <= ahi[k].min(bhi[k]));
                        assert_eq!(x.intersects(&y), expect, "{x:?} {y:?}");
                        assert_eq!(y.intersects(&x), expect, "{y:?} {x:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn touching_boxes_intersect() {
        let unit = b([0.0; 3], [1.0; 3]);
        // A shared face, edge and corner; a point box on the surface; the box itself.
        for other in [
            b([1.0, 0.0, 0.0], [2.0, 1.0, 1.0]),
            b([1.0, 1.0, 0.0], [2.0, 2.0, 1.0]),
            b([1.0, 1.0, 1.0], [2.0, 2.0, 2.0]),
            b([0.5, 1.0, 0.5], [0.5, 1.0, 0.5]),
            unit,
        ] {
            assert!(
                unit.intersects(&other) && other.intersects(&unit),
                "{other:?}"
            );
        }
        // The next float past the face: apart.
        let gap = 1.0 + Real::EPSILON;
        assert!(!unit.intersects(&b([gap, 0.0, 0.0], [2.0, 1.0, 1.0])));
    }
}
