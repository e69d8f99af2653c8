//! The 3D convex hull by quickhull (Barber, Dobkin & Huhdanpaa 1996), in `f64`.
//!
//! Written here rather than taken from a crate: the fitting methods need only the hull's
//! vertices, triangles and edges, deterministically and without panics on degenerate input, and
//! a hull that is *approximate* is harmless to them (a point within the tolerance outside a face
//! is treated as inside; the final box is measured on every input point anyway, so containment
//! never depends on the hull). The Rust hull crates either pull a large dependency tree (parry)
//! or are unmaintained.
//!
//! Tolerance: a point is outside a face when its distance exceeds `1e-9 R` (`R` the radius of the
//! centred cloud), far above the `f64` rounding of the plane distances (~1e-15 R); if the
//! construction becomes inconsistent the hull is rebuilt at `1e-7 R`, then `1e-5 R`.
//! Each step: take a face with outside points, its farthest point `e`; find the faces visible
//! from `e` by a search over face neighbours from that face; their boundary (the horizon) is
//! joined to `e` by new faces; the visible faces' outside points go to the first new face they
//! are outside of. If the visible region is not a disc (possible only through the tolerance),
//! the hull is rebuilt at a coarser tolerance, and abandoned after the third try
//! (`HullResult::Failed`; callers then fall back to the points).

use super::eigen::{cross, dot, normalize, sub};
use super::frame::Cloud;
use super::FitError;
use crate::math::Point3;
use std::collections::HashMap;

/// The convex hull of a point set, as indices into the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvexHull {
    /// The dimension of the point set: 0 (one point, up to the tolerance), 1 (collinear),
    /// 2 (coplanar) or 3. Faces are given only for 3.
    pub dimension: usize,
    /// The indices of the hull's vertices, ascending (for dimensions below 3: the extreme points
    /// that were found, not a full boundary).
    pub vertices: Vec<usize>,
    /// The hull's triangles, counter-clockwise seen from outside.
    pub faces: Vec<[usize; 3]>,
}

/// The convex hull of `points` (see the module documentation for the tolerance). Errors on empty
/// or non-finite input. A hull that stayed inconsistent at every tolerance (not seen on the
/// pybullet corpus) comes back with `dimension = 3` and no vertices or faces.
pub fn convex_hull(points: &[Point3]) -> Result<ConvexHull, FitError> {
    let cloud = Cloud::new(points)?;
    Ok(match build(&cloud.x) {
        Built::Solid { faces, vertices } => ConvexHull {
            dimension: 3,
            vertices,
            faces: faces.iter().map(|f| f.map(|i| i as usize)).collect(),
        },
        Built::Degenerate { dimension, extreme } => ConvexHull {
            dimension,
            vertices: extreme,
            faces: Vec::new(),
        },
        Built::Failed => ConvexHull {
            dimension: 3,
            vertices: Vec::new(),
            faces: Vec::new(),
        },
    })
}

/// A solid hull with compact indices.
pub(crate) struct Hull {
    /// The hull's vertices.
    pub(crate) points: Vec<[f64; 3]>,
    /// Triangles over `points`, counter-clockwise from outside.
    pub(crate) faces: Vec<[u32; 3]>,
    /// Unique edges over `points` (`[a, b]`, `a < b`), in first-seen order.
    pub(crate) edges: Vec<[u32; 2]>,
    /// The two faces (indices into `faces`) that share each edge.
    pub(crate) edge_faces: Vec<[u32; 2]>,
}

/// What [`hull_of`] found.
pub(crate) enum HullResult {
    /// A full-dimensional hull.
    Solid(Hull),
    /// Coplanar points: the plane's unit normal.
    Flat([f64; 3]),
    /// Collinear points (or a single point): the line's direction when there is one.
    Line(Option<[f64; 3]>),
    /// The tolerance made the construction inconsistent.
    Failed,
}

/// The hull of centred, scaled points.
pub(crate) fn hull_of(x: &[[f64; 3]]) -> HullResult {
    match build(x) {
        Built::Solid { faces, vertices } => {
            let mut remap = HashMap::with_capacity(vertices.len());
            for (k, &v) in vertices.iter().enumerate() {
                remap.insert(v as u32, k as u32);
            }
            let faces: Vec<[u32; 3]> = faces.iter().map(|f| f.map(|i| remap[&i])).collect();
            let mut seen: HashMap<[u32; 2], usize> = HashMap::new();
            let mut edges = Vec::new();
            let mut edge_faces: Vec<[u32; 2]> = Vec::new();
            for (fi, f) in faces.iter().enumerate() {
                for k in 0..3 {
                    let (a, b) = (f[k], f[(k + 1) % 3]);
                    let e = [a.min(b), a.max(b)];
                    match seen.get(&e) {
                        Some(&id) => edge_faces[id] = [edge_faces[id][0], fi as u32],
                        None => {
                            seen.insert(e, edges.len());
                            edges.push(e);
                            edge_faces.push([fi as u32, u32::MAX]);
                        }
                    }
                }
            }
            if edge_faces.iter().any(|f| f[1] == u32::MAX) {
                return HullResult::Failed; // not a closed surface
            }
            HullResult::Solid(Hull {
                points: vertices.iter().map(|&i| x[i]).collect(),
                faces,
                edges,
                edge_faces,
            })
        }
        Built::Degenerate { dimension, extreme } => match dimension {
            2 => {
                let [a, b, c] = [extreme[0], extreme[1], extreme[2]].map(|i| x[i]);
                match normalize(&cross(&sub(&b, &a), &sub(&c, &a))) {
                    Some(n) => HullResult::Flat(n),
                    None => HullResult::Failed,
                }
            }
            1 => HullResult::Line(normalize(&sub(&x[extreme[1]], &x[extreme[0]]))),
            _ => HullResult::Line(None),
        },
        Built::Failed => HullResult::Failed,
    }
}

enum Built {
    Solid {
        faces: Vec<[u32; 3]>,
        vertices: Vec<usize>,
    },
    Degenerate {
        dimension: usize,
        extreme: Vec<usize>,
    },
    Failed,
}

struct Face {
    v: [u32; 3],
    n: [f64; 3],
    d: f64,
    /// Neighbour across edge v[k] -> v[k+1].
    nb: [u32; 3],
    outside: Vec<u32>,
    alive: bool,
}

impl Face {
    fn new(v: [u32; 3], x: &[[f64; 3]]) -> Face {
        let [a, b, c] = v.map(|i| x[i as usize]);
        let n = normalize(&cross(&sub(&b, &a), &sub(&c, &a))).unwrap_or([0.0; 3]);
        Face {
            v,
            n,
            d: dot(&n, &a),
            nb: [u32::MAX; 3],
            outside: Vec::new(),
            alive: true,
        }
    }

    fn dist(&self, p: &[f64; 3]) -> f64 {
        dot(&self.n, p) - self.d
    }
}

/// The hull at the relative tolerance `1e-9`, retried at `1e-7` and `1e-5` if the construction
/// became inconsistent (a coarser tolerance merges the nearly coplanar points that caused it).
fn build(x: &[[f64; 3]]) -> Built {
    for rel in [1e-9, 1e-7, 1e-5] {
        match build_with(x, rel) {
            Built::Failed => continue,
            done => return done,
        }
    }
    Built::Failed
}

fn build_with(x: &[[f64; 3]], rel: f64) -> Built {
    let n = x.len();
    let r = x.iter().map(|p| dot(p, p)).fold(0.0, f64::max).sqrt();
    let eps = rel * r;
    // Extreme points along the axes; the farthest pair of them.
    let mut ext = [0usize; 6];
    for (i, p) in x.iter().enumerate() {
        for k in 0..3 {
            if p[k] < x[ext[2 * k]][k] {
                ext[2 * k] = i;
            }
            if p[k] > x[ext[2 * k + 1]][k] {
                ext[2 * k + 1] = i;
            }
        }
    }
    let mut best = (0usize, 0usize, -1.0);
    for i in 0..6 {
        for j in i + 1..6 {
            let d = sub(&x[ext[i]], &x[ext[j]]);
            let d2 = dot(&d, &d);
            if d2 > best.2 {
                best = (ext[i], ext[j], d2);
            }
        }
    }
    let (i0, i1) = (best.0, best.1);
    if best.2.sqrt() <= eps {
        return Built::Degenerate {
            dimension: 0,
            extreme: vec![i0],
        };
    }
    let dir = normalize(&sub(&x[i1], &x[i0])).unwrap_or([1.0, 0.0, 0.0]);
    let (mut i2, mut far) = (i0, -1.0);
    for (i, p) in x.iter().enumerate() {
        let c = cross(&dir, &sub(p, &x[i0]));
        let d2 = dot(&c, &c);
        if d2 > far {
            (i2, far) = (i, d2);
        }
    }
    if far.sqrt() <= eps {
        return Built::Degenerate {
            dimension: 1,
            extreme: vec![i0, i1],
        };
    }
    let base = Face::new([i0 as u32, i1 as u32, i2 as u32], x);
    let (mut i3, mut far) = (i0, -1.0);
    for (i, p) in x.iter().enumerate() {
        let d = base.dist(p).abs();
        if d > far {
            (i3, far) = (i, d);
        }
    }
    if far <= eps {
        return Built::Degenerate {
            dimension: 2,
            extreme: vec![i0, i1, i2],
        };
    }
    // The tetrahedron, oriented so that every face has the fourth vertex behind it.
    let (i0, mut i1, mut i2, i3) = (i0 as u32, i1 as u32, i2 as u32, i3 as u32);
    if base.dist(&x[i3 as usize]) > 0.0 {
        std::mem::swap(&mut i1, &mut i2);
    }
    let mut faces: Vec<Face> = [[i0, i1, i2], [i0, i3, i1], [i1, i3, i2], [i2, i3, i0]]
        .iter()
        .map(|v| Face::new(*v, x))
        .collect();
    link_all(&mut faces);
    for i in 0..n as u32 {
        if [i0, i1, i2, i3].contains(&i) {
            continue;
        }
        for f in faces.iter_mut() {
            if f.dist(&x[i as usize]) > eps {
                f.outside.push(i);
                break;
            }
        }
    }
    let mut stack: Vec<u32> = (0..4)
        .filter(|&f| !faces[f].outside.is_empty())
        .map(|f| f as u32)
        .collect();
    let mut visible: Vec<u32> = Vec::new();
    let mut horizon: Vec<(u32, u32, u32)> = Vec::new();
    let mut mark: Vec<bool> = vec![false; 4];
    while let Some(fi) = stack.pop() {
        let f = &faces[fi as usize];
        if !f.alive || f.outside.is_empty() {
            continue;
        }
        // The farthest outside point (the first on ties).
        let mut eye = f.outside[0];
        let mut best = f.dist(&x[eye as usize]);
        for &p in &f.outside[1..] {
            let d = f.dist(&x[p as usize]);
            if d > best {
                (eye, best) = (p, d);
            }
        }
        let e = x[eye as usize];
        // Visible faces: a search over neighbours from fi.
        visible.clear();
        horizon.clear();
        mark.resize(faces.len(), false);
        mark[fi as usize] = true;
        visible.push(fi);
        let mut k = 0;
        while k < visible.len() {
            let g = visible[k] as usize;
            k += 1;
            for s in 0..3 {
                let h = faces[g].nb[s];
                if h == u32::MAX {
                    return Built::Failed;
                }
                if mark[h as usize] {
                    continue;
                }
                if faces[h as usize].dist(&e) > eps {
                    mark[h as usize] = true;
                    visible.push(h);
                }
            }
        }
        for &g in &visible {
            let fg = &faces[g as usize];
            for s in 0..3 {
                let h = fg.nb[s];
                if !mark[h as usize] {
                    horizon.push((fg.v[s], fg.v[(s + 1) % 3], h));
                }
            }
        }
        // The horizon must be one simple cycle: each vertex starts and ends exactly one edge.
        let mut by_start: HashMap<u32, u32> = HashMap::with_capacity(horizon.len());
        let mut by_end: HashMap<u32, u32> = HashMap::with_capacity(horizon.len());
        let first_new = faces.len() as u32;
        for (j, &(a, b, _)) in horizon.iter().enumerate() {
            if by_start.insert(a, first_new + j as u32).is_some()
                || by_end.insert(b, first_new + j as u32).is_some()
                || a == eye
                || b == eye
            {
                return Built::Failed;
            }
        }
        for &(a, b, outer) in &horizon {
            let mut nf = Face::new([a, b, eye], x);
            let (Some(&next), Some(&prev)) = (by_start.get(&b), by_end.get(&a)) else {
                return Built::Failed;
            };
            nf.nb = [outer, next, prev];
            let id = faces.len() as u32;
            let of = &mut faces[outer as usize];
            match (0..3).find(|&s| of.v[s] == b && of.v[(s + 1) % 3] == a) {
                Some(s) => of.nb[s] = id,
                None => return Built::Failed,
            }
            faces.push(nf);
        }
        mark.resize(faces.len(), false);
        // Reassign the visible faces' outside points.
        let mut orphans: Vec<u32> = Vec::new();
        for &g in &visible {
            let fg = &mut faces[g as usize];
            fg.alive = false;
            orphans.append(&mut fg.outside);
        }
        for p in orphans {
            if p == eye {
                continue;
            }
            let xp = x[p as usize];
            for f in faces[first_new as usize..].iter_mut() {
                if f.dist(&xp) > eps {
                    f.outside.push(p);
                    break;
                }
            }
        }
        for &g in &visible {
            mark[g as usize] = false;
        }
        for id in first_new..faces.len() as u32 {
            if !faces[id as usize].outside.is_empty() {
                stack.push(id);
            }
        }
    }
    let out: Vec<[u32; 3]> = faces.iter().filter(|f| f.alive).map(|f| f.v).collect();
    let mut vertices: Vec<usize> = out.iter().flatten().map(|&i| i as usize).collect();
    vertices.sort_unstable();
    vertices.dedup();
    Built::Solid {
        faces: out,
        vertices,
    }
}

/// Neighbour links of the initial tetrahedron by matching opposite edges.
fn link_all(faces: &mut [Face]) {
    for i in 0..faces.len() {
        for s in 0..3 {
            let (a, b) = (faces[i].v[s], faces[i].v[(s + 1) % 3]);
            for j in 0..faces.len() {
                if j != i && (0..3).any(|t| faces[j].v[t] == b && faces[j].v[(t + 1) % 3] == a) {
                    faces[i].nb[s] = j as u32;
                }
            }
        }
    }
}
