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

use super::{axes, BoxFrame};
use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::{Aabb, Obb};
use sepax_simd::V4;

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
    let s = axes::filter_scale(
        [ha.x, ha.y, ha.z],
        [hb.x, hb.y, hb.z],
        [d.x, d.y, d.z],
        residue,
    );
    if s < sepax_shapes::tolerance::FILTER_SCALE_LIMIT {
        axes::filter_bound(defects, s)
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
    // Faces of A, lanes i (`axes::face_a`).
    let ha4 = V4::new(ha.x, ha.y, ha.z, 0.0);
    let hbs = [V4::splat(hb.x), V4::splat(hb.y), V4::splat(hb.z)];
    let face_a = axes::face_a(ha4, hbs, arc, t);
    let m_a = face_a.hmin3();
    if m_a < -e {
        return FastVerdict::Separated;
    }
    // Rows of R (lanes j) for the rest.
    let (c0, c1, c2) = (rc[0].lanes(), rc[1].lanes(), rc[2].lanes());
    let row = |i: usize| V4::new(c0[i], c1[i], c2[i], 0.0);
    let r = [row(0), row(1), row(2)];
    let ar = [r[0].abs(), r[1].abs(), r[2].abs()];
    let [t0, t1, t2, _] = t.lanes();
    let ts = [V4::splat(t0), V4::splat(t1), V4::splat(t2)];
    // Faces of B, lanes j.
    let hb4 = V4::new(hb.x, hb.y, hb.z, 0.0);
    let has = [V4::splat(ha.x), V4::splat(ha.y), V4::splat(ha.z)];
    let face_b = axes::face_b(has, ar, hb4, axes::dot(ts, r));
    // Edges a_i x b_j, lanes j (`axes::edge`; `rot1`, `rot2` give lane j the values of
    // j + 1, j + 2).
    let hb12 = [hb4.rot1(), hb4.rot2()];
    let edges = |i: usize| {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        axes::edge(
            [has[i1], has[i2]],
            [ar[i2], ar[i1]],
            hb12,
            [ar[i].rot2(), ar[i].rot1()],
            [ts[i2], ts[i1]],
            [r[i1], r[i2]],
        )
    };
    let (e0, e1, e2) = (edges(0), edges(1), edges(2));
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
