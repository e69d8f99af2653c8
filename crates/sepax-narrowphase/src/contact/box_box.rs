//! Box–box (AABB and OBB in any mix) penetration and contact manifold.
//!
//! Everything runs in `A`'s frame (`R = A^T B`, `t = A^T (c_B - c_A)`), like the overlap test.
//!
//! **Axis.** The depth along a SAT axis `L` is `(r_A(L) + r_B(L) - |t . L|) / |L|`; the smallest
//! over the 15 axes (3 faces of A, 3 of B, 9 edge crosses `a_i x b_j`) is the exact penetration
//! depth of the two boxes (the distance from `t` to the boundary of their Minkowski difference,
//! whose facet normals are among those axes), and when negative, minus the largest SAT gap.
//! Edge axes of nearly parallel edges (`|a_i x b_j| < 1/20`) are evaluated from world-space data
//! in `f64` with an accurate cross product; exactly parallel edges have no axis.
//! The tie-break, so that the same configuration gives the same axis every frame:
//!
//! ```text
//! fa = first argmin over A's faces,  fb = first argmin over B's faces,  e = first argmin over edges
//! face = fb if d(fb) < d(fa) - tol(fa, fb) else fa
//! axis = e  if d(e)  < d(face) - tol(face, e) else face
//! tol(x, y) = CONTACT_AXIS_PREFERENCE * s   when x and y are nearly parallel
//!             (sine below CONTACT_PREFERENCE_SINE), else 0
//! s = min(max h_A, max h_B)
//! ```
//!
//! Nearly parallel axes have nearly equal depths (they differ by at most the sine times the
//! boxes' size), and they are exactly what jitter makes compete in a resting contact; axes far
//! apart compete by depth alone, so the depth is then the exact minimum.
//!
//! **Order.** Every pair is evaluated in one canonical order, whichever order the call gives
//! (an AABB first, then by size, then by the direction between the centres; see `order`), and
//! the result is mirrored ([`mirror`], [`mirror_id`]) when the call's order is the other one:
//! swapping the arguments gives exactly the mirrored manifold and penetration.
//!
//! **Range.** Pairs whose scale is too large for the direct arithmetic (products of four
//! lengths) are computed scaled by a power of two and scaled back (see `huge`): every number in
//! the result is finite.
//!
//! **Face contact** (reference/incident faces, as in Gregorius' GDC 2013/2015 talks and most
//! physics engines): the reference face is the chosen face, the incident face is the other box's
//! face most anti-parallel to it. The incident face's quad is clipped against the reference face's
//! four side planes (Sutherland–Hodgman, planes widened by `tol` so that jittering vertices keep
//! their ids); points deeper than `-margin` are kept, projected onto the reference face for the
//! reference box's point. More than 4 points are reduced to 4: the deepest, the farthest from it,
//! and the two spanning the largest triangles on either side of that diagonal.
//!
//! **Edge contact**: the two supporting edges along the axis; one point from their closest points.
//!
//! **Implementation.** The pair is put in `A`'s frame with four-lane arithmetic (columns and rows
//! of `R`, `t` in both frames); the 3 + 3 face depths and the 9 edge depths are computed three
//! at a time, the edge depths with one vector square root and division per three axes; the
//! first minimum of the edges is found from lane masks, of the faces by select chains, and the
//! edge's unit normal (lane selects from a stored column of `R`) is computed only when the edge
//! can win. An edge axis of nearly parallel edges is evaluated
//! accurately only if the fast closed form, widened by the SAT filter's error bound
//! ([`crate::sat::fast`], doubled), could put it below the chosen face's depth: such axes are
//! deep (the resting case: the two vertical axes), and the skip leaves every result unchanged.
//! The incident face is clipped in the reference face's coordinates `(f1, f2)` with the normal
//! coordinate carried alongside, in fixed arrays, and a quad inside all four side planes skips
//! the clipping. Otherwise the four Sutherland–Hodgman passes are computed per line rather than
//! per point: each of the polygon's lines (the quad's edges, then the side segments the passes
//! add) keeps the segment it has left, a pass compares all lines at once (lanes) and splices one
//! side segment between the one leaving and the one entering line, and the polygon is walked
//! once at the end; the crossings use the passes' arithmetic on the same segments, so points,
//! order and feature ids are theirs bit for bit (degenerate cases, a point exactly on a side
//! plane, run the passes themselves). The reduction finds its picks with the up to 8 points in
//! two lane groups (each pick the first lane holding the extreme value, as the loops' strict
//! comparisons select; a NaN hands over to the loops). The (at most 4) points go back to world
//! space four at a time (lanes = points, with the reference box's own axes read in place), are
//! transposed into `ContactPoint`s and stored whole into the result, the depth filter of an
//! unclipped quad folded into that store. [`contact_manifold_into`] writes the result in place;
//! [`contact_manifold`] returns it (one copy into the caller's slot, unless inlined). An OBB is
//! read in place (`LeanBox`), not copied into a [`BoxFrame`] whose zero low parts would cost
//! additions LLVM cannot fold.
//!
//! **Batch.** [`contact_manifolds_into`] computes many manifolds, bit for bit as
//! [`contact_manifold_into`] does. In the `f32` build, groups of four OBB–OBB pairs run the
//! axis selection together with one pair per lane (structure of arrays: each of the 15 axes is
//! a few full-width lane operations for four pairs, the argmins compare-select chains, the
//! tie-break lane selects, no horizontal operations), then each pair's values go back to the
//! per-pair layout by 4x4 transposes and the face/edge contact is the single path's own code
//! (`finish_into`). Pairs with an AABB, the last `len % 4` pairs, pairs whose nearly
//! parallel edges the lane test does not rule out (the accurate edge path), and every pair in
//! the `f64` build (where the lane groups measured slower) take the single-pair path. On an
//! x86-64 processor with AVX2 (detected at run time) the batch runs the same code compiled for
//! AVX2 (three-operand instructions, one-instruction lane selects; no FMA, same bits), and in
//! `f32` the selection of eight pairs at a time in 256-bit lanes.

use arrayvec::ArrayVec;
use sepax_shapes::math::{Matrix3, Point3, Real, Vector3};
use sepax_shapes::tolerance::{
    CONTACT_AXIS_PREFERENCE, CONTACT_PREFERENCE_SINE, SEPARATION_TOLERANCE, UNIT_ROUNDOFF,
};
use sepax_shapes::Obb;

use super::{ContactConfig, ContactManifold, ContactPoint, FeatureId, Penetration};
#[cfg(feature = "f64")]
use crate::geometry::cross_accurate;
use crate::geometry::segment_segment_closest;
use crate::intersect::{BoxRef, BoxShape};
use crate::lanes::V4;
use crate::sat::fast::{FILTER_DEFECT_FACTOR, FILTER_ROUNDING_FACTOR};
use crate::sat::{BoxFrame, SatAxis};

mod batch;
mod huge;
mod order;
pub use batch::contact_manifolds_into;
#[doc(hidden)]
pub use batch::contact_manifolds_into_portable;
pub use order::{mirror, mirror_id};

/// The least-penetration axis of a box pair (see the module docs for the tie-break).
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct BoxPenetration {
    /// Unit normal from `A` toward `B` (world space).
    pub normal: Vector3,
    /// The least depth over the 15 axes: the penetration depth (`> 0`), or minus the largest SAT
    /// gap (`< 0`). The depth along `normal` itself exceeds it by at most the tie-break preference
    /// (0 unless a nearly parallel axis was preferred).
    pub depth: Real,
    /// Which SAT axis gave it.
    pub axis: SatAxis,
}

impl BoxPenetration {
    /// As a plain [`Penetration`].
    #[inline]
    pub fn penetration(&self) -> Penetration {
        Penetration {
            normal: self.normal,
            depth: self.depth,
        }
    }
}

/// `min` and `max` for operands that are not NaN (one `minss`/`maxss`, where `Real::min` also
/// handles NaN).
#[inline(always)]
fn min_nn(a: Real, b: Real) -> Real {
    if b < a {
        b
    } else {
        a
    }
}

#[inline(always)]
fn max_nn(a: Real, b: Real) -> Real {
    if b > a {
        b
    } else {
        a
    }
}

/// `(k + 1) % 3` and `(k + 2) % 3` without divisions.
const NEXT: [usize; 3] = [1, 2, 0];
const PREV: [usize; 3] = [2, 0, 1];
/// The same, padded to 4 entries for indices masked with `& 3`.
const NEXT4: [usize; 4] = [1, 2, 0, 0];
const PREV4: [usize; 4] = [2, 0, 1, 0];

/// A box as the contact kernels read it, in place: an [`Obb`] directly (no copy into a
/// [`BoxFrame`], and no zero low parts whose additions the compiler cannot remove: `x + 0.0` is
/// not `x` for `x = -0.0`), an AABB through its frame (whose centre carries an exact low part).
trait LeanBox {
    /// The frame, for the cold accurate edge path.
    fn full_frame(&self) -> BoxFrame;
    /// Axes as columns.
    fn axes(&self) -> &Matrix3;
    /// Whether the axes are exactly the identity.
    fn axis_aligned(&self) -> bool;
    /// Leading part of the centre.
    fn center_hi(&self) -> Vector3;
    /// Whether the centre has a trailing part (constant `false` for an OBB).
    fn has_lo(&self) -> bool;
    /// Trailing part of the centre (zero when `!has_lo()`).
    fn center_lo(&self) -> Vector3;
    /// Half-extents.
    fn half(&self) -> Vector3;
    /// The axes' orthonormality defect bound.
    fn axes_error(&self) -> Real;
    /// The box scaled about the origin by `f`, a power of two (exact, barring subnormals).
    fn scaled(&self, f: Real) -> Self;
}

impl LeanBox for Obb {
    #[inline(always)]
    fn full_frame(&self) -> BoxFrame {
        BoxFrame::from(self)
    }
    #[inline(always)]
    fn axes(&self) -> &Matrix3 {
        Obb::axes(self)
    }
    #[inline(always)]
    fn axis_aligned(&self) -> bool {
        false
    }
    #[inline(always)]
    fn center_hi(&self) -> Vector3 {
        self.center().coords
    }
    #[inline(always)]
    fn has_lo(&self) -> bool {
        false
    }
    #[inline(always)]
    fn center_lo(&self) -> Vector3 {
        Vector3::zeros()
    }
    #[inline(always)]
    fn half(&self) -> Vector3 {
        self.half_extents()
    }
    #[inline(always)]
    fn axes_error(&self) -> Real {
        Obb::axes_error(self)
    }
    fn scaled(&self, f: Real) -> Obb {
        // The same axes (so the same defect bound); the centre and sizes scaled exactly.
        Obb::new_unchecked(
            Point3::from(self.center().coords * f),
            *Obb::axes(self),
            self.half_extents() * f,
        )
    }
}

impl LeanBox for BoxFrame {
    #[inline(always)]
    fn full_frame(&self) -> BoxFrame {
        *self
    }
    #[inline(always)]
    fn axes(&self) -> &Matrix3 {
        &self.axes
    }
    #[inline(always)]
    fn axis_aligned(&self) -> bool {
        self.axis_aligned
    }
    #[inline(always)]
    fn center_hi(&self) -> Vector3 {
        self.center
    }
    #[inline(always)]
    fn has_lo(&self) -> bool {
        true
    }
    #[inline(always)]
    fn center_lo(&self) -> Vector3 {
        self.center_lo
    }
    #[inline(always)]
    fn half(&self) -> Vector3 {
        self.half
    }
    #[inline(always)]
    fn axes_error(&self) -> Real {
        self.axes_error
    }
    fn scaled(&self, f: Real) -> BoxFrame {
        BoxFrame {
            center: self.center * f,
            center_lo: self.center_lo * f,
            half: self.half * f,
            half_lo: self.half_lo * f,
            ..*self
        }
    }
}

/// `c_b - c_a` as [`BoxFrame::offset_to`] computes it (the low parts' term dropped when both
/// are zero; the result then differs at most in the sign of a zero).
#[inline(always)]
fn offset<A: LeanBox, B: LeanBox>(a: &A, b: &B) -> Vector3 {
    let d = b.center_hi() - a.center_hi();
    if a.has_lo() || b.has_lo() {
        d + (b.center_lo() - a.center_lo())
    } else {
        d
    }
}

/// The centre in world space (`hi + lo`, rounded).
#[inline(always)]
fn world_center<A: LeanBox>(a: &A) -> Vector3 {
    if a.has_lo() {
        a.center_hi() + a.center_lo()
    } else {
        a.center_hi()
    }
}

/// The pair in `A`'s frame, in lanes (plus the world data of the accurate edge path).
struct Local<'f, A: LeanBox, B: LeanBox> {
    /// Columns of `R = A^T B` (lanes `i`: `a_i . b_j`) and the same as arrays.
    rc: [V4; 3],
    rcl: [[Real; 4]; 3],
    /// Rows of `R` (lanes `j`).
    rr: [V4; 3],
    /// `c_B - c_A` in A's frame (lanes `i`) and in B's frame (`R^T t`, lanes `j`).
    t: V4,
    tb: V4,
    ha: [Real; 3],
    hb: [Real; 3],
    /// The tie-break preference (and side-plane slop) `CONTACT_AXIS_PREFERENCE * s`.
    tol: Real,
    /// `S = sum h_A + sum h_B + |t|_1`.
    scale: Real,
    /// `delta_A + delta_B`, the axes' orthonormality defects.
    defect: Real,
    /// Whether the pair is within the direct path's limit (`scale` below
    /// [`huge::SCALE_LIMIT`]; `false` for NaN).
    fits: bool,
    /// The frames, for the accurate edge path.
    fa: &'f A,
    fb: &'f B,
}

/// Edge axes whose `|a_i x b_j|^2` is below this take the accurate path ([`edge_accurate`]):
/// the closed forms in `A`'s frame lose `1 / |a_i x b_j|` digits to rounding and to the axes'
/// orthonormality defect.
const EDGE_FAST_MIN_SQ: Real = 1.0 / 400.0;

/// The chosen axis in `A`'s frame.
struct Choice {
    /// The least depth over all axes.
    least: Real,
    /// The unit normal from A toward B, in A's frame.
    n: [Real; 3],
    axis: SatAxis,
    /// For a face of B: the sign of `t . b_j` (the normal is `s b_j`).
    sign_b: Real,
}

impl<'f, A: LeanBox, B: LeanBox> Local<'f, A, B> {
    #[inline(always)]
    fn new(a: &'f A, b: &'f B) -> Local<'f, A, B> {
        let d = offset(a, b);
        // Column-major storage: `m[j][c]` is component `c` of axis `j`.
        let bm = &b.axes().data.0;
        let (rc, t) = if a.axis_aligned() {
            (
                [
                    V4::new(bm[0][0], bm[0][1], bm[0][2], 0.0),
                    V4::new(bm[1][0], bm[1][1], bm[1][2], 0.0),
                    V4::new(bm[2][0], bm[2][1], bm[2][2], 0.0),
                ],
                V4::new(d.x, d.y, d.z, 0.0),
            )
        } else {
            let am = &a.axes().data.0;
            // Rows of A: lane i = component c of a_i.
            let a0 = V4::new(am[0][0], am[1][0], am[2][0], 0.0);
            let a1 = V4::new(am[0][1], am[1][1], am[2][1], 0.0);
            let a2 = V4::new(am[0][2], am[1][2], am[2][2], 0.0);
            let col =
                |v: &[Real; 3]| a0 * V4::splat(v[0]) + a1 * V4::splat(v[1]) + a2 * V4::splat(v[2]);
            (
                [col(&bm[0]), col(&bm[1]), col(&bm[2])],
                col(&[d.x, d.y, d.z]),
            )
        };
        let rcl = [rc[0].lanes(), rc[1].lanes(), rc[2].lanes()];
        let rr = [
            V4::new(rcl[0][0], rcl[1][0], rcl[2][0], 0.0),
            V4::new(rcl[0][1], rcl[1][1], rcl[2][1], 0.0),
            V4::new(rcl[0][2], rcl[1][2], rcl[2][2], 0.0),
        ];
        let tl = t.lanes();
        let tb = V4::splat(tl[0]) * rr[0] + V4::splat(tl[1]) * rr[1] + V4::splat(tl[2]) * rr[2];
        let (ah, bh) = (a.half(), b.half());
        let ha = [ah.x, ah.y, ah.z];
        let hb = [bh.x, bh.y, bh.z];
        // Half-extents are never NaN (the shapes' constructors check them).
        let s = min_nn(
            max_nn(max_nn(ha[0], ha[1]), ha[2]),
            max_nn(max_nn(hb[0], hb[1]), hb[2]),
        );
        let scale = ha[0]
            + ha[1]
            + ha[2]
            + (hb[0] + hb[1] + hb[2])
            + (tl[0].abs() + tl[1].abs() + tl[2].abs());
        let fits = scale < huge::SCALE_LIMIT;
        Local {
            rc,
            rcl,
            rr,
            t,
            tb,
            ha,
            hb,
            tol: CONTACT_AXIS_PREFERENCE * s,
            scale,
            defect: a.axes_error() + b.axes_error(),
            fits,
            fa: a,
            fb: b,
        }
    }

    /// [`edge_accurate`] for this pair.
    #[cfg(test)]
    fn edge_accurate(&self, i: usize, j: usize) -> Option<(Real, Real, [Real; 3])> {
        edge_accurate(self.fa, self.fb, i, j)
    }

    /// Whether the accurate depth along `a_i x b_j` is certainly at least `face_d`, from the
    /// fast closed form's numerator `num = r_A + r_B - |t . L|` and `len_sq = |L|^2` (both in
    /// A's frame, unnormalised). The SAT filter's bound `E = (48 u + 24 delta) S` covers the
    /// numerator's error (taken twice, which also covers the rounding of this test and of the
    /// accurate path); `|L|^2` is off by at most `~15 u + 4 delta`, widened to `64 u + 32 delta`.
    /// Then `depth >= (num - E) / |L|_max >= face_d` when the middle term is `>= 0`. NaN
    /// anywhere answers `false` (the accurate path decides).
    #[inline(always)]
    fn edge_cannot_win(&self, num: Real, len_sq: Real, face_d: Real) -> bool {
        let u = UNIT_ROUNDOFF;
        let e =
            2.0 * (FILTER_ROUNDING_FACTOR * u + FILTER_DEFECT_FACTOR * self.defect) * self.scale;
        let len_max = (len_sq + (64.0 * u + 32.0 * self.defect)).sqrt();
        let lo = num - e;
        lo >= 0.0 && lo >= face_d.max(0.0) * len_max
    }

    /// The chosen axis: the least depth over all axes and the chosen unit normal in `A`'s frame
    /// (from A toward B).
    ///
    /// The values stay in lanes; the argmins are branch-free (a lane min, then the first lane
    /// equal to it), the face choice is made with lane masks and conditional moves, and the
    /// few values picked by a computed index are read back from whole-lane stores. The edge's
    /// normal (lane selects, no stores of single lanes) is computed only when the edge can
    /// win.
    #[inline(always)]
    fn axis(&self) -> Choice {
        let (ha, hb) = (&self.ha, &self.hb);
        let ha4 = V4::new(ha[0], ha[1], ha[2], 0.0);
        let hb4 = V4::new(hb[0], hb[1], hb[2], 0.0);
        let (rc, rr) = (&self.rc, &self.rr);
        let arc = [rc[0].abs(), rc[1].abs(), rc[2].abs()];
        let arr = [rr[0].abs(), rr[1].abs(), rr[2].abs()];
        // Faces of A, lanes i: h_A,i + sum_j h_B,j |R_ij| - |t_i|.
        let face_a =
            ha4 + V4::splat(hb[0]) * arc[0] + V4::splat(hb[1]) * arc[1] + V4::splat(hb[2]) * arc[2]
                - self.t.abs();
        // Faces of B, lanes j: sum_i h_A,i |R_ij| + h_B,j - |(R^T t)_j|.
        let face_b =
            V4::splat(ha[0]) * arr[0] + V4::splat(ha[1]) * arr[1] + V4::splat(ha[2]) * arr[2] + hb4
                - self.tb.abs();
        let (fa_d, ia) = first_min3(face_a);
        let (fb_d, jb) = first_min3(face_b);
        // R_ij^2, rows (lanes j): the edges' |L|^2.
        let sq = [rr[0] * rr[0], rr[1] * rr[1], rr[2] * rr[2]];
        // The preference applies between nearly parallel axes only (see the module docs):
        // `R_ij^2 >= cos^2`, R_ij read back by index from the whole-lane stores of the columns
        // (which also give the face-of-B and edge normals below).
        let cos_sq_min = 1.0 - CONTACT_PREFERENCE_SINE * CONTACT_PREFERENCE_SINE;
        let rcl = &self.rcl;
        let rcs = [rcl[0], rcl[1], rcl[2], rcl[2]];
        let r_ab = rcs[jb & 3][ia & 3];
        let tol_ab = if r_ab * r_ab >= cos_sq_min {
            self.tol
        } else {
            0.0
        };
        let b_bound = fa_d - tol_ab;
        let b_wins = fb_d < b_bound;
        let zero = V4::splat(0.0);
        let face_d = if b_wins { fb_d } else { fa_d };
        // The chosen face's normal and sign: s R_jb for B (s the sign of (R^T t)_jb), the sign
        // of t_ia in lane ia (+1 for +-0, +0 in the others) for A.
        let (n_face, sign_b) = if b_wins {
            let s = if self.tb.lanes()[jb & 3] >= 0.0 {
                1.0
            } else {
                -1.0
            };
            (lanes4(&rcs[jb & 3]) * V4::splat(s), s)
        } else {
            let s = self.t.sign_ge0();
            (s.and(lane_is(ia, V4::new(0.0, 1.0, 2.0, 3.0))), 1.0)
        };
        // Edge crosses a_i x b_j = e_i x R_j, lanes j; Ericson's closed forms:
        //   r_A = h_A,i1 |R_i2,j| + h_A,i2 |R_i1,j|,  r_B = h_B,j1 |R_i,j2| + h_B,j2 |R_i,j1|,
        //   t . L = t_i2 R_i1,j - t_i1 R_i2,j,        |L|^2 = R_i1,j^2 + R_i2,j^2.
        let (hb1, hb2) = (hb4.rot1(), hb4.rot2());
        let tl = self.t.lanes();
        let inf = V4::splat(Real::INFINITY);
        // The numerators and |L|^2 for the nearly parallel edges, stored as they come (kept in
        // registers, they are spilled and copied).
        let mut num = [[0.0; 4]; 3];
        let mut len_sq = [[0.0; 4]; 3];
        let mut depth = [zero; 3];
        let mut slow = 0u32;
        for i in 0..3 {
            let (i1, i2) = (NEXT[i], PREV[i]);
            let ls = sq[i1] + sq[i2];
            let ra = V4::splat(ha[i1]) * arr[i2] + V4::splat(ha[i2]) * arr[i1];
            let rb = hb1 * arr[i].rot2() + hb2 * arr[i].rot1();
            let t_l = V4::splat(tl[i2]) * rr[i1] - V4::splat(tl[i1]) * rr[i2];
            let nm = ra + rb - t_l.abs();
            let len = ls.sqrt();
            // Short axes and NaN lanes (and lane 3, whose |L|^2 is 0) drop out as +inf (`min`
            // gives its second operand for NaN).
            let short = ls.lt(V4::splat(EDGE_FAST_MIN_SQ));
            depth[i] = short.select(inf, (nm / len).min(inf));
            slow |= (short.bits() & 7) << (4 * i);
            num[i] = nm.lanes();
            len_sq[i] = ls.lanes();
        }
        // First minimum in the order (i, j); axis (i, j) is bit `q = 4 i + j` of the masks (a
        // stride of 4 so that `i` and `j` are a shift and a mask away).
        // No lane is NaN here.
        let m4 = depth[0].min(depth[1]).min(depth[2]).lanes();
        let mut e_d = min_nn(min_nn(m4[0], m4[1]), m4[2]);
        let m = V4::splat(e_d);
        let bits = (depth[0].eq_mask(m) & 7)
            | ((depth[1].eq_mask(m) & 7) << 4)
            | ((depth[2].eq_mask(m) & 7) << 8);
        // (`bits` has a bit: `e_d` is one of the lanes, `+inf` included.)
        let q = bits.trailing_zeros() as usize & 15;
        let mut e_q = if e_d < Real::INFINITY { q } else { usize::MAX };
        // The signed unit normal of an accurate edge that took over.
        let mut acc = None;
        // Nearly parallel edges, in order, unless they certainly lose to the chosen face. (The
        // outer test keeps the check's constants, which LLVM hoists out of the loop, off the
        // common path without such edges.)
        if slow != 0 {
            loop {
                let q = slow.trailing_zeros() as usize;
                slow &= slow - 1;
                let (i, j) = (q >> 2, q & 3);
                if !self.edge_cannot_win(num[i][j], len_sq[i][j], face_d) {
                    if let Some((d, t_l, axis)) = edge_accurate(self.fa, self.fb, i, j) {
                        if d < e_d || (d == e_d && q < e_q) {
                            let v = V4::new(axis[0], axis[1], axis[2], 0.0);
                            (e_d, e_q, acc) = (d, q, Some(if t_l < 0.0 { -v } else { v }));
                        }
                    }
                }
                if slow == 0 {
                    break;
                }
            }
        }
        // The edge's tie-break against the chosen face (no edge: `e_d` is `+inf` and loses):
        // it wins when `e_d < face_d - tol_e`, `tol_e` the preference if its normal and the
        // face's are nearly parallel, else 0.
        let tie = |ln: V4| {
            let [p0, p1, p2, _] = (ln * n_face).lanes();
            let cd = p0 + p1 + p2;
            if cd * cd >= cos_sq_min {
                self.tol
            } else {
                0.0
            }
        };
        // The edge's normal only when it can win (a branch: the caller branches on the axis
        // anyway, and computing it always and selecting costs more than the misprediction).
        let (e_bound, ln) = if e_d < face_d {
            let ln = match acc {
                Some(v) => v,
                None => {
                    // |L| and the sign of t . L of this axis alone (the lanes' arithmetic).
                    let (i, j) = ((e_q >> 2) & 3, e_q & 3);
                    let (i1, i2) = (NEXT4[i], PREV4[i]);
                    let t_l = tl[i2] * rcs[j][i1] - tl[i1] * rcs[j][i2];
                    let len = len_sq[i % 3][j].sqrt();
                    edge_normal(&rcs, e_q, if t_l < 0.0 { -len } else { len })
                }
            };
            (face_d - tie(ln), ln)
        } else {
            (face_d, zero)
        };
        let edge_wins = e_d < e_bound;
        let axis = if edge_wins {
            SatAxis::Edge((e_q >> 2) as u8, (e_q & 3) as u8)
        } else if b_wins {
            SatAxis::FaceB(jb as u8)
        } else {
            SatAxis::FaceA(ia as u8)
        };
        let n = if edge_wins { ln } else { n_face };
        let [x, y, z, _] = n.lanes();
        // The least depth over all axes is reported, whichever axis gave the normal.
        // None of the three is NaN (each only takes values that compared below another).
        let least = min_nn(min_nn(fa_d, fb_d), e_d);
        Choice {
            least,
            n: [x, y, z],
            axis,
            sign_b,
        }
    }
}

/// Depth along `a_i x b_j` from world-space data, with the cross product and the slack in
/// `f64`, so that nearly parallel edges keep an error of a few `u S` whatever their angle;
/// `None` when the edges are exactly parallel. Returns the depth, `t . L` and the unit axis
/// in A's frame.
///
/// In the `f32` build the products of the `f32` inputs are exact in `f64`, so each cross
/// component carries one rounding of `2^-53` relative to itself; the `f64` build uses
/// Kahan's accurate cross product for the same property.
///
/// A free function (the boxes by reference) rather than a method of [`Local`], whose
/// address would then escape and keep all of it in memory.
#[cold]
#[inline(never)]
fn edge_accurate<A: LeanBox, B: LeanBox>(
    a: &A,
    b: &B,
    i: usize,
    j: usize,
) -> Option<(Real, Real, [Real; 3])> {
    let (fa, fb) = (a.full_frame(), b.full_frame());
    let (ha, hb) = (a.half(), b.half());
    let (axes_a, axes_b) = (&fa.axes, &fb.axes);
    let ai = axes_a.column(i).into_owned();
    let bj = axes_b.column(j).into_owned();
    #[cfg(not(feature = "f64"))]
    let l = ai.cast::<f64>().cross(&bj.cast::<f64>());
    #[cfg(feature = "f64")]
    let l = cross_accurate(&ai, &bj);
    let len = l.norm();
    if len.is_nan() || len <= 0.0 || !len.is_finite() {
        return None;
    }
    let mut r = 0.0f64;
    for k in 0..3 {
        let ak = axes_a.column(k).into_owned().cast::<f64>();
        let bk = axes_b.column(k).into_owned().cast::<f64>();
        r += ha[k] as f64 * l.dot(&ak).abs();
        r += hb[k] as f64 * l.dot(&bk).abs();
    }
    let tl = l.dot(&fa.offset_to(&fb).cast::<f64>());
    let local = axes_a.cast::<f64>().tr_mul(&l) / len;
    Some((
        ((r - tl.abs()) / len) as Real,
        tl as Real,
        [local.x as Real, local.y as Real, local.z as Real],
    ))
}

/// The first least of lanes 0..2 and its lane, as the loop `if d < best` from `+inf` finds it:
/// NaN lanes skipped, `(+inf, 0)` when no lane is below `+inf`.
#[inline(always)]
fn first_min3(v: V4) -> (Real, usize) {
    // NaN lanes to `+inf` (`min` gives its second operand for NaN).
    let [x, y, z, _] = v.min(V4::splat(Real::INFINITY)).lanes();
    let (m1, k1) = if y < x { (y, 1) } else { (x, 0) };
    if z < m1 {
        (z, 2)
    } else {
        (m1, k1)
    }
}

/// The unit normal `e_i x R_j / |L|` of the fast edge axis `q = 4 i + j` (lane i1 `-R_i2,j`,
/// lane i2 `R_i1,j`, lane i `+0`), turned toward B by the sign of `slen` (`|L|` with the sign of
/// `t . L`); from the columns `rcs` of `R` and lane selects, without stores of single lanes.
#[inline(always)]
fn edge_normal(rcs: &[[Real; 4]; 4], q: usize, slen: Real) -> V4 {
    let (i, j) = ((q >> 2) & 3, q & 3);
    let c = lanes4(&rcs[j]);
    let cross = (-c.rot1())
        .and(lane_is(i, V4::new(2.0, 0.0, 1.0, 9.0)))
        .or(c.rot2().and(lane_is(i, V4::new(1.0, 2.0, 0.0, 9.0))));
    cross / V4::splat(slen)
}

/// Four stored lanes as a vector (one load).
#[inline(always)]
fn lanes4(a: &[Real; 4]) -> V4 {
    V4::new(a[0], a[1], a[2], a[3])
}

/// A lane mask set where lane `k` of `pattern` is `i` (`i` below 16).
#[inline(always)]
fn lane_is(i: usize, pattern: V4) -> V4 {
    V4::splat(i as u32 as Real).eq(pattern)
}

/// The chosen normal in world space: `±a_i`, `±b_j`, or `A n` for an edge axis.
#[inline(always)]
fn world_normal<A: LeanBox, B: LeanBox>(fa: &A, fb: &B, c: &Choice) -> Vector3 {
    match c.axis {
        SatAxis::FaceA(i) => fa.axes().column(i as usize) * c.n[i as usize],
        SatAxis::FaceB(j) => fb.axes().column(j as usize) * c.sign_b,
        SatAxis::Edge(..) => {
            let n = Vector3::new(c.n[0], c.n[1], c.n[2]);
            if fa.axis_aligned() {
                n
            } else {
                fa.axes() * n
            }
        }
    }
}

/// Runs `$body` with `$x`, `$y` bound to the two boxes as [`LeanBox`]es in their canonical
/// order ([`order`]): an OBB by reference, an AABB through its frame (the kinds are known at
/// compile time once `as_box` is inlined); `$flip` is set when the call's order is the other
/// one (the body then gives the mirrored result).
macro_rules! with_ordered {
    ($a:expr, $b:expr, |$x:ident, $y:ident, $flip:ident| $body:expr) => {
        match ($a.as_box(), $b.as_box()) {
            (BoxRef::Obb(p), BoxRef::Obb(q)) => {
                let $flip = order::obb_swapped(p, q);
                // One body on the selected references (no second copy of it).
                let ($x, $y) = if $flip { (q, p) } else { (p, q) };
                $body
            }
            (BoxRef::Aabb(p), BoxRef::Aabb(q)) => {
                let $flip = order::aabb_swapped(p, q);
                let (p, q) = if $flip { (q, p) } else { (p, q) };
                let ($x, $y) = (&BoxFrame::from(p), &BoxFrame::from(q));
                $body
            }
            (BoxRef::Aabb(p), BoxRef::Obb($y)) => {
                let ($x, $flip) = (&BoxFrame::from(p), false);
                $body
            }
            (BoxRef::Obb(q), BoxRef::Aabb(p)) => {
                let ($x, $y, $flip) = (&BoxFrame::from(p), q, true);
                $body
            }
        }
    };
}

/// The least-penetration axis of two boxes: depth (`< 0` when separated: minus the largest SAT
/// gap) and the unit normal from `a` toward `b`, with the stable tie-break of the module docs.
///
/// Symmetric: `penetration(b, a)` is `penetration(a, b)` with the normal negated and the axis's
/// roles exchanged (`FaceA(i)` for `FaceB(i)`, `Edge(j, i)` for `Edge(i, j)`), bit for bit (the
/// pair is evaluated in one canonical order, see [`mirror_id`]). A depth beyond the largest
/// finite number (two boxes of size `3e38` overlapping) is reported as `Real::MAX`.
#[inline]
pub fn penetration<A: BoxShape + ?Sized, B: BoxShape + ?Sized>(a: &A, b: &B) -> BoxPenetration {
    with_ordered!(a, b, |fa, fb, flip| {
        let p = penetration_lean(fa, fb);
        if flip {
            order::mirror_penetration(p)
        } else {
            p
        }
    })
}

/// [`penetration`] of two boxes in their canonical order.
#[inline(always)]
fn penetration_lean<A: LeanBox, B: LeanBox>(fa: &A, fb: &B) -> BoxPenetration {
    let l = Local::new(fa, fb);
    if !l.fits {
        return huge::penetration(fa, fb);
    }
    let c = l.axis();
    BoxPenetration {
        normal: world_normal(fa, fb, &c),
        depth: c.least,
        axis: c.axis,
    }
}

/// The contact manifold of two boxes: `None` when they are farther apart than `config.margin`
/// along the best SAT axis (plus the rounding allowance `SEPARATION_TOLERANCE` times the pair's
/// scale, so that touching pairs always get a manifold). Points are in world space; see the
/// module docs for the method.
///
/// Symmetric: `contact_manifold(b, a)` is [`mirror`] of `contact_manifold(a, b)` bit for bit
/// (normal negated, surface points swapped, feature ids mirrored by [`mirror_id`]); the pair is
/// evaluated in one canonical order (an AABB first, then by size, then by the direction between
/// the centres; see `docs/tolerance.md`). Every number is finite: pairs near the ends of the
/// range are computed scaled by a power of two, and a depth beyond the largest finite number is
/// reported as `Real::MAX`.
#[inline]
pub fn contact_manifold<A: BoxShape + ?Sized, B: BoxShape + ?Sized>(
    a: &A,
    b: &B,
    config: &ContactConfig,
) -> Option<ContactManifold> {
    let mut m = ContactManifold::empty();
    if contact_manifold_into(a, b, config, &mut m) {
        Some(m)
    } else {
        None
    }
}

/// [`contact_manifold`] written into `out` (normal, depth and points overwritten in place, no
/// copy of the manifold): returns `true` when the pair has a manifold (the same as
/// `contact_manifold` returns in its `Some`), `false` when it does not, and then `out.points`
/// is empty and `out.normal`, `out.depth` are left as they were. Symmetric under the swap of
/// `a` and `b` as `contact_manifold` is.
#[inline]
pub fn contact_manifold_into<A: BoxShape + ?Sized, B: BoxShape + ?Sized>(
    a: &A,
    b: &B,
    config: &ContactConfig,
    out: &mut ContactManifold,
) -> bool {
    with_ordered!(a, b, |fa, fb, flip| manifold_into_lean(
        fa, fb, config, out, flip
    ))
}

/// The clipped incident face in the reference face's coordinates: `x`, `y` along the
/// reference box's axes `f1 = f + 1`, `f2 = f + 2` (mod 3), `z` along `sf a_f` (so the reference
/// face is `z = h_f` and a point's depth is `h_f - z`); the feature code of each point and the
/// label of the polygon edge that leaves it (incident edge `0..4` or side plane `4..8`).
#[derive(Clone, Copy)]
///
/// Slot 8 holds a copy of the first point's coordinates while a polygon is clipped, so that
/// the edge from point `k` always ends at slot `k + 1`.
struct Poly {
    x: [Real; 9],
    y: [Real; 9],
    z: [Real; 9],
    id: [u32; 8],
    edge: [u8; 8],
    len: usize,
}

impl Poly {
    #[inline(always)]
    fn empty() -> Poly {
        Poly {
            x: [0.0; 9],
            y: [0.0; 9],
            z: [0.0; 9],
            id: [0; 8],
            edge: [0; 8],
            len: 0,
        }
    }

    /// The quad with vertices `c ± u ± v` in the order (+,+), (-,+), (-,-), (+,-); vertex `vi`
    /// starts edge `vi`.
    #[inline(always)]
    fn quad(c: [Real; 3], u: [Real; 3], v: [Real; 3]) -> Poly {
        let mut quad = Poly::empty();
        // The four vertices of a coordinate at once: `(c + u) + v`, `(c - u) + v`,
        // `(c - u) - v`, `(c + u) - v`, with `a - b` as `a + (-b)` (the same IEEE operation;
        // the signs are exact products by -1).
        let su = V4::new(1.0, -1.0, -1.0, 1.0);
        let sv = V4::new(1.0, 1.0, -1.0, -1.0);
        for m in 0..3 {
            let row = (V4::splat(c[m]) + V4::splat(u[m]) * su) + V4::splat(v[m]) * sv;
            let dst = match m {
                0 => &mut quad.x,
                1 => &mut quad.y,
                _ => &mut quad.z,
            };
            dst[..4].copy_from_slice(&row.lanes());
        }
        for vi in 0..4 {
            quad.id[vi] = point_code(KIND_VERTEX, vi as u32, 0);
            quad.edge[vi] = vi as u8;
        }
        quad.len = 4;
        quad
    }
}

// Feature-id layout: bits 0..3 reference face (axis * 2 + positive side), bit 3 reference box is
// B, bits 4..7 incident face, bits 8..10 kind, then two 5-bit feature indices.
const KIND_VERTEX: u32 = 0;
const KIND_EDGE_SIDE: u32 = 1;
const KIND_SIDE_SIDE: u32 = 2;
const KIND_EDGE_EDGE: u32 = 3;

#[inline(always)]
fn point_code(kind: u32, x: u32, y: u32) -> u32 {
    (kind << 8) | (x << 11) | (y << 16)
}

/// The code of the point where a polygon edge labelled `edge` crosses side plane `plane`
/// (both codes computed, then one selected: the label is unpredictable).
#[inline(always)]
fn crossing_code(edge: u8, plane: u8) -> u32 {
    let (lo, hi) = (edge.min(plane) as u32, edge.max(plane) as u32);
    let side_side = point_code(KIND_SIDE_SIDE, lo, hi);
    let edge_side = point_code(KIND_EDGE_SIDE, edge as u32, plane as u32);
    if edge < 4 {
        edge_side
    } else {
        side_side
    }
}

/// Clips `input` against `c * sign <= limit`, `c` the coordinate `x` (`Y == false`) or `y`
/// (side plane label `plane`), into `out` (Sutherland–Hodgman); returns `false`, leaving `out`
/// untouched, when no point is outside, so the caller keeps using `input`.
#[inline(always)]
fn clip<const Y: bool>(
    input: &mut Poly,
    out: &mut Poly,
    sign: Real,
    limit: Real,
    plane: u8,
) -> bool {
    let n = input.len.min(8);
    let coords = if Y { &input.y[..n] } else { &input.x[..n] };
    if coords.iter().all(|&u| u * sign <= limit) {
        return false;
    }
    // The closing edge ends at the first point.
    input.x[n] = input.x[0];
    input.y[n] = input.y[0];
    input.z[n] = input.z[0];
    let (cu, cw) = if Y {
        (&input.y, &input.x)
    } else {
        (&input.x, &input.y)
    };
    let cz = &input.z;
    let mut len = 0usize;
    let on_plane = limit * sign;
    for idx in 0..n {
        let nx = idx + 1;
        let (uc, un) = (cu[idx], cu[nx]);
        let dc = uc * sign - limit;
        let dn = un * sign - limit;
        let (id, edge) = (input.id[idx], input.edge[idx]);
        if dc == 0.0 && dn > 0.0 {
            // On the plane and leaving: the polygon runs along the plane from here.
            push_uw::<Y>(out, &mut len, uc, cw[idx], cz[idx], id, plane);
        } else if dc <= 0.0 {
            push_uw::<Y>(out, &mut len, uc, cw[idx], cz[idx], id, edge);
            if dn > 0.0 {
                // Leaving: the crossing point, then the polygon runs along the plane.
                let s = dc / (dc - dn);
                let w = cw[idx] + (cw[nx] - cw[idx]) * s;
                let z = cz[idx] + (cz[nx] - cz[idx]) * s;
                push_uw::<Y>(
                    out,
                    &mut len,
                    on_plane,
                    w,
                    z,
                    crossing_code(edge, plane),
                    plane,
                );
            }
        } else if dn < 0.0 {
            // Entering: the crossing point keeps the edge it lies on.
            let s = dc / (dc - dn);
            let w = cw[idx] + (cw[nx] - cw[idx]) * s;
            let z = cz[idx] + (cz[nx] - cz[idx]) * s;
            push_uw::<Y>(
                out,
                &mut len,
                on_plane,
                w,
                z,
                crossing_code(edge, plane),
                edge,
            );
        }
    }
    out.len = len;
    true
}

/// Pushes the point with clip coordinate `u` and other side coordinate `w` (see [`clip`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn push_uw<const Y: bool>(
    out: &mut Poly,
    len: &mut usize,
    u: Real,
    w: Real,
    z: Real,
    id: u32,
    edge: u8,
) {
    // The length stays in a register during a pass (`out.len` is written once at its end).
    let k = *len;
    if k < 8 {
        let (x, y) = if Y { (w, u) } else { (u, w) };
        out.x[k] = x;
        out.y[k] = y;
        out.z[k] = z;
        out.id[k] = id;
        out.edge[k] = edge;
        *len = k + 1;
    }
}

/// The lines of a polygon being clipped by [`clip_lines`]: the quad's edges `0..4` and the
/// side segments `4..8` (the label of the side plane), each with the segment it has left.
struct Lines {
    /// Starts and ends of the segments, per coordinate (`x`, `y`, `z`), in two lane groups
    /// (the edges, then the sides). Kept as whole lanes, updated by lane selects: a pass reads
    /// them whole, and a whole load after narrower stores to the same place would wait for the
    /// stores instead of taking the data forwarded.
    st: [[V4; 2]; 3],
    en: [[V4; 2]; 3],
    /// The feature code of each segment's start.
    id: [u32; 8],
    /// The line after each one along the polygon.
    next: [u8; 8],
    /// The lines with a segment left.
    alive: u32,
    /// The line whose start is the polygon's first point.
    first: usize,
}

/// What a pass of [`Lines::pass`] did.
#[derive(PartialEq)]
enum Cut {
    /// The polygon is clipped (or was inside).
    Done,
    /// Nothing is left.
    Empty,
    /// A degenerate case: the caller runs [`clip`]'s passes.
    Degenerate,
}

/// Whether exactly one bit is set (without `count_ones`, which is a library call without
/// `popcnt`).
#[inline(always)]
fn one_bit(m: u32) -> bool {
    m != 0 && m & (m - 1) == 0
}

/// The line numbers of the two lane groups of [`Lines`].
#[inline(always)]
fn line_index(g: usize) -> V4 {
    if g == 0 {
        V4::new(0.0, 1.0, 2.0, 3.0)
    } else {
        V4::new(4.0, 5.0, 6.0, 7.0)
    }
}

/// The eight lanes of a group pair as an array.
#[inline(always)]
fn lanes8(v: &[V4; 2]) -> [Real; 8] {
    let ([a, b, c, d], [e, f, g, h]) = (v[0].lanes(), v[1].lanes());
    [a, b, c, d, e, f, g, h]
}

impl Lines {
    /// Pass `P` (side plane `4 + P`: `+x`, `-x`, `+y`, `-y`) with [`clip`]'s arithmetic.
    #[inline(always)]
    fn pass<const P: usize>(&mut self, lx: Real, ly: Real) -> Cut {
        let (c, sign, limit): (usize, Real, Real) = match P {
            0 => (0, 1.0, lx),
            1 => (0, -1.0, lx),
            2 => (1, 1.0, ly),
            _ => (1, -1.0, ly),
        };
        let w = 1 - c;
        let zero = V4::splat(0.0);
        let (sg, lim) = (V4::splat(sign), V4::splat(limit));
        // The x passes look at the edges only (side 4, alive in pass 5, is inside it); the y
        // passes at the sides 4 and 5 as well.
        let groups = if P < 2 { 1 } else { 2 };
        let am = self.alive & if P < 2 { 0xf } else { 0xff };
        let d00 = self.st[c][0] * sg - lim;
        let d01 = if P < 2 {
            zero
        } else {
            self.st[c][1] * sg - lim
        };
        let le0 = d00.le_mask(zero) | if P < 2 { 0 } else { d01.le_mask(zero) << 4 };
        if le0 & am == am {
            // No point outside: the pass leaves the polygon as it is.
            return Cut::Done;
        }
        let d10 = self.en[c][0] * sg - lim;
        let d11 = if P < 2 {
            zero
        } else {
            self.en[c][1] * sg - lim
        };
        let mut gt0 = d00.gt_mask(zero);
        let mut lt0 = d00.lt_mask(zero);
        let mut gt1 = d10.gt_mask(zero);
        let mut lt1 = d10.lt_mask(zero);
        if P >= 2 {
            gt0 |= d01.gt_mask(zero) << 4;
            lt0 |= d01.lt_mask(zero) << 4;
            gt1 |= d11.gt_mask(zero) << 4;
            lt1 |= d11.lt_mask(zero) << 4;
        }
        if (gt0 | lt0) & am != am || (gt1 | lt1) & am != am {
            return Cut::Degenerate;
        }
        let (enter, leave) = (gt0 & lt1 & am, lt0 & gt1 & am);
        let dead = gt0 & gt1 & am;
        if dead == self.alive {
            return Cut::Empty;
        }
        if !one_bit(enter) || !one_bit(leave) {
            return Cut::Degenerate;
        }
        // (`& 7`: each mask has one bit, below 8; it spares the bounds checks.)
        let (li, ei) = (
            leave.trailing_zeros() as usize & 7,
            enter.trailing_zeros() as usize & 7,
        );
        // Where every line crosses the plane, with `clip`'s arithmetic per lane
        // (`s = d_0 / (d_0 - d_1)` from the segment's start to its end); only the leaving and
        // the entering line's lanes are used.
        let (st, en) = (&mut self.st, &mut self.en);
        let mut cw = [zero; 2];
        let mut cz = [zero; 2];
        for g in 0..groups {
            let (d0, d1) = if g == 0 { (d00, d10) } else { (d01, d11) };
            let s = d0 / (d0 - d1);
            cw[g] = st[w][g] + (en[w][g] - st[w][g]) * s;
            cz[g] = st[2][g] + (en[2][g] - st[2][g]) * s;
        }
        let side = 4 + P;
        let on_plane = V4::splat(limit * sign);
        let (fl, fe) = (li as Real, ei as Real);
        // The leaving line ends at its crossing, the entering line starts at its crossing.
        for g in 0..groups {
            let idx = line_index(g);
            en[c][g] = en[c][g].unless_eq(idx, fl, on_plane);
            en[w][g] = en[w][g].unless_eq(idx, fl, cw[g]);
            en[2][g] = en[2][g].unless_eq(idx, fl, cz[g]);
            st[c][g] = st[c][g].unless_eq(idx, fe, on_plane);
            st[w][g] = st[w][g].unless_eq(idx, fe, cw[g]);
            st[2][g] = st[2][g].unless_eq(idx, fe, cz[g]);
        }
        // The side's segment runs from the one crossing to the other.
        let (cwl, czl) = (lanes8(&cw), lanes8(&cz));
        let (sd, idx) = (side as Real, line_index(1));
        st[c][1] = st[c][1].unless_eq(idx, sd, on_plane);
        st[w][1] = st[w][1].unless_eq(idx, sd, V4::splat(cwl[li]));
        st[2][1] = st[2][1].unless_eq(idx, sd, V4::splat(czl[li]));
        en[c][1] = en[c][1].unless_eq(idx, sd, on_plane);
        en[w][1] = en[w][1].unless_eq(idx, sd, V4::splat(cwl[ei]));
        en[2][1] = en[2][1].unless_eq(idx, sd, V4::splat(czl[ei]));
        self.id[side] = crossing_code(li as u8, side as u8);
        self.id[ei] = crossing_code(ei as u8, side as u8);
        self.next[li] = side as u8;
        self.next[side] = ei as u8;
        // The first point moves to the entering line when it was outside (a select: the
        // case is unpredictable).
        let moved = 0usize.wrapping_sub(((gt0 >> self.first) & 1) as usize);
        self.first = (ei & moved) | (self.first & !moved);
        self.alive = (self.alive & !dead) | (1 << side);
        Cut::Done
    }
}

/// The incident quad clipped against the four side planes in the order of the passes of
/// [`clip`] (`+x`, `-x`, `+y`, `-y`, labels 4..7), computed per line instead of per point: each
/// of the polygon's lines (the quad's 4 edges, then the side segments each pass adds) keeps the
/// segment it has left, and a pass compares all of them at once, 4 lanes per group (edges in
/// lanes 0..3, sides in 4..7), with the arithmetic of [`clip`]'s step (`d = u sign - limit`,
/// `s = d_0 / (d_0 - d_1)` from the segment's start to its end). A pass with a point outside
/// has exactly one leaving and one entering line; the side segment is spliced in between, the
/// lines wholly outside drop out, and the first point moves to the entering line's start when
/// it was outside (the first point Sutherland–Hodgman emits). So the points, their order and
/// codes are those of the four [`clip`] passes, bit for bit. Returns `false` (and the caller
/// runs the passes) in the degenerate cases where the step's special cases would apply: a
/// signed distance that is zero or NaN, or a pass that does not cut one run of the polygon.
/// The points deeper than `-margin` (depth `hf - z`) are kept, as in [`depth_filter`].
// Out of line: it runs in under half of the calls, and inlined it costs more instructions.
#[inline(never)]
fn clip_lines(quad: &Poly, lx: Real, ly: Real, hf: Real, margin: Real, out: &mut Poly) -> bool {
    // The quad's edges run from vertex `k` to vertex `k + 1`; the side lanes start at zero.
    let zero = V4::splat(0.0);
    let row = |q: &[Real; 9]| {
        (
            [V4::new(q[0], q[1], q[2], q[3]), zero],
            [V4::new(q[1], q[2], q[3], q[0]), zero],
        )
    };
    let ((sx, ex), (sy, ey), (sz, ez)) = (row(&quad.x), row(&quad.y), row(&quad.z));
    let q = &quad.id;
    let mut l = Lines {
        st: [sx, sy, sz],
        en: [ex, ey, ez],
        id: [q[0], q[1], q[2], q[3], 0, 0, 0, 0],
        next: [1, 2, 3, 0, 0, 0, 0, 0],
        alive: 0b1111,
        first: 0,
    };
    let mut cut = l.pass::<0>(lx, ly);
    if cut == Cut::Done {
        cut = l.pass::<1>(lx, ly);
    }
    if cut == Cut::Done {
        cut = l.pass::<2>(lx, ly);
    }
    if cut == Cut::Done {
        cut = l.pass::<3>(lx, ly);
    }
    match cut {
        Cut::Done => {}
        Cut::Empty => {
            out.len = 0;
            return true;
        }
        Cut::Degenerate => return false,
    }
    // The polygon from its first point, its points deeper than `-margin` kept.
    let (px, py, pz) = (lanes8(&l.st[0]), lanes8(&l.st[1]), lanes8(&l.st[2]));
    let mut k = l.first;
    let (mut n, mut count) = (0, 0);
    let mut seen = 0u32;
    loop {
        let z = pz[k];
        out.x[n] = px[k];
        out.y[n] = py[k];
        out.z[n] = z;
        out.id[n] = l.id[k];
        n += usize::from(hf - z >= -margin);
        seen |= 1 << k;
        count += 1;
        k = l.next[k] as usize & 7;
        if k == l.first || count == 8 {
            break;
        }
    }
    // The walk closes over the live lines (true unless degenerate).
    if k != l.first || seen != l.alive {
        return false;
    }
    out.len = n;
    true
}

/// The incident quad clipped by the four passes of [`clip`] (the degenerate cases of
/// [`clip_lines`]), then its points deeper than `-margin` (depth `hf - z`); returns the
/// polygon, which is in `quad` or `spare`.
#[inline(never)]
#[cold]
fn clip_passes<'p>(
    quad: &'p mut Poly,
    spare: &'p mut Poly,
    lx: Real,
    ly: Real,
    hf: Real,
    margin: Real,
) -> &'p mut Poly {
    let (mut cur, mut other) = (quad, spare);
    if clip::<false>(cur, other, 1.0, lx, 4) {
        core::mem::swap(&mut cur, &mut other);
    }
    if clip::<false>(cur, other, -1.0, lx, 5) {
        core::mem::swap(&mut cur, &mut other);
    }
    if clip::<true>(cur, other, 1.0, ly, 6) {
        core::mem::swap(&mut cur, &mut other);
    }
    if clip::<true>(cur, other, -1.0, ly, 7) {
        core::mem::swap(&mut cur, &mut other);
    }
    depth_filter(cur, hf, margin);
    cur
}

/// Keeps the points of `poly` deeper than `-margin` (depth `hf - z`), in order.
#[inline(always)]
fn depth_filter(poly: &mut Poly, hf: Real, margin: Real) {
    let mut w = 0;
    for m in 0..poly.len.min(8) {
        // Branch-free compaction (`w <= m`).
        poly.x[w] = poly.x[m];
        poly.y[w] = poly.y[m];
        poly.z[w] = poly.z[m];
        poly.id[w] = poly.id[m];
        w += usize::from(hf - poly.z[m] >= -margin);
    }
    poly.len = w;
}

/// A face contact in the reference box's frame. `ti`, `ri[c]`, `hi`: the incident box's centre,
/// axis `c` and half-extents in that frame; `f`, `sf`: the reference face's axis and side; `hr`:
/// the reference half-extents; `frame`: the reference box in world space. Writes the points
/// (at most 4 after the reduction) into `points` (which it replaces), with `id_base` (reference
/// face and box) in their ids.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn face_contact(
    hr: &[Real; 3],
    ti: &[Real; 4],
    ri: &[[Real; 4]; 3],
    hi: &[Real; 3],
    f: usize,
    sf: Real,
    slop: Real,
    margin: Real,
    frame: &WorldFrame,
    ref_is_b: bool,
    id_base: u32,
    points: &mut ArrayVec<ContactPoint, 4>,
) {
    let (f1, f2) = (NEXT[f], PREV[f]);
    // Incident face: the face of the other box most anti-parallel to the reference normal.
    let row = [ri[0][f] * sf, ri[1][f] * sf, ri[2][f] * sf];
    let (a0, a1, a2) = (row[0].abs(), row[1].abs(), row[2].abs());
    let (k01, a01) = if a1 > a0 { (1, a1) } else { (0, a0) };
    let k = if a2 > a01 { 2 } else { k01 };
    let si: Real = if row[k] > 0.0 { -1.0 } else { 1.0 };
    let inc_face = (k as u32) * 2 + u32::from(si > 0.0);
    let (k1, k2) = (NEXT[k], PREV[k]);
    // Centre and half edges of the incident face, coordinates (f1, f2, f) with f times sf.
    let (sk, s1, s2) = (si * hi[k], hi[k1], hi[k2]);
    let (rk, r1, r2) = (&ri[k], &ri[k1], &ri[k2]);
    let c = [
        ti[f1] + rk[f1] * sk,
        ti[f2] + rk[f2] * sk,
        (ti[f] + rk[f] * sk) * sf,
    ];
    let u = [r1[f1] * s1, r1[f2] * s1, r1[f] * s1 * sf];
    let v = [r2[f1] * s2, r2[f2] * s2, r2[f] * s2 * sf];
    let mut quad = Poly::quad(c, u, v);
    // Side planes of the reference face, widened by the slop.
    let (lx, ly) = (hr[f1] + slop, hr[f2] + slop);
    let xs = V4::new(quad.x[0], quad.x[1], quad.x[2], quad.x[3]).abs();
    let ys = V4::new(quad.y[0], quad.y[1], quad.y[2], quad.y[3]).abs();
    let inside = V4::splat(lx).ge_mask(xs) & V4::splat(ly).ge_mask(ys);
    // Points deeper than -margin (a point's depth is `h_f - z`) are kept.
    let hf = hr[f];
    let mut spare;
    let (poly, keep) = if inside == 0b1111 {
        // The quad as it is: its points deep enough (the depth filter's comparisons, four at
        // once) are kept when they are written out.
        let deep = (V4::splat(hf) - lanes9(&quad.z, 0)).ge_mask(V4::splat(-margin));
        (&mut quad, deep)
    } else {
        spare = Poly::empty();
        let poly = if clip_lines(&quad, lx, ly, hf, margin, &mut spare) {
            &mut spare
        } else {
            clip_passes(&mut quad, &mut spare, lx, ly, hf, margin)
        };
        if poly.len > 4 {
            reduce(poly, hf);
        }
        let keep = (1u32 << poly.len.min(4)) - 1;
        (poly, keep)
    };
    let base = id_base | (inc_face << 4);
    points_to_world(poly, keep, hr, f, sf, frame, ref_is_b, base, points);
}

/// The points `k < 4` of `poly` (reference-face coordinates, see [`Poly`]) whose bit `k` is set
/// in `keep`, in order, as contact points in world space, replacing `points`: the incident
/// box's point, the point moved onto the reference face (clamped to it) for the reference
/// box's, depth `h_f - z` and code `base | id`. All four lanes are computed at once (lanes =
/// points, per world component the per-point operations of the scalar form
/// `c + ((x a_1 + y a_2) + z a_f)`, so the same bits), then transposed into `ContactPoint`s and
/// stored whole, compacted over `keep`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn points_to_world(
    poly: &Poly,
    keep: u32,
    hr: &[Real; 3],
    f: usize,
    sf: Real,
    frame: &WorldFrame,
    ref_is_b: bool,
    base: u32,
    points: &mut ArrayVec<ContactPoint, 4>,
) {
    let (f1, f2) = (NEXT[f], PREV[f]);
    let (h1, h2) = (hr[f1], hr[f2]);
    let hf = hr[f];
    let (x, y, z) = (lanes9(&poly.x, 0), lanes9(&poly.y, 0), lanes9(&poly.z, 0));
    let (xr, yr) = (clamp4(x, h1), clamp4(y, h2));
    let (ax, ay, af) = (&frame.axes[f1], &frame.axes[f2], &frame.axes[f]);
    let mut inc = [x; 3];
    let mut on_ref = [x; 3];
    for m in 0..3 {
        let az = af[m] * sf;
        let c = frame.c[m];
        let (sx, sy) = (V4::splat(ax[m]), V4::splat(ay[m]));
        inc[m] = V4::splat(c) + ((sx * x + sy * y) + V4::splat(az) * z);
        // The reference face's centre, then the clamped point on it.
        let face = c + az * hf;
        on_ref[m] = V4::splat(face) + (sx * xr + sy * yr);
    }
    let (pa, pb) = if ref_is_b {
        (&inc, &on_ref)
    } else {
        (&on_ref, &inc)
    };
    let depth = V4::splat(hf) - z;
    let id = &poly.id;
    let ids = V4::new(
        id_word(base | id[0]),
        id_word(base | id[1]),
        id_word(base | id[2]),
        id_word(base | id[3]),
    );
    // Lanes = points to lanes = words: the first and the last four words of each point.
    let lo = V4::transpose([pa[0], pa[1], pa[2], pb[0]]);
    let hi = V4::transpose([pb[1], pb[2], depth, ids]);
    points.clear();
    let buf = points.as_mut_ptr();
    let mut w = 0;
    for k in 0..4 {
        #[allow(unsafe_code)]
        // SAFETY: `buf` points to the start of the vector's buffer of 4 slots (its capacity),
        // and `w <= k < 4`, so slot `w` lies inside it. A `ContactPoint` is 8 words of `Real`
        // laid out as `lo[k]`, `hi[k]` hold them (`#[repr(C)]`, checked at compile time below),
        // so the two writes of 4 aligned words fill exactly the slot, and every field then
        // holds a valid value (floats and a `u32`: any bits are valid; in `f64` the `id` word's
        // other half is the padding). The slot held nothing to drop, or a `ContactPoint`,
        // which is `Copy`.
        unsafe {
            let dst = buf.add(w) as *mut [Real; 4];
            dst.write(lo[k].lanes());
            dst.add(1).write(hi[k].lanes());
        }
        w += ((keep >> k) & 1) as usize;
    }
    #[allow(unsafe_code)]
    // SAFETY: `w <= 4` (the capacity), and slots `0..w` hold values: slot `m` was last written
    // by the `m`-th kept point (`w` became `m + 1` right after that write, and every later
    // write goes to a slot `>= m + 1`).
    unsafe {
        points.set_len(w)
    };
}

/// A feature code carried in a lane: the word whose bytes in memory are those of the code
/// followed (in `f64`) by zeros (moved and stored, never computed with).
#[inline(always)]
fn id_word(id: u32) -> Real {
    #[cfg(not(feature = "f64"))]
    let w = Real::from_bits(id);
    #[cfg(all(feature = "f64", target_endian = "little"))]
    let w = Real::from_bits(u64::from(id));
    #[cfg(all(feature = "f64", target_endian = "big"))]
    let w = Real::from_bits(u64::from(id) << 32);
    w
}

// The layout that `points_to_world` writes a `ContactPoint` in: `point_a`, `point_b`, `depth`
// and `id` as words `0..3`, `3..6`, `6` and `7` of `Real`, nothing else. (`Point3` is
// nalgebra's `#[repr(C)]` point over its 3 coordinates in order.)
const _: () = {
    use core::mem::{offset_of, size_of};
    let r = size_of::<Real>();
    assert!(size_of::<ContactPoint>() == 8 * r);
    assert!(size_of::<Point3>() == 3 * r);
    assert!(offset_of!(ContactPoint, point_a) == 0);
    assert!(offset_of!(ContactPoint, point_b) == 3 * r);
    assert!(offset_of!(ContactPoint, depth) == 6 * r);
    assert!(offset_of!(ContactPoint, id) == 7 * r);
};

/// `x` clamped to `[-h, h]` per lane (`h >= 0`) like `Real::clamp` without its check (NaN stays
/// NaN, `-0` stays `-0`); `lo > h` is tested as `-lo < -h` (negation is exact).
#[inline(always)]
fn clamp4(x: V4, h: Real) -> V4 {
    let lo = V4::splat(-h).where_lt(x, -h, x);
    V4::splat(h).where_lt(-lo, -h, lo)
}

/// Keeps 4 of up to 8 points (depths `hf - z`): the deepest, the farthest from it, and on each
/// side of that diagonal the point spanning the largest triangle with it (largest area, order
/// kept).
#[inline(never)]
fn reduce(pts: &mut Poly, hf: Real) {
    let n = pts.len.min(8);
    let [i0, i1, mut i2, mut i3] = match reduce_picks_lanes(pts, hf, n) {
        Some(p) => p,
        None => reduce_picks(pts, hf, n),
    };
    let (px, py) = (&pts.x, &pts.y);
    let (x0, y0) = (px[i0], py[i0]);
    let (x1, y1) = (px[i1], py[i1]);
    let area = |a: (Real, Real), b: (Real, Real), c: (Real, Real)| {
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    };
    // Degenerate sides (all points on one side or on the diagonal): fill with the point that
    // spans the most area with the points already kept.
    for _ in 0..2 {
        if i2 != usize::MAX && i3 != usize::MAX {
            break;
        }
        let k = if i2 != usize::MAX { i2 } else { i0 };
        let (mut bi, mut ba) = (usize::MAX, -1.0);
        for i in 0..n {
            if i == i0 || i == i1 || i == i2 || i == i3 {
                continue;
            }
            let p = (px[i], py[i]);
            let pk = (px[k], py[k]);
            let a = area((x0, y0), pk, p).abs() + area((x1, y1), pk, p).abs();
            if a > ba {
                (bi, ba) = (i, a);
            }
        }
        if i2 == usize::MAX {
            i2 = bi;
        } else {
            i3 = bi;
        }
    }
    // Keep the four in their order: the kept indices as bits, walked upwards (a side without
    // a point, `usize::MAX`, keeps nothing).
    let bit = |i: usize| if i < 8 { 1u32 << i } else { 0 };
    let mut keep = bit(i0) | bit(i1) | bit(i2) | bit(i3);
    let mut w = 0;
    while keep != 0 {
        let i = keep.trailing_zeros() as usize & 7;
        keep &= keep - 1;
        pts.x[w] = pts.x[i];
        pts.y[w] = pts.y[i];
        pts.z[w] = pts.z[i];
        pts.id[w] = pts.id[i];
        w += 1;
    }
    pts.len = w;
}

/// The first four picks of [`reduce`] by the plain loops: the deepest point, the farthest from
/// it, and on each side of that diagonal the point spanning the largest triangle with it
/// (`usize::MAX` when a side has none). The loops select with comparisons rather than branch
/// on them; each pick is the first maximum, in order.
#[cold]
#[inline(never)]
fn reduce_picks(pts: &Poly, hf: Real, n: usize) -> [usize; 4] {
    let (px, py) = (&pts.x, &pts.y);
    let mut i0 = 0;
    let mut d0 = hf - pts.z[0];
    for i in 1..n {
        let d = hf - pts.z[i];
        let better = d > d0;
        i0 = if better { i } else { i0 };
        d0 = if better { d } else { d0 };
    }
    let (x0, y0) = (px[i0], py[i0]);
    let mut i1 = if i0 == 0 { 1 } else { 0 };
    let mut best = -1.0;
    for i in 0..n {
        let (x, y) = (px[i], py[i]);
        let d = (x - x0) * (x - x0) + (y - y0) * (y - y0);
        let better = i != i0 && d > best;
        i1 = if better { i } else { i1 };
        best = if better { d } else { best };
    }
    let (x1, y1) = (px[i1], py[i1]);
    let area = |a: (Real, Real), b: (Real, Real), c: (Real, Real)| {
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    };
    // Largest triangle on the positive side of the diagonal, then on the negative side.
    let (mut i2, mut a2) = (usize::MAX, 0.0);
    let (mut i3, mut a3) = (usize::MAX, 0.0);
    for i in 0..n {
        let a = area((x0, y0), (x1, y1), (px[i], py[i]));
        let other = i != i0 && i != i1;
        let pos = other && a > a2;
        let neg = other && a < a3;
        i2 = if pos { i } else { i2 };
        a2 = if pos { a } else { a2 };
        i3 = if neg { i } else { i3 };
        a3 = if neg { a } else { a3 };
    }
    [i0, i1, i2, i3]
}

/// Lanes `o..o + 4` of a polygon coordinate.
#[inline(always)]
fn lanes9(a: &[Real; 9], o: usize) -> V4 {
    V4::new(a[o], a[o + 1], a[o + 2], a[o + 3])
}

/// The picks of [`reduce_picks`] with the 8 points in two lane groups: the same arithmetic per
/// point, each pick the first lane holding the extreme value (which is what the loops' strict
/// comparisons select, `-0 == 0` included); lanes past `n` and the points already picked are
/// masked out (`-inf` for the maxima, `0` for the areas, which must beat `0` strictly to count).
/// `None` when a depth, distance or area is NaN: the loops skip NaN in their own way, and the
/// caller runs them then.
#[inline(always)]
fn reduce_picks_lanes(pts: &Poly, hf: Real, n: usize) -> Option<[usize; 4]> {
    let idx = [V4::new(0.0, 1.0, 2.0, 3.0), V4::new(4.0, 5.0, 6.0, 7.0)];
    let nf = n as Real;
    let valid = (1u32 << n) - 1;
    let ninf = V4::splat(-Real::INFINITY);
    let zero = V4::splat(0.0);
    let (xl, yl) = (
        [lanes9(&pts.x, 0), lanes9(&pts.x, 4)],
        [lanes9(&pts.y, 0), lanes9(&pts.y, 4)],
    );
    let hfv = V4::splat(hf);
    // Lanes that are not NaN (equal to themselves), as bits.
    let not_nan = |v: &[V4; 2]| v[0].eq_mask(v[0]) | (v[1].eq_mask(v[1]) << 4);
    // The first allowed lane equal to `m` (which holds the extreme value in every lane).
    let first_eq = |v: &[V4; 2], m: V4, allowed: u32| {
        ((v[0].eq_mask(m) | (v[1].eq_mask(m) << 4)) & allowed).trailing_zeros() as usize & 7
    };
    // The deepest point.
    let d = [
        (hfv - lanes9(&pts.z, 0)).where_lt(idx[0], nf, ninf),
        (hfv - lanes9(&pts.z, 4)).where_lt(idx[1], nf, ninf),
    ];
    let i0 = first_eq(&d, d[0].max(d[1]).all_max(), valid);
    // The farthest from it. (A NaN anywhere makes the picks meaningless but in bounds: they
    // are dropped below, one test for the three steps.)
    let (x0, y0) = (pts.x[i0], pts.y[i0]);
    let (x0v, y0v) = (V4::splat(x0), V4::splat(y0));
    let mut dist = [zero; 2];
    for h in 0..2 {
        let (dx, dy) = (xl[h] - x0v, yl[h] - y0v);
        dist[h] = (dx * dx + dy * dy)
            .where_lt(idx[h], nf, ninf)
            .unless_eq(idx[h], i0 as Real, ninf);
    }
    let i1 = first_eq(&dist, dist[0].max(dist[1]).all_max(), valid & !(1 << i0));
    // The largest triangles on either side of the diagonal.
    let (x1, y1) = (pts.x[i1], pts.y[i1]);
    let (ex, ey) = (V4::splat(x1 - x0), V4::splat(y1 - y0));
    let mut area = [zero; 2];
    for h in 0..2 {
        area[h] = (ex * (yl[h] - y0v) - ey * (xl[h] - x0v))
            .where_lt(idx[h], nf, zero)
            .unless_eq(idx[h], i0 as Real, zero)
            .unless_eq(idx[h], i1 as Real, zero);
    }
    if not_nan(&d) & not_nan(&dist) & not_nan(&area) != 0xff {
        return None;
    }
    let others = valid & !(1 << i0) & !(1 << i1);
    let hi = area[0].max(area[1]).all_max();
    let lo = area[0].min(area[1]).all_min();
    let i2 = if hi.first() > 0.0 {
        first_eq(&area, hi, others)
    } else {
        usize::MAX
    };
    let i3 = if lo.first() < 0.0 {
        first_eq(&area, lo, others)
    } else {
        usize::MAX
    };
    Some([i0, i1, i2, i3])
}

/// Closest points of the edges `ca + s da` and `cb + t db` (`s, t` in `[-1, 1]`), which are not
/// parallel (their cross product is a chosen SAT axis): the lines' closest points, clamped, with
/// the other parameter recomputed after each clamp (Ericson, *Real-Time Collision Detection*,
/// §5.1.9). Falls back to the general routine when the system is singular.
#[inline(always)]
fn edge_closest(ca: V4, da: V4, cb: V4, db: V4) -> (V4, V4) {
    let w = ca - cb;
    let (a, b, c) = (dot3(da, da), dot3(da, db), dot3(db, db));
    let (d, e) = (dot3(da, w), dot3(db, w));
    let den = a * c - b * b;
    if den.is_nan() || den <= 0.0 || a == 0.0 || c == 0.0 {
        return edge_closest_general(ca, da, cb, db);
    }
    let mut s = ((b * e - c * d) / den).clamp(-1.0, 1.0);
    let mut t = (b * s + e) / c;
    if t.abs() > 1.0 {
        t = t.clamp(-1.0, 1.0);
        s = ((b * t - d) / a).clamp(-1.0, 1.0);
    }
    (ca + da * V4::splat(s), cb + db * V4::splat(t))
}

/// [`edge_closest`]'s singular case: the general segment routine.
#[cold]
#[inline(never)]
fn edge_closest_general(ca: V4, da: V4, cb: V4, db: V4) -> (V4, V4) {
    let p = |v: V4| {
        let [x, y, z, _] = v.lanes();
        Point3::new(x, y, z)
    };
    let r = segment_segment_closest(&p(ca - da), &p(ca + da), &p(cb - db), &p(cb + db));
    let v = |q: Point3| V4::new(q.x, q.y, q.z, 0.0);
    (v(r.point_a), v(r.point_b))
}

/// `x . y` over lanes 0..2 as nalgebra's `Vector3::dot` computes it: `(x0 y0 + x1 y1) + x2 y2`.
#[inline(always)]
fn dot3(x: V4, y: V4) -> Real {
    let [p0, p1, p2, _] = (x * y).lanes();
    p0 + p1 + p2
}

/// `m v` (lanes 0..2) as nalgebra's matrix-vector product computes it:
/// `(m_0 v0 + m_1 v1) + m_2 v2` over the columns `m_k`.
#[inline(always)]
fn a_times(m: &Matrix3, v: V4) -> V4 {
    let c = &m.data.0;
    let col = |k: usize| V4::new(c[k][0], c[k][1], c[k][2], 0.0);
    // The lanes broadcast in registers (a round trip through memory made LLVM reload them
    // with a load spanning two stores, which waits for both).
    let [x, y, z] = v.splat012();
    col(0) * x + col(1) * y + col(2) * z
}

/// The two bits of `m` other than bit `i` (`i` in `0..3`), in order: bits 0 and 1.
#[inline(always)]
fn compress_other(m: u32, i: usize) -> u32 {
    let low = (1u32 << i) - 1;
    ((m & low) | ((m >> 1) & !low)) & 3
}

/// The axes other than `k` in increasing order (padded to 4 entries for `& 3` indices).
const OTHERS4: [[usize; 2]; 4] = [[1, 2], [0, 2], [0, 1], [0, 1]];

/// A box's centre and axes, for taking points back to world space; the axes are read in place
/// (only the three a face contact uses are loaded).
struct WorldFrame<'f> {
    c: [Real; 3],
    axes: &'f [[Real; 3]; 3],
}

impl<'f> WorldFrame<'f> {
    #[inline(always)]
    fn new<F: LeanBox>(b: &'f F) -> WorldFrame<'f> {
        let c = world_center(b);
        WorldFrame {
            c: [c.x, c.y, c.z],
            axes: &b.axes().data.0,
        }
    }
}

/// The manifold of two boxes given as SAT frames, written into `out` (see
/// [`contact_manifold_into`]); mirrored ([`mirror`]) when `flip` is set.
#[inline(always)]
fn manifold_into_lean<A: LeanBox, B: LeanBox>(
    fa: &A,
    fb: &B,
    config: &ContactConfig,
    out: &mut ContactManifold,
    flip: bool,
) -> bool {
    let l = Local::new(fa, fb);
    if !l.fits {
        return huge::manifold_into(fa, fb, config, out, flip);
    }
    let choice = l.axis();
    finish_into(&l, &choice, config, out, flip)
}

/// The manifold from the pair in `A`'s frame and its chosen axis, written into `out` as
/// [`contact_manifold_into`] documents it (shared by the single path and the batch of
/// [`contact_manifolds_into`]); mirrored ([`mirror`]) when `flip` is set: the mirror is built
/// into the points as they are written (the roles of the surface points and the ids' role bits
/// exchanged), not applied afterwards.
#[inline(always)]
fn finish_into<A: LeanBox, B: LeanBox>(
    l: &Local<'_, A, B>,
    choice: &Choice,
    config: &ContactConfig,
    out: &mut ContactManifold,
    flip: bool,
) -> bool {
    out.points.clear();
    match manifold_finish(l, choice, config, &mut out.points, flip) {
        Some((normal, depth)) => {
            out.normal = normal;
            out.depth = depth;
            true
        }
        None => false,
    }
}

/// The manifold's normal and depth from the pair in `A`'s frame and its chosen axis (the part
/// after the axis selection, for [`finish_into`]), its points written into `points` (empty on
/// entry); `None` when the pair is separated beyond the margin or no point is left.
#[inline(always)]
fn manifold_finish<A: LeanBox, B: LeanBox>(
    l: &Local<'_, A, B>,
    choice: &Choice,
    config: &ContactConfig,
    points: &mut ArrayVec<ContactPoint, 4>,
    flip: bool,
) -> Option<(Vector3, Real)> {
    let (fa, fb) = (l.fa, l.fb);
    // Touching pairs whose computed depth came out a rounding error below 0 still get their
    // manifold: the margin is widened by the separation allowance of the overlap tests.
    let margin = config.effective_margin() + SEPARATION_TOLERANCE * l.scale;
    let depth = choice.least;
    if depth.is_nan() || depth < -margin {
        return None;
    }
    let normal = world_normal(fa, fb, choice);
    let normal = if flip { -normal } else { normal };
    match choice.axis {
        SatAxis::FaceA(_) | SatAxis::FaceB(_) => {
            // Reference frame: the box whose face it is; the other box's centre and axes in it.
            let (f, sf, ref_is_b) = match choice.axis {
                SatAxis::FaceA(i) => (i as usize, choice.n[i as usize], false),
                // The reference normal points from B toward A: -s b_j.
                SatAxis::FaceB(j) => (j as usize, -choice.sign_b, true),
                SatAxis::Edge(..) => unreachable!(),
            };
            // (`ri` by reference: A's columns are read in place, not moved through a tuple.)
            let rows;
            let (hr, hi, ti, ri, frame) = if ref_is_b {
                let tb = (-l.tb).lanes();
                rows = [l.rr[0].lanes(), l.rr[1].lanes(), l.rr[2].lanes()];
                (&l.hb, &l.ha, tb, &rows, WorldFrame::new(fb))
            } else {
                (&l.ha, &l.hb, l.t.lanes(), &l.rcl, WorldFrame::new(fa))
            };
            // The reference box's role in the result (the other one when mirrored).
            let ref_b = ref_is_b ^ flip;
            let base = (f as u32) * 2 + u32::from(sf > 0.0) + if ref_b { 8 } else { 0 };
            face_contact(
                hr, &ti, ri, hi, f, sf, l.tol, margin, &frame, ref_b, base, points,
            );
        }
        SatAxis::Edge(i, j) => {
            // In lanes, with the scalar code's operations and order (so the same bits):
            // R's columns, `t`, and the normal in A's frame.
            let (i, j) = (i as usize & 3, j as usize & 3);
            let nl = V4::new(choice.n[0], choice.n[1], choice.n[2], 0.0);
            let ha4 = V4::new(l.ha[0], l.ha[1], l.ha[2], 0.0);
            let hb4 = V4::new(l.hb[0], l.hb[1], l.hb[2], 0.0);
            let zero = V4::splat(0.0);
            let k_lanes = V4::new(0.0, 1.0, 2.0, 3.0);
            // A's edge along e_i, extreme in +n: coordinate k of its centre `s_k h_A,k`
            // (`s_k = +1` where `n_k >= 0`, else -1), coordinate i `+0`.
            let ge = nl.ge(zero);
            let ca_e = (nl.sign_ge0() * ha4).and_not(lane_is(i, k_lanes));
            // B's edge along R_j, extreme in -n: `t + sum s_k h_B,k R_k` over the other two
            // axes in increasing order, `s_k = -1` where `R_k . n > 0`, else +1; the dot
            // products of the three columns at once (lanes k, the dot's order).
            let rr = &l.rr;
            let dots = (rr[0] * V4::splat(choice.n[0]) + rr[1] * V4::splat(choice.n[1]))
                + rr[2] * V4::splat(choice.n[2]);
            let gt = dots.gt(zero);
            let shb = (gt.select(V4::splat(-1.0), V4::splat(1.0)) * hb4).lanes();
            let [k1, k2] = OTHERS4[j];
            let col = |k: usize| lanes4(&l.rcl[k & 3]);
            let cb_e = (l.t + col(k1) * V4::splat(shb[k1])) + col(k2) * V4::splat(shb[k2]);
            // The codes: the axis, then the sides (`s > 0`) of the other two in increasing
            // order (bits 0 and 1).
            let code_a = ((i as u32) << 2) | compress_other(ge.bits(), i);
            let code_b = ((j as u32) << 2) | compress_other(!gt.bits(), j);
            let da = ha4.and(lane_is(i, k_lanes));
            let db = col(j) * V4::splat(l.hb[j]);
            let (pa, pb) = edge_closest(ca_e, da, cb_e, db);
            let ca = world_center(fa);
            let ca = V4::new(ca.x, ca.y, ca.z, 0.0);
            let to_world = |v: V4| -> Point3 {
                let w = if fa.axis_aligned() {
                    v
                } else {
                    a_times(fa.axes(), v)
                };
                let [x, y, z, _] = (ca + w).lanes();
                Point3::new(x, y, z)
            };
            let (pa, pb, code_a, code_b) = if flip {
                (pb, pa, code_b, code_a)
            } else {
                (pa, pb, code_a, code_b)
            };
            points.push(ContactPoint {
                point_a: to_world(pa),
                point_b: to_world(pb),
                depth,
                id: FeatureId(point_code(KIND_EDGE_EDGE, code_a, code_b)),
            });
        }
    }
    if points.is_empty() {
        return None;
    }
    Some((normal, depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::UnitQuaternion;
    use sepax_shapes::{Aabb, Obb};

    #[test]
    fn resting_cube_gives_four_face_points() {
        let floor = Aabb::new(Point3::new(-5.0, -1.0, -5.0), Point3::new(5.0, 0.0, 5.0)).unwrap();
        let cube = Obb::from_rotation(
            Point3::new(0.0, 0.49, 0.0),
            UnitQuaternion::from_euler_angles(0.0, 0.3, 0.0),
            Vector3::new(0.5, 0.5, 0.5),
        )
        .unwrap();
        let m = contact_manifold(&floor, &cube, &ContactConfig::default()).unwrap();
        assert_eq!(m.points.len(), 4);
        assert!((m.normal - Vector3::y()).norm() < 1e-6);
        assert!((m.depth - 0.01).abs() < 1e-5);
        for p in &m.points {
            assert!((p.depth - 0.01).abs() < 1e-5);
            assert!(p.point_a.y.abs() < 1e-6);
            assert!((p.point_b.y + 0.01).abs() < 1e-5);
        }
        // Swapped order: B's face is the reference now, same points, opposite normal.
        let m2 = contact_manifold(&cube, &floor, &ContactConfig::default()).unwrap();
        assert!((m2.normal + Vector3::y()).norm() < 1e-6);
        assert_eq!(m2.points.len(), 4);
    }

    #[test]
    fn crossed_edges_give_one_point() {
        // Two long bars crossing at right angles, edge on edge.
        let q = UnitQuaternion::from_euler_angles(core::f64::consts::FRAC_PI_4 as Real, 0.0, 0.0);
        let a = Obb::from_rotation(Point3::origin(), q, Vector3::new(2.0, 0.5, 0.5)).unwrap();
        let q2 = UnitQuaternion::from_euler_angles(0.0, 0.0, core::f64::consts::FRAC_PI_4 as Real);
        let s2 = (2.0 as Real).sqrt();
        let b = Obb::from_rotation(
            Point3::new(0.0, s2 - 0.1, 0.0),
            q2,
            Vector3::new(0.5, 0.5, 2.0),
        )
        .unwrap();
        let m = contact_manifold(&a, &b, &ContactConfig::default()).unwrap();
        assert!(matches!(penetration(&a, &b).axis, SatAxis::Edge(..)));
        assert_eq!(m.points.len(), 1);
        assert!((m.depth - 0.1).abs() < 1e-4, "{}", m.depth);
        assert!((m.normal - Vector3::y()).norm() < 1e-4);
    }

    /// The skip of the accurate edge path is sound: whenever `edge_cannot_win` says the
    /// accurate depth along a nearly parallel edge axis is at least `face_d`, it is. Checked on
    /// pairs whose axes are rotated by 1e-7 to 0.05 rad from each other (every such pair has
    /// short edge axes), with `face_d` just above the accurate depth (the bound must never
    /// claim more), and at a twentieth of it with tilts above 1e-3 rad (a resting contact, where
    /// it should skip: below that tilt the numerator is within the error bound).
    #[test]
    fn accurate_edge_skip_is_sound() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        let (mut checked, mut tilted, mut skipped) = (0, 0, 0);
        for _ in 0..20_000 {
            let unit = |rng: &mut rand_chacha::ChaCha8Rng| {
                Vector3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                )
            };
            let qa = UnitQuaternion::from_scaled_axis(unit(&mut rng) * 3.0);
            let angle = (10.0 as Real).powf(rng.random_range(-7.0..-1.3));
            let tilt = unit(&mut rng).normalize() * angle;
            let qb = qa * UnitQuaternion::from_scaled_axis(tilt);
            let half = |rng: &mut rand_chacha::ChaCha8Rng| {
                Vector3::new(
                    rng.random_range(0.05..2.0),
                    rng.random_range(0.05..2.0),
                    rng.random_range(0.05..2.0),
                )
            };
            let (ha, hb) = (half(&mut rng), half(&mut rng));
            let a = Obb::from_rotation(Point3::from(unit(&mut rng)), qa, ha).unwrap();
            let b = Obb::from_rotation(Point3::from(unit(&mut rng) * 1.5), qb, hb).unwrap();
            let (fa, fb) = (a.frame(), b.frame());
            let l = Local::new(&fa, &fb);
            let t = l.t.lanes();
            let (ha, hb) = (l.ha, l.hb);
            for i in 0..3 {
                for j in 0..3 {
                    // The fast closed forms (as in `Local::axis`).
                    let r = |row: usize, col: usize| l.rcl[col][row];
                    let (i1, i2, j1, j2) = (NEXT[i], PREV[i], NEXT[j], PREV[j]);
                    let len_sq = r(i1, j) * r(i1, j) + r(i2, j) * r(i2, j);
                    if len_sq >= EDGE_FAST_MIN_SQ {
                        continue;
                    }
                    let ra = ha[i1] * r(i2, j).abs() + ha[i2] * r(i1, j).abs();
                    let rb = hb[j1] * r(i, j2).abs() + hb[j2] * r(i, j1).abs();
                    let tl = t[i2] * r(i1, j) - t[i1] * r(i2, j);
                    let num = ra + rb - tl.abs();
                    let Some((acc, _, _)) = l.edge_accurate(i, j) else {
                        continue;
                    };
                    checked += 1;
                    let above = acc + acc.abs() * Real::EPSILON + Real::MIN_POSITIVE;
                    assert!(
                        !l.edge_cannot_win(num, len_sq, above),
                        "bound claims depth >= {above} but the accurate depth is {acc}: \
                         a={a:?} b={b:?} axis ({i}, {j})"
                    );
                    // The resting regime: tilts of 1e-3 rad and more, a shallow face.
                    if angle > 1e-3 {
                        tilted += 1;
                        if l.edge_cannot_win(num, len_sq, 0.05 * acc) {
                            skipped += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 20_000, "{checked}");
        assert!(skipped > tilted * 3 / 4, "skipped {skipped} of {tilted}");
    }

    /// `clip_lines` gives the points, order and codes of the four Sutherland–Hodgman passes,
    /// bit for bit, whenever it answers: on random quads (general position), and on quads
    /// snapped onto the side planes, shrunk to segments or points, or spanning the rectangle
    /// (the degenerate cases, where it may hand over to the passes).
    #[test]
    fn clip_lines_matches_the_passes() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (mut direct, mut total) = (0, 0);
        for trial in 0..200_000 {
            let mut r = |a: Real| rng.random_range(-a..a);
            let (lx, ly) = (0.05 + r(1.0).abs(), 0.05 + r(1.0).abs());
            let c = [r(1.5), r(1.5), r(1.0)];
            let mut u = [r(1.5), r(1.5), r(0.5)];
            let mut v = [r(1.5), r(1.5), r(0.5)];
            let mut quad = Poly::quad(c, u, v);
            match trial % 8 {
                // A vertex on a side plane.
                5 => {
                    let k = (trial / 8) % 4;
                    quad.x[k] = if trial % 16 < 8 { lx } else { -lx };
                }
                6 => {
                    let k = (trial / 8) % 4;
                    quad.y[k] = if trial % 16 < 8 { ly } else { -ly };
                    quad.x[(k + 1) % 4] = -lx;
                }
                // A segment or a point.
                7 => {
                    if trial % 16 < 8 {
                        v = [0.0; 3];
                    } else {
                        u = [0.0; 3];
                        v = [0.0; 3];
                    }
                    quad = Poly::quad(c, u, v);
                }
                _ => {}
            }
            let mut lines = Poly::empty();
            let ok = clip_lines(&quad, lx, ly, 0.0, Real::INFINITY, &mut lines);
            let (mut q2, mut spare) = (quad, Poly::empty());
            let passes = clip_passes(&mut q2, &mut spare, lx, ly, 0.0, Real::INFINITY);
            total += 1;
            if !ok {
                continue;
            }
            direct += 1;
            let n = passes.len;
            assert_eq!(lines.len, n, "trial {trial}");
            for m in 0..n {
                assert_eq!(lines.x[m].to_bits(), passes.x[m].to_bits(), "trial {trial}");
                assert_eq!(lines.y[m].to_bits(), passes.y[m].to_bits(), "trial {trial}");
                assert_eq!(lines.z[m].to_bits(), passes.z[m].to_bits(), "trial {trial}");
                assert_eq!(lines.id[m], passes.id[m], "trial {trial}");
            }
        }
        // Every general-position quad takes the direct path.
        assert!(direct * 8 >= total * 5, "{direct} of {total}");
    }

    /// The lane picks of the reduction are those of the plain loops whenever they answer (and
    /// they answer unless a value is NaN): on random polygons of 5 to 8 points, on points
    /// snapped to a coarse grid (ties in depth, distance and area, collinear points, `-0`),
    /// and with infinite or NaN coordinates.
    #[test]
    fn reduce_lanes_match_the_loops() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut answered, mut total) = (0, 0);
        for trial in 0..200_000 {
            let mut pts = Poly::empty();
            let n = 5 + trial % 4;
            pts.len = n;
            // Stale values past `n`, as a clipped polygon leaves them.
            for k in 0..9 {
                pts.x[k] = rng.random_range(-2.0..2.0);
                pts.y[k] = rng.random_range(-2.0..2.0);
                pts.z[k] = rng.random_range(-0.5..0.5);
            }
            match trial % 5 {
                // A coarse grid: ties everywhere.
                1 | 2 => {
                    for k in 0..9 {
                        pts.x[k] = (pts.x[k] * 2.0).round() * 0.5;
                        pts.y[k] = (pts.y[k] * 2.0).round() * 0.5;
                        pts.z[k] = (pts.z[k] * 4.0).round() * 0.25;
                    }
                    if trial % 10 == 1 {
                        pts.x[trial / 10 % n] = -0.0;
                    }
                }
                // An infinite or NaN coordinate.
                3 => {
                    let v = [Real::INFINITY, -Real::INFINITY, Real::NAN][trial / 5 % 3];
                    match trial / 15 % 3 {
                        0 => pts.x[trial / 45 % n] = v,
                        1 => pts.y[trial / 45 % n] = v,
                        _ => pts.z[trial / 45 % n] = v,
                    }
                }
                _ => {}
            }
            let hf = 0.25;
            total += 1;
            let Some(lanes) = reduce_picks_lanes(&pts, hf, n) else {
                continue;
            };
            answered += 1;
            assert_eq!(
                lanes,
                reduce_picks(&pts, hf, n),
                "trial {trial}: {:?}",
                pts.x
            );
        }
        // Only the NaN cases (part of the fifth with an infinite or NaN value) hand over.
        assert!(answered * 10 >= total * 9, "{answered} of {total}");
    }

    #[test]
    fn speculative_contact_within_margin() {
        let a = Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
        let b = Aabb::new(Point3::new(0.2, 1.05, 0.2), Point3::new(0.8, 2.0, 0.8)).unwrap();
        assert!(contact_manifold(&a, &b, &ContactConfig::default()).is_none());
        let m = contact_manifold(&a, &b, &ContactConfig::with_margin(0.1)).unwrap();
        assert_eq!(m.points.len(), 4);
        assert!((m.depth + 0.05).abs() < 1e-6);
        assert!(m.points.iter().all(|p| (p.depth + 0.05).abs() < 1e-6));
    }
}
