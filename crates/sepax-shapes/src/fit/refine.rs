//! Local refinement of a box: coordinate descent over the three rotation angles, each solved
//! exactly. Keeping axis `a_j` fixed, the best rotation about it is the minimum-area rectangle
//! of the points projected on the plane normal to `a_j` (rotating calipers), which makes the
//! volume (that area times the extent along `a_j`) no larger. Cycling `j` until no step gains
//! more than a relative `1e-12` gives a box that no single-axis rotation improves.

use super::eigen::{cross, dot};
use super::frame::{orthonormal, volume, Cloud};
use super::hull::{hull_of, HullResult};
use super::rect2::min_rect;
use super::FitError;
use crate::math::Point3;
use crate::shape::Obb;

/// The box `start` improved by rotations about its own axes (see the module documentation),
/// measured on `points`, which it contains exactly. Never looser than a box with the start's
/// axes fitted to the points.
pub fn refine(points: &[Point3], start: &Obb) -> Result<Obb, FitError> {
    let cloud = Cloud::new(points)?;
    let a = start.axes();
    let axes = [0, 1, 2].map(|k| [0, 1, 2].map(|j| a[(j, k)] as f64));
    let axes = orthonormal(&axes).unwrap_or(super::frame::IDENTITY);
    let support = match hull_of(&cloud.x) {
        HullResult::Solid(h) => h.points,
        _ => cloud.x.clone(),
    };
    cloud.obb(&refine_axes(&support, &axes))
}

/// Refines `axes` (rows, orthonormal) on the points `x`.
pub(crate) fn refine_axes(x: &[[f64; 3]], axes: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let mut best = *axes;
    let mut best_vol = volume(x, &best);
    let mut scratch: Vec<[f64; 2]> = Vec::with_capacity(x.len());
    for _round in 0..8 {
        let mut improved = false;
        for j in 0..3 {
            let n = best[j];
            let (e1, e2) = (best[(j + 1) % 3], best[(j + 2) % 3]);
            scratch.clear();
            scratch.extend(x.iter().map(|p| [dot(&e1, p), dot(&e2, p)]));
            let (u, _) = min_rect(&mut scratch);
            let a1 = [0, 1, 2].map(|k| u[0] * e1[k] + u[1] * e2[k]);
            let cand = orthonormal(&[n, a1, cross(&n, &a1)]);
            let Some(cand) = cand else { continue };
            let v = volume(x, &cand);
            if v < best_vol * (1.0 - 1e-12) {
                best = cand;
                best_vol = v;
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
    best
}
