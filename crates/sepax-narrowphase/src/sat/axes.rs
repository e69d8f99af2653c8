//! The 15 box axes in `A`'s frame: every formula of the SAT on two boxes, written once and
//! generic over the lane type, so that the one-pair kernels (lanes = axes: [`super::fast`], the
//! contact's axis choice) and the many-pair kernels (lanes = pairs: the contact batch, the
//! broad phase's OBB batch) evaluate the same IEEE operations in the same order and agree bit
//! for bit.
//!
//! With `R = A^T B` (`R_ij = a_i . b_j`), `t = A^T (c_B - c_A)` and `i1 = i + 1`, `i2 = i + 2`
//! (mod 3), the slack of an axis `L` is `r_A(L) + r_B(L) - |t . L|` (negative: `L` separates):
//!
//! ```text
//! face of A, i:   h_A,i + sum_j h_B,j |R_ij| - |t_i|
//! face of B, j:   sum_i h_A,i |R_ij| + h_B,j - |(R^T t)_j|
//! edge a_i x b_j: h_A,i1 |R_i2,j| + h_A,i2 |R_i1,j| + h_B,j1 |R_i,j2| + h_B,j2 |R_i,j1|
//!                 - |t_i2 R_i1,j - t_i1 R_i2,j|,        |L|^2 = R_i1,j^2 + R_i2,j^2
//! ```
//! (Gottschalk, Lin, Manocha 1996; Ericson, *Real-Time Collision Detection* §4.4.1). Each
//! function takes its operands by role, so a lane holds one axis of one pair (the argument
//! `ha_i` is `h_A,i` of one pair, or `h_A,0..2` of one pair in lanes `0..2`, or `h_A,i` of
//! four pairs). The error bounds that go with these values are here too; the exact
//! evaluation of what they leave undecided is [`super::certified`].

use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::tolerance::{FILTER_DEFECT_FACTOR, FILTER_ROUNDING_FACTOR};
use sepax_simd::Lane;

/// `x . y` in the order `(x_0 y_0 + x_1 y_1) + x_2 y_2`: an entry of `R = A^T B` (`x` = a_i,
/// `y` = b_j) or of `t` (`y` = `c_B - c_A`), and `(R^T t)_j` (`x` = `t`, `y` = column `j`).
#[inline(always)]
pub fn dot<L: Lane>(x: [L; 3], y: [L; 3]) -> L {
    dot3(x[0], x[1], x[2], y[0], y[1], y[2])
}

/// [`dot`] on six operands: the contact's `Local::new` forms `R` and `R^T t` with it (through
/// the arrays of [`dot`], its single-pair manifold runs about 1% more instructions).
#[inline(always)]
pub fn dot3<L: Lane>(x0: L, x1: L, x2: L, y0: L, y1: L, y2: L) -> L {
    x0 * y0 + x1 * y1 + x2 * y2
}

/// The slack of A's face `i`: `ha_i + sum_j hb_j ar_i[j] - |t_i|` (`ar_i[j] = |R_ij|`).
#[inline(always)]
pub fn face_a<L: Lane>(ha_i: L, hb: [L; 3], ar_i: [L; 3], t_i: L) -> L {
    ha_i + hb[0] * ar_i[0] + hb[1] * ar_i[1] + hb[2] * ar_i[2] - t_i.abs()
}

/// The slack of B's face `j`: `sum_i ha_i ar_j[i] + hb_j - |tb_j|` (`ar_j[i] = |R_ij|`,
/// `tb_j = (R^T t)_j`).
#[inline(always)]
pub fn face_b<L: Lane>(ha: [L; 3], ar_j: [L; 3], hb_j: L, tb_j: L) -> L {
    ha[0] * ar_j[0] + ha[1] * ar_j[1] + ha[2] * ar_j[2] + hb_j - tb_j.abs()
}

/// The unnormalised slack of the edge axis `a_i x b_j`:
/// `ha[0] ara[0] + ha[1] ara[1] + (hb[0] arb[0] + hb[1] arb[1]) - |t[0] r[0] - t[1] r[1]|` with
/// `ha = (h_A,i1, h_A,i2)`, `ara = (|R_i2,j|, |R_i1,j|)`, `hb = (h_B,j1, h_B,j2)`,
/// `arb = (|R_i,j2|, |R_i,j1|)`, `t = (t_i2, t_i1)`, `r = (R_i1,j, R_i2,j)`.
#[inline(always)]
pub fn edge<L: Lane>(ha: [L; 2], ara: [L; 2], hb: [L; 2], arb: [L; 2], t: [L; 2], r: [L; 2]) -> L {
    let ra = ha[0] * ara[0] + ha[1] * ara[1];
    let rb = hb[0] * arb[0] + hb[1] * arb[1];
    let tl = t[0] * r[0] - t[1] * r[1];
    ra + rb - tl.abs()
}

/// `|a_i x b_j|^2 = R_i1,j^2 + R_i2,j^2` (`r1 = R_i1,j`, `r2 = R_i2,j`).
#[inline(always)]
pub fn edge_len_sq<L: Lane>(r1: L, r2: L) -> L {
    r1 * r1 + r2 * r2
}

/// The scale `S = sum h_A + sum h_B + |d|_1 + residue` of the filter's bound, `d = c_B - c_A`
/// in world space (`residue`: the AABB centre's low parts).
#[inline(always)]
pub fn filter_scale<L: Lane>(ha: [L; 3], hb: [L; 3], d: [L; 3], residue: L) -> L {
    ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2] + d[0].abs() + d[1].abs() + d[2].abs() + residue
}

/// The filter's error bound `E = (48 u + 24 (delta_A + delta_B)) S` on every slack
/// (docs/tolerance.md); valid while `S < Real::MAX / 64` ([`FILTER_SCALE_LIMIT`](sepax_shapes::tolerance::FILTER_SCALE_LIMIT)).
#[inline(always)]
pub fn filter_bound<L: Lane>(defects: L, s: L) -> L {
    (L::splat(FILTER_ROUNDING_FACTOR * UNIT_ROUNDOFF) + L::splat(FILTER_DEFECT_FACTOR) * defects)
        * s
}

/// The scale `S = sum h_A + sum h_B + |t|_1` of the contact's bounds (`t` in A's frame).
#[inline(always)]
pub fn contact_scale<L: Lane>(ha: [L; 3], hb: [L; 3], t: [L; 3]) -> L {
    ha[0] + ha[1] + ha[2] + (hb[0] + hb[1] + hb[2]) + (t[0].abs() + t[1].abs() + t[2].abs())
}

/// The bound on the error of an edge slack that the contact's skip of the accurate edge path
/// uses: the filter's `E` on the contact's scale, taken twice (which also covers the rounding
/// of the skip test and of the accurate path).
#[inline(always)]
pub fn edge_skip_bound<L: Lane>(defect: L, scale: L) -> L {
    L::splat(2.0)
        * (L::splat(FILTER_ROUNDING_FACTOR * UNIT_ROUNDOFF)
            + L::splat(FILTER_DEFECT_FACTOR) * defect)
        * scale
}

/// The widening of a computed `|L|^2` that covers its error (`~15 u + 4 delta`): `64 u + 32
/// delta`.
#[inline(always)]
pub fn edge_len_sq_slack<L: Lane>(defect: L) -> L {
    L::splat(64.0 * UNIT_ROUNDOFF) + L::splat(32.0) * defect
}
