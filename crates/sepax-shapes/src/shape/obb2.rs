//! 2D oriented box.

use crate::error::{check_finite, check_finite_slice, check_size_slice, ShapeError};
use crate::math::{Matrix2, Point2, Real, UnitComplex, Vector2};
use crate::scale::pow2_scale;
use crate::shape::Aabb2;
use crate::tolerance::{gamma, AXES_TOLERANCE, SEPARATION_TOLERANCE};

/// A 2D oriented box: `{ c + s_0 h_0 a_0 + s_1 h_1 a_1 : |s_i| <= 1 }` with the axes `a_i` the
/// columns of a 2x2 matrix. Closed: touching counts as intersecting.
///
/// Invariants: every number finite, half-extents `>= 0`, axes orthonormal within
/// [`AXES_TOLERANCE`], and `center ± |A| h` finite.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Obb2 {
    center: Point2,
    axes: Matrix2,
    half_extents: Vector2,
}

impl Obb2 {
    /// A box from its centre, axes (columns) and half-extents; errors name the field.
    pub fn new(center: Point2, axes: Matrix2, half_extents: Vector2) -> Result<Self, ShapeError> {
        check_finite_slice("Obb2", "center", center.coords.as_slice())?;
        for i in 0..2 {
            for k in 0..2 {
                check_finite("Obb2", "axes", Some(i), axes[(k, i)])?;
            }
        }
        check_size_slice("Obb2", "half_extents", half_extents.as_slice())?;
        for i in 0..2 {
            let n = axes.column(i).norm_squared();
            if (n - 1.0).abs() > AXES_TOLERANCE {
                return Err(ShapeError::NonUnitAxis {
                    shape: "Obb2",
                    field: "axes",
                    index: i,
                    norm_sq: n as f64,
                    tolerance: AXES_TOLERANCE as f64,
                });
            }
        }
        let d = axes.column(0).dot(&axes.column(1));
        if d.abs() > AXES_TOLERANCE {
            return Err(ShapeError::NonOrthogonalAxes {
                shape: "Obb2",
                field: "axes",
                i: 0,
                j: 1,
                dot: d as f64,
                tolerance: AXES_TOLERANCE as f64,
            });
        }
        let reach = center.coords.abs() + axes.abs() * half_extents;
        if !reach.iter().all(|v| v.is_finite()) {
            return Err(ShapeError::Degenerate {
                shape: "Obb2",
                field: "half_extents",
                reason: "center ± half_extents overflows the finite range",
            });
        }
        Ok(Self {
            center,
            axes,
            half_extents,
        })
    }

    /// A box rotated by `angle` radians (counter-clockwise) about its centre.
    pub fn from_angle(
        center: Point2,
        angle: Real,
        half_extents: Vector2,
    ) -> Result<Self, ShapeError> {
        check_finite("Obb2", "angle", None, angle)?;
        Self::new(
            center,
            UnitComplex::new(angle).to_rotation_matrix().into_inner(),
            half_extents,
        )
    }

    /// The axis-aligned box seen as an oriented one (exact).
    pub fn from_aabb2(b: &Aabb2) -> Self {
        Self {
            center: b.center(),
            axes: Matrix2::identity(),
            half_extents: b.half_extents(),
        }
    }

    /// The centre.
    #[inline]
    pub fn center(&self) -> Point2 {
        self.center
    }

    /// The axes as matrix columns.
    #[inline]
    pub fn axes(&self) -> &Matrix2 {
        &self.axes
    }

    /// Axis `i` (0 = local x).
    #[inline]
    pub fn axis(&self, i: usize) -> Vector2 {
        self.axes.column(i).into_owned()
    }

    /// The half-extents.
    #[inline]
    pub fn half_extents(&self) -> Vector2 {
        self.half_extents
    }

    /// The four corners; bit `k` of the index selects `+h_k` (1) or `-h_k` (0) along axis `k`.
    pub fn corners(&self) -> [Point2; 4] {
        let u = self.axis(0) * self.half_extents.x;
        let v = self.axis(1) * self.half_extents.y;
        core::array::from_fn(|i| {
            let su = if i & 1 != 0 { u } else { -u };
            let sv = if i & 2 != 0 { v } else { -v };
            self.center + su + sv
        })
    }

    /// The world AABB, `c ± |A| h` (Arvo 1990), padded by its rounding error (and that of the
    /// computed corners) and kept finite.
    pub fn world_aabb(&self) -> Aabb2 {
        let w = self.axes.abs() * self.half_extents;
        let pad = (w + self.center.coords.abs()) * gamma(6);
        let lim = Vector2::repeat(Real::MAX);
        Aabb2::new_unchecked(
            Point2::from((self.center.coords - w - pad).sup(&-lim)),
            Point2::from((self.center.coords + w + pad).inf(&lim)),
        )
    }

    /// Coordinates of `p` in the box frame, `A^T (p - c)` (rescaled: no overflow to NaN).
    pub fn to_local(&self, p: &Point2) -> Vector2 {
        let s = pow2_scale(p.coords.amax().max(self.center.coords.amax()));
        self.axes.tr_mul(&(p.coords / s - self.center.coords / s)) * s
    }

    /// Whether `p` lies in the closed box (`|l_i| <= h_i` in the box frame).
    pub fn contains_point(&self, p: &Point2) -> bool {
        let l = self.to_local(p);
        (0..2).all(|k| l[k].abs() <= self.half_extents[k])
    }

    /// The point of the box closest to `p`: `p` itself when inside, else a clamp in the box frame.
    pub fn closest_point(&self, p: &Point2) -> Point2 {
        let l = self.to_local(p);
        let h = self.half_extents;
        if (0..2).all(|k| l[k].abs() <= h[k]) {
            return *p; // inside: exactly p, consistent with contains_point
        }
        let c = Vector2::new(l.x.clamp(-h.x, h.x), l.y.clamp(-h.y, h.y));
        self.center + self.axes * c
    }

    /// Euclidean distance from `p` to the box (0 inside; same frame test as `contains_point`).
    pub fn distance_to_point(&self, p: &Point2) -> Real {
        let l = self.to_local(p);
        let d = (l.abs() - self.half_extents).sup(&Vector2::zeros());
        let s = pow2_scale(d.amax());
        (d / s).norm() * s
    }

    /// Whether the two closed boxes overlap: 2D separating-axis test on the four box axes
    /// (Gottschalk et al. 1996 in 2D; Ericson, *Real-Time Collision Detection*, §4.4.1).
    /// Conservative: an axis separates only when the gap exceeds
    /// [`SEPARATION_TOLERANCE`] times the projected magnitudes, so touching boxes and boxes
    /// within rounding of touching count as intersecting.
    pub fn intersects_obb2(&self, other: &Obb2) -> bool {
        let reach = |b: &Obb2| (b.center.coords.abs() + b.axes.abs() * b.half_extents).amax();
        let s = pow2_scale(reach(self).max(reach(other)));
        let t = other.center.coords / s - self.center.coords / s;
        let (ha, hb) = (self.half_extents / s, other.half_extents / s);
        let axes = [self.axis(0), self.axis(1), other.axis(0), other.axis(1)];
        !axes.iter().any(|l| {
            let ra = ha.x * self.axis(0).dot(l).abs() + ha.y * self.axis(1).dot(l).abs();
            let rb = hb.x * other.axis(0).dot(l).abs() + hb.y * other.axis(1).dot(l).abs();
            let dist = t.dot(l).abs();
            dist - (ra + rb) > SEPARATION_TOLERANCE * dist.max(ra + rb)
        })
    }

    /// Whether this box and an axis-aligned one overlap (see [`Obb2::intersects_obb2`]).
    pub fn intersects_aabb2(&self, other: &Aabb2) -> bool {
        self.intersects_obb2(&Obb2::from_aabb2(other))
    }

    /// A box containing both: orientation halfway between the two (modulo the quarter turn that
    /// maps a rectangle onto itself), extents from the eight projected corners, padded by a
    /// rounding allowance; the merged world AABB when the result would not be finite.
    pub fn merge(&self, other: &Obb2) -> Obb2 {
        let fallback = || Obb2::from_aabb2(&self.world_aabb().merge(&other.world_aabb()));
        let angle = |a: &Vector2| a.y.atan2(a.x);
        let (ta, tb) = (angle(&self.axis(0)), angle(&other.axis(0)));
        let quarter = core::f64::consts::FRAC_PI_2 as Real;
        let k = ((tb - ta) / quarter).round();
        let r = UnitComplex::new(ta + (tb - k * quarter - ta) * 0.5)
            .to_rotation_matrix()
            .into_inner();
        let pts: Vec<Point2> = self.corners().into_iter().chain(other.corners()).collect();
        let m = pts.iter().fold(0.0 as Real, |m, p| m.max(p.coords.amax()));
        if !m.is_finite() {
            return fallback();
        }
        let s = pow2_scale(m);
        let c0 = self.center.coords / s * 0.5 + other.center.coords / s * 0.5;
        let (mut lo, mut hi) = (
            Vector2::repeat(Real::INFINITY),
            Vector2::repeat(-Real::INFINITY),
        );
        for p in &pts {
            let l = r.tr_mul(&(p.coords / s - c0));
            lo = lo.inf(&l);
            hi = hi.sup(&l);
        }
        // Scaled coordinates are below 2, local ones below 4 sqrt(2) < 8; projection, centre and
        // the later containment check err by gamma(3) * 8 each: gamma(32) * 8 covers them.
        let pad = gamma(32) * 8.0;
        let center = Point2::from((c0 + r * (lo * 0.5 + hi * 0.5)) * s);
        let half = (hi * 0.5 - lo * 0.5).add_scalar(pad) * s;
        Obb2::new(center, r, half).unwrap_or_else(|_| fallback())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sat_2d() {
        let a = Obb2::from_angle(Point2::origin(), 0.0, Vector2::new(1.0, 1.0)).unwrap();
        let diamond = Obb2::from_angle(
            Point2::new(2.5, 2.5),
            core::f64::consts::FRAC_PI_4 as Real,
            Vector2::new(1.0, 1.0),
        )
        .unwrap();
        // The diamond's nearest corners, (1.09, 2.5) and (2.5, 1.09), miss the square: only the
        // diamond's own axis separates them, the square's two axes do not.
        assert!(!a.intersects_obb2(&diamond));
        let touching =
            Obb2::from_angle(Point2::new(2.0, 0.5), 0.0, Vector2::new(1.0, 1.0)).unwrap();
        assert!(a.intersects_obb2(&touching));
        let b = Aabb2::new(Point2::new(1.0, -5.0), Point2::new(3.0, 5.0)).unwrap();
        assert!(a.intersects_aabb2(&b) && b.intersects_obb2(&a));
    }

    #[test]
    fn queries_and_merge() {
        let a = Obb2::from_angle(Point2::new(1.0, 1.0), 0.5, Vector2::new(2.0, 0.5)).unwrap();
        let w = a.world_aabb();
        for p in a.corners() {
            assert!(w.contains_point(&p));
        }
        let far = Point2::new(10.0, -3.0);
        let q = a.closest_point(&far);
        assert!(a.distance_to_point(&q) < 1e-5);
        assert!((a.distance_to_point(&far) - (far - q).norm()).abs() < 1e-4);
        let b = Obb2::from_angle(Point2::new(-3.0, 2.0), 2.0, Vector2::new(0.3, 1.0)).unwrap();
        let m = a.merge(&b);
        for p in a.corners().iter().chain(b.corners().iter()) {
            assert!(m.contains_point(p), "{p:?}");
        }
        assert!(Obb2::new(
            Point2::origin(),
            Matrix2::new(1.0, 0.5, 0.0, 1.0),
            Vector2::zeros()
        )
        .is_err());
    }
}
