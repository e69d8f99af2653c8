//! The minimum-area enclosing rectangle in 2D by rotating calipers (Toussaint 1983): the
//! optimal rectangle has a side flush with an edge of the convex hull (Freeman & Shapira 1975),
//! so it is enough to try each hull edge, with three calipers (farthest along the edge, both
//! ways, and farthest from it) that only ever advance: `O(h)` after the `O(n log n)` hull.

use super::frame::Cloud;
use super::FitError;
use crate::math::{Matrix2, Point2, Point3, Vector2};
use crate::shape::Obb2;

/// The minimum-area rectangle containing `points`, which it contains exactly (see
/// [`super::frame`] for how the rounding is accounted for). Deterministic; collinear input gives
/// a zero-width rectangle, a single point a zero-size one.
pub fn min_area_rect(points: &[Point2]) -> Result<Obb2, FitError> {
    let lifted: Vec<Point3> = points.iter().map(|p| Point3::new(p.x, p.y, 0.0)).collect();
    let cloud = Cloud::new(&lifted)?;
    let mut xy: Vec<[f64; 2]> = cloud.x.iter().map(|p| [p[0], p[1]]).collect();
    let (u, _) = min_rect(&mut xy);
    let axes = [[u[0], u[1], 0.0], [-u[1], u[0], 0.0], [0.0, 0.0, 1.0]];
    let b = cloud.obb(&axes)?;
    let a = b.axes();
    let h = b.half_extents();
    let c = b.center();
    Obb2::new(
        Point2::new(c.x, c.y),
        Matrix2::new(a[(0, 0)], a[(0, 1)], a[(1, 0)], a[(1, 1)]),
        Vector2::new(h.x, h.y),
    )
    .map_err(|_| FitError::Overflow)
}

fn cross2(o: &[f64; 2], a: &[f64; 2], b: &[f64; 2]) -> f64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

/// The convex hull of `pts` (sorted in place), counter-clockwise, without collinear points
/// (Andrew's monotone chain).
pub(crate) fn hull2(pts: &mut [[f64; 2]]) -> Vec<[f64; 2]> {
    pts.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    let mut h: Vec<[f64; 2]> = Vec::with_capacity(pts.len() + 1);
    for p in pts.iter() {
        while h.len() >= 2 && cross2(&h[h.len() - 2], &h[h.len() - 1], p) <= 0.0 {
            h.pop();
        }
        h.push(*p);
    }
    let lower = h.len() + 1;
    for p in pts.iter().rev().skip(1) {
        while h.len() >= lower && cross2(&h[h.len() - 2], &h[h.len() - 1], p) <= 0.0 {
            h.pop();
        }
        h.push(*p);
    }
    h.pop();
    if h.is_empty() {
        h.extend(pts.first().copied());
    }
    h
}

/// The direction `u` of the minimum-area rectangle's first side and its area.
pub(crate) fn min_rect(pts: &mut [[f64; 2]]) -> ([f64; 2], f64) {
    let h = hull2(pts);
    min_rect_of_hull(&h)
}

/// As [`min_rect`] for a counter-clockwise convex polygon without repeated points.
pub(crate) fn min_rect_of_hull(h: &[[f64; 2]]) -> ([f64; 2], f64) {
    let n = h.len();
    if n < 2 {
        return ([1.0, 0.0], 0.0);
    }
    if n == 2 {
        return (unit(&h[0], &h[1]).unwrap_or([1.0, 0.0]), 0.0);
    }
    let dotp = |u: &[f64; 2], p: &[f64; 2]| u[0] * p[0] + u[1] * p[1];
    let mut best = ([1.0, 0.0], f64::INFINITY);
    // Calipers: right (max along u), top (max along the inward normal), left (min along u).
    let (mut r, mut t, mut l) = (0usize, 0usize, 0usize);
    for i in 0..n {
        let j = (i + 1) % n;
        let Some(u) = unit(&h[i], &h[j]) else {
            continue;
        };
        let v = [-u[1], u[0]];
        if i == 0 {
            for k in 0..n {
                if dotp(&u, &h[k]) > dotp(&u, &h[r]) {
                    r = k;
                }
                if dotp(&v, &h[k]) > dotp(&v, &h[t]) {
                    t = k;
                }
                if dotp(&u, &h[k]) < dotp(&u, &h[l]) {
                    l = k;
                }
            }
        } else {
            for _ in 0..n {
                if dotp(&u, &h[(r + 1) % n]) >= dotp(&u, &h[r]) {
                    r = (r + 1) % n;
                } else {
                    break;
                }
            }
            for _ in 0..n {
                if dotp(&v, &h[(t + 1) % n]) >= dotp(&v, &h[t]) {
                    t = (t + 1) % n;
                } else {
                    break;
                }
            }
            for _ in 0..n {
                if dotp(&u, &h[(l + 1) % n]) <= dotp(&u, &h[l]) {
                    l = (l + 1) % n;
                } else {
                    break;
                }
            }
        }
        let width = dotp(&u, &h[r]) - dotp(&u, &h[l]);
        let height = dotp(&v, &h[t]) - dotp(&v, &h[i]);
        let area = width * height;
        if area < best.1 {
            best = (u, area);
        }
    }
    best
}

fn unit(a: &[f64; 2], b: &[f64; 2]) -> Option<[f64; 2]> {
    let d = [b[0] - a[0], b[1] - a[1]];
    let n = (d[0] * d[0] + d[1] * d[1]).sqrt();
    (n > 0.0 && n.is_finite()).then(|| [d[0] / n, d[1] / n])
}
