//! The axis selection of a group of OBB pairs, one pair per lane.

use super::*;

/// One box's 16 numbers in declaration order (centre, axes by column, half-extents, defect),
/// four boxes transposed to lanes: `out[f]` lane `p` is number `f` of box `p`. (When the
/// struct keeps its fields in declaration order, each row is 4 adjacent words that LLVM loads
/// as two 8-byte loads; the values do not depend on the layout.)
#[inline(always)]
pub(super) fn load4(boxes: [&Obb; 4]) -> [V4; 16] {
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
pub(super) fn select4(a: [&Obb; 4], b: [&Obb; 4]) -> Group {
    select_lanes(&load4(a), &load4(b))
}

/// The axis selection of the pairs whose boxes' numbers (as [`load4`] lays them out) are `fa`
/// and `fb`, lane `p` = pair `p`.
// (Index loops: the indices are the formulas' `i`, `j`, `k`.)
#[allow(clippy::needless_range_loop)]
#[inline(always)]
pub(super) fn select_lanes<L: Lane>(fa: &[L; 16], fb: &[L; 16]) -> Group<L> {
    // Axis k, component c: number 3 + 3 k + c.
    let ax = |f: &[L; 16], k: usize, c: usize| f[3 + 3 * k + c];
    let d = [fb[0] - fa[0], fb[1] - fa[1], fb[2] - fa[2]];
    let ha = [fa[12], fa[13], fa[14]];
    let hb = [fb[12], fb[13], fb[14]];
    let mut r = [[L::splat(0.0); 3]; 3];
    let mut t = [L::splat(0.0); 3];
    for i in 0..3 {
        let a_i = [ax(fa, i, 0), ax(fa, i, 1), ax(fa, i, 2)];
        for j in 0..3 {
            r[i][j] = axes::dot(a_i, [ax(fb, j, 0), ax(fb, j, 1), ax(fb, j, 2)]);
        }
        t[i] = axes::dot(a_i, d);
    }
    let mut tb = [L::splat(0.0); 3];
    for j in 0..3 {
        tb[j] = axes::dot(t, [r[0][j], r[1][j], r[2][j]]);
    }
    let s = min_l(
        max_l(max_l(ha[0], ha[1]), ha[2]),
        max_l(max_l(hb[0], hb[1]), hb[2]),
    );
    let tol = L::splat(CONTACT_AXIS_PREFERENCE) * s;
    let scale = axes::contact_scale(ha, hb, t);
    let defect = fa[15] + fb[15];

    let ar = [
        [r[0][0].abs(), r[0][1].abs(), r[0][2].abs()],
        [r[1][0].abs(), r[1][1].abs(), r[1][2].abs()],
        [r[2][0].abs(), r[2][1].abs(), r[2][2].abs()],
    ];
    let FaceLanes {
        fa_d,
        fb_d,
        ia,
        jb,
        b_wins,
        face_d,
        n_face,
        sign_b,
    } = face_lanes(&r, &ar, &t, &tb, &ha, &hb, tol);
    let inf = L::splat(Real::INFINITY);
    let zero = L::splat(0.0);
    let (one, two) = (L::splat(1.0), L::splat(2.0));
    let cos_sq_min = L::splat(1.0 - CONTACT_PREFERENCE_SINE * CONTACT_PREFERENCE_SINE);

    // Edges (i, j) in the single path's order `q = 3 i + j`; per edge its depth, then (when
    // it is a nearly parallel one) whether it may win, the lanes' running minima per `j` (the
    // single path's `min` over `i`), and the first minimum with its values (a strict `<`
    // chain from edge 0, so the first edge whose depth equals the minimum; no depth is NaN).
    let e = axes::edge_skip_bound(defect, scale);
    let slack = axes::edge_len_sq_slack(defect);
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

/// The face part of [`select_lanes`] (lanes = pairs; see `Local::axis`): the first least
/// depth of A's faces and of B's and their indices, the face chosen by the tie-break, its
/// depth and unit normal in A's frame, and the sign of B's face normal.
struct FaceLanes<L> {
    fa_d: L,
    fb_d: L,
    ia: L,
    jb: L,
    b_wins: L,
    face_d: L,
    n_face: [L; 3],
    sign_b: L,
}

/// See [`FaceLanes`]; `r`, `ar`: `R` and `|R|` by `[i][j]`, `t` and `tb = R^T t`.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn face_lanes<L: Lane>(
    r: &[[L; 3]; 3],
    ar: &[[L; 3]; 3],
    t: &[L; 3],
    tb: &[L; 3],
    ha: &[L; 3],
    hb: &[L; 3],
    tol: L,
) -> FaceLanes<L> {
    let (ha, hb) = (*ha, *hb);
    let inf = L::splat(Real::INFINITY);
    let zero = L::splat(0.0);
    let (one, two) = (L::splat(1.0), L::splat(2.0));
    // Faces (NaN to +inf, as `first_min3`), then their first minima.
    let mut face_a = [zero; 3];
    let mut face_b = [zero; 3];
    for k in 0..3 {
        face_a[k] = axes::face_a(ha[k], hb, ar[k], t[k]).min(inf);
        face_b[k] = axes::face_b(ha, [ar[0][k], ar[1][k], ar[2][k]], hb[k], tb[k]).min(inf);
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
    FaceLanes {
        fa_d,
        fb_d,
        ia,
        jb,
        b_wins,
        face_d,
        n_face,
        sign_b,
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
        let ls = axes::edge_len_sq(r[i1][j], r[i2][j]);
        let nm = axes::edge(
            [ha[i1], ha[i2]],
            [ar[i2][j], ar[i1][j]],
            [hb[j1], hb[j2]],
            [ar[i][j2], ar[i][j1]],
            [t[i2], t[i1]],
            [r[i1][j], r[i2][j]],
        );
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
