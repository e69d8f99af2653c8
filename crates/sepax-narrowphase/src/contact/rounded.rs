//! Contacts of the non-box pairs: every shape is a convex *core* grown by a radius
//! (sphere = point ⊕ ball, capsule = segment ⊕ ball, box and triangle with radius 0).
//!
//! ```text
//! if the cores are disjoint (closest points qa, qb at distance d > 0):     analytic
//!     n = (qb - qa) / d,  depth = ra + rb - d
//!     point_a = qa + ra n,  point_b = qb - rb n
//! else (the cores overlap, or neither has a radius):                       SAT over the cores
//!     axes = face normals of both cores (triangles also their in-plane edge normals)
//!            + cross products of their edge directions
//!     depth = ra + rb + min over axes of the overlap of the projections
//!     point_b = deepest point of B along -n (centre of the supporting feature) - rb n
//!     point_a = point_b + depth n
//! ```
//!
//! The penetration of core ⊕ ball equals the cores' penetration plus the radii (the Minkowski
//! difference grows by a ball), and the cores' penetration is attained on one of the SAT axes
//! because the cores are polytopes. Closest points between disjoint cores come from
//! [`crate::geometry`]: segment–box and segment–triangle reduce to end points and edges
//! (Ericson, *Real-Time Collision Detection*, §5.1.9–5.1.10).
//!
//! Capsules lying on a box face or along another capsule get two points (the end points of the
//! overlap of the segment with the supporting face or segment), so that they do not rock.

use arrayvec::ArrayVec;
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::tolerance::CONTACT_PARALLEL_SINE;
use sepax_shapes::{Aabb, Capsule, Obb, Sphere, Triangle};

use super::{single, ContactConfig, ContactManifold, ContactPoint, FeatureId};
use crate::geometry::{
    closest_point_on_segment, closest_point_on_triangle, cross_accurate, segment_crosses_triangle,
    segment_obb_distance_squared, segment_segment_closest,
};

/// A convex core.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Core {
    Point(Point3),
    Segment(Point3, Point3),
    Box(Obb),
    Triangle([Point3; 3]),
}

/// A core grown by a radius.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rounded {
    pub core: Core,
    pub radius: Real,
}

impl From<&Aabb> for Rounded {
    fn from(b: &Aabb) -> Self {
        Rounded {
            core: Core::Box(Obb::from_aabb(b)),
            radius: 0.0,
        }
    }
}
impl From<&Obb> for Rounded {
    fn from(b: &Obb) -> Self {
        Rounded {
            core: Core::Box(*b),
            radius: 0.0,
        }
    }
}
impl From<&Sphere> for Rounded {
    fn from(s: &Sphere) -> Self {
        Rounded {
            core: Core::Point(s.center()),
            radius: s.radius(),
        }
    }
}
impl From<&Capsule> for Rounded {
    fn from(c: &Capsule) -> Self {
        Rounded {
            core: Core::Segment(c.segment().a(), c.segment().b()),
            radius: c.radius(),
        }
    }
}
impl From<&Triangle> for Rounded {
    fn from(t: &Triangle) -> Self {
        Rounded {
            core: Core::Triangle(t.vertices()),
            radius: 0.0,
        }
    }
}

type Dirs = ArrayVec<Vector3, 7>;
type Feature = ArrayVec<Point3, 4>;
/// Raw contact points: on A's core, on B's core, core depth, id.
type Raw = ArrayVec<(Point3, Point3, Real, u32), 8>;

impl Core {
    /// Projection interval on `n`.
    fn interval(&self, n: &Vector3) -> (Real, Real) {
        match self {
            Core::Point(p) => {
                let x = p.coords.dot(n);
                (x, x)
            }
            Core::Segment(a, b) => {
                let (x, y) = (a.coords.dot(n), b.coords.dot(n));
                (x.min(y), x.max(y))
            }
            Core::Box(b) => {
                let c = b.center().coords.dot(n);
                let h = b.half_extents();
                let r = (0..3).map(|k| h[k] * b.axis(k).dot(n).abs()).sum::<Real>();
                (c - r, c + r)
            }
            Core::Triangle(v) => {
                let x = [0, 1, 2].map(|k| v[k].coords.dot(n));
                (x[0].min(x[1]).min(x[2]), x[0].max(x[1]).max(x[2]))
            }
        }
    }

    /// The feature of the core extreme in direction `d` (unit) as a convex polygon in cyclic
    /// order: 1 point (vertex), 2 (edge) or 3–4 (face). Heights within a relative
    /// [`CONTACT_PARALLEL_SINE`] of the extreme count as tied.
    fn feature(&self, d: &Vector3) -> Feature {
        let mut f = Feature::new();
        match self {
            Core::Point(p) => f.push(*p),
            Core::Segment(a, b) => {
                let (x, y) = (a.coords.dot(d), b.coords.dot(d));
                let tie = CONTACT_PARALLEL_SINE * (b - a).norm();
                if (x - y).abs() <= tie {
                    f.push(*a);
                    f.push(*b);
                } else if x > y {
                    f.push(*a);
                } else {
                    f.push(*b);
                }
            }
            Core::Box(b) => {
                let h = b.half_extents();
                let mut base = b.center();
                let mut free = ArrayVec::<Vector3, 3>::new();
                for k in 0..3 {
                    let ak = b.axis(k);
                    let s = ak.dot(d);
                    if s.abs() <= CONTACT_PARALLEL_SINE {
                        free.push(ak * h[k]);
                    } else if s > 0.0 {
                        base += ak * h[k];
                    } else {
                        base -= ak * h[k];
                    }
                }
                match free.len() {
                    0 => f.push(base),
                    1 => {
                        f.push(base - free[0]);
                        f.push(base + free[0]);
                    }
                    _ => {
                        let (u, v) = (free[0], free[1]);
                        f.push(base + u + v);
                        f.push(base - u + v);
                        f.push(base - u - v);
                        f.push(base + u - v);
                    }
                }
            }
            Core::Triangle(v) => {
                let x = [0, 1, 2].map(|k| v[k].coords.dot(d));
                let m = x[0].max(x[1]).max(x[2]);
                let scale = (v[1] - v[0]).norm() + (v[2] - v[0]).norm();
                let tie = CONTACT_PARALLEL_SINE * scale;
                for k in 0..3 {
                    if x[k] >= m - tie {
                        f.push(v[k]);
                    }
                }
            }
        }
        f
    }

    /// Face normals (unnormalised) and edge directions.
    fn directions(&self, faces: &mut Dirs, edges: &mut Dirs) {
        match self {
            Core::Point(_) => {}
            Core::Segment(a, b) => edges.push(b - a),
            Core::Box(b) => {
                for k in 0..3 {
                    faces.push(b.axis(k));
                    edges.push(b.axis(k));
                }
            }
            Core::Triangle(v) => {
                let e = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
                let n = cross_accurate(&e[0], &e[1]);
                faces.push(n);
                for ek in e {
                    faces.push(cross_accurate(&n, &ek));
                    edges.push(ek);
                }
            }
        }
    }
}

/// Unit `v`, or `None` when `v` is zero (exactly parallel edges, degenerate triangles).
fn unit(v: &Vector3) -> Option<Vector3> {
    let n = v.norm();
    (n > 0.0 && n.is_finite()).then(|| v / n)
}

/// SAT over the cores: the least-penetration axis (depth of the cores, before radii) with the
/// normal from A toward B, faces first, then edge crosses; strict improvement replaces.
fn sat(a: &Core, b: &Core) -> (Real, Vector3, u32) {
    let (mut fa, mut ea, mut fb, mut eb) = (Dirs::new(), Dirs::new(), Dirs::new(), Dirs::new());
    a.directions(&mut fa, &mut ea);
    b.directions(&mut fb, &mut eb);
    let mut best: Option<(Real, Vector3, u32)> = None;
    let mut consider = |l: Vector3, code: u32| {
        let (a0, a1) = a.interval(&l);
        let (b0, b1) = b.interval(&l);
        let (up, down) = (a1 - b0, b1 - a0);
        let (d, n) = if up <= down { (up, l) } else { (down, -l) };
        if best.is_none_or(|(bd, _, _)| d < bd) {
            best = Some((d, n, code));
        }
    };
    for (k, f) in fa.iter().chain(fb.iter()).enumerate() {
        if let Some(l) = unit(f) {
            consider(l, k as u32);
        }
    }
    for (i, x) in ea.iter().enumerate() {
        for (j, y) in eb.iter().enumerate() {
            if let Some(l) = unit(&cross_accurate(x, y)) {
                consider(l, 16 + (i * 8 + j) as u32);
            }
        }
    }
    best.unwrap_or_else(|| {
        // No direction at all (points, or collinear segments): any axis perpendicular to the
        // segments; the overlap there is 0 or the cores are disjoint along it.
        let base = ea.first().or(eb.first()).copied().unwrap_or(Vector3::z());
        let helper = if base.x.abs() <= base.y.abs() && base.x.abs() <= base.z.abs() {
            Vector3::x()
        } else if base.y.abs() <= base.z.abs() {
            Vector3::y()
        } else {
            Vector3::z()
        };
        let l = if ea.is_empty() && eb.is_empty() {
            Vector3::z()
        } else {
            base.cross(&helper).normalize()
        };
        let (a0, a1) = a.interval(&l);
        let (b0, b1) = b.interval(&l);
        let (up, down) = (a1 - b0, b1 - a0);
        if up <= down {
            (up, l, 15)
        } else {
            (down, -l, 15)
        }
    })
}

/// Closest points `(on a, on b, feature code)` of two cores that are disjoint; `None` when they
/// meet (or when neither has a closed form here: box–box, box–triangle, triangle–triangle).
fn closest(a: &Core, b: &Core) -> Option<(Point3, Point3, u32)> {
    let swap = |r: Option<(Point3, Point3, u32)>| r.map(|(p, q, c)| (q, p, c));
    let found = |p: Point3, q: Point3, c: u32| (p != q).then_some((p, q, c));
    match (a, b) {
        (Core::Point(p), Core::Point(q)) => found(*p, *q, 0),
        (Core::Point(p), Core::Segment(s0, s1)) => {
            let (t, q) = closest_point_on_segment(p, s0, s1);
            found(*p, q, seg_code(t))
        }
        (Core::Point(p), Core::Box(bx)) => found(*p, bx.closest_point(p), 0),
        (Core::Point(p), Core::Triangle(v)) => {
            found(*p, closest_point_on_triangle(p, &v[0], &v[1], &v[2]), 0)
        }
        (Core::Segment(p0, p1), Core::Segment(q0, q1)) => {
            let c = segment_segment_closest(p0, p1, q0, q1);
            found(c.point_a, c.point_b, seg_code(c.s) * 4 + seg_code(c.t))
        }
        (Core::Segment(p0, p1), Core::Box(bx)) => segment_box(p0, p1, bx),
        (Core::Segment(p0, p1), Core::Triangle(v)) => segment_triangle(p0, p1, v),
        (Core::Segment(..) | Core::Box(_) | Core::Triangle(_), Core::Point(_))
        | (Core::Box(_) | Core::Triangle(_), Core::Segment(..)) => swap(closest(b, a)),
        (Core::Box(_) | Core::Triangle(_), Core::Box(_) | Core::Triangle(_)) => None,
    }
}

/// 1 at the start of a segment, 2 at its end, 3 inside.
fn seg_code(t: Real) -> u32 {
    if t <= 0.0 {
        1
    } else if t >= 1.0 {
        2
    } else {
        3
    }
}

/// Keeps the closer of two candidates.
fn keep_closer(
    best: &mut Option<(Point3, Point3, u32)>,
    best_d: &mut Real,
    p: Point3,
    q: Point3,
    c: u32,
) {
    let d = (p - q).norm_squared();
    if d < *best_d {
        *best_d = d;
        *best = Some((p, q, c));
    }
}

/// Disjoint segment and box: end points against the box, the segment against the 12 edges.
fn segment_box(p0: &Point3, p1: &Point3, bx: &Obb) -> Option<(Point3, Point3, u32)> {
    if segment_obb_distance_squared(p0, p1, bx) == 0.0 {
        return None;
    }
    let (mut best, mut best_d) = (None, Real::INFINITY);
    keep_closer(&mut best, &mut best_d, *p0, bx.closest_point(p0), 1);
    keep_closer(&mut best, &mut best_d, *p1, bx.closest_point(p1), 2);
    let c = bx.corners();
    // Edges join corners that differ in one bit.
    for i in 0..8usize {
        for k in 0..3 {
            let j = i | (1 << k);
            if j != i {
                let e = segment_segment_closest(p0, p1, &c[i], &c[j]);
                keep_closer(
                    &mut best,
                    &mut best_d,
                    e.point_a,
                    e.point_b,
                    8 + (i * 3 + k) as u32,
                );
            }
        }
    }
    best.filter(|_| best_d > 0.0)
}

/// Disjoint segment and triangle: end points against the triangle, the segment against the edges.
fn segment_triangle(p0: &Point3, p1: &Point3, v: &[Point3; 3]) -> Option<(Point3, Point3, u32)> {
    if segment_crosses_triangle(p0, p1, &v[0], &v[1], &v[2]) {
        return None;
    }
    let (mut best, mut best_d) = (None, Real::INFINITY);
    for (p, c) in [(p0, 1), (p1, 2)] {
        let q = closest_point_on_triangle(p, &v[0], &v[1], &v[2]);
        keep_closer(&mut best, &mut best_d, *p, q, c);
    }
    for k in 0..3 {
        let e = segment_segment_closest(p0, p1, &v[k], &v[(k + 1) % 3]);
        keep_closer(&mut best, &mut best_d, e.point_a, e.point_b, 4 + k as u32);
    }
    best.filter(|_| best_d > 0.0)
}

/// The contact manifold of two rounded cores (see the module docs).
pub(crate) fn manifold(
    a: &Rounded,
    b: &Rounded,
    config: &ContactConfig,
) -> Option<ContactManifold> {
    let margin = config.effective_margin();
    let rsum = a.radius + b.radius;
    if let Some((qa, qb, code)) = closest(&a.core, &b.core) {
        let diff = qb - qa;
        let d = diff.norm();
        if d > 0.0 && d.is_finite() {
            let depth = rsum - d;
            if depth.is_nan() || depth < -margin {
                return None;
            }
            let n = diff / d;
            let mut m = single(n, depth, qa + n * a.radius, qb - n * b.radius, code);
            two_point_capsule(a, b, &mut m, margin);
            return Some(m);
        }
    }
    let (core_depth, n, code) = sat(&a.core, &b.core);
    let depth = core_depth + rsum;
    if depth.is_nan() || depth < -margin {
        return None;
    }
    let fa = a.core.feature(&n);
    let fb = b.core.feature(&-n);
    let mut raw = Raw::new();
    feature_contact(&fa, &fb, &n, margin + rsum, &mut raw);
    if raw.is_empty() {
        return None;
    }
    if raw.len() > 4 {
        reduce(&mut raw, &n);
    }
    let mut points = ArrayVec::<ContactPoint, 4>::new();
    for (pa, pb, d, id) in raw {
        points.push(ContactPoint {
            point_a: pa + n * a.radius,
            point_b: pb - n * b.radius,
            depth: d + rsum,
            id: FeatureId(0x8000_0000 | (code << 12) | id),
        });
    }
    Some(ContactManifold {
        normal: n,
        depth,
        points,
    })
}

/// Points of contact between the supporting features `fa` (of A, extreme along `n`) and `fb` (of
/// B, extreme along `-n`): the smaller feature clipped against the side planes of a face, or the
/// closest points of two edges / vertices. Keeps points of core depth `>= -min_depth`.
///
/// ```text
/// if fa is a face: clip fb's polygon to the prisms over fa's edges (along n);
///                  depth(q) = fa[0].n - q.n, point on A = q + depth n
/// elif fb is a face: the same with the roles exchanged
/// else: closest points of the two segments (a vertex is a segment of length 0)
/// ```
fn feature_contact(fa: &Feature, fb: &Feature, n: &Vector3, min_depth: Real, out: &mut Raw) {
    let keep = |d: Real| d >= -min_depth;
    if fa.len() >= 3 || fb.len() >= 3 {
        let a_ref = fa.len() >= fb.len();
        let (rf, inc) = if a_ref { (fa, fb) } else { (fb, fa) };
        let mut poly = ArrayVec::<(Point3, u32), 8>::new();
        for (k, p) in inc.iter().enumerate() {
            poly.push((*p, k as u32));
        }
        clip_polygon(rf, n, &mut poly);
        let h = rf[0].coords.dot(n);
        for (q, id) in poly {
            let d = if a_ref {
                h - q.coords.dot(n)
            } else {
                q.coords.dot(n) - h
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
    // Edges and vertices: closest points (a face whose clip came out empty is represented by
    // its first edge, which keeps one point for the manifold).
    let seg = |f: &Feature| (f[0], if f.len() >= 2 { f[1] } else { f[0] });
    let (a0, a1) = seg(fa);
    let (b0, b1) = seg(fb);
    let c = segment_segment_closest(&a0, &a1, &b0, &b1);
    let d = (c.point_a - c.point_b).dot(n);
    if keep(d) {
        out.push((c.point_a, c.point_b, d, 0x400));
    }
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
fn reduce(pts: &mut Raw, n: &Vector3) {
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
fn two_point_capsule(a: &Rounded, b: &Rounded, m: &mut ContactManifold, margin: Real) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: Real, y: Real, z: Real) -> Point3 {
        Point3::new(x, y, z)
    }

    #[test]
    fn sphere_inside_box_uses_nearest_face() {
        let b = Rounded::from(&Aabb::new(p(-1.0, -1.0, -1.0), p(1.0, 1.0, 1.0)).unwrap());
        let s = Rounded::from(&Sphere::new(p(0.0, 0.8, 0.1), 0.5).unwrap());
        let m = manifold(&b, &s, &ContactConfig::default()).unwrap();
        assert!((m.normal - Vector3::y()).norm() < 1e-6);
        assert!((m.depth - 0.7).abs() < 1e-5);
    }

    #[test]
    fn capsule_on_box_gets_two_points() {
        let b = Rounded::from(&Aabb::new(p(-2.0, -1.0, -2.0), p(2.0, 0.0, 2.0)).unwrap());
        let c = Rounded::from(&Capsule::new(p(-1.0, 0.45, 0.0), p(1.0, 0.45, 0.0), 0.5).unwrap());
        let m = manifold(&b, &c, &ContactConfig::default()).unwrap();
        assert_eq!(m.points.len(), 2);
        for q in &m.points {
            assert!((q.depth - 0.05).abs() < 1e-5, "{q:?}");
            assert!(q.point_a.y.abs() < 1e-5);
        }
        let m = manifold(&c, &b, &ContactConfig::default()).unwrap();
        assert_eq!(m.points.len(), 2);
        assert!((m.normal + Vector3::y()).norm() < 1e-6);
        for q in &m.points {
            assert!((q.depth - 0.05).abs() < 1e-5, "{q:?}");
            assert!(q.point_b.y.abs() < 1e-5);
        }
    }
}
