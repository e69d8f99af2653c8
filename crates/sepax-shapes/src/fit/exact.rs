//! The minimum-volume box of a point set, over the convex hull.
//!
//! O'Rourke ("Finding minimal enclosing boxes", 1985) showed that a minimum-volume box has two
//! adjacent faces each flush with an edge of the hull. Two families are searched:
//!
//! 1. A box face flush with a hull face: for each face normal `n`, the best box with a face
//!    normal to `n` is the minimum-area rectangle of the hull's vertices projected on the plane
//!    normal to `n` (rotating calipers, exact for that family) times the extent along `n`. For
//!    hulls of at most 200 edges the planes spanned by every pair of hull edges are tried too.
//! 2. Two adjacent box faces flush with two hull edges and no hull face (`two_edge_search`):
//!    a one-parameter family per edge pair, minimised numerically (as Eberly's implementation
//!    does); skipped for hulls of more than 6,000 edges.
//!
//! The best candidate is finished by [`super::refine()`]. Checked against
//! [`brute_force_edge_pairs`] (every plane spanned by two hull edges) and against refined random
//! orientations (`tests/suite/fit_boxes.rs`); it is a careful search, not a proof of the optimum: the
//! second family's minimisation is numerical.

use super::eigen::{cross, dot, normalize, sub};
use super::frame::{orthonormal, Cloud, IDENTITY};
use super::hull::{hull_of, HullResult};
use super::rect2::min_rect;
use super::refine::refine_axes;
use super::FitError;
use crate::math::Point3;
use crate::shape::Obb;

/// The face-flush minimum, refined (rows).
pub(crate) fn exact_axes(x: &[[f64; 3]]) -> [[f64; 3]; 3] {
    match hull_of(x) {
        HullResult::Solid(h) => {
            let mut normals: Vec<[f64; 3]> = h
                .faces
                .iter()
                .filter_map(|f| {
                    let [a, b, c] = f.map(|i| h.points[i as usize]);
                    normalize(&cross(&sub(&b, &a), &sub(&c, &a)))
                })
                .collect();
            if h.edges.len() <= EDGE_PAIR_LIMIT {
                normals.extend(edge_pair_normals(&h));
            }
            let best = best_flush(&h.points, normals.into_iter()).unwrap_or(IDENTITY);
            let best = if h.edges.len() <= TWO_EDGE_LIMIT {
                two_edge_search(&h, best)
            } else {
                best
            };
            refine_axes(&h.points, &best)
        }
        other => degenerate_axes(x, other),
    }
}

/// O'Rourke's other family: two adjacent box faces (normals `n1 ⊥ n2`) flush with two hull edges
/// `e_i`, `e_j`. For `n1` to touch `e_i` it must lie on the arc of the Gauss map between the normals
/// `f1`, `f2` of the faces at `e_i`: `n1(t) ∝ (1 − t) f1 + t f2`, `t ∈ [0, 1]`. Then
/// `n2 = ±unit(n1 × e_j)`, which must lie on `e_j`'s arc (between `g1`, `g2`): both conditions
/// are linear in `t` (`(g1 × m(t)) · (g1 × g2) >= 0` and `(m(t) × g2) · (g1 × g2) >= 0` with
/// `m(t) = n1(t) × e_j`), so the feasible `t` form an interval, found exactly. At its ends one
/// box face is flush with a hull face (already covered); inside, the volume is minimised
/// numerically (5 samples, then golden-section search around the best), as in Eberly's
/// implementation of this search. Returns the better of `start` and the best box found.
fn two_edge_search(h: &super::hull::Hull, start: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let pts = &h.points;
    let face_n: Vec<[f64; 3]> = h
        .faces
        .iter()
        .map(|f| {
            let [a, b, c] = f.map(|i| pts[i as usize]);
            normalize(&cross(&sub(&b, &a), &sub(&c, &a))).unwrap_or([0.0; 3])
        })
        .collect();
    // Per edge: its direction and the two face normals, when they make a proper arc.
    let arcs: Vec<Option<Arc>> = h
        .edges
        .iter()
        .zip(&h.edge_faces)
        .map(|(e, f)| {
            let d = normalize(&sub(&pts[e[1] as usize], &pts[e[0] as usize]))?;
            let (f1, f2) = (face_n[f[0] as usize], face_n[f[1] as usize]);
            let c = cross(&f1, &f2);
            (dot(&c, &c) > 1e-20).then_some((d, f1, f2, pts[e[0] as usize]))
        })
        .collect();
    let mut best = (start, super::frame::volume(pts, &start));
    let frame = |f1: &[f64; 3], f2: &[f64; 3], dj: &[f64; 3], sign: f64, t: f64| {
        let n1 = normalize(&[0, 1, 2].map(|k| (1.0 - t) * f1[k] + t * f2[k]))?;
        let n2 = normalize(&cross(&n1, dj))?.map(|v| sign * v);
        Some([n1, n2, cross(&n1, &n2)])
    };
    let mut climber = Climber::new(h);
    // On the feasible interval, e_i is the support of n1 and e_j that of n2: those two sides
    // are known, four support queries remain.
    let mut vol = |axes: Option<[[f64; 3]; 3]>, pi: &[f64; 3], pj: &[f64; 3]| {
        axes.map_or(f64::INFINITY, |a| {
            climber.volume(&a, [Some(dot(&a[0], pi)), Some(dot(&a[1], pj)), None])
        })
    };
    for (i, arc_i) in arcs.iter().enumerate() {
        let Some((_, f1, f2, pi)) = arc_i else {
            continue;
        };
        for arc_j in &arcs[i + 1..] {
            let Some((dj, g1, g2, pj)) = arc_j else {
                continue;
            };
            let c = cross(g1, g2);
            let (m0, m1) = (cross(f1, dj), cross(f2, dj));
            let a = [dot(&cross(g1, &m0), &c), dot(&cross(g1, &m1), &c)];
            let b = [dot(&cross(&m0, g2), &c), dot(&cross(&m1, g2), &c)];
            for sign in [1.0, -1.0] {
                let Some((lo, hi)) = feasible(sign, &a, &b) else {
                    continue;
                };
                if hi - lo <= 1e-9 {
                    continue;
                }
                // Samples, then golden-section search around the best one.
                const K: usize = 4;
                let mut bi = 0;
                let mut bv = f64::INFINITY;
                for s in 0..=K {
                    let t = lo + (hi - lo) * s as f64 / K as f64;
                    let v = vol(frame(f1, f2, dj, sign, t), pi, pj);
                    if v < bv {
                        (bi, bv) = (s, v);
                    }
                }
                let step = (hi - lo) / K as f64;
                let (mut x0, mut x1) = (
                    (lo + step * bi as f64 - step).max(lo),
                    (lo + step * bi as f64 + step).min(hi),
                );
                let g = 0.5 * (5f64.sqrt() - 1.0);
                let (mut p, mut q) = (x1 - g * (x1 - x0), x0 + g * (x1 - x0));
                let (mut vp, mut vq) = (
                    vol(frame(f1, f2, dj, sign, p), pi, pj),
                    vol(frame(f1, f2, dj, sign, q), pi, pj),
                );
                for _ in 0..16 {
                    if vp <= vq {
                        x1 = q;
                        (q, vq) = (p, vp);
                        p = x1 - g * (x1 - x0);
                        vp = vol(frame(f1, f2, dj, sign, p), pi, pj);
                    } else {
                        x0 = p;
                        (p, vp) = (q, vq);
                        q = x0 + g * (x1 - x0);
                        vq = vol(frame(f1, f2, dj, sign, q), pi, pj);
                    }
                }
                for (t, v) in [(p, vp), (q, vq), (lo + step * bi as f64, bv)] {
                    if v < best.1 {
                        // The hull is convex only up to its tolerance, so a climb may stop short
                        // and under-estimate a width: confirm by a full scan before accepting.
                        if let Some(axes) = frame(f1, f2, dj, sign, t) {
                            let scanned = super::frame::volume(pts, &axes);
                            if scanned < best.1 {
                                best = (axes, scanned);
                            }
                        }
                    }
                }
            }
        }
    }
    best.0
}

/// An edge's direction, the normals of its two faces, and one of its end points.
type Arc = ([f64; 3], [f64; 3], [f64; 3], [f64; 3]);

/// Support queries on the hull by hill climbing over its vertex graph, warm-started from the
/// previous answers: on a convex polytope a vertex with no better neighbour is the extreme one,
/// and consecutive queries of the search ask for nearby directions, so each takes a few steps
/// instead of a scan of every vertex.
struct Climber<'a> {
    pts: &'a [[f64; 3]],
    /// Neighbours of vertex `v`: `adj[start[v]..start[v + 1]]`.
    start: Vec<u32>,
    adj: Vec<u32>,
    warm: [u32; 6],
}

impl<'a> Climber<'a> {
    fn new(h: &'a super::hull::Hull) -> Self {
        let n = h.points.len();
        let mut deg = vec![0u32; n + 1];
        for e in &h.edges {
            deg[e[0] as usize] += 1;
            deg[e[1] as usize] += 1;
        }
        let mut start = vec![0u32; n + 1];
        for v in 0..n {
            start[v + 1] = start[v] + deg[v];
        }
        let mut fill = start.clone();
        let mut adj = vec![0u32; 2 * h.edges.len()];
        for e in &h.edges {
            for (a, b) in [(e[0], e[1]), (e[1], e[0])] {
                adj[fill[a as usize] as usize] = b;
                fill[a as usize] += 1;
            }
        }
        Self {
            pts: &h.points,
            start,
            adj,
            warm: [0; 6],
        }
    }

    /// The vertex with the largest `sign · n · p`, from `from`.
    fn climb(&self, n: &[f64; 3], sign: f64, from: u32) -> (u32, f64) {
        let mut v = from;
        let mut best = sign * dot(n, &self.pts[v as usize]);
        loop {
            let mut moved = false;
            let (a, b) = (self.start[v as usize], self.start[v as usize + 1]);
            for &u in &self.adj[a as usize..b as usize] {
                let d = sign * dot(n, &self.pts[u as usize]);
                if d > best {
                    (best, v, moved) = (d, u, true);
                }
            }
            if !moved {
                return (v, sign * best);
            }
        }
    }

    /// The volume of the hull's box along `axes`, with the upper sides given where known.
    fn volume(&mut self, axes: &[[f64; 3]; 3], known_hi: [Option<f64>; 3]) -> f64 {
        let mut vol = 1.0;
        for k in 0..3 {
            let (hi_v, hi) = match known_hi[k] {
                Some(hi) => (self.warm[2 * k], hi),
                None => self.climb(&axes[k], 1.0, self.warm[2 * k]),
            };
            let (lo_v, lo) = self.climb(&axes[k], -1.0, self.warm[2 * k + 1]);
            self.warm[2 * k] = hi_v;
            self.warm[2 * k + 1] = lo_v;
            vol *= hi - lo;
        }
        vol
    }
}

/// The interval of `t ∈ [0, 1]` where `sign·((1 − t) a0 + t a1) >= 0` and the same for `b`.
fn feasible(sign: f64, a: &[f64; 2], b: &[f64; 2]) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for w in [a, b] {
        let (w0, w1) = (sign * w[0], sign * w[1]);
        if w0 >= 0.0 && w1 >= 0.0 {
            continue;
        }
        if w0 < 0.0 && w1 < 0.0 {
            return None;
        }
        let root = w0 / (w0 - w1); // where the linear function crosses zero
        if w0 < 0.0 {
            lo = lo.max(root);
        } else {
            hi = hi.min(root);
        }
    }
    (lo <= hi).then_some((lo, hi))
}

/// Hulls with more edges skip the two-edge search (its cost grows with the square of the edge
/// count: about 0.6 s at 2,000 edges); they keep the face-flush minimum and the refinement.
const TWO_EDGE_LIMIT: usize = 6000;

/// Hulls with at most this many edges also try every plane spanned by two edges (up to ~20,000
/// directions), which covers boxes with a face flush with two hull edges that share no hull face.
const EDGE_PAIR_LIMIT: usize = 200;

/// The unit normals `a x b` of every pair of hull edge directions.
fn edge_pair_normals(h: &super::hull::Hull) -> Vec<[f64; 3]> {
    let dirs: Vec<[f64; 3]> = h
        .edges
        .iter()
        .filter_map(|e| normalize(&sub(&h.points[e[1] as usize], &h.points[e[0] as usize])))
        .collect();
    let mut normals = Vec::new();
    for i in 0..dirs.len() {
        for j in i + 1..dirs.len() {
            if let Some(n) = normalize(&cross(&dirs[i], &dirs[j])) {
                normals.push(n);
            }
        }
    }
    normals
}

/// The best box with a face normal to one of the directions `a x b` over every pair of hull
/// edges `(a, b)`, and every hull face normal: a brute-force reference for [`super::Method::Exact`]
/// on small inputs (`O(E² H log H)` for `E` hull edges and `H` hull vertices). Contains every point
/// exactly, like every fitted box.
pub fn brute_force_edge_pairs(points: &[Point3]) -> Result<Obb, FitError> {
    let cloud = Cloud::new(points)?;
    let axes = match hull_of(&cloud.x) {
        HullResult::Solid(h) => {
            best_flush(&h.points, edge_pair_normals(&h).into_iter()).unwrap_or(IDENTITY)
        }
        other => degenerate_axes(&cloud.x, other),
    };
    cloud.obb(&axes)
}

/// Flat and collinear inputs: the plane's normal with the best rectangle in the plane, or the
/// line's direction.
fn degenerate_axes(x: &[[f64; 3]], kind: HullResult) -> [[f64; 3]; 3] {
    match kind {
        HullResult::Flat(n) => best_flush(x, std::iter::once(n)).unwrap_or(IDENTITY),
        HullResult::Line(Some(d)) => {
            let other = if d[0].abs() < 0.6 {
                [1.0, 0.0, 0.0]
            } else {
                [0.0, 1.0, 0.0]
            };
            orthonormal(&[d, other, [0.0; 3]]).unwrap_or(IDENTITY)
        }
        HullResult::Line(None) => IDENTITY,
        HullResult::Failed | HullResult::Solid(_) => refine_axes(x, &super::dito::dito_axes(x)),
    }
}

/// The smallest box with a face normal to one of `normals` (each the best rectangle in its
/// plane), with its volume.
fn best_flush(pts: &[[f64; 3]], normals: impl Iterator<Item = [f64; 3]>) -> Option<[[f64; 3]; 3]> {
    let mut best: Option<([[f64; 3]; 3], f64)> = None;
    let mut scratch: Vec<[f64; 2]> = Vec::with_capacity(pts.len());
    for n in normals {
        let helper = if n[0].abs() < 0.6 {
            [1.0, 0.0, 0.0]
        } else {
            [0.0, 1.0, 0.0]
        };
        let Some(frame) = orthonormal(&[n, helper, [0.0; 3]]) else {
            continue;
        };
        let (e1, e2) = (frame[1], frame[2]);
        scratch.clear();
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in pts {
            scratch.push([dot(&e1, p), dot(&e2, p)]);
            let h = dot(&n, p);
            lo = lo.min(h);
            hi = hi.max(h);
        }
        let (u, area) = min_rect(&mut scratch);
        let vol = area * (hi - lo);
        if best.as_ref().is_none_or(|(_, v)| vol < *v) {
            let a1 = [0, 1, 2].map(|k| u[0] * e1[k] + u[1] * e2[k]);
            if let Some(axes) = orthonormal(&[n, a1, cross(&n, &a1)]) {
                best = Some((axes, vol));
            }
        }
    }
    best.map(|(a, _)| a)
}
