//! DiTO-14 (Larsson & Källberg, "Fast Computation of Tight-Fitting Oriented Bounding Boxes",
//! Game Engine Gems 2, 2011).
//!
//! 1. Project every point on 7 fixed directions (the axes and the four cube diagonals) and
//!    keep the 14 extremal points.
//! 2. The extremal pair farthest apart gives a first edge; the extremal point farthest from its
//!    line completes a large triangle; the extremal points farthest above and below the
//!    triangle's plane make a ditetrahedron with up to 7 triangles.
//! 3. Every triangle gives three candidate frames (each edge, the triangle's normal, their
//!    cross); the frame whose box of the 14 extremal points has the least surface area wins.
//! 4. Additions here: the extremal points along 49 more directions (every primitive integer
//!    direction with coordinates in {0, ±1, ±2}) sample the hull; the DiTO, PCA and world frames
//!    are each improved by [`super::refine()`]'s rotations on that sample, the best of them on the
//!    sample is kept, and finally it is compared with the unrefined DiTO, PCA and world-axis
//!    frames on *all* points: the smallest volume wins, so the method is never looser than PCA
//!    or the AABB.

use super::eigen::{cross, dot, normalize, sub};
use super::frame::{extents, orthonormal, volume, IDENTITY};
use super::pca::pca_axes;
use super::refine::refine_axes;

/// Every primitive direction with coordinates in {0, ±1, ±2}, one of each ± pair.
fn sample_dirs() -> Vec<[f64; 3]> {
    let mut dirs = Vec::with_capacity(49);
    for a in -2i32..=2 {
        for b in -2i32..=2 {
            for c in -2i32..=2 {
                let first = [a, b, c].into_iter().find(|&v| v != 0);
                let primitive = [a, b, c].iter().any(|v| v.abs() == 1);
                if first.is_some_and(|f| f > 0) && primitive {
                    dirs.push([a as f64, b as f64, c as f64]);
                }
            }
        }
    }
    dirs
}

const DIRS: [[f64; 3]; 7] = [
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 1.0, 1.0],
    [1.0, 1.0, -1.0],
    [1.0, -1.0, 1.0],
    [1.0, -1.0, -1.0],
];

/// The DiTO frame (rows), finished by the best of DiTO, PCA and world axes on all points.
pub(crate) fn dito_axes(x: &[[f64; 3]]) -> [[f64; 3]; 3] {
    let d = dito_only(x);
    let pca = pca_axes(x);
    // The hull sample: extremal points along the 49 directions.
    let dirs = sample_dirs();
    let mut ext = vec![(0usize, f64::INFINITY, 0usize, f64::NEG_INFINITY); dirs.len()];
    for (i, p) in x.iter().enumerate() {
        for (k, dk) in dirs.iter().enumerate() {
            let q = dot(dk, p);
            if q < ext[k].1 {
                (ext[k].0, ext[k].1) = (i, q);
            }
            if q > ext[k].3 {
                (ext[k].2, ext[k].3) = (i, q);
            }
        }
    }
    let mut idx: Vec<usize> = ext.iter().flat_map(|e| [e.0, e.2]).collect();
    idx.sort_unstable();
    idx.dedup();
    let sample: Vec<[f64; 3]> = idx.iter().map(|&i| x[i]).collect();
    let mut refined = (d, f64::INFINITY);
    for start in [d, pca, IDENTITY] {
        let r = refine_axes(&sample, &start);
        let v = volume(&sample, &r);
        if v < refined.1 {
            refined = (r, v);
        }
    }
    let mut best = (refined.0, volume(x, &refined.0));
    for cand in [d, pca, IDENTITY] {
        let v = volume(x, &cand);
        if v < best.1 {
            best = (cand, v);
        }
    }
    best.0
}

/// DiTO-14 alone.
pub(crate) fn dito_only(x: &[[f64; 3]]) -> [[f64; 3]; 3] {
    let mut lo_i = [0usize; 7];
    let mut hi_i = [0usize; 7];
    let mut lo_v = [f64::INFINITY; 7];
    let mut hi_v = [f64::NEG_INFINITY; 7];
    for (i, p) in x.iter().enumerate() {
        for k in 0..7 {
            let q = dot(&DIRS[k], p);
            if q < lo_v[k] {
                (lo_v[k], lo_i[k]) = (q, i);
            }
            if q > hi_v[k] {
                (hi_v[k], hi_i[k]) = (q, i);
            }
        }
    }
    let ext: Vec<[f64; 3]> = (0..7).flat_map(|k| [x[lo_i[k]], x[hi_i[k]]]).collect();
    // The farthest extremal pair.
    let mut p0 = ext[0];
    let mut p1 = ext[1];
    let mut far = -1.0;
    for k in 0..7 {
        let d = sub(&x[hi_i[k]], &x[lo_i[k]]);
        let d2 = dot(&d, &d);
        if d2 > far {
            (p0, p1, far) = (x[lo_i[k]], x[hi_i[k]], d2);
        }
    }
    let Some(e0) = normalize(&sub(&p1, &p0)) else {
        return IDENTITY; // all points coincide
    };
    // The extremal point farthest from the line p0 p1.
    let mut p2 = p0;
    let mut far = -1.0;
    for q in &ext {
        let c = cross(&e0, &sub(q, &p0));
        let d2 = dot(&c, &c);
        if d2 > far {
            (p2, far) = (*q, d2);
        }
    }
    let mut best: Option<([[f64; 3]; 3], f64)> = None;
    let mut consider = |axes: Option<[[f64; 3]; 3]>| {
        let Some(axes) = axes else { return };
        let (lo, hi, _) = extents(&ext, &axes);
        let (a, b, c) = (hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
        let area = a * b + b * c + c * a;
        if best.is_none_or(|(_, q)| area < q) {
            best = Some((axes, area));
        }
    };
    let Some(n) = normalize(&cross(&sub(&p1, &p0), &sub(&p2, &p0))) else {
        // Collinear extremal points: the line's direction and any completion.
        let other = if e0[0].abs() < 0.6 {
            [1.0, 0.0, 0.0]
        } else {
            [0.0, 1.0, 0.0]
        };
        return orthonormal(&[e0, other, [0.0; 3]]).unwrap_or(IDENTITY);
    };
    triangle_frames(&p0, &p1, &p2, &n, &mut consider);
    // The ditetrahedron: the extremal points farthest above and below the plane.
    let (mut above, mut below) = ((p0, 0.0), (p0, 0.0));
    for q in &ext {
        let h = dot(&n, &sub(q, &p0));
        if h > above.1 {
            above = (*q, h);
        }
        if h < below.1 {
            below = (*q, h);
        }
    }
    for (apex, h) in [above, below] {
        if h != 0.0 {
            for (a, b) in [(p0, p1), (p1, p2), (p2, p0)] {
                if let Some(m) = normalize(&cross(&sub(&b, &a), &sub(&apex, &a))) {
                    triangle_frames(&a, &b, &apex, &m, &mut consider);
                }
            }
        }
    }
    best.map_or(IDENTITY, |(a, _)| a)
}

/// The three frames of a triangle: each edge, the normal `n`, and their cross.
fn triangle_frames(
    a: &[f64; 3],
    b: &[f64; 3],
    c: &[f64; 3],
    n: &[f64; 3],
    consider: &mut impl FnMut(Option<[[f64; 3]; 3]>),
) {
    for (p, q) in [(a, b), (b, c), (c, a)] {
        let frame = normalize(&sub(q, p)).and_then(|e| orthonormal(&[e, *n, cross(&e, n)]));
        consider(frame);
    }
}
