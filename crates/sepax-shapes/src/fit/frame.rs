//! From directions to a stored box that provably contains every point (the proof; the code is
//! internal to the fitting methods).
//!
//! Fitting methods find three orthonormal directions in `f64` on the points scaled by a power of
//! two `s` (exact) and centred on the midpoint `o` of their bounds (`Cloud`). The box is then
//! made by `Cloud::obb`:
//!
//! 1. The directions are rounded to `Real`; these stored axes `A` are what the box is (the set
//!    `{c + Σ t_k h_k a_k : |t_k| <= 1}`), and they are orthonormal only to within their measured
//!    defect `δ` (`AᵀA = I + E`, `|E|_max <= δ`).
//! 2. Every point is projected on the stored axes in `f64`: `q_k = a_k · x`, `x = p/s − o`; the
//!    range `[lo_k, hi_k]` gives the centre coefficient `m_k = (lo_k + hi_k)/2` and half-width
//!    `h_k`. The centre `c = s (o + Σ m_k a_k)` is rounded to `Real`, with error `ε_c`.
//! 3. The exact coordinates of a point in the stored box's frame are `y = A⁻¹(p − c)/s`. With
//!    `A⁻¹ = (I + E)⁻¹ Aᵀ`: `y − (q_exact − m) = ((I + E)⁻¹ − I) q_exact − A⁻¹ ε_c`, so
//!    `|y_k| <= h_k + 3.02 δ R + 1.74 |ε_c|_∞ + |q̃_k − q_k| + (rounding of m, h)`, with `R` the
//!    largest `|x|`. The projections err by at most `4.1 v R` (`v = 2^-53`, three products and two
//!    sums of unit-length terms, plus the rounding of `x`), the centre by
//!    `|ε_c|_∞ <= (u + 5v) T`, `T = |o|_∞ + Σ|m_k|` (`u` the roundoff of `Real`).
//!
//! The stored half-extent is `h_k` plus `1.5 (3.02 δ R + 1.8 (u + 5v) T + 8 v (R + T))` (the
//! factor 1.5 covers second-order terms), rounded up. A stored axis that is exactly a world
//! axis `±e_j` while no other stored axis has a `j` component decouples (the exact coordinate
//! along it is `±(p_j − c_j)`): its bounds are measured on the input numbers directly and its
//! half-extent is the exactly-rounded-up distance from the rounded centre to the farther bound,
//! so inputs flat along a world axis give exactly zero extent there.

use super::eigen::{cross, dot, normalize};
use super::FitError;
use crate::math::{Matrix3, Point3, Real, Vector3};
use crate::scale::{next_up, pow2_scale};
use crate::shape::Obb;
use crate::tolerance::UNIT_ROUNDOFF;

/// The world axes (rows are axes).
pub(crate) const IDENTITY: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// Points prepared for fitting: `x_i = p_i / s − o` in `f64`.
pub(crate) struct Cloud<'a> {
    points: &'a [Point3],
    /// The centred, scaled points.
    pub(crate) x: Vec<[f64; 3]>,
    o: [f64; 3],
    s: f64,
}

impl<'a> Cloud<'a> {
    /// Checks the points (non-empty, finite) and prepares them.
    pub(crate) fn new(points: &'a [Point3]) -> Result<Self, FitError> {
        Self::prepare(points, true)
    }

    /// As [`Cloud::new`] without the `f64` copy: enough for boxes along the world axes, which
    /// are measured on the input numbers.
    pub(crate) fn world_only(points: &'a [Point3]) -> Result<Self, FitError> {
        Self::prepare(points, false)
    }

    fn prepare(points: &'a [Point3], with_coords: bool) -> Result<Self, FitError> {
        if points.is_empty() {
            return Err(FitError::Empty);
        }
        let mut m: Real = 0.0;
        for (index, p) in points.iter().enumerate() {
            for component in 0..3 {
                let v = p[component];
                if !v.is_finite() {
                    return Err(FitError::NotFinite {
                        index,
                        component,
                        value: v as f64,
                    });
                }
                m = m.max(v.abs());
            }
        }
        let s = pow2_scale(m) as f64;
        if !with_coords {
            return Ok(Self {
                points,
                x: Vec::new(),
                o: [0.0; 3],
                s,
            });
        }
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for p in points {
            for k in 0..3 {
                let v = p[k] as f64 / s;
                lo[k] = lo[k].min(v);
                hi[k] = hi[k].max(v);
            }
        }
        let o = [0, 1, 2].map(|k| 0.5 * lo[k] + 0.5 * hi[k]);
        let x = points
            .iter()
            .map(|p| [0, 1, 2].map(|k| p[k] as f64 / s - o[k]))
            .collect();
        Ok(Self { points, x, o, s })
    }

    /// The stored box with (approximately) the directions `axes` (rows) that contains every
    /// point exactly; see the module documentation.
    pub(crate) fn obb(&self, axes: &[[f64; 3]; 3]) -> Result<Obb, FitError> {
        let a = stored_axes(axes);
        // Axes that are exactly ±e_j while no other axis has a j component decouple: the exact
        // coordinate along them is ±(p_j − c_j), measured on the input numbers.
        let world: [Option<usize>; 3] = [0, 1, 2].map(|k| {
            let j = (0..3).find(|&j| a[k][j].abs() == 1.0)?;
            let alone = (0..3).all(|i| i == k || a[i][j] == 0.0)
                && (0..3).all(|i| i == j || a[k][i] == 0.0);
            alone.then_some(j)
        });
        let mut centre: [Real; 3] = [0.0; 3];
        let mut half: [Real; 3] = [0.0; 3];
        for k in 0..3 {
            let Some(j) = world[k] else { continue };
            let sign: Real = if a[k][j] < 0.0 { -1.0 } else { 1.0 };
            let (mut lo, mut hi) = (Real::INFINITY, Real::NEG_INFINITY);
            for p in self.points {
                let q = sign * p[j];
                lo = lo.min(q);
                hi = hi.max(q);
            }
            let mid = if lo == hi { lo } else { 0.5 * lo + 0.5 * hi };
            centre[j] = sign * mid;
            half[k] = sub_up(hi, mid).max(sub_up(mid, lo));
        }
        if world.iter().any(|w| w.is_none()) {
            let delta = defect_bound(&a);
            let mut lo = [f64::INFINITY; 3];
            let mut hi = [f64::NEG_INFINITY; 3];
            let mut r2: f64 = 0.0;
            for x in &self.x {
                r2 = r2.max(dot(x, x));
                for k in 0..3 {
                    let q = dot(&a[k], x);
                    lo[k] = lo[k].min(q);
                    hi[k] = hi[k].max(q);
                }
            }
            let r = r2.sqrt() * (1.0 + 4.0 * f64::EPSILON);
            let general = |k: usize| world[k].is_none();
            let m = [0, 1, 2].map(|k| {
                if general(k) {
                    0.5 * lo[k] + 0.5 * hi[k]
                } else {
                    0.0
                }
            });
            let h = [0, 1, 2].map(|k| 0.5 * hi[k] - 0.5 * lo[k]);
            let t = self.o.iter().fold(0.0f64, |acc, v| acc.max(v.abs()))
                + m.iter().map(|v| v.abs()).sum::<f64>();
            let v = f64::EPSILON / 2.0;
            let u = UNIT_ROUNDOFF as f64;
            let pad = 1.5 * (3.02 * delta * r + 1.8 * (u + 5.0 * v) * t + 8.0 * v * (r + t))
                + f64::MIN_POSITIVE;
            for j in 0..3 {
                if world.contains(&Some(j)) {
                    continue;
                }
                let c = self.o[j] + m[0] * a[0][j] + m[1] * a[1][j] + m[2] * a[2][j];
                centre[j] = (c * self.s) as Real;
            }
            for k in (0..3).filter(|&k| general(k)) {
                half[k] = round_up((h[k] + pad) * self.s);
            }
        }
        self.finish(centre, &a, half)
    }

    fn finish(
        &self,
        centre: [Real; 3],
        a: &[[f64; 3]; 3],
        half: [Real; 3],
    ) -> Result<Obb, FitError> {
        let col = |k: usize| Vector3::new(a[k][0] as Real, a[k][1] as Real, a[k][2] as Real);
        let axes = Matrix3::from_columns(&[col(0), col(1), col(2)]);
        if !centre.iter().chain(half.iter()).all(|v| v.is_finite()) {
            return Err(FitError::Overflow);
        }
        Obb::new(
            Point3::new(centre[0], centre[1], centre[2]),
            axes,
            Vector3::new(half[0], half[1], half[2]),
        )
        .map_err(|_| FitError::Overflow)
    }
}

/// Orthonormalises `axes` (rows) in `f64`, makes them right-handed and rounds them to `Real`
/// (returned as the exact `f64` values of the stored numbers). Falls back to the world axes
/// when the directions are degenerate.
pub(crate) fn stored_axes(axes: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let frame = orthonormal(axes).unwrap_or(IDENTITY);
    frame.map(|row| row.map(|v| v as Real as f64))
}

/// Gram–Schmidt on the first two rows, the third their cross product.
pub(crate) fn orthonormal(axes: &[[f64; 3]; 3]) -> Option<[[f64; 3]; 3]> {
    let a0 = normalize(&axes[0])?;
    let d = dot(&a0, &axes[1]);
    let a1 = normalize(&[
        axes[1][0] - d * a0[0],
        axes[1][1] - d * a0[1],
        axes[1][2] - d * a0[2],
    ])?;
    let a2 = normalize(&cross(&a0, &a1))?;
    Some([a0, a1, a2])
}

/// An upper bound on `max_ij |a_i · a_j − δ_ij|` for rows holding `Real` numbers.
fn defect_bound(a: &[[f64; 3]; 3]) -> f64 {
    let mut worst: f64 = 0.0;
    for i in 0..3 {
        for j in i..3 {
            let target = if i == j { 1.0 } else { 0.0 };
            worst = worst.max((dot(&a[i], &a[j]) - target).abs());
        }
    }
    worst + 8.0 * f64::EPSILON
}

/// The smallest `Real` at least `x` (for `x >= 0` finite in `f64`).
fn round_up(x: f64) -> Real {
    let r = x as Real;
    if (r as f64) < x {
        next_up(r)
    } else {
        r
    }
}

/// `a − b` rounded up (exactly: the rounding error is recovered by TwoSum), for `a >= b`.
fn sub_up(a: Real, b: Real) -> Real {
    let d = a - b;
    if !d.is_finite() {
        return d;
    }
    // TwoSum of a and -b: err = (a - b) - d exactly.
    let nb = -b;
    let bb = d - a;
    let err = (a - (d - bb)) + (nb - bb);
    if err > 0.0 {
        next_up(d)
    } else {
        d
    }
}

/// Lower and upper projections of `x` on `axes` (rows), and the volume of that box.
pub(crate) fn extents(x: &[[f64; 3]], axes: &[[f64; 3]; 3]) -> ([f64; 3], [f64; 3], f64) {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in x {
        for k in 0..3 {
            let q = dot(&axes[k], p);
            lo[k] = lo[k].min(q);
            hi[k] = hi[k].max(q);
        }
    }
    let vol = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    (lo, hi, vol)
}

/// The volume of the box of `x` along `axes`.
pub(crate) fn volume(x: &[[f64; 3]], axes: &[[f64; 3]; 3]) -> f64 {
    extents(x, axes).2
}
