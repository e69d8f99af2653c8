//! The 15-axis SAT in `A`'s frame, in `Real`, with a proven error bound (the filter).
//!
//! ```text
//! R = A^T B, t = A^T (c_B - c_A)            (for an AABB A: R = B, t = c_B - c_A, exact R)
//! for each axis L (3 faces of A, 3 of B, 9 edges a_i x b_j, expressed in A's frame):
//!     v(L) = r_A(L) + r_B(L) - |t . L|       (the slack; < 0 means L separates)
//! min v < -E  => Separated   (certified)
//! min v > +E  => Overlapping (certified)
//! otherwise   => Undecided   (hand over to the f64 facet test)
//! E = (48 u + 24 (delta_A + delta_B)) * S,   S = sum h_A + sum h_B + |c_B - c_A|_1
//! ```
//! `u` is the unit roundoff of `Real` and `delta` the boxes' measured orthonormality defects.
//! No axis is normalised (the trap of near-parallel edges); a near-zero edge axis simply cannot
//! certify anything and leaves the pair undecided. docs/tolerance.md derives `E`.
//!
//! Only the minimum slack matters, so the kernel has two branches: after A's three face axes
//! (where most separated pairs separate), and at the end.

use super::BoxFrame;
use crate::lanes::V4;
use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::{Aabb, Obb};

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

/// The filter on two OBBs, in `a`'s frame.
#[inline(always)]
pub fn obb_obb(a: &Obb, b: &Obb) -> FastVerdict {
    let d = b.center() - a.center();
    let e = bound(
        &a.half_extents(),
        &b.half_extents(),
        &d,
        0.0,
        a.axes_error() + b.axes_error(),
    );
    let (am, bm) = (a.axes(), b.axes());
    // Rows of A (lane i = component c of axis a_i).
    let arow = |c: usize| V4::new(am[(c, 0)], am[(c, 1)], am[(c, 2)], 0.0);
    let (a0, a1, a2) = (arow(0), arow(1), arow(2));
    // Column j of R = A^T b_j, lanes i.
    let rcol = |j: usize| {
        a0 * V4::splat(bm[(0, j)]) + a1 * V4::splat(bm[(1, j)]) + a2 * V4::splat(bm[(2, j)])
    };
    let t = a0 * V4::splat(d.x) + a1 * V4::splat(d.y) + a2 * V4::splat(d.z);
    kernel(
        [rcol(0), rcol(1), rcol(2)],
        t,
        &a.half_extents(),
        &b.half_extents(),
        e,
    )
}

/// The filter on an AABB (in the role of `A`: the rotation `R = B` is exact) and an OBB.
#[inline(always)]
pub fn aabb_obb(a: &Aabb, b: &Obb) -> FastVerdict {
    let fa = BoxFrame::from(a);
    let d = (b.center().coords - fa.center) - fa.center_lo;
    let lo = fa.center_lo.abs();
    let e = bound(
        &fa.half,
        &b.half_extents(),
        &d,
        lo.x + lo.y + lo.z,
        b.axes_error(),
    );
    let bm = b.axes();
    let rcol = |j: usize| V4::new(bm[(0, j)], bm[(1, j)], bm[(2, j)], 0.0);
    let t = V4::new(d.x, d.y, d.z, 0.0);
    kernel(
        [rcol(0), rcol(1), rcol(2)],
        t,
        &fa.half,
        &b.half_extents(),
        e,
    )
}

/// The filter's error bound `E`, or NaN (which decides nothing) when the magnitudes are so
/// large that products could overflow; the f64 stage then handles the pair.
#[inline(always)]
fn bound(ha: &Vector3, hb: &Vector3, d: &Vector3, residue: Real, defects: Real) -> Real {
    let s = ha.x + ha.y + ha.z + hb.x + hb.y + hb.z + d.x.abs() + d.y.abs() + d.z.abs() + residue;
    if s < Real::MAX * (1.0 / 64.0) {
        (FILTER_ROUNDING_FACTOR * UNIT_ROUNDOFF + FILTER_DEFECT_FACTOR * defects) * s
    } else {
        Real::NAN
    }
}

/// The 15 slack values against the bound `e`. `rc[j]` is column `j` of `R = A^T B` (lanes
/// `i`: `a_i . b_j`), `t` the offset in A's frame. A NaN `e` (or NaN anywhere) makes both
/// comparisons false: undecided.
#[inline(always)]
fn kernel(rc: [V4; 3], t: V4, ha: &Vector3, hb: &Vector3, e: Real) -> FastVerdict {
    let arc = [rc[0].abs(), rc[1].abs(), rc[2].abs()];
    // Faces of A, lanes i: h_A,i + sum_j h_B,j |R_ij| - |t_i|.
    let ha4 = V4::new(ha.x, ha.y, ha.z, 0.0);
    let face_a =
        ha4 + V4::splat(hb.x) * arc[0] + V4::splat(hb.y) * arc[1] + V4::splat(hb.z) * arc[2]
            - t.abs();
    let m_a = face_a.hmin3();
    if m_a < -e {
        return FastVerdict::Separated;
    }
    // Rows of R (lanes j) for the rest.
    let (c0, c1, c2) = (rc[0].lanes(), rc[1].lanes(), rc[2].lanes());
    let row = |i: usize| V4::new(c0[i], c1[i], c2[i], 0.0);
    let (r0, r1, r2) = (row(0), row(1), row(2));
    let (ar0, ar1, ar2) = (r0.abs(), r1.abs(), r2.abs());
    let [t0, t1, t2, _] = t.lanes();
    // Faces of B, lanes j: sum_i h_A,i |R_ij| + h_B,j - |sum_i t_i R_ij|.
    let hb4 = V4::new(hb.x, hb.y, hb.z, 0.0);
    let tb = V4::splat(t0) * r0 + V4::splat(t1) * r1 + V4::splat(t2) * r2;
    let face_b =
        V4::splat(ha.x) * ar0 + V4::splat(ha.y) * ar1 + V4::splat(ha.z) * ar2 + hb4 - tb.abs();
    // Edges a_i x b_j, lanes j. In A's frame a_i x b_j = R_{i+1,j} e_{i+2} - R_{i+2,j} e_{i+1}:
    //   r_A = h_A,i+1 |R_{i+2,j}| + h_A,i+2 |R_{i+1,j}|
    //   r_B = h_B,j+1 |R_{i,j+2}| + h_B,j+2 |R_{i,j+1}|
    //   t.L = t_{i+2} R_{i+1,j} - t_{i+1} R_{i+2,j}
    let (hb1, hb2) = (hb4.rot1(), hb4.rot2());
    let edges =
        |ha1: Real, ha2: Real, ari: V4, ar1: V4, ar2: V4, r1: V4, r2: V4, t1: Real, t2: Real| {
            let ra = V4::splat(ha1) * ar2 + V4::splat(ha2) * ar1;
            let rb = hb1 * ari.rot2() + hb2 * ari.rot1();
            let tl = V4::splat(t2) * r1 - V4::splat(t1) * r2;
            ra + rb - tl.abs()
        };
    let e0 = edges(ha.y, ha.z, ar0, ar1, ar2, r1, r2, t1, t2);
    let e1 = edges(ha.z, ha.x, ar1, ar2, ar0, r2, r0, t2, t0);
    let e2 = edges(ha.x, ha.y, ar2, ar0, ar1, r0, r1, t0, t1);
    let m = face_b.min(e0).min(e1.min(e2)).hmin3();
    let m = if m_a < m { m_a } else { m };
    if m < -e {
        FastVerdict::Separated
    } else if m > e {
        FastVerdict::Overlapping
    } else {
        FastVerdict::Undecided
    }
}
