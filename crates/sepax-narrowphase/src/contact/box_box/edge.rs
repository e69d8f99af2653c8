//! The edge–edge contact: one point from the closest points of the two supporting edges.

use super::*;

/// The edge–edge contact of the chosen edge axis `(i, j)`: the supporting edge of each box along
/// the normal, one point from their closest points (in A's frame, then in world space), pushed
/// into `points`; the roles exchanged when `flip` is set.
#[inline(always)]
pub(super) fn edge_contact<A: LeanBox, B: LeanBox>(
    l: &Local<'_, A, B>,
    choice: &Choice,
    (i, j): (u8, u8),
    depth: Real,
    flip: bool,
    points: &mut ArrayVec<ContactPoint, 4>,
) {
    let fa = l.fa;
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

/// Closest points of the edges `ca + s da` and `cb + t db` (`s, t` in `[-1, 1]`), which are not
/// parallel (their cross product is a chosen SAT axis): the lines' closest points, clamped, with
/// the other parameter recomputed after each clamp (Ericson, *Real-Time Collision Detection*,
/// §5.1.9). Falls back to the general routine when the system is singular.
#[inline(always)]
pub(super) fn edge_closest(ca: V4, da: V4, cb: V4, db: V4) -> (V4, V4) {
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
pub(super) fn edge_closest_general(ca: V4, da: V4, cb: V4, db: V4) -> (V4, V4) {
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
pub(super) fn dot3(x: V4, y: V4) -> Real {
    let [p0, p1, p2, _] = (x * y).lanes();
    p0 + p1 + p2
}

/// `m v` (lanes 0..2) as nalgebra's matrix-vector product computes it:
/// `(m_0 v0 + m_1 v1) + m_2 v2` over the columns `m_k`.
#[inline(always)]
pub(super) fn a_times(m: &Matrix3, v: V4) -> V4 {
    let c = &m.data.0;
    let col = |k: usize| V4::new(c[k][0], c[k][1], c[k][2], 0.0);
    // The lanes broadcast in registers (a round trip through memory made LLVM reload them
    // with a load spanning two stores, which waits for both).
    let [x, y, z] = v.splat012();
    col(0) * x + col(1) * y + col(2) * z
}

/// The two bits of `m` other than bit `i` (`i` in `0..3`), in order: bits 0 and 1.
#[inline(always)]
pub(super) fn compress_other(m: u32, i: usize) -> u32 {
    let low = (1u32 << i) - 1;
    ((m & low) | ((m >> 1) & !low)) & 3
}

/// The axes other than `k` in increasing order (padded to 4 entries for `& 3` indices).
pub(super) const OTHERS4: [[usize; 2]; 4] = [[1, 2], [0, 2], [0, 1], [0, 1]];
