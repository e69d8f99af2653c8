//! The batch manifold API: the axis selection of four OBB–OBB pairs at once (eight with AVX2
//! in `f32`), one pair per lane.
//!
//! Structure of arrays: every quantity of the single-pair selection ([`Local::new`],
//! [`Local::axis`]) is one [`V4`] whose lane `p` belongs to pair `p` of the group, computed by
//! the same IEEE operations in the same order, so each lane holds the single path's bits. The
//! argmins are compare-select chains (strict `<` in the scalar order keeps the first minimum;
//! the edges' minimum value is formed exactly as the single path forms it, signed zeros
//! included), the tie-break is lane selects, and the chosen edge's values are picked by a
//! select chain over the nine edges. Nearly parallel edges that [`Local::edge_cannot_win`]
//! (in lanes here) does not rule out send their pair through the single-pair code (which then
//! runs the accurate path). Per pair, the lanes go back to the single path's per-pair layout
//! with 4x4 transposes, and the face/edge contact is [`finish_into`], the single path's own
//! code. The public function uses the lane groups in the `f32` build only ([`LANE_GROUPS`]);
//! on a CPU with AVX2 it runs them compiled for AVX2, eight pairs per group (module `avx`).

use super::*;

/// The per-lane selection of a group of pairs (four with [`V4`], eight with the AVX2 build's
/// eight-lane vector): everything [`finish_into`] needs, still in lanes, plus the lanes
/// that must take the single-pair path.
struct Group<L = V4> {
    /// `R_ij` (lanes = pairs), `r[i][j]`.
    r: [[L; 3]; 3],
    t: [L; 3],
    tb: [L; 3],
    tol: L,
    scale: L,
    defect: L,
    least: L,
    /// The chosen unit normal in A's frame.
    n: [L; 3],
    sign_b: L,
    /// Lane masks: the edge won, B's face won (over A's).
    edge_wins: u32,
    b_wins: u32,
    /// A's face, B's face and the edge `(i, j)` chosen (lane values `0.0..=2.0`).
    ia: L,
    jb: L,
    ei: L,
    ej: L,
    /// Lanes whose pair has a nearly parallel edge that may win (single-pair path).
    accurate: u32,
}

/// The lane operations of the selection, on four lanes ([`V4`]) or, in the AVX2 build, eight:
/// each the same IEEE operation per lane (see [`V4`]'s methods, whose meaning they keep).
/// Lane masks (all ones or all zeros per lane) come from the comparisons, and from `and` of
/// two masks; `select` is only given such masks.
pub(super) trait Lane:
    Copy
    + core::ops::Add<Output = Self>
    + core::ops::Sub<Output = Self>
    + core::ops::Mul<Output = Self>
    + core::ops::Div<Output = Self>
    + core::ops::Neg<Output = Self>
{
    /// Every lane `x`.
    fn splat(x: Real) -> Self;
    /// `|x|` per lane (the sign bit cleared).
    fn abs(self) -> Self;
    /// The correctly rounded square root per lane.
    fn sqrt(self) -> Self;
    /// `minps` per lane: `self` where `self < o`, else `o`.
    fn min(self, o: Self) -> Self;
    /// `maxps` per lane: `self` where `self > o`, else `o`.
    fn max(self, o: Self) -> Self;
    /// Mask: `self == o` (ordered).
    fn eq(self, o: Self) -> Self;
    /// Mask: `self >= o` (ordered).
    fn ge(self, o: Self) -> Self;
    /// Mask: `self > o` (ordered).
    fn gt(self, o: Self) -> Self;
    /// Mask: `self < o` (ordered).
    fn lt(self, o: Self) -> Self;
    /// `a` where the mask `self` is set, `b` elsewhere.
    fn select(self, a: Self, b: Self) -> Self;
    /// Bit `k` set where lane `k` of the mask `self` is set.
    fn bits(self) -> u32;
    /// `+1` where `self >= 0` (`-0` included), `-1` elsewhere.
    fn sign_ge0(self) -> Self;
    /// Bitwise and.
    fn and(self, o: Self) -> Self;
    /// `self` where the mask `m` is clear, `+0` where it is set.
    fn and_not(self, m: Self) -> Self;
}

impl Lane for V4 {
    #[inline(always)]
    fn splat(x: Real) -> V4 {
        V4::splat(x)
    }
    #[inline(always)]
    fn abs(self) -> V4 {
        V4::abs(self)
    }
    #[inline(always)]
    fn sqrt(self) -> V4 {
        V4::sqrt(self)
    }
    #[inline(always)]
    fn min(self, o: V4) -> V4 {
        V4::min(self, o)
    }
    #[inline(always)]
    fn max(self, o: V4) -> V4 {
        V4::max(self, o)
    }
    #[inline(always)]
    fn eq(self, o: V4) -> V4 {
        V4::eq(self, o)
    }
    #[inline(always)]
    fn ge(self, o: V4) -> V4 {
        V4::ge(self, o)
    }
    #[inline(always)]
    fn gt(self, o: V4) -> V4 {
        V4::gt(self, o)
    }
    #[inline(always)]
    fn lt(self, o: V4) -> V4 {
        V4::lt(self, o)
    }
    #[inline(always)]
    fn select(self, a: V4, b: V4) -> V4 {
        V4::select(self, a, b)
    }
    #[inline(always)]
    fn bits(self) -> u32 {
        V4::bits(self)
    }
    #[inline(always)]
    fn sign_ge0(self) -> V4 {
        V4::sign_ge0(self)
    }
    #[inline(always)]
    fn and(self, o: V4) -> V4 {
        V4::and(self, o)
    }
    #[inline(always)]
    fn and_not(self, m: V4) -> V4 {
        V4::and_not(self, m)
    }
}

/// `b` where `b < a`, else `a` ([`min_nn`] per lane).
#[inline(always)]
fn min_l<L: Lane>(a: L, b: L) -> L {
    b.lt(a).select(b, a)
}

/// `b` where `b > a`, else `a` ([`max_nn`] per lane).
#[inline(always)]
fn max_l<L: Lane>(a: L, b: L) -> L {
    b.gt(a).select(b, a)
}

/// One box's 16 numbers in declaration order (centre, axes by column, half-extents, defect),
/// four boxes transposed to lanes: `out[f]` lane `p` is number `f` of box `p`. (When the
/// struct keeps its fields in declaration order, each row is 4 adjacent words that LLVM loads
/// as two 8-byte loads; the values do not depend on the layout.)
#[inline(always)]
fn load4(boxes: [&Obb; 4]) -> [V4; 16] {
    let mut rows = [[V4::splat(0.0); 4]; 4];
    for (p, b) in boxes.iter().enumerate() {
        let c = b.center();
        let m = &b.axes().data.0;
        let h = b.half_extents();
        rows[0][p] = V4::new(c.x, c.y, c.z, m[0][0]);
        rows[1][p] = V4::new(m[0][1], m[0][2], m[1][0], m[1][1]);
        rows[2][p] = V4::new(m[1][2], m[2][0], m[2][1], m[2][2]);
        rows[3][p] = V4::new(h.x, h.y, h.z, b.axes_error());
    }
    let [g0, g1, g2, g3] = [
        V4::transpose(rows[0]),
        V4::transpose(rows[1]),
        V4::transpose(rows[2]),
        V4::transpose(rows[3]),
    ];
    [
        g0[0], g0[1], g0[2], g0[3], g1[0], g1[1], g1[2], g1[3], g2[0], g2[1], g2[2], g2[3], g3[0],
        g3[1], g3[2], g3[3],
    ]
}

/// The axis selection of four OBB pairs, lane `p` = pair `p` (see the module docs).
// (Index loops: the indices are the formulas' `i`, `j`, `k`.)
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn select4(a: [&Obb; 4], b: [&Obb; 4]) -> Group {
    select_lanes(&load4(a), &load4(b))
}

/// The axis selection of the pairs whose boxes' numbers (as [`load4`] lays them out) are `fa`
/// and `fb`, lane `p` = pair `p`.
// (Index loops: the indices are the formulas' `i`, `j`, `k`.)
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn select_lanes<L: Lane>(fa: &[L; 16], fb: &[L; 16]) -> Group<L> {
    // Axis k, component c: number 3 + 3 k + c.
    let ax = |f: &[L; 16], k: usize, c: usize| f[3 + 3 * k + c];
    let d = [fb[0] - fa[0], fb[1] - fa[1], fb[2] - fa[2]];
    let ha = [fa[12], fa[13], fa[14]];
    let hb = [fb[12], fb[13], fb[14]];
    let mut r = [[L::splat(0.0); 3]; 3];
    let mut t = [L::splat(0.0); 3];
    for i in 0..3 {
        let (a0, a1, a2) = (ax(fa, i, 0), ax(fa, i, 1), ax(fa, i, 2));
        for j in 0..3 {
            r[i][j] = (a0 * ax(fb, j, 0) + a1 * ax(fb, j, 1)) + a2 * ax(fb, j, 2);
        }
        t[i] = (a0 * d[0] + a1 * d[1]) + a2 * d[2];
    }
    let mut tb = [L::splat(0.0); 3];
    for j in 0..3 {
        tb[j] = (t[0] * r[0][j] + t[1] * r[1][j]) + t[2] * r[2][j];
    }
    let s = min_l(
        max_l(max_l(ha[0], ha[1]), ha[2]),
        max_l(max_l(hb[0], hb[1]), hb[2]),
    );
    let tol = L::splat(CONTACT_AXIS_PREFERENCE) * s;
    let scale = ((ha[0] + ha[1]) + ha[2] + ((hb[0] + hb[1]) + hb[2]))
        + ((t[0].abs() + t[1].abs()) + t[2].abs());
    let defect = fa[15] + fb[15];

    let ar = [
        [r[0][0].abs(), r[0][1].abs(), r[0][2].abs()],
        [r[1][0].abs(), r[1][1].abs(), r[1][2].abs()],
        [r[2][0].abs(), r[2][1].abs(), r[2][2].abs()],
    ];
    let inf = L::splat(Real::INFINITY);
    let zero = L::splat(0.0);
    let (one, two) = (L::splat(1.0), L::splat(2.0));
    // Faces (NaN to +inf, as `first_min3`), then their first minima.
    let mut face_a = [zero; 3];
    let mut face_b = [zero; 3];
    for k in 0..3 {
        face_a[k] = ((((ha[k] + hb[0] * ar[k][0]) + hb[1] * ar[k][1]) + hb[2] * ar[k][2])
            - t[k].abs())
        .min(inf);
        face_b[k] = ((((ha[0] * ar[0][k] + ha[1] * ar[1][k]) + ha[2] * ar[2][k]) + hb[k])
            - tb[k].abs())
        .min(inf);
    }
    let first_min3 = |v: &[L; 3]| {
        let m_y = v[1].lt(v[0]);
        let m1 = m_y.select(v[1], v[0]);
        let k1 = m_y.and(one);
        let m_z = v[2].lt(m1);
        (m_z.select(v[2], m1), m_z.select(two, k1))
    };
    let (fa_d, ia) = first_min3(&face_a);
    let (fb_d, jb) = first_min3(&face_b);
    let (ia1, ia2) = (ia.eq(one), ia.eq(two));
    let (jb1, jb2) = (jb.eq(one), jb.eq(two));
    // R's column jb (lanes = pairs), and R_{ia, jb}.
    let col_b = [
        jb2.select(r[0][2], jb1.select(r[0][1], r[0][0])),
        jb2.select(r[1][2], jb1.select(r[1][1], r[1][0])),
        jb2.select(r[2][2], jb1.select(r[2][1], r[2][0])),
    ];
    let r_ab = ia2.select(col_b[2], ia1.select(col_b[1], col_b[0]));
    let cos_sq_min = L::splat(1.0 - CONTACT_PREFERENCE_SINE * CONTACT_PREFERENCE_SINE);
    let tol_ab = (r_ab * r_ab).ge(cos_sq_min).and(tol);
    let b_bound = fa_d - tol_ab;
    let b_wins = fb_d.lt(b_bound);
    let face_d = b_wins.select(fb_d, fa_d);
    // The chosen face's normal (see `Local::axis`).
    let tb_j = jb2.select(tb[2], jb1.select(tb[1], tb[0]));
    let s_b = tb_j.ge(zero).select(one, L::splat(-1.0));
    let ia0 = ia.eq(zero);
    let ia_m = [ia0, ia1, ia2];
    let mut n_face = [zero; 3];
    for k in 0..3 {
        let n_a = t[k].sign_ge0().and(ia_m[k]);
        n_face[k] = b_wins.select(col_b[k] * s_b, n_a);
    }
    let sign_b = b_wins.select(s_b, one);

    // Edges (i, j) in the single path's order `q = 3 i + j`; per edge its depth, then (when
    // it is a nearly parallel one) whether it may win, the lanes' running minima per `j` (the
    // single path's `min` over `i`), and the first minimum with its values (a strict `<`
    // chain from edge 0, so the first edge whose depth equals the minimum; no depth is NaN).
    let u = UNIT_ROUNDOFF;
    let e = L::splat(2.0)
        * (L::splat(FILTER_ROUNDING_FACTOR * u) + L::splat(FILTER_DEFECT_FACTOR) * defect)
        * scale;
    let slack = L::splat(64.0 * u) + L::splat(32.0) * defect;
    let mut scan = EdgeScan {
        r: &r,
        ar: &ar,
        ha: &ha,
        hb: &hb,
        t: &t,
        e,
        slack,
        face_pos: face_d.max(zero),
        m: [zero; 3],
        best: zero,
        sel_q: zero,
        sel_r1: zero,
        sel_r2: zero,
        accurate: 0,
    };
    // Spelled out, so that every index is a constant.
    scan.edge(0, 0);
    scan.edge(0, 1);
    scan.edge(0, 2);
    scan.edge(1, 0);
    scan.edge(1, 1);
    scan.edge(1, 2);
    scan.edge(2, 0);
    scan.edge(2, 1);
    scan.edge(2, 2);
    let (m, sel_q, accurate) = (scan.m, scan.sel_q, scan.accurate);
    // The least edge depth formed as the single path forms it (its sign of zero included).
    let e_d = min_l(min_l(m[0], m[1]), m[2]);
    // e_i x R_j: component i1 `-R_i2,j`, i2 `R_i1,j`, i `+0`.
    let (i0, i2) = (sel_q.lt(L::splat(3.0)), sel_q.ge(L::splat(6.0)));
    let i1 = sel_q.ge(L::splat(3.0)).and(sel_q.lt(L::splat(6.0)));
    let (r1, r2) = (scan.sel_r1, scan.sel_r2);
    let (pos, neg) = (r1, -r2);
    let cross = [
        i1.select(pos, neg).and_not(i0),
        i0.select(neg, pos).and_not(i1),
        i0.select(pos, neg).and_not(i2),
    ];
    // `|L|^2` and `t . L` of that edge, the edge loop's operations: `t_i1`, `t_i2` picked by `i`.
    let t_i1 = i0.select(t[1], i1.select(t[2], t[0]));
    let t_i2 = i0.select(t[2], i1.select(t[0], t[1]));
    let sel_ls = r1 * r1 + r2 * r2;
    let sel_tl = t_i2 * r1 - t_i1 * r2;
    let ei = i2.select(two, i1.and(one));
    let ej = sel_q - L::splat(3.0) * ei;
    // The edge's normal and tie-break (used only where `e_d < face_d`).
    let len = sel_ls.sqrt();
    let slen = sel_tl.lt(zero).select(-len, len);
    let ln = [cross[0] / slen, cross[1] / slen, cross[2] / slen];
    let cd = (ln[0] * n_face[0] + ln[1] * n_face[1]) + ln[2] * n_face[2];
    let tie = (cd * cd).ge(cos_sq_min).and(tol);
    let can = e_d.lt(face_d);
    let e_bound = can.select(face_d - tie, face_d);
    let edge_wins = e_d.lt(e_bound);
    let n = [
        edge_wins.select(ln[0], n_face[0]),
        edge_wins.select(ln[1], n_face[1]),
        edge_wins.select(ln[2], n_face[2]),
    ];
    let least = min_l(min_l(fa_d, fb_d), e_d);
    // Pairs beyond the direct path's limit (`Local::fits`; a NaN scale counts as +inf) take the
    // single-pair path too.
    let accurate = accurate | scale.min(inf).ge(L::splat(huge::SCALE_LIMIT)).bits();
    Group {
        r,
        t,
        tb,
        tol,
        scale,
        defect,
        least,
        n,
        sign_b,
        edge_wins: edge_wins.bits(),
        b_wins: b_wins.bits(),
        ia,
        jb,
        ei,
        ej,
        accurate,
    }
}

/// Four OBB pairs: their manifolds into `out` as [`contact_manifold_into`] writes them; returns
/// how many are in contact.
#[inline(always)]
fn manifolds4(
    a: [&Obb; 4],
    b: [&Obb; 4],
    config: &ContactConfig,
    out: &mut [ContactManifold],
) -> usize {
    // The pairs in their canonical order, the swapped ones mirrored (see `order`).
    let (a, b, swapped) = order::order_obbs(a, b);
    finish4(a, b, &select4(a, b), config, out, swapped)
}

/// The manifolds of four OBB pairs from their selection `g` (lane `p` = pair `p`), into `out`;
/// returns how many are in contact.
#[inline(always)]
fn finish4(
    a: [&Obb; 4],
    b: [&Obb; 4],
    g: &Group,
    config: &ContactConfig,
    out: &mut [ContactManifold],
    flip: u32,
) -> usize {
    let zero = V4::splat(0.0);
    let r = &g.r;
    // Per pair: R's columns (lanes i), rows (lanes j), t and R^T t, lane 3 zero as in `Local`.
    let rc = [
        V4::transpose([r[0][0], r[1][0], r[2][0], zero]),
        V4::transpose([r[0][1], r[1][1], r[2][1], zero]),
        V4::transpose([r[0][2], r[1][2], r[2][2], zero]),
    ];
    let rr = [
        V4::transpose([r[0][0], r[0][1], r[0][2], zero]),
        V4::transpose([r[1][0], r[1][1], r[1][2], zero]),
        V4::transpose([r[2][0], r[2][1], r[2][2], zero]),
    ];
    let t = V4::transpose([g.t[0], g.t[1], g.t[2], zero]);
    let tb = V4::transpose([g.tb[0], g.tb[1], g.tb[2], zero]);
    let (tol, scale, defect, least, sign_b) = (
        g.tol.lanes(),
        g.scale.lanes(),
        g.defect.lanes(),
        g.least.lanes(),
        g.sign_b.lanes(),
    );
    let n = [g.n[0].lanes(), g.n[1].lanes(), g.n[2].lanes()];
    let (ia, jb, ei, ej) = (g.ia.lanes(), g.jb.lanes(), g.ei.lanes(), g.ej.lanes());
    // Pair p's `Local` and `Choice`, built in place (constant `p`).
    let local = |p: usize| {
        let (ah, bh) = (a[p].half(), b[p].half());
        Local {
            rc: [rc[0][p], rc[1][p], rc[2][p]],
            rcl: [rc[0][p].lanes(), rc[1][p].lanes(), rc[2][p].lanes()],
            rr: [rr[0][p], rr[1][p], rr[2][p]],
            t: t[p],
            tb: tb[p],
            ha: [ah.x, ah.y, ah.z],
            hb: [bh.x, bh.y, bh.z],
            tol: tol[p],
            scale: scale[p],
            defect: defect[p],
            fits: true,
            fa: a[p],
            fb: b[p],
        }
    };
    let choice = |p: usize| Choice {
        least: least[p],
        n: [n[0][p], n[1][p], n[2][p]],
        axis: if (g.edge_wins >> p) & 1 != 0 {
            SatAxis::Edge(ei[p] as u8, ej[p] as u8)
        } else if (g.b_wins >> p) & 1 != 0 {
            SatAxis::FaceB(jb[p] as u8)
        } else {
            SatAxis::FaceA(ia[p] as u8)
        },
        sign_b: sign_b[p],
    };
    let locals = [local(0), local(1), local(2), local(3)];
    let choices = [choice(0), choice(1), choice(2), choice(3)];
    let mut count = 0;
    for (p, o) in out.iter_mut().enumerate().take(4) {
        let l = &locals[p];
        let flip = (flip >> p) & 1 != 0;
        if (g.accurate >> p) & 1 != 0 {
            count += usize::from(single(l.fa, l.fb, config, o, flip));
            continue;
        }
        count += usize::from(finish_into(l, &choices[p], config, o, flip));
    }
    count
}

/// Whether [`contact_manifolds_into`] runs the lane groups: in the `f32` build. In the `f64`
/// build a four-lane value takes two SSE2 registers, the lane groups' working set no longer
/// fits the registers, and they measured about 10 % slower than the per-pair path, which the
/// batch then runs for every pair (the lane-group code stays tested there by the unit tests).
const LANE_GROUPS: bool = cfg!(not(feature = "f64"));

/// A pair of the batch whose axis needs the accurate edge path: the single-pair code, out of
/// line (rare).
#[cold]
#[inline(never)]
fn single(a: &Obb, b: &Obb, config: &ContactConfig, out: &mut ContactManifold, flip: bool) -> bool {
    manifold_into_lean(a, b, config, out, flip)
}

/// The contact manifolds of many box pairs: `out[k]` receives pair `k`'s manifold exactly as
/// [`contact_manifold_into`] writes it (bit for bit; empty `points` when the pair has none, its
/// `normal` and `depth` then left as they were), and the return value is the number of pairs
/// with a manifold.
///
/// Groups of four OBB–OBB pairs run their axis selection together, one pair per lane of
/// four-lane arithmetic (see the module docs of `box_box`); a group with another kind mix
/// (an AABB on either side) and the last `pairs.len() % 4` pairs go through the single-pair
/// path, as does a pair with nearly parallel edges that may give its axis (the accurate edge
/// path). The face and edge contacts are the single path's code. On an x86-64 processor with
/// AVX2 (detected at run time) the same code runs compiled for AVX2, and in the `f32` build
/// groups of eight OBB–OBB pairs run the selection in eight lanes; the results are the same.
///
/// # Panics
///
/// If `pairs` and `out` differ in length.
pub fn contact_manifolds_into<A: BoxShape, B: BoxShape>(
    pairs: &[(&A, &B)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
) -> usize {
    batch(pairs, config, out, true)
}

/// [`contact_manifolds_into`] without the run-time choice of AVX2: the code compiled for the
/// build's target only (SSE2 on a default x86-64 build). The same results bit for bit; for
/// tests, and for measuring what the run-time choice gains.
///
/// # Panics
///
/// If `pairs` and `out` differ in length.
pub fn contact_manifolds_into_portable<A: BoxShape, B: BoxShape>(
    pairs: &[(&A, &B)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
) -> usize {
    batch(pairs, config, out, false)
}

/// The batch, with the AVX2 build of the groups when `detect` is set and the CPU has AVX2.
#[inline(always)]
fn batch<A: BoxShape, B: BoxShape>(
    pairs: &[(&A, &B)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
    detect: bool,
) -> usize {
    assert_eq!(
        pairs.len(),
        out.len(),
        "contact_manifolds_into: `pairs` and `out` differ in length"
    );
    if !LANE_GROUPS {
        return pairs
            .iter()
            .zip(out)
            .map(|(&(a, b), m)| usize::from(contact_manifold_into(a, b, config, m)))
            .sum();
    }
    #[cfg(target_arch = "x86_64")]
    if detect {
        if let Some(avx2) = avx::Avx2::detect() {
            return avx::groups_avx2(avx2, pairs, config, out);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = detect;
    groups(pairs, config, out)
}

/// The batch's groups of four pairs, then its tail.
#[inline(always)]
fn groups<A: BoxShape, B: BoxShape>(
    pairs: &[(&A, &B)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
) -> usize {
    let mut count = 0;
    let mut groups = pairs.chunks_exact(4);
    let mut outs = out.chunks_exact_mut(4);
    for (g, o) in (&mut groups).zip(&mut outs) {
        count += group4(g, config, o);
    }
    for (&(a, b), m) in groups.remainder().iter().zip(outs.into_remainder()) {
        count += usize::from(contact_manifold_into(a, b, config, m));
    }
    count
}

/// The OBB pair of `pair`, if both boxes are OBBs.
#[inline(always)]
fn obb_pair<'a, A: BoxShape, B: BoxShape>(pair: &(&'a A, &'a B)) -> Option<(&'a Obb, &'a Obb)> {
    match (pair.0.as_box(), pair.1.as_box()) {
        (BoxRef::Obb(x), BoxRef::Obb(y)) => Some((x, y)),
        _ => None,
    }
}

/// Four pairs (`g.len() == 4`): one lane group when all are OBB pairs, else pair by pair.
#[inline(always)]
fn group4<A: BoxShape, B: BoxShape>(
    g: &[(&A, &B)],
    config: &ContactConfig,
    o: &mut [ContactManifold],
) -> usize {
    let obb = |k: usize| obb_pair(&g[k]);
    if let (Some(p0), Some(p1), Some(p2), Some(p3)) = (obb(0), obb(1), obb(2), obb(3)) {
        manifolds4(
            [p0.0, p1.0, p2.0, p3.0],
            [p0.1, p1.1, p2.1, p3.1],
            config,
            o,
        )
    } else {
        let mut count = 0;
        for (&(a, b), m) in g.iter().zip(o.iter_mut()) {
            count += usize::from(contact_manifold_into(a, b, config, m));
        }
        count
    }
}

/// The batch compiled a second time for AVX2, chosen at run time, with eight pairs per lane
/// group in the `f32` build.
///
/// Why: the lane type [`V4`] (`wide`'s `f32x4`) picks its instructions when the crate is
/// compiled, so a default x86-64 build runs the selection on SSE2: two-operand instructions
/// (many register copies) and three-instruction lane selects (`and`, `andnot`, `or`). Compiled
/// inside a `#[target_feature(enable = "avx2")]` function, the same (inlined) code gets the
/// three-operand VEX forms and one-instruction blends; and in `f32` the selection
/// ([`select_lanes`], generic over the [`Lane`] type) runs on eight lanes
/// (`eight::V8`, `std::arch` intrinsics), eight pairs per group, halving its instructions per
/// pair. Each half then goes back to [`V4`]s and through [`finish4`] as a four-lane group.
///
/// # Soundness
///
/// A `#[target_feature]` function, and an AVX intrinsic, may only run on a CPU with the
/// feature. The rules that make the `unsafe` blocks here sound:
///
/// 1. [`Avx2`] is a token with a private field that only [`Avx2::detect`] makes, after
///    `is_x86_feature_detected!("avx2")` returned true. The one `#[target_feature]` function,
///    `groups_avx2_inner`, is private to this module and called only by [`groups_avx2`], which
///    takes the token.
/// 2. `eight::V8` (every operation of which is an AVX intrinsic) is named only in the module
///    `eight`, whose one entry point, `manifolds8`, is called only from `groups_avx2_inner`
///    (and inlined there): every `V8` value is made and used on a CPU with AVX2. (A new user
///    must keep this rule.)
/// 3. The one memory access, `_mm256_storeu_ps` in `half`, writes the 8 elements of a local
///    `[f32; 8]` (unaligned form: no alignment assumed).
///
/// Results: only AVX and AVX2 are enabled (no FMA, and Rust never contracts `a * b + c` into
/// a fused multiply-add by itself), and each `V8` operation is the same IEEE operation per
/// lane as `V4`'s SSE one, operands in the same order (`vminps`/`vmaxps` as `minps`/`maxps`,
/// ordered quiet comparisons, `neg` and `abs` as sign-bit `xor`/`and`, the blend only on full
/// lane masks), so the results are the same bit for bit: `tests/contact_batch.rs` runs the
/// public function and the portable one against the single-pair path, the unit test here runs
/// `groups_avx2` (eight-lane groups, four-lane groups and tails), and `manifold_digest` (with
/// and without `portable`) checks the digests.
#[cfg(target_arch = "x86_64")]
mod avx {
    #![allow(unsafe_code)]

    use super::*;

    /// Proof that the running CPU has AVX2 (see the module's soundness section).
    #[derive(Debug, Clone, Copy)]
    pub(super) struct Avx2(());

    impl Avx2 {
        /// The token, when the CPU has AVX2 (`std` caches the detection).
        #[inline]
        pub(super) fn detect() -> Option<Avx2> {
            std::arch::is_x86_feature_detected!("avx2").then_some(Avx2(()))
        }
    }

    /// [`groups`] compiled for AVX2; the token proves the CPU has it.
    #[inline]
    pub(super) fn groups_avx2<A: BoxShape, B: BoxShape>(
        _avx2: Avx2,
        pairs: &[(&A, &B)],
        config: &ContactConfig,
        out: &mut [ContactManifold],
    ) -> usize {
        // SAFETY: `groups_avx2_inner`'s one requirement is that the CPU has AVX2 (its
        // `target_feature`); an `Avx2` exists only after `is_x86_feature_detected!("avx2")`
        // returned true on this machine (`Avx2::detect` is its only constructor).
        unsafe { groups_avx2_inner(pairs, config, out) }
    }

    /// [`groups`], with the portable code inlined and compiled for AVX2; in the `f32` build,
    /// groups of eight OBB pairs first (the selection in eight lanes, [`V8`]), then the rest
    /// as [`groups`] does.
    #[target_feature(enable = "avx2")]
    fn groups_avx2_inner<A: BoxShape, B: BoxShape>(
        pairs: &[(&A, &B)],
        config: &ContactConfig,
        out: &mut [ContactManifold],
    ) -> usize {
        #[cfg(not(feature = "f64"))]
        {
            let mut count = 0;
            let mut groups8 = pairs.chunks_exact(8);
            let mut outs = out.chunks_exact_mut(8);
            for (g, o) in (&mut groups8).zip(&mut outs) {
                let obb = |k: usize| obb_pair(&g[k]);
                let all = [
                    obb(0),
                    obb(1),
                    obb(2),
                    obb(3),
                    obb(4),
                    obb(5),
                    obb(6),
                    obb(7),
                ];
                if let [Some(p0), Some(p1), Some(p2), Some(p3), Some(p4), Some(p5), Some(p6), Some(p7)] =
                    all
                {
                    count += eight::manifolds8(
                        [p0.0, p1.0, p2.0, p3.0, p4.0, p5.0, p6.0, p7.0],
                        [p0.1, p1.1, p2.1, p3.1, p4.1, p5.1, p6.1, p7.1],
                        config,
                        o,
                    );
                } else {
                    let (o0, o1) = o.split_at_mut(4);
                    count += group4(&g[..4], config, o0);
                    count += group4(&g[4..], config, o1);
                }
            }
            count + groups(groups8.remainder(), config, outs.into_remainder())
        }
        #[cfg(feature = "f64")]
        groups(pairs, config, out)
    }

    /// Eight OBB pairs at a time (`f32` only: eight `f32` lanes in a 256-bit register).
    #[cfg(not(feature = "f64"))]
    pub(super) mod eight {
        use super::super::*;
        use core::arch::x86_64 as arch;

        /// Eight `f32` lanes in an AVX register. Only for code running under an [`Avx2`]
        /// token (see the soundness section of the parent module): every value is made and
        /// used inside `groups_avx2_inner` (a `#[target_feature(enable = "avx2")]` function
        /// reached only with the token) or the code it inlines; nothing else names the type.
        #[derive(Clone, Copy)]
        pub(in super::super) struct V8(arch::__m256);

        /// `v`'s lanes `4 h..4 h + 4` as a [`V4`] (a store and four reads that LLVM turns into
        /// a lane extraction).
        #[inline(always)]
        fn half(v: V8, h: usize) -> V4 {
            let mut a = [0.0f32; 8];
            // SAFETY: AVX is present (`V8` rule); the unaligned store writes the 8 elements of
            // `a`.
            unsafe { arch::_mm256_storeu_ps(a.as_mut_ptr(), v.0) };
            V4::new(a[4 * h], a[4 * h + 1], a[4 * h + 2], a[4 * h + 3])
        }

        /// An AVX operation on `V8`s; every use runs with AVX present (the `V8` rule).
        macro_rules! avx {
            ($e:expr) => {
                // SAFETY: the intrinsic needs AVX, which the CPU has: `V8` values exist only
                // in code reached through an `Avx2` token (see `V8`).
                V8(unsafe { $e })
            };
        }

        impl core::ops::Add for V8 {
            type Output = V8;
            #[inline(always)]
            fn add(self, o: V8) -> V8 {
                avx!(arch::_mm256_add_ps(self.0, o.0))
            }
        }
        impl core::ops::Sub for V8 {
            type Output = V8;
            #[inline(always)]
            fn sub(self, o: V8) -> V8 {
                avx!(arch::_mm256_sub_ps(self.0, o.0))
            }
        }
        impl core::ops::Mul for V8 {
            type Output = V8;
            #[inline(always)]
            fn mul(self, o: V8) -> V8 {
                avx!(arch::_mm256_mul_ps(self.0, o.0))
            }
        }
        impl core::ops::Div for V8 {
            type Output = V8;
            #[inline(always)]
            fn div(self, o: V8) -> V8 {
                avx!(arch::_mm256_div_ps(self.0, o.0))
            }
        }
        impl core::ops::Neg for V8 {
            type Output = V8;
            /// The sign bit flipped (as `V4`'s `xor` with `-0.0`).
            #[inline(always)]
            fn neg(self) -> V8 {
                avx!(arch::_mm256_xor_ps(self.0, arch::_mm256_set1_ps(-0.0)))
            }
        }

        impl Lane for V8 {
            #[inline(always)]
            fn splat(x: Real) -> V8 {
                avx!(arch::_mm256_set1_ps(x))
            }
            #[inline(always)]
            fn abs(self) -> V8 {
                let m = f32::from_bits(i32::MAX as u32);
                avx!(arch::_mm256_and_ps(self.0, arch::_mm256_set1_ps(m)))
            }
            #[inline(always)]
            fn sqrt(self) -> V8 {
                avx!(arch::_mm256_sqrt_ps(self.0))
            }
            #[inline(always)]
            fn min(self, o: V8) -> V8 {
                avx!(arch::_mm256_min_ps(self.0, o.0))
            }
            #[inline(always)]
            fn max(self, o: V8) -> V8 {
                avx!(arch::_mm256_max_ps(self.0, o.0))
            }
            #[inline(always)]
            fn eq(self, o: V8) -> V8 {
                avx!(arch::_mm256_cmp_ps::<{ arch::_CMP_EQ_OQ }>(self.0, o.0))
            }
            #[inline(always)]
            fn ge(self, o: V8) -> V8 {
                avx!(arch::_mm256_cmp_ps::<{ arch::_CMP_GE_OQ }>(self.0, o.0))
            }
            #[inline(always)]
            fn gt(self, o: V8) -> V8 {
                avx!(arch::_mm256_cmp_ps::<{ arch::_CMP_GT_OQ }>(self.0, o.0))
            }
            #[inline(always)]
            fn lt(self, o: V8) -> V8 {
                avx!(arch::_mm256_cmp_ps::<{ arch::_CMP_LT_OQ }>(self.0, o.0))
            }
            /// A blend on the mask's sign bits: the same lanes as the bitwise select for the
            /// full lane masks that [`Lane::select`] is given.
            #[inline(always)]
            fn select(self, a: V8, b: V8) -> V8 {
                avx!(arch::_mm256_blendv_ps(b.0, a.0, self.0))
            }
            #[inline(always)]
            fn bits(self) -> u32 {
                // SAFETY: AVX is present (`V8` rule).
                unsafe { arch::_mm256_movemask_ps(self.0) as u32 }
            }
            #[inline(always)]
            fn sign_ge0(self) -> V8 {
                let ge = self.ge(V8::splat(0.0));
                avx!(arch::_mm256_or_ps(
                    arch::_mm256_andnot_ps(ge.0, arch::_mm256_set1_ps(-0.0)),
                    arch::_mm256_set1_ps(1.0)
                ))
            }
            #[inline(always)]
            fn and(self, o: V8) -> V8 {
                avx!(arch::_mm256_and_ps(self.0, o.0))
            }
            #[inline(always)]
            fn and_not(self, m: V8) -> V8 {
                avx!(arch::_mm256_andnot_ps(m.0, self.0))
            }
        }

        /// [`load4`] for eight boxes: `out[f]` lane `p` is number `f` of box `p` (two
        /// [`load4`]s, joined).
        #[inline(always)]
        fn load8(boxes: [&Obb; 8]) -> [V8; 16] {
            let lo = load4([boxes[0], boxes[1], boxes[2], boxes[3]]);
            let hi = load4([boxes[4], boxes[5], boxes[6], boxes[7]]);
            let mut out = [V8::splat(0.0); 16];
            for f in 0..16 {
                let (l, h) = (lo[f].lanes(), hi[f].lanes());
                out[f] = avx!(arch::_mm256_setr_ps(
                    l[0], l[1], l[2], l[3], h[0], h[1], h[2], h[3]
                ));
            }
            out
        }

        /// Half `h` (pairs `4 h..4 h + 4`) of an eight-lane selection.
        #[inline(always)]
        fn split(g: &Group<V8>, h: usize) -> Group {
            let v = |x: V8| half(x, h);
            let v3 = |x: &[V8; 3]| [v(x[0]), v(x[1]), v(x[2])];
            let bits = |m: u32| (m >> (4 * h)) & 0xf;
            Group {
                r: [v3(&g.r[0]), v3(&g.r[1]), v3(&g.r[2])],
                t: v3(&g.t),
                tb: v3(&g.tb),
                tol: v(g.tol),
                scale: v(g.scale),
                defect: v(g.defect),
                least: v(g.least),
                n: v3(&g.n),
                sign_b: v(g.sign_b),
                edge_wins: bits(g.edge_wins),
                b_wins: bits(g.b_wins),
                ia: v(g.ia),
                jb: v(g.jb),
                ei: v(g.ei),
                ej: v(g.ej),
                accurate: bits(g.accurate),
            }
        }

        /// Eight OBB pairs: [`manifolds4`] with the selection in eight lanes.
        #[inline(always)]
        pub(in super::super) fn manifolds8(
            a: [&Obb; 8],
            b: [&Obb; 8],
            config: &ContactConfig,
            out: &mut [ContactManifold],
        ) -> usize {
            let (a, b, swapped) = order::order_obbs(a, b);
            let g = select_lanes(&load8(a), &load8(b));
            let (o0, o1) = out.split_at_mut(4);
            let lo = finish4(
                [a[0], a[1], a[2], a[3]],
                [b[0], b[1], b[2], b[3]],
                &split(&g, 0),
                config,
                o0,
                swapped & 0xf,
            );
            let hi = finish4(
                [a[4], a[5], a[6], a[7]],
                [b[4], b[5], b[6], b[7]],
                &split(&g, 1),
                config,
                o1,
                swapped >> 4,
            );
            lo + hi
        }
    }
}

/// The edge loop of [`select_lanes`]: its inputs, and the running state over the edges in order.
struct EdgeScan<'a, L> {
    r: &'a [[L; 3]; 3],
    ar: &'a [[L; 3]; 3],
    ha: &'a [L; 3],
    hb: &'a [L; 3],
    t: &'a [L; 3],
    /// `Local::edge_cannot_win`'s error bound and `|L|^2` slack, and `max(face_d, 0)`.
    e: L,
    slack: L,
    face_pos: L,
    /// Per `j`, the `min` over the edges `(i, j)` so far.
    m: [L; 3],
    /// The first least depth so far, its `q = 3 i + j`, `R_i1,j` and `R_i2,j`.
    best: L,
    sel_q: L,
    sel_r1: L,
    sel_r2: L,
    /// Lanes with a nearly parallel edge that may win.
    accurate: u32,
}

impl<L: Lane> EdgeScan<'_, L> {
    /// Edge `(i, j)`, after the edges before it in the order `3 i + j` (see `Local::axis`).
    #[inline(always)]
    fn edge(&mut self, i: usize, j: usize) {
        let (r, ar, ha, hb, t) = (self.r, self.ar, self.ha, self.hb, self.t);
        let (i1, i2) = (NEXT[i], PREV[i]);
        let (j1, j2) = (NEXT[j], PREV[j]);
        let ls = r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j];
        let ra = ha[i1] * ar[i2][j] + ha[i2] * ar[i1][j];
        let rb = hb[j1] * ar[i][j2] + hb[j2] * ar[i][j1];
        let tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
        let nm = ra + rb - tl.abs();
        let len = ls.sqrt();
        let sh = ls.lt(L::splat(EDGE_FAST_MIN_SQ));
        let inf = L::splat(Real::INFINITY);
        let d = sh.select(inf, (nm / len).min(inf));
        let short = sh.bits();
        if short != 0 {
            // `Local::edge_cannot_win`, in lanes.
            let lo = nm - self.e;
            let len_max = (ls + self.slack).sqrt();
            let zero = L::splat(0.0);
            let ruled_out = lo.ge(zero).bits() & lo.ge(self.face_pos * len_max).bits();
            self.accurate |= short & !ruled_out;
        }
        if i == 0 {
            self.m[j] = d;
        } else {
            self.m[j] = self.m[j].min(d);
        }
        if i == 0 && j == 0 {
            (self.best, self.sel_r1, self.sel_r2) = (d, r[i1][j], r[i2][j]);
        } else {
            let hit = d.lt(self.best);
            // `d` where `d < best`, else `best`, up to the sign of a zero (one `min`; `best`
            // only takes part in comparisons, where the zeros are equal).
            self.best = d.min(self.best);
            self.sel_q = hit.select(L::splat((3 * i + j) as Real), self.sel_q);
            self.sel_r1 = hit.select(r[i1][j], self.sel_r1);
            self.sel_r2 = hit.select(r[i2][j], self.sel_r2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::UnitQuaternion;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
        fn range(&mut self, lo: f64, hi: f64) -> Real {
            (lo + (hi - lo) * self.next()) as Real
        }
    }

    fn bits(m: &ContactManifold) -> Vec<u64> {
        let r = |x: Real| x.to_bits() as u64;
        let mut v = vec![r(m.normal.x), r(m.normal.y), r(m.normal.z), r(m.depth)];
        for p in &m.points {
            for k in 0..3 {
                v.push(r(p.point_a[k]));
                v.push(r(p.point_b[k]));
            }
            v.push(r(p.depth));
            v.push(u64::from(p.id.0));
        }
        v
    }

    /// A box near the origin: random, nearly aligned with `base` (nearly parallel edges,
    /// resting-like), or flat (a zero extent).
    fn boxes(rng: &mut Rng, n: usize) -> Vec<Obb> {
        let base = UnitQuaternion::from_euler_angles(0.3, -1.1, 0.7);
        (0..n)
            .map(|k| {
                let c = Point3::new(
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                );
                let mut h = Vector3::new(
                    rng.range(0.1, 1.0),
                    rng.range(0.1, 1.0),
                    rng.range(0.1, 1.0),
                );
                let rot = match k % 4 {
                    0 | 1 => UnitQuaternion::from_euler_angles(
                        rng.range(-3.2, 3.2),
                        rng.range(-3.2, 3.2),
                        rng.range(-3.2, 3.2),
                    ),
                    2 => {
                        base * UnitQuaternion::from_euler_angles(
                            rng.range(-1e-3, 1e-3),
                            rng.range(-3.2, 3.2),
                            rng.range(-1e-3, 1e-3),
                        )
                    }
                    _ => {
                        h.y = 0.0;
                        base
                    }
                };
                Obb::from_rotation(c, rot, h).unwrap()
            })
            .collect()
    }

    /// Pairs of nearly parallel boxes (angle `1e-7..1e-2`) placed near contact along their
    /// SAT witness (the accurate edge path's cases), and pairs of boxes rotated by multiples of
    /// 45 degrees on an offset grid (exact ties between axes, signed zeros, touching).
    fn hard_pairs(rng: &mut Rng) -> Vec<(Obb, Obb)> {
        let mut v = Vec::new();
        for _ in 0..2000 {
            let ra = UnitQuaternion::from_euler_angles(
                rng.range(-3.2, 3.2),
                rng.range(-3.2, 3.2),
                rng.range(-3.2, 3.2),
            );
            let angle = (1e-7f64.ln() + (1e-2f64.ln() - 1e-7f64.ln()) * rng.next()).exp();
            let axis = Vector3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            );
            let rb = ra * UnitQuaternion::from_scaled_axis(axis.normalize() * angle as Real);
            let h = |rng: &mut Rng| {
                Vector3::new(
                    rng.range(0.05, 2.0),
                    rng.range(0.05, 2.0),
                    rng.range(0.05, 2.0),
                )
            };
            let a = Obb::from_rotation(Point3::origin(), ra, h(rng)).unwrap();
            let c = Point3::new(
                rng.range(-3.0, 3.0),
                rng.range(-3.0, 3.0),
                rng.range(-3.0, 3.0),
            );
            let b = Obb::from_rotation(c, rb, h(rng)).unwrap();
            let w = crate::intersect::explain(&a, &b);
            let target = if rng.next() < 0.2 {
                0.0
            } else {
                rng.range(-0.05, 0.05)
            };
            v.push((
                a,
                b.translate(&(w.direction * (target - w.distance)))
                    .unwrap_or(b),
            ));
        }
        let q = core::f64::consts::FRAC_PI_4;
        for k in 0..6 {
            let e = |m: usize| ((k * m + m / 2) % 8) as f64 * q;
            let ra = UnitQuaternion::from_euler_angles(e(1) as Real, 0.0, e(3) as Real);
            let rb = UnitQuaternion::from_euler_angles(0.0, e(2) as Real, e(5) as Real);
            let a = Obb::from_rotation(Point3::origin(), ra, Vector3::new(0.5, 0.5, 0.5)).unwrap();
            for x in [-1.0, -0.5, 0.0, 0.25, 1.0] {
                for y in [0.0, 0.5, 1.0] {
                    for z in [-0.5, 0.0, 0.75] {
                        let hb = if (x as i32 + k as i32) % 2 == 0 {
                            0.5
                        } else {
                            0.25
                        };
                        let c = Point3::new(x, y, z);
                        v.push((
                            a,
                            Obb::from_rotation(c, rb, Vector3::new(0.5, hb, 0.5)).unwrap(),
                        ));
                    }
                }
            }
        }
        v
    }

    /// The lane groups (whatever the build's `LANE_GROUPS`) against the single-pair path.
    #[test]
    fn lane_groups_match_the_single_path() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let bx = boxes(&mut rng, 4000);
        let stale = ContactManifold {
            normal: Vector3::new(9.0, 9.0, 9.0),
            depth: 9.0,
            points: ArrayVec::new(),
        };
        let configs = [ContactConfig::default(), ContactConfig::with_margin(0.05)];
        let mut some = 0;
        // Random and resting-like boxes, four pairs per group, and the hard pairs.
        let mut pairs: Vec<(&Obb, &Obb)> = bx.chunks_exact(2).map(|g| (&g[0], &g[1])).collect();
        let hard = hard_pairs(&mut rng);
        pairs.extend(hard.iter().map(|(a, b)| (a, b)));
        for cfg in &configs {
            for g in pairs.chunks_exact(4) {
                let a = [g[0].0, g[1].0, g[2].0, g[3].0];
                let b = [g[0].1, g[1].1, g[2].1, g[3].1];
                for (a, b) in [(a, b), (b, a)] {
                    let mut got = [stale.clone(), stale.clone(), stale.clone(), stale.clone()];
                    let n = manifolds4(a, b, cfg, &mut got);
                    let mut count = 0;
                    for p in 0..4 {
                        let mut want = stale.clone();
                        count += usize::from(contact_manifold_into(a[p], b[p], cfg, &mut want));
                        assert_eq!(bits(&got[p]), bits(&want), "a={:?} b={:?}", a[p], b[p]);
                    }
                    assert_eq!(n, count);
                    some += count;
                }
            }
        }
        assert!(some > 1000, "{some}");
        // The AVX2 build (eight-lane groups in `f32`, then four-lane ones and the tail), where
        // the CPU has AVX2, against the single path: both orders, all the pairs in one call,
        // and a call whose length leaves a group of four and a tail.
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = avx::Avx2::detect() {
            let swapped: Vec<(&Obb, &Obb)> = pairs.iter().map(|&(a, b)| (b, a)).collect();
            for cfg in &configs {
                for ps in [&pairs[..], &swapped[..], &pairs[3..3 + 8 * 40 + 4 + 3]] {
                    let mut got = vec![stale.clone(); ps.len()];
                    let n = avx::groups_avx2(avx2, ps, cfg, &mut got);
                    let mut count = 0;
                    for (k, &(a, b)) in ps.iter().enumerate() {
                        let mut want = stale.clone();
                        count += usize::from(contact_manifold_into(a, b, cfg, &mut want));
                        assert_eq!(bits(&got[k]), bits(&want), "avx2: a={a:?} b={b:?}");
                    }
                    assert_eq!(n, count);
                }
            }
        }
    }
}
