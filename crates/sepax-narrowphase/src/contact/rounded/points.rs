//! Contact points of two supporting features (face clipping, closest points of edges), the
//! reduction to four points, and the two-point contact of a capsule lying flat.

use arrayvec::ArrayVec;
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::tolerance::CONTACT_PARALLEL_SINE;

use super::cores::{Core, Feature, Rounded};
use crate::contact::{ContactManifold, ContactPoint, FeatureId};
use crate::geometry::{closest_point_on_segment, cross_accurate, segment_segment_closest};

/// Raw contact points: on A's core, on B's core, core depth, id.
pub(super) type Raw = ArrayVec<(Point3, Point3, Real, u32), 8>;

/// Points of contact between the supporting features `fa` (of A, extreme along `n`) and `fb` (of
/// B, extreme along `-n`): the smaller feature clipped against the side planes of a face, or the
/// closest points of two edges / vertices. Keeps points of core depth `>= -min_depth`.
///
/// ```text
/// if fa is a face: clip fb's polygon to the prisms over fa's edges (along n);
///                  depth(q) = fa[0].n - q.n, point on A = q + depth n
/// elif fb is a face: the same with the roles exchanged
/// else (or when the clip is empty): the closest points over the pairs of edges of fa and fb
///       (a vertex is an edge of length 0)
/// ```
pub(super) fn feature_contact(
    fa: &Feature,
    fb: &Feature,
    n: &Vector3,
    min_depth: Real,
    out: &mut Raw,
) {
    let keep = |d: Real| d >= -min_depth;
    if fa.len() >= 3 || fb.len() >= 3 {
        let a_ref = fa.len() >= fb.len();
        let (rf, inc) = if a_ref { (fa, fb) } else { (fb, fa) };
        let mut poly = ArrayVec::<(Point3, u32), 8>::new();
        for (k, p) in inc.iter().enumerate() {
            poly.push((*p, k as u32));
        }
        clip_polygon(rf, n, &mut poly);
        // Depths along n to the reference face's own plane (normal m): the face may be tilted
        // against n by up to the tie tolerance, so its first vertex is no reference height.
        let m = face_normal(rf, n);
        let (h, nm) = (rf[0].coords.dot(&m), n.dot(&m));
        for (q, id) in poly {
            let d = if a_ref {
                (h - q.coords.dot(&m)) / nm
            } else {
                (q.coords.dot(&m) - h) / nm
            };
            if keep(d) {
                let id = id | (u32::from(a_ref) << 11);
                if a_ref {
                    out.push((q + n * d, q, d, id));
                } else {
                    out.push((q, q - n * d, d, id));
                }
            }
        }
        if !out.is_empty() {
            return;
        }
    }
    // Edges and vertices, or faces that touch only along their boundaries (the clip came out
    // empty): the closest points over every pair of edges of the two features.
    let mut best: Option<(Real, Point3, Point3)> = None;
    for (a0, a1) in edges(fa) {
        for (b0, b1) in edges(fb) {
            let c = segment_segment_closest(&a0, &a1, &b0, &b1);
            let dist = (c.point_a - c.point_b).norm_squared();
            if best.is_none_or(|(bd, _, _)| dist < bd) {
                best = Some((dist, c.point_a, c.point_b));
            }
        }
    }
    if let Some((_, pa, pb)) = best {
        let d = (pa - pb).dot(n);

        if keep(d) {
            out.push((pa, pb, d, 0x400));
        }
    }
}

/// The unit normal of the planar face `f` (3 or 4 points) on the side of `n`; `n` itself when
/// the face is degenerate (a flat box's face, whose corners coincide in pairs).
fn face_normal(f: &Feature, n: &Vector3) -> Vector3 {
    let m = cross_accurate(&(f[1] - f[0]), &(f[2] - f[0]));
    let m = if m.dot(n) < 0.0 { -m } else { m };
    let len = m.norm();
    if len > 0.0 && len.is_finite() && m.dot(n) >= 0.5 * len {
        m / len
    } else {
        *n
    }
}

/// The edges of a feature: a vertex is one edge of length 0, a segment one edge, a polygon its
/// cyclic edges.
fn edges(f: &Feature) -> impl Iterator<Item = (Point3, Point3)> + '_ {
    let m = f.len();
    let count = if m <= 2 { 1 } else { m };
    (0..count).map(move |i| (f[i], f[if m == 1 { 0 } else { (i + 1) % m }]))
}

/// Clips `poly` (a point, a segment or a polygon; ids carried) to the prisms over the edges of
/// the convex face `rf` along `n` (Sutherland–Hodgman). New points get the id
/// `0x100 | edge << 4 | from-point`.
fn clip_polygon(rf: &Feature, n: &Vector3, poly: &mut ArrayVec<(Point3, u32), 8>) {
    let m = rf.len();
    let centroid = rf.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / m as Real;
    let mut tmp = ArrayVec::<(Point3, u32), 8>::new();
    for e in 0..m {
        let (p0, p1) = (rf[e], rf[(e + 1) % m]);
        let mut side = (p1 - p0).cross(n);
        if side.dot(&(centroid - p0.coords)) > 0.0 {
            side = -side; // outward
        }
        let off = side.dot(&p0.coords);
        let dist = |q: &Point3| side.dot(&q.coords) - off; // > 0 outside
        tmp.clear();
        let len = poly.len();
        if len == 1 {
            if dist(&poly[0].0) <= 0.0 {
                tmp.push(poly[0]);
            }
        } else {
            // A segment is a 2-gon: visiting both of its (identical) edges clips it correctly.
            for i in 0..len {
                let (cur, next) = (poly[i], poly[(i + 1) % len]);
                let (dc, dn) = (dist(&cur.0), dist(&next.0));
                if dc <= 0.0 {
                    let _ = tmp.try_push(cur);
                }
                if (dc < 0.0 && dn > 0.0) || (dc > 0.0 && dn < 0.0) {
                    let t = dc / (dc - dn);
                    let q = cur.0 + (next.0 - cur.0) * t;
                    let _ = tmp.try_push((q, 0x100 | (e as u32) << 4 | (cur.1 & 0xf)));
                }
            }
            if len == 2 && tmp.len() > 2 {
                // Keep the two extreme points of a clipped segment.
                tmp.truncate(2);
            }
        }
        core::mem::swap(poly, &mut tmp);
        if poly.is_empty() {
            return;
        }
    }
}

/// Keeps 4 of up to 8 points: the deepest, the farthest from it, and on each side of that
/// diagonal the point spanning the largest triangle with them.
pub(super) fn reduce(pts: &mut Raw, n: &Vector3) {
    let u = if n.x.abs() < 0.57 {
        n.cross(&Vector3::x())
    } else {
        n.cross(&Vector3::y())
    };
    let v = n.cross(&u);
    let xy = |p: &Point3| (p.coords.dot(&u), p.coords.dot(&v));
    let cnt = pts.len();
    let i0 = (0..cnt).fold(0, |b, i| if pts[i].2 > pts[b].2 { i } else { b });
    let (x0, y0) = xy(&pts[i0].1);
    let mut i1 = usize::from(i0 == 0);
    let mut best = -1.0;
    for i in 0..cnt {
        let (x, y) = xy(&pts[i].1);
        let dd = (x - x0) * (x - x0) + (y - y0) * (y - y0);
        if i != i0 && dd > best {
            (best, i1) = (dd, i);
        }
    }
    let (x1, y1) = xy(&pts[i1].1);
    let (mut i2, mut a2, mut i3, mut a3) = (usize::MAX, 0.0, usize::MAX, 0.0);
    for i in 0..cnt {
        if i == i0 || i == i1 {
            continue;
        }
        let (x, y) = xy(&pts[i].1);
        let ar = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0);
        if ar > a2 {
            (i2, a2) = (i, ar);
        }
        if ar < a3 {
            (i3, a3) = (i, ar);
        }
    }
    let mut w = 0;
    for i in 0..cnt {
        if i == i0 || i == i1 || i == i2 || i == i3 {
            pts.swap(w, i);
            w += 1;
        }
    }
    pts.truncate(w);
}

/// A capsule lying flat on a box face or along another capsule: replace the single point by the
/// two end points of the supporting overlap, each with its own depth.
pub(super) fn two_point_capsule(a: &Rounded, b: &Rounded, m: &mut ContactManifold, margin: Real) {
    let n = m.normal;
    // The capsule's segment, which side it is on, and the other core.
    let (seg, other, flip) = match (&a.core, &b.core) {
        (Core::Segment(p, q), o @ (Core::Box(_) | Core::Segment(..))) => ((*p, *q), o, false),
        (o @ Core::Box(_), Core::Segment(p, q)) => ((*p, *q), o, true),
        _ => return,
    };
    let (p, q) = seg;
    let dir = q - p;
    let len = dir.norm();
    // Only when the segment is perpendicular to the normal (lying flat).
    if len == 0.0 || dir.dot(&n).abs() > CONTACT_PARALLEL_SINE * len {
        return;
    }
    let (ra, rb) = (a.radius, b.radius);
    let mut pts = ArrayVec::<ContactPoint, 4>::new();
    match other {
        Core::Box(bx) => {
            // The face of the box that supports the contact, as seen from the capsule.
            let face_dir = if flip { n } else { -n };
            let (mut k, mut best) = (0, 0.0);
            for c in 0..3 {
                let s = bx.axis(c).dot(&face_dir).abs();
                if s > best {
                    (k, best) = (c, s);
                }
            }
            if best < 1.0 - CONTACT_PARALLEL_SINE {
                return; // not a face contact
            }
            // Clip the segment to the face's slab in the other two directions.
            let (mut t0, mut t1): (Real, Real) = (0.0, 1.0);
            let h = bx.half_extents();
            for c in 0..3 {
                if c == k {
                    continue;
                }
                let ax = bx.axis(c);
                let o = (p - bx.center()).dot(&ax);
                let dd = dir.dot(&ax);
                if dd.abs() <= Real::EPSILON * len {
                    if o.abs() > h[c] {
                        return;
                    }
                    continue;
                }
                let (x, y) = ((-h[c] - o) / dd, (h[c] - o) / dd);
                t0 = t0.max(x.min(y));
                t1 = t1.min(x.max(y));
            }
            if t1 <= t0 {
                return;
            }
            let ak = bx.axis(k);
            // Outward unit normal of the face and its plane `fo . x = off`.
            let fo = ak * ak.dot(&face_dir).signum();
            let off = fo.dot(&bx.center().coords) + h[k];
            let r_cap = ra.max(rb);
            for (i, t) in [t0, t1].into_iter().enumerate() {
                let s = p + dir * t;
                let gap = fo.dot(&s.coords) - off;
                let depth = r_cap - gap;
                if depth >= -margin {
                    let on_cap = s - fo * r_cap;
                    let on_box = s - fo * gap;
                    let (pa, pb) = if flip {
                        (on_box, on_cap)
                    } else {
                        (on_cap, on_box)
                    };
                    pts.push(ContactPoint {
                        point_a: pa,
                        point_b: pb,
                        depth,
                        id: FeatureId(0x4000_0000 | (k as u32) << 4 | i as u32),
                    });
                }
            }
        }
        Core::Segment(q0, q1) => {
            let d2 = q1 - q0;
            let l2 = d2.norm();
            if l2 == 0.0 || d2.dot(&n).abs() > CONTACT_PARALLEL_SINE * l2 {
                return;
            }
            if dir.cross(&d2).norm() > CONTACT_PARALLEL_SINE * len * l2 {
                return; // crossing, not parallel
            }
            // Overlap of the two parallel segments along dir.
            let u = dir / len;
            let (s0, s1): (Real, Real) = (0.0, len);
            let (x0, x1) = ((q0 - p).dot(&u), (q1 - p).dot(&u));
            let (lo, hi) = (s0.max(x0.min(x1)), s1.min(x0.max(x1)));
            if hi <= lo {
                return;
            }
            for (i, s) in [lo, hi].into_iter().enumerate() {
                let on_a_axis = p + u * s;
                let (_, on_b_axis) = closest_point_on_segment(&on_a_axis, q0, q1);
                let depth = ra + rb - (on_b_axis - on_a_axis).dot(&n);
                if depth >= -margin {
                    pts.push(ContactPoint {
                        point_a: on_a_axis + n * ra,
                        point_b: on_b_axis - n * rb,
                        depth,
                        id: FeatureId(0x4000_0000 | i as u32),
                    });
                }
            }
        }
        _ => return,
    }
    if pts.len() == 2 {
        m.points = pts;
    }
}
