//! Clipping the incident face against the reference face's side planes (Sutherland–Hodgman,
//! computed per line; the passes themselves for the degenerate cases).

use super::*;

/// Clips `input` against `c * sign <= limit`, `c` the coordinate `x` (`Y == false`) or `y`
/// (side plane label `plane`), into `out` (Sutherland–Hodgman); returns `false`, leaving `out`
/// untouched, when no point is outside, so the caller keeps using `input`.
#[inline(always)]
pub(super) fn clip<const Y: bool>(
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
        // Where the edge `idx -> nx` crosses the plane (signed distances `dc`, `dn`).
        let crossing = |dc: Real, dn: Real| {
            let s = dc / (dc - dn);
            (
                cw[idx] + (cw[nx] - cw[idx]) * s,
                cz[idx] + (cz[nx] - cz[idx]) * s,
            )
        };
        if dc == 0.0 && dn > 0.0 {
            // On the plane and leaving: the polygon runs along the plane from here.
            push_uw::<Y>(out, &mut len, uc, cw[idx], cz[idx], id, plane);
        } else if dc <= 0.0 {
            push_uw::<Y>(out, &mut len, uc, cw[idx], cz[idx], id, edge);
            if dn > 0.0 {
                // Leaving: the crossing point, then the polygon runs along the plane.
                let (w, z) = crossing(dc, dn);
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
            let (w, z) = crossing(dc, dn);
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
pub(super) fn push_uw<const Y: bool>(
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
pub(super) struct Lines {
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
pub(super) enum Cut {
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
pub(super) fn one_bit(m: u32) -> bool {
    m != 0 && m & (m - 1) == 0
}

/// The line numbers of the two lane groups of [`Lines`].
#[inline(always)]
pub(super) fn line_index(g: usize) -> V4 {
    if g == 0 {
        V4::new(0.0, 1.0, 2.0, 3.0)
    } else {
        V4::new(4.0, 5.0, 6.0, 7.0)
    }
}

/// The eight lanes of a group pair as an array.
#[inline(always)]
pub(super) fn lanes8(v: &[V4; 2]) -> [Real; 8] {
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
pub(super) fn clip_lines(
    quad: &Poly,
    lx: Real,
    ly: Real,
    hf: Real,
    margin: Real,
    out: &mut Poly,
) -> bool {
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
pub(super) fn clip_passes<'p>(
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
pub(super) fn depth_filter(poly: &mut Poly, hf: Real, margin: Real) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
