//! The axis choice: the 15 depths in `A`'s frame, the accurate path of nearly parallel edges,
//! and the tie-break (see the parent module's docs).

use super::*;

/// The pair in `A`'s frame, in lanes (plus the world data of the accurate edge path).
pub(super) struct Local<'f, A: LeanBox, B: LeanBox> {
    /// Columns of `R = A^T B` (lanes `i`: `a_i . b_j`) and the same as arrays.
    pub(super) rc: [V4; 3],
    pub(super) rcl: [[Real; 4]; 3],
    /// Rows of `R` (lanes `j`).
    pub(super) rr: [V4; 3],
    /// `c_B - c_A` in A's frame (lanes `i`) and in B's frame (`R^T t`, lanes `j`).
    pub(super) t: V4,
    pub(super) tb: V4,
    pub(super) ha: [Real; 3],
    pub(super) hb: [Real; 3],
    /// The tie-break preference (and side-plane slop) `CONTACT_AXIS_PREFERENCE * s`.
    pub(super) tol: Real,
    /// `S = sum h_A + sum h_B + |t|_1`.
    pub(super) scale: Real,
    /// `delta_A + delta_B`, the axes' orthonormality defects.
    pub(super) defect: Real,
    /// Whether the pair is within the direct path's limit (`scale` below
    /// [`huge::SCALE_LIMIT`]; `false` for NaN).
    pub(super) fits: bool,
    /// The frames, for the accurate edge path.
    pub(super) fa: &'f A,
    pub(super) fb: &'f B,
}

/// Edge axes whose `|a_i x b_j|^2` is below this take the accurate path ([`edge_accurate`]):
/// the closed forms in `A`'s frame lose `1 / |a_i x b_j|` digits to rounding and to the axes'
/// orthonormality defect.
pub(super) const EDGE_FAST_MIN_SQ: Real = 1.0 / 400.0;

/// The chosen axis in `A`'s frame.
pub(super) struct Choice {
    /// The least depth over all axes.
    pub(super) least: Real,
    /// The unit normal from A toward B, in A's frame.
    pub(super) n: [Real; 3],
    pub(super) axis: SatAxis,
    /// For a face of B: the sign of `t . b_j` (the normal is `s b_j`).
    pub(super) sign_b: Real,
}

impl<'f, A: LeanBox, B: LeanBox> Local<'f, A, B> {
    #[inline(always)]
    pub(super) fn new(a: &'f A, b: &'f B) -> Local<'f, A, B> {
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
            let col = |v: &[Real; 3]| {
                axes::dot3(
                    a0,
                    a1,
                    a2,
                    V4::splat(v[0]),
                    V4::splat(v[1]),
                    V4::splat(v[2]),
                )
            };
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
        let tb = axes::dot3(
            V4::splat(tl[0]),
            V4::splat(tl[1]),
            V4::splat(tl[2]),
            rr[0],
            rr[1],
            rr[2],
        );
        let (ah, bh) = (a.half(), b.half());
        let ha = [ah.x, ah.y, ah.z];
        let hb = [bh.x, bh.y, bh.z];
        // Half-extents are never NaN (the shapes' constructors check them).
        let s = min_nn(
            max_nn(max_nn(ha[0], ha[1]), ha[2]),
            max_nn(max_nn(hb[0], hb[1]), hb[2]),
        );
        let scale = axes::contact_scale(ha, hb, [tl[0], tl[1], tl[2]]);
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
    pub(super) fn edge_accurate(&self, i: usize, j: usize) -> Option<(Real, Real, [Real; 3])> {
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
    pub(super) fn edge_cannot_win(&self, num: Real, len_sq: Real, face_d: Real) -> bool {
        let e = axes::edge_skip_bound(self.defect, self.scale);
        let len_max = (len_sq + axes::edge_len_sq_slack(self.defect)).sqrt();
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
    ///
    /// One function of about 160 lines, in three parts (faces, edges, tie-break), because split
    /// into functions that hand their parts on in structs, even inlined, LLVM keeps more values
    /// on the stack: 4% more instructions for the axis choice and 1.5% for the whole manifold
    /// (callgrind, `contact_profile random 1 pen`).
    #[inline(always)]
    pub(super) fn axis(&self) -> Choice {
        let (ha, hb) = (&self.ha, &self.hb);
        let ha4 = V4::new(ha[0], ha[1], ha[2], 0.0);
        let hb4 = V4::new(hb[0], hb[1], hb[2], 0.0);
        let (rc, rr) = (&self.rc, &self.rr);
        let arc = [rc[0].abs(), rc[1].abs(), rc[2].abs()];
        let arr = [rr[0].abs(), rr[1].abs(), rr[2].abs()];
        let has = [V4::splat(ha[0]), V4::splat(ha[1]), V4::splat(ha[2])];
        let hbs = [V4::splat(hb[0]), V4::splat(hb[1]), V4::splat(hb[2])];
        // Faces of A (lanes i) and of B (lanes j).
        let face_a = axes::face_a(ha4, hbs, arc, self.t);
        let face_b = axes::face_b(has, arr, hb4, self.tb);
        let (fa_d, ia) = first_min3(face_a);
        let (fb_d, jb) = first_min3(face_b);
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
        let zero = V4::splat(0.0);
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
            let ls = axes::edge_len_sq(rr[i1], rr[i2]);
            let nm = axes::edge(
                [has[i1], has[i2]],
                [arr[i2], arr[i1]],
                [hb1, hb2],
                [arr[i].rot2(), arr[i].rot1()],
                [V4::splat(tl[i2]), V4::splat(tl[i1])],
                [rr[i1], rr[i2]],
            );
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
pub(super) fn edge_accurate<A: LeanBox, B: LeanBox>(
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
pub(super) fn first_min3(v: V4) -> (Real, usize) {
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
pub(super) fn edge_normal(rcs: &[[Real; 4]; 4], q: usize, slen: Real) -> V4 {
    let (i, j) = ((q >> 2) & 3, q & 3);
    let c = lanes4(&rcs[j]);
    let cross = (-c.rot1())
        .and(lane_is(i, V4::new(2.0, 0.0, 1.0, 9.0)))
        .or(c.rot2().and(lane_is(i, V4::new(1.0, 2.0, 0.0, 9.0))));
    cross / V4::splat(slen)
}

/// Four stored lanes as a vector (one load).
#[inline(always)]
pub(super) fn lanes4(a: &[Real; 4]) -> V4 {
    V4::new(a[0], a[1], a[2], a[3])
}

/// A lane mask set where lane `k` of `pattern` is `i` (`i` below 16).
#[inline(always)]
pub(super) fn lane_is(i: usize, pattern: V4) -> V4 {
    V4::splat(i as u32 as Real).eq(pattern)
}

/// The chosen normal in world space: `±a_i`, `±b_j`, or `A n` for an edge axis.
#[inline(always)]
pub(super) fn world_normal<A: LeanBox, B: LeanBox>(fa: &A, fb: &B, c: &Choice) -> Vector3 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::UnitQuaternion;
    use sepax_shapes::Obb;

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
}
