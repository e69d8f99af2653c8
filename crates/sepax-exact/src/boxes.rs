//! Boxes as exact parallelepipeds: [`ExactBox`], point containment, AABB overlap.

use crate::dyadic::Dyadic;
use crate::vector::{add, dvec, half, scale, sub, DVec};
use crate::zonotope::zonotope_query;

/// A box (oriented, possibly sheared, possibly flat) as the exact parallelepiped
/// `{ c + Σ_k t_k h_k axes[k] : |t_k| <= 1 }`.
///
/// The axes are taken exactly as given: they need not be unit or orthogonal (a box built from a
/// rounded rotation matrix is the slightly sheared box those numbers describe). Centre and
/// half-extents are stored as exact dyadics so that [`ExactBox::from_aabb`] is exact even where
/// `(min + max) / 2` is not an `f64`.
#[derive(Clone, Debug)]
pub struct ExactBox {
    center: DVec,
    axes: [[f64; 3]; 3],
    half_extents: [Dyadic; 3],
    /// `f64` approximations (relative error <= 2^-53) used by the float filter.
    pub(crate) half_extents_f64: [f64; 3],
}

fn check_finite(what: &str, v: &[f64]) {
    assert!(
        v.iter().all(|x| x.is_finite()),
        "sepax-exact: non-finite {what}: {v:?}"
    );
}

impl ExactBox {
    /// Box from centre, axes (`axes[k]` is the k-th axis in world space) and half-extents.
    /// Negative half-extents describe the same set as their absolute values.
    ///
    /// # Panics
    /// On non-finite inputs.
    #[must_use]
    pub fn new(center: [f64; 3], axes: [[f64; 3]; 3], half_extents: [f64; 3]) -> Self {
        check_finite("centre", &center);
        check_finite("axes", axes.as_flattened());
        check_finite("half-extents", &half_extents);
        Self::from_exact(
            dvec(center),
            axes,
            half_extents.map(|h| Dyadic::from_f64(h.abs())),
        )
    }

    /// The axis-aligned box `[min, max]`, exactly (centre and half-extents kept as dyadics).
    ///
    /// # Panics
    /// On non-finite inputs or `min > max` in some coordinate.
    #[must_use]
    pub fn from_aabb(min: [f64; 3], max: [f64; 3]) -> Self {
        check_finite("min", &min);
        check_finite("max", &max);
        assert!(
            (0..3).all(|k| min[k] <= max[k]),
            "sepax-exact: min > max: {min:?} {max:?}"
        );
        let (lo, hi) = (dvec(min), dvec(max));
        let center = half(&add(&lo, &hi));
        let h = half(&sub(&hi, &lo));
        Self::from_exact(
            center,
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            h,
        )
    }

    /// Box from an exact centre and exact non-negative half-extents.
    ///
    /// # Panics
    /// On non-finite axes or a negative half-extent.
    #[must_use]
    pub fn from_exact(center: [Dyadic; 3], axes: [[f64; 3]; 3], half_extents: [Dyadic; 3]) -> Self {
        check_finite("axes", axes.as_flattened());
        assert!(
            half_extents.iter().all(|h| !h.is_negative()),
            "sepax-exact: negative half-extent"
        );
        let half_extents_f64 = [0, 1, 2].map(|k| half_extents[k].to_f64());
        Self {
            center,
            axes,
            half_extents,
            half_extents_f64,
        }
    }

    /// Exact centre.
    #[must_use]
    pub fn center(&self) -> &[Dyadic; 3] {
        &self.center
    }

    /// The axes as given.
    #[must_use]
    pub fn axes(&self) -> &[[f64; 3]; 3] {
        &self.axes
    }

    /// Exact (non-negative) half-extents.
    #[must_use]
    pub fn half_extents(&self) -> &[Dyadic; 3] {
        &self.half_extents
    }

    /// The generators `h_k · axes[k]`, exactly.
    pub(crate) fn generators(&self) -> [DVec; 3] {
        [0, 1, 2].map(|k| scale(&dvec(self.axes[k]), &self.half_extents[k]))
    }

    /// The 8 corners `c ± g0 ± g1 ± g2`.
    pub(crate) fn vertices(&self) -> Vec<DVec> {
        let g = self.generators();
        let mut out = Vec::with_capacity(8);
        for mask in 0..8u8 {
            let mut v = self.center.clone();
            for (k, gk) in g.iter().enumerate() {
                v = if mask & (1 << k) == 0 {
                    sub(&v, gk)
                } else {
                    add(&v, gk)
                };
            }
            out.push(v);
        }
        out
    }

    /// The 12 edges as segments `(start, end)`.
    pub(crate) fn edges(&self) -> Vec<(DVec, DVec)> {
        let g = self.generators();
        let mut out = Vec::with_capacity(12);
        for k in 0..3 {
            let (i, j) = ((k + 1) % 3, (k + 2) % 3);
            for (si, sj) in [(false, false), (false, true), (true, false), (true, true)] {
                let mut base = self.center.clone();
                base = if si {
                    add(&base, &g[i])
                } else {
                    sub(&base, &g[i])
                };
                base = if sj {
                    add(&base, &g[j])
                } else {
                    sub(&base, &g[j])
                };
                out.push((sub(&base, &g[k]), add(&base, &g[k])));
            }
        }
        out
    }
}

/// All generator pairs of a three-generator zonotope.
pub(crate) const PAIRS3: [(usize, usize); 3] = [(1, 2), (2, 0), (0, 1)];

/// Exact test: is the point `p` in the closed box `b` (boundary included)?
#[must_use]
pub fn point_in_box(p: [f64; 3], b: &ExactBox) -> bool {
    check_finite("point", &p);
    zonotope_query(&b.generators(), &PAIRS3, &sub(&dvec(p), &b.center)).intersects
}

/// Exact overlap of two closed axis-aligned boxes given by min/max corners (touching counts).
#[must_use]
pub fn aabb_aabb(min_a: [f64; 3], max_a: [f64; 3], min_b: [f64; 3], max_b: [f64; 3]) -> bool {
    // Float comparisons are exact: no rounding is involved.
    (0..3).all(|k| min_a[k] <= max_b[k] && min_b[k] <= max_a[k])
}

#[cfg(test)]
mod tests {
    use super::*;

    const I3: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

    #[test]
    fn from_aabb_is_exact_where_the_float_midpoint_rounds() {
        // min + max = 2^53 + 1 is not an f64; the exact centre still is (2^53 + 1)/2.
        let b = ExactBox::from_aabb([1.0, 0.0, 0.0], [9_007_199_254_740_992.0, 1.0, 1.0]);
        assert!(point_in_box([1.0, 0.5, 0.5], &b));
        assert!(point_in_box([9_007_199_254_740_992.0, 1.0, 1.0], &b));
        assert!(!point_in_box([0.999_999_999_999_999_9, 0.5, 0.5], &b));
        let c = &b.center()[0];
        assert_eq!(
            c.mul_pow2(1),
            Dyadic::from_f64(9_007_199_254_740_992.0) + Dyadic::one()
        );
    }

    #[test]
    fn point_in_box_rotated_and_degenerate() {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let r = ExactBox::new(
            [0.0; 3],
            [[s, s, 0.0], [-s, s, 0.0], [0.0, 0.0, 1.0]],
            [1.0; 3],
        );
        assert!(point_in_box([0.0, 0.0, 0.0], &r));
        assert!(point_in_box([1.0, 0.0, 0.0], &r));
        assert!(!point_in_box([1.0, 0.5, 0.0], &r));
        assert!(!point_in_box([0.0, 0.0, 1.0 + 1e-15], &r));
        // Flat box (a square in z = 0), needle, point.
        let flat = ExactBox::new([0.0; 3], I3, [1.0, 1.0, 0.0]);
        assert!(point_in_box([1.0, -1.0, 0.0], &flat));
        assert!(!point_in_box([0.5, 0.5, 1e-300], &flat));
        let needle = ExactBox::new([0.0; 3], I3, [0.0, 2.0, 0.0]);
        assert!(point_in_box([0.0, -2.0, 0.0], &needle));
        assert!(!point_in_box([1e-300, 0.0, 0.0], &needle));
        let pt = ExactBox::new([1.0, 2.0, 3.0], I3, [0.0; 3]);
        assert!(point_in_box([1.0, 2.0, 3.0], &pt));
        assert!(!point_in_box([1.0, 2.0, 3.000_000_000_000_000_4], &pt));
        // Flat box spanned by dependent axes: a hexagon-free parallelogram degenerate case.
        let sheared = ExactBox::new(
            [0.0; 3],
            [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [2.0, 1.0, 0.0]],
            [1.0; 3],
        );
        assert!(point_in_box([4.0, 2.0, 0.0], &sheared));
        assert!(!point_in_box([4.0, 2.0000001, 0.0], &sheared));
        assert!(point_in_box([-3.0, -1.0, 0.0], &sheared));
    }

    #[test]
    fn vertices_and_edges_of_a_unit_cube() {
        let b = ExactBox::new([0.0; 3], I3, [1.0; 3]);
        let vs = b.vertices();
        assert_eq!(vs.len(), 8);
        assert!(vs
            .iter()
            .all(|v| v.iter().all(|x| x.abs() == Dyadic::one())));
        let es = b.edges();
        assert_eq!(es.len(), 12);
        assert!(aabb_aabb([0.0; 3], [1.0; 3], [1.0; 3], [2.0; 3]));
        assert!(!aabb_aabb(
            [0.0; 3],
            [1.0; 3],
            [1.0, 1.0, 1.000_000_1],
            [2.0; 3]
        ));
    }
}
