//! The 15-axis SAT in `A`'s frame, in `Real`, with a proven error bound (the filter).
//!
//! ```text
//! R = A^T B, t = A^T (c_B - c_A)            (for an AABB A: R = B, t = c_B - c_A, exact R)
//! for each axis L (3 faces of A, 3 of B, 9 edges a_i x b_j, expressed in A's frame):
//!     v(L) = r_A(L) + r_B(L) - |t . L|       (the slack; < 0 means L separates)
//!     v < -E  => Separated (certified, stop)
//! all v > +E  => Overlapping (certified)
//! otherwise   => Undecided (hand over to the f64 facet test)
//! E = (48 u + 24 (delta_A + delta_B)) * S,   S = sum h_A + sum h_B + |c_B - c_A|_1
//! ```
//! `u` is the unit roundoff of `Real` and `delta` the boxes' measured orthonormality defects.
//! No axis is normalised (the trap of near-parallel edges); a near-zero edge axis simply cannot
//! certify anything and leaves the pair undecided. docs/tolerance.md derives `E`.

use super::BoxFrame;
use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::tolerance::UNIT_ROUNDOFF;

/// Coefficient of `u * S` in the filter's error bound (first-order derivation gives 31).
pub const FILTER_ROUNDING_FACTOR: Real = 48.0;
/// Coefficient of `(delta_A + delta_B) * S` (first-order derivation gives 22).
pub const FILTER_DEFECT_FACTOR: Real = 24.0;

/// What the filter concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FastVerdict {
    /// Certified disjoint.
    Separated,
    /// Certified intersecting.
    Overlapping,
    /// Not decidable at `Real` precision within the bound.
    Undecided,
}

/// The filter on two boxes. Works in `a`'s frame; when `a` is axis-aligned the rotation is
/// exact (`R = B`).
#[inline]
pub fn box_box(a: &BoxFrame, b: &BoxFrame) -> FastVerdict {
    let d = a.offset_to(b);
    let (r, t) = if a.axis_aligned {
        let mut r = [[0.0; 3]; 3];
        for (i, row) in r.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x = b.axes[(i, j)];
            }
        }
        (r, [d.x, d.y, d.z])
    } else {
        let ac = |i: usize| a.axes.column(i);
        let mut r = [[0.0; 3]; 3];
        for (i, row) in r.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x = ac(i).dot(&b.axes.column(j));
            }
        }
        (r, [ac(0).dot(&d), ac(1).dot(&d), ac(2).dot(&d)])
    };
    let lo = a.center_lo.abs() + b.center_lo.abs();
    let s = a.half.x
        + a.half.y
        + a.half.z
        + b.half.x
        + b.half.y
        + b.half.z
        + d.x.abs()
        + d.y.abs()
        + d.z.abs()
        + lo.x
        + lo.y
        + lo.z;
    let e = (FILTER_ROUNDING_FACTOR * UNIT_ROUNDOFF
        + FILTER_DEFECT_FACTOR * (a.axes_error + b.axes_error))
        * s;
    kernel(&r, &t, &a.half, &b.half, e)
}

/// The 15 slack values against the bound `e`. `r[i][j] = a_i . b_j`, `t` the offset in A's frame.
#[inline(always)]
fn kernel(r: &[[Real; 3]; 3], t: &[Real; 3], ha: &Vector3, hb: &Vector3, e: Real) -> FastVerdict {
    // NaN anywhere (overflow) makes every comparison false: the pair stays undecided.
    let mut ar = [[0.0 as Real; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            ar[i][j] = r[i][j].abs();
        }
    }
    let mut min_slack = Real::INFINITY;
    let mut all_finite = true;
    macro_rules! axis {
        ($slack:expr) => {{
            let v: Real = $slack;
            if v < -e {
                return FastVerdict::Separated;
            }
            all_finite &= v == v;
            min_slack = min_slack.min(v);
        }};
    }
    // Faces of A.
    for i in 0..3 {
        axis!(ha[i] + hb[0] * ar[i][0] + hb[1] * ar[i][1] + hb[2] * ar[i][2] - t[i].abs());
    }
    // Faces of B.
    for j in 0..3 {
        let tb = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
        axis!(ha[0] * ar[0][j] + ha[1] * ar[1][j] + ha[2] * ar[2][j] + hb[j] - tb.abs());
    }
    // Edges a_i x b_j. In A's frame a_i x b_j = (b_j)_{i+2} e_{i+1} - (b_j)_{i+1} e_{i+2}.
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = ha[i1] * ar[i2][j] + ha[i2] * ar[i1][j];
            let rb = hb[j1] * ar[i][j2] + hb[j2] * ar[i][j1];
            let tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
            axis!(ra + rb - tl.abs());
        }
    }
    if all_finite && min_slack > e {
        FastVerdict::Overlapping
    } else {
        FastVerdict::Undecided
    }
}
