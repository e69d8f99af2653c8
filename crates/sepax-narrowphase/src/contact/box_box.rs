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
//! **Face contact** (reference/incident faces, as in Gregorius' GDC 2013/2015 talks and most
//! physics engines): the reference face is the chosen face, the incident face is the other box's
//! face most anti-parallel to it. The incident face's quad is clipped against the reference face's
//! four side planes (Sutherland–Hodgman, planes widened by `tol` so that jittering vertices keep
//! their ids); points deeper than `-margin` are kept, projected onto the reference face for the
//! reference box's point. More than 4 points are reduced to 4: the deepest, the farthest from it,
//! and the two spanning the largest triangles on either side of that diagonal.
//!
//! **Edge contact**: the two supporting edges along the axis; one point from their closest points.

use arrayvec::ArrayVec;
use sepax_shapes::math::{Matrix3, Point3, Real, Vector3};
use sepax_shapes::tolerance::{
    CONTACT_AXIS_PREFERENCE, CONTACT_PREFERENCE_SINE, SEPARATION_TOLERANCE,
};

use super::{ContactConfig, ContactManifold, ContactPoint, FeatureId, Penetration};
#[cfg(feature = "f64")]
use crate::geometry::cross_accurate;
use crate::geometry::segment_segment_closest;
use crate::intersect::BoxShape;
use crate::sat::{BoxFrame, SatAxis};

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

/// The pair in `A`'s frame (plus the world axes and offset for the accurate edge path).
struct Local {
    r: Matrix3,
    abs_r: Matrix3,
    t: Vector3,
    ha: Vector3,
    hb: Vector3,
    tol: Real,
    axes_a: Matrix3,
    axes_b: Matrix3,
    d: Vector3,
}

/// Edge axes whose `|a_i x b_j|^2` is below this take the accurate path ([`Local::edge_accurate`]):
/// the closed forms in `A`'s frame lose `1 / |a_i x b_j|` digits to rounding and to the axes'
/// orthonormality defect.
const EDGE_FAST_MIN_SQ: Real = 1.0 / 400.0;

impl Local {
    #[inline(always)]
    fn new(a: &BoxFrame, b: &BoxFrame) -> Local {
        let d = a.offset_to(b);
        let (r, t) = if a.axis_aligned {
            (b.axes, d)
        } else {
            (a.axes.tr_mul(&b.axes), a.axes.tr_mul(&d))
        };
        let ha = a.half;
        let hb = b.half;
        let s = ha.max().min(hb.max());
        Local {
            r,
            abs_r: r.abs(),
            t,
            ha,
            hb,
            tol: CONTACT_AXIS_PREFERENCE * s,
            axes_a: a.axes,
            axes_b: b.axes,
            d,
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
    #[cold]
    fn edge_accurate(&self, i: usize, j: usize) -> Option<(Real, Real, Vector3)> {
        let ai = self.axes_a.column(i).into_owned();
        let bj = self.axes_b.column(j).into_owned();
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
            let ak = self.axes_a.column(k).into_owned().cast::<f64>();
            let bk = self.axes_b.column(k).into_owned().cast::<f64>();
            r += self.ha[k] as f64 * l.dot(&ak).abs();
            r += self.hb[k] as f64 * l.dot(&bk).abs();
        }
        let tl = l.dot(&self.d.cast::<f64>());
        let local = self.axes_a.cast::<f64>().tr_mul(&l) / len;
        Some((
            ((r - tl.abs()) / len) as Real,
            tl as Real,
            local.cast::<Real>(),
        ))
    }

    /// The chosen axis: the least depth over all axes and the chosen unit normal in `A`'s frame
    /// (from A toward B).
    #[inline(always)]
    fn axis(&self) -> (Real, Vector3, SatAxis) {
        let (r, ar, t, ha, hb) = (&self.r, &self.abs_r, &self.t, &self.ha, &self.hb);
        // Faces of A.
        let mut fa = (Real::INFINITY, 0usize);
        for i in 0..3 {
            let d =
                ha[i] + hb[0] * ar[(i, 0)] + hb[1] * ar[(i, 1)] + hb[2] * ar[(i, 2)] - t[i].abs();
            if d < fa.0 {
                fa = (d, i);
            }
        }
        // Faces of B.
        let mut fb = (Real::INFINITY, 0usize, 0.0);
        for j in 0..3 {
            let tj = t[0] * r[(0, j)] + t[1] * r[(1, j)] + t[2] * r[(2, j)];
            let d = ha[0] * ar[(0, j)] + ha[1] * ar[(1, j)] + ha[2] * ar[(2, j)] + hb[j] - tj.abs();
            if d < fb.0 {
                fb = (d, j, tj);
            }
        }
        // The preference applies between nearly parallel axes only (see the module docs).
        let cos_sq_min = 1.0 - CONTACT_PREFERENCE_SINE * CONTACT_PREFERENCE_SINE;
        let tol_ab = if r[(fa.1, fb.1)] * r[(fa.1, fb.1)] >= cos_sq_min {
            self.tol
        } else {
            0.0
        };
        let (face_d, mut best_axis, mut n) = if fb.0 < fa.0 - tol_ab {
            let s = if fb.2 >= 0.0 { 1.0 } else { -1.0 };
            (
                fb.0,
                SatAxis::FaceB(fb.1 as u8),
                r.column(fb.1).into_owned() * s,
            )
        } else {
            let mut n = Vector3::zeros();
            n[fa.1] = if t[fa.1] >= 0.0 { 1.0 } else { -1.0 };
            (fa.0, SatAxis::FaceA(fa.1 as u8), n)
        };
        // Edge crosses a_i x b_j = e_i x R_j; Ericson's closed forms for r_A, r_B, t . L.
        let (mut e_d, mut e_ij, mut e_tl) = (Real::INFINITY, usize::MAX, 0.0);
        let mut e_axis: Option<Vector3> = None;
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let len_sq = r[(i1, j)] * r[(i1, j)] + r[(i2, j)] * r[(i2, j)];
                if len_sq < EDGE_FAST_MIN_SQ {
                    if let Some((d, tl, axis)) = self.edge_accurate(i, j) {
                        if d < e_d {
                            (e_d, e_ij, e_tl, e_axis) = (d, i * 3 + j, tl, Some(axis));
                        }
                    }
                    continue;
                }
                let ra = ha[i1] * ar[(i2, j)] + ha[i2] * ar[(i1, j)];
                let rb = hb[j1] * ar[(i, j2)] + hb[j2] * ar[(i, j1)];
                let tl = t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)];
                let num = ra + rb - tl.abs();
                let d = num / len_sq.sqrt();
                if d < e_d {
                    (e_d, e_ij, e_tl, e_axis) = (d, i * 3 + j, tl, None);
                }
            }
        }
        let eb = (e_ij != usize::MAX).then_some((e_d, e_ij / 3, e_ij % 3, e_tl, e_axis));
        if let Some((d, i, j, tl, axis)) = eb {
            if d < face_d {
                let mut ln = match axis {
                    Some(l) => l,
                    None => Vector3::ith(i, 1.0).cross(&r.column(j)).normalize(),
                };
                if tl < 0.0 {
                    ln = -ln;
                }
                let c = ln.dot(&n);
                let tol_e = if c * c >= cos_sq_min { self.tol } else { 0.0 };
                if d < face_d - tol_e {
                    best_axis = SatAxis::Edge(i as u8, j as u8);
                    n = ln;
                }
            }
        }
        // The least depth over all axes is reported, whichever axis gave the normal.
        let least = fa.0.min(fb.0).min(e_d);
        (least, n, best_axis)
    }
}

/// The least-penetration axis of two boxes: depth (`< 0` when separated: minus the largest SAT
/// gap) and the unit normal from `a` toward `b`, with the stable tie-break of the module docs.
#[inline]
pub fn penetration<A: BoxShape + ?Sized, B: BoxShape + ?Sized>(a: &A, b: &B) -> BoxPenetration {
    let (fa, fb) = (a.frame(), b.frame());
    let l = Local::new(&fa, &fb);
    let (depth, n, axis) = l.axis();
    let normal = if fa.axis_aligned { n } else { fa.axes * n };
    BoxPenetration {
        normal,
        depth,
        axis,
    }
}

/// The contact manifold of two boxes: `None` when they are farther apart than `config.margin`
/// along the best SAT axis (plus the rounding allowance `SEPARATION_TOLERANCE` times the pair's
/// scale, so that touching pairs always get a manifold). Points are in world space; see the
/// module docs for the method.
#[inline]
pub fn contact_manifold<A: BoxShape + ?Sized, B: BoxShape + ?Sized>(
    a: &A,
    b: &B,
    config: &ContactConfig,
) -> Option<ContactManifold> {
    let (fa, fb) = (a.frame(), b.frame());
    manifold_frames(&fa, &fb, config)
}

/// A point of the clipped polygon: position in the reference frame, its feature code, and the
/// label of the polygon edge that leaves it (incident edge `0..4` or side plane `4..8`).
#[derive(Clone, Copy)]
struct ClipPoint {
    p: Vector3,
    id: u32,
    edge: u8,
}

/// A clipped polygon (at most 8 points: a quad cut by 4 planes), in a fixed array.
#[derive(Clone, Copy)]
struct Poly {
    pts: [ClipPoint; 8],
    len: usize,
}

impl Poly {
    #[inline(always)]
    fn new() -> Poly {
        Poly {
            pts: [ClipPoint {
                p: Vector3::zeros(),
                id: 0,
                edge: 0,
            }; 8],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, q: ClipPoint) {
        if self.len < 8 {
            self.pts[self.len] = q;
            self.len += 1;
        }
    }

    #[inline(always)]
    fn points(&self) -> &[ClipPoint] {
        &self.pts[..self.len]
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

/// The code of the point where a polygon edge labelled `edge` crosses side plane `plane`.
#[inline(always)]
fn crossing_code(edge: u8, plane: u8) -> u32 {
    if edge < 4 {
        point_code(KIND_EDGE_SIDE, edge as u32, plane as u32)
    } else {
        let (lo, hi) = if edge < plane {
            (edge, plane)
        } else {
            (plane, edge)
        };
        point_code(KIND_SIDE_SIDE, lo as u32, hi as u32)
    }
}

/// Clips `input` against `coord * sign <= limit` (side plane label `plane`) into `out`; returns
/// `false`, leaving `out` untouched, when no point is outside (the common case for a smaller
/// incident face), so the caller keeps using `input`.
#[inline(always)]
fn clip(input: &Poly, out: &mut Poly, k: usize, sign: Real, limit: Real, plane: u8) -> bool {
    let pts = input.points();
    if pts.iter().all(|q| q.p[k] * sign <= limit) {
        return false;
    }
    out.len = 0;
    let n = pts.len();
    for idx in 0..n {
        let cur = pts[idx];
        let next = pts[if idx + 1 == n { 0 } else { idx + 1 }];
        let dc = cur.p[k] * sign - limit;
        let dn = next.p[k] * sign - limit;
        if dc == 0.0 && dn > 0.0 {
            // On the plane and leaving: the polygon runs along the plane from here.
            out.push(ClipPoint { edge: plane, ..cur });
        } else if dc <= 0.0 {
            out.push(cur);
            if dn > 0.0 {
                // Leaving: the crossing point, then the polygon runs along the plane.
                let s = dc / (dc - dn);
                let mut p = cur.p + (next.p - cur.p) * s;
                p[k] = limit * sign;
                out.push(ClipPoint {
                    p,
                    id: crossing_code(cur.edge, plane),
                    edge: plane,
                });
            }
        } else if dn < 0.0 {
            // Entering: the crossing point keeps the edge it lies on.
            let s = dc / (dc - dn);
            let mut p = cur.p + (next.p - cur.p) * s;
            p[k] = limit * sign;
            out.push(ClipPoint {
                p,
                id: crossing_code(cur.edge, plane),
                edge: cur.edge,
            });
        }
    }
    true
}

/// A face contact in the reference box's frame. `ti`, `ri`, `hi`: the incident box's centre,
/// axes (columns) and half-extents in that frame; `f`, `sf`: the reference face's axis and side;
/// `hr`: the reference half-extents. Returns points `(on reference, on incident, depth, id)`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn face_contact(
    hr: &Vector3,
    ti: &Vector3,
    ri: &Matrix3,
    hi: &Vector3,
    f: usize,
    sf: Real,
    slop: Real,
    margin: Real,
    id_base: u32,
    out: &mut ArrayVec<(Vector3, Vector3, Real, u32), 8>,
) {
    // Incident face: the face of the other box most anti-parallel to the reference normal.
    let row = [ri[(f, 0)] * sf, ri[(f, 1)] * sf, ri[(f, 2)] * sf];
    let mut k = 0;
    for c in 1..3 {
        if row[c].abs() > row[k].abs() {
            k = c;
        }
    }
    let si: Real = if row[k] > 0.0 { -1.0 } else { 1.0 };
    let inc_face = (k as u32) * 2 + u32::from(si > 0.0);
    let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
    let c = ti + ri.column(k) * (si * hi[k]);
    let u = ri.column(k1) * hi[k1];
    let v = ri.column(k2) * hi[k2];
    let id_base = id_base | (inc_face << 4);
    let mut bufs = [Poly::new(), Poly::new()];
    for (vi, (su, sv)) in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .into_iter()
        .enumerate()
    {
        bufs[0].push(ClipPoint {
            p: c + u * su + v * sv,
            id: point_code(KIND_VERTEX, vi as u32, 0),
            edge: vi as u8,
        });
    }
    // Side planes of the reference face, widened by the slop; `cur` is the buffer in use.
    let (f1, f2) = ((f + 1) % 3, (f + 2) % 3);
    let mut cur = 0;
    for (k, sign, plane) in [(f1, 1.0, 4), (f1, -1.0, 5), (f2, 1.0, 6), (f2, -1.0, 7)] {
        let [b0, b1] = &mut bufs;
        let (input, output) = if cur == 0 { (&*b0, b1) } else { (&*b1, b0) };
        if clip(input, output, k, sign, hr[k] + slop, plane) {
            cur = 1 - cur;
        }
    }
    let poly = &bufs[cur];
    let face = sf * hr[f];
    for q in poly.points() {
        let depth = face * sf - q.p[f] * sf;
        if depth >= -margin {
            let mut on_ref = q.p;
            on_ref[f] = face;
            on_ref[f1] = on_ref[f1].clamp(-hr[f1], hr[f1]);
            on_ref[f2] = on_ref[f2].clamp(-hr[f2], hr[f2]);
            out.push((on_ref, q.p, depth, id_base | q.id));
        }
    }
    if out.len() > 4 {
        reduce(out, f);
    }
}

/// Keeps 4 of up to 8 points: the deepest, the farthest from it, and on each side of that
/// diagonal the point spanning the largest triangle with it (largest area, order kept).
fn reduce(pts: &mut ArrayVec<(Vector3, Vector3, Real, u32), 8>, f: usize) {
    let (f1, f2) = ((f + 1) % 3, (f + 2) % 3);
    let xy = |i: usize| (pts[i].1[f1], pts[i].1[f2]);
    let n = pts.len();
    let mut i0 = 0;
    for i in 1..n {
        if pts[i].2 > pts[i0].2 {
            i0 = i;
        }
    }
    let (x0, y0) = xy(i0);
    let mut i1 = if i0 == 0 { 1 } else { 0 };
    let mut best = -1.0;
    for i in 0..n {
        let (x, y) = xy(i);
        let d = (x - x0) * (x - x0) + (y - y0) * (y - y0);
        if i != i0 && d > best {
            best = d;
            i1 = i;
        }
    }
    let (x1, y1) = xy(i1);
    let area = |a: (Real, Real), b: (Real, Real), c: (Real, Real)| {
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    };
    // Largest triangle on the positive side of the diagonal, then on the negative side.
    let (mut i2, mut a2) = (usize::MAX, 0.0);
    let (mut i3, mut a3) = (usize::MAX, 0.0);
    for i in 0..n {
        if i == i0 || i == i1 {
            continue;
        }
        let a = area((x0, y0), (x1, y1), xy(i));
        if a > a2 {
            (i2, a2) = (i, a);
        }
        if a < a3 {
            (i3, a3) = (i, a);
        }
    }
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
            let p = xy(i);
            let a = area((x0, y0), xy(k), p).abs() + area((x1, y1), xy(k), p).abs();
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
    let keep = [i0, i1, i2, i3];
    let mut w = 0;
    for i in 0..n {
        if keep.contains(&i) {
            pts.swap(w, i);
            w += 1;
        }
    }
    pts.truncate(w);
}

/// Closest points of the edges `ca + s da` and `cb + t db` (`s, t` in `[-1, 1]`), which are not
/// parallel (their cross product is a chosen SAT axis): the lines' closest points, clamped, with
/// the other parameter recomputed after each clamp (Ericson, *Real-Time Collision Detection*,
/// §5.1.9). Falls back to the general routine when the system is singular.
#[inline(always)]
fn edge_closest(ca: &Vector3, da: &Vector3, cb: &Vector3, db: &Vector3) -> (Vector3, Vector3) {
    let w = ca - cb;
    let (a, b, c) = (da.dot(da), da.dot(db), db.dot(db));
    let (d, e) = (da.dot(&w), db.dot(&w));
    let den = a * c - b * b;
    if den.is_nan() || den <= 0.0 || a == 0.0 || c == 0.0 {
        let r = segment_segment_closest(
            &Point3::from(ca - da),
            &Point3::from(ca + da),
            &Point3::from(cb - db),
            &Point3::from(cb + db),
        );
        return (r.point_a.coords, r.point_b.coords);
    }
    let mut s = ((b * e - c * d) / den).clamp(-1.0, 1.0);
    let mut t = (b * s + e) / c;
    if t.abs() > 1.0 {
        t = t.clamp(-1.0, 1.0);
        s = ((b * t - d) / a).clamp(-1.0, 1.0);
    }
    (ca + da * s, cb + db * t)
}

/// The manifold of two boxes given as SAT frames.
pub(crate) fn manifold_frames(
    fa: &BoxFrame,
    fb: &BoxFrame,
    config: &ContactConfig,
) -> Option<ContactManifold> {
    let l = Local::new(fa, fb);
    // Touching pairs whose computed depth came out a rounding error below 0 still get their
    // manifold: the margin is widened by the separation allowance of the overlap tests.
    let scale = l.ha.sum() + l.hb.sum() + l.t.abs().sum();
    let margin = config.effective_margin() + SEPARATION_TOLERANCE * scale;
    let (depth, n_local, axis) = l.axis();
    if depth.is_nan() || depth < -margin {
        return None;
    }
    let ca = Point3::from(fa.center + fa.center_lo);
    let to_world = |v: &Vector3| -> Vector3 {
        if fa.axis_aligned {
            *v
        } else {
            fa.axes * v
        }
    };
    let normal = to_world(&n_local);
    let mut points = ArrayVec::<ContactPoint, 4>::new();
    match axis {
        SatAxis::FaceA(i) => {
            let f = i as usize;
            let sf = n_local[f];
            let mut raw = ArrayVec::new();
            face_contact(&l.ha, &l.t, &l.r, &l.hb, f, sf, l.tol, margin, 0, &mut raw);
            let base = (f as u32) * 2 + u32::from(sf > 0.0);
            for (on_a, on_b, d, id) in raw {
                points.push(ContactPoint {
                    point_a: ca + to_world(&on_a),
                    point_b: ca + to_world(&on_b),
                    depth: d,
                    id: FeatureId(id | base),
                });
            }
        }
        SatAxis::FaceB(j) => {
            // Reference frame B: A's centre and axes seen from B.
            let f = j as usize;
            let rt = l.r.transpose();
            let tb = -(rt * l.t);
            // The reference normal points from B toward A: -n in B's frame.
            let sf = -(rt * n_local)[f].signum();
            let mut raw = ArrayVec::new();
            face_contact(&l.hb, &tb, &rt, &l.ha, f, sf, l.tol, margin, 8, &mut raw);
            let base = (f as u32) * 2 + u32::from(sf > 0.0);
            // B-frame -> A-frame: x_A = t + R x_B.
            for (on_b, on_a, d, id) in raw {
                points.push(ContactPoint {
                    point_a: ca + to_world(&(l.t + l.r * on_a)),
                    point_b: ca + to_world(&(l.t + l.r * on_b)),
                    depth: d,
                    id: FeatureId(id | base),
                });
            }
        }
        SatAxis::Edge(i, j) => {
            let (i, j) = (i as usize, j as usize);
            // A's edge along e_i, extreme in +n; B's edge along R_j, extreme in -n.
            let mut ca_e = Vector3::zeros();
            let mut code_a = (i as u32) << 2;
            let mut bit = 0;
            for k in 0..3 {
                if k != i {
                    let s: Real = if n_local[k] >= 0.0 { 1.0 } else { -1.0 };
                    ca_e[k] = s * l.ha[k];
                    code_a |= u32::from(s > 0.0) << bit;
                    bit += 1;
                }
            }
            let mut cb_e = l.t;
            let mut code_b = (j as u32) << 2;
            let mut bit = 0;
            for k in 0..3 {
                if k != j {
                    let col = l.r.column(k);
                    let s: Real = if col.dot(&n_local) > 0.0 { -1.0 } else { 1.0 };
                    cb_e += col * (s * l.hb[k]);
                    code_b |= u32::from(s > 0.0) << bit;
                    bit += 1;
                }
            }
            let mut da = Vector3::zeros();
            da[i] = l.ha[i];
            let db = l.r.column(j) * l.hb[j];
            let (pa, pb) = edge_closest(&ca_e, &da, &cb_e, &db);
            points.push(ContactPoint {
                point_a: ca + to_world(&pa),
                point_b: ca + to_world(&pb),
                depth,
                id: FeatureId(point_code(KIND_EDGE_EDGE, code_a, code_b)),
            });
        }
    }
    if points.is_empty() {
        return None;
    }
    Some(ContactManifold {
        normal,
        depth,
        points,
    })
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
