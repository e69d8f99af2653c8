//! The face contact: the incident face, its clipped and reduced points, and their way back to
//! world space.

use super::*;

/// A face contact in the reference box's frame. `ti`, `ri[c]`, `hi`: the incident box's centre,
/// axis `c` and half-extents in that frame; `f`, `sf`: the reference face's axis and side; `hr`:
/// the reference half-extents; `frame`: the reference box in world space. Writes the points
/// (at most 4 after the reduction) into `points` (which it replaces), with `id_base` (reference
/// face and box) in their ids.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn face_contact(
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
pub(super) fn points_to_world(
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
pub(super) fn id_word(id: u32) -> Real {
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
pub(super) fn clamp4(x: V4, h: Real) -> V4 {
    let lo = V4::splat(-h).where_lt(x, -h, x);
    V4::splat(h).where_lt(-lo, -h, lo)
}
