//! Exact squared distances between points, segments, triangles and boxes.
//!
//! Each distance is a minimum of a convex quadratic over a product of simplices / cubes of
//! parameters. Its minimum is either an interior critical point (counted only where that point
//! is unique and inside; its value is then a plane or line distance `(n·w)²/|n|²`) or lies on
//! the boundary of the parameter domain, which is a smaller problem of the same kind. When the
//! quadratic is degenerate (parallel segments, flat triangles, flat boxes) the minimiser set
//! reaches the boundary, so boundary candidates alone are exact. Every candidate is an exact
//! ratio of dyadics; the minimum is taken exactly.

use std::cmp::Ordering;

use crate::boxes::ExactBox;
use crate::dyadic::Dyadic;
use crate::vector::{add, cross, dot, dvec, half, is_zero, norm2, sub, DVec, SqDistance};
use crate::zonotope::{polytopes_intersect, zonotope_query};

pub(crate) fn pt_seg(p: &DVec, a: &DVec, b: &DVec) -> SqDistance {
    let d = sub(b, a);
    let w = sub(p, a);
    let dd = norm2(&d);
    let t = dot(&w, &d);
    if dd.is_zero() || t.sign() != Ordering::Greater {
        return SqDistance::from_dyadic(norm2(&w));
    }
    if t >= dd {
        return SqDistance::from_dyadic(norm2(&sub(p, b)));
    }
    SqDistance::new(&(&norm2(&w) * &dd) - &t.square(), dd)
}

pub(crate) fn seg_seg(p0: &DVec, p1: &DVec, q0: &DVec, q1: &DVec) -> SqDistance {
    let mut best = pt_seg(p0, q0, q1)
        .min(pt_seg(p1, q0, q1))
        .min(pt_seg(q0, p0, p1))
        .min(pt_seg(q1, p0, p1));
    let d1 = sub(p1, p0);
    let d2 = sub(q1, q0);
    let c = cross(&d1, &d2);
    if !is_zero(&c) {
        // Unique closest points of the two lines: p0 + s d1 and q0 + t d2 with
        // s = (b f − c1 e)/den, t = (a f − b c1)/den, den = a e − b² = |d1 × d2|².
        let r = sub(p0, q0);
        let (a, b, e) = (norm2(&d1), dot(&d1, &d2), norm2(&d2));
        let (c1, f) = (dot(&d1, &r), dot(&d2, &r));
        let den = norm2(&c);
        let s = &(&b * &f) - &(&c1 * &e);
        let t = &(&a * &f) - &(&b * &c1);
        let inside = |x: &Dyadic| !x.is_negative() && *x <= den;
        if inside(&s) && inside(&t) {
            best = best.min(SqDistance::new(dot(&r, &c).square(), den));
        }
    }
    best
}

pub(crate) fn pt_tri(p: &DVec, t: &[DVec; 3]) -> SqDistance {
    let [a, b, c] = t;
    let mut best = pt_seg(p, a, b).min(pt_seg(p, b, c)).min(pt_seg(p, c, a));
    let n = cross(&sub(b, a), &sub(c, a));
    if !is_zero(&n) {
        let inside = [(a, b), (b, c), (c, a)]
            .iter()
            .all(|(v0, v1)| !dot(&cross(&sub(v1, v0), &sub(p, v0)), &n).is_negative());
        if inside {
            best = best.min(SqDistance::new(dot(&n, &sub(p, a)).square(), norm2(&n)));
        }
    }
    best
}

fn tri_edges(t: &[DVec; 3]) -> [DVec; 3] {
    [sub(&t[1], &t[0]), sub(&t[2], &t[1]), sub(&t[0], &t[2])]
}

pub(crate) fn seg_meets_tri(p0: &DVec, p1: &DVec, t: &[DVec; 3]) -> bool {
    polytopes_intersect(&[p0.clone(), p1.clone()], &[sub(p1, p0)], t, &tri_edges(t))
}

pub(crate) fn seg_tri(p0: &DVec, p1: &DVec, t: &[DVec; 3]) -> SqDistance {
    if seg_meets_tri(p0, p1, t) {
        return SqDistance::zero();
    }
    let [a, b, c] = t;
    pt_tri(p0, t)
        .min(pt_tri(p1, t))
        .min(seg_seg(p0, p1, a, b))
        .min(seg_seg(p0, p1, b, c))
        .min(seg_seg(p0, p1, c, a))
}

const PAIRS4: [(usize, usize); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

pub(crate) fn pt_box(p: &DVec, bx: &ExactBox) -> SqDistance {
    let g = bx.generators();
    let w0 = sub(p, bx.center());
    if zonotope_query(&g, &crate::boxes::PAIRS3, &w0).intersects {
        return SqDistance::zero();
    }
    let mut best: Option<SqDistance> = None;
    let mut take = |d: SqDistance| {
        best = Some(match best.take() {
            Some(b) => b.min(d),
            None => d,
        });
    };
    for (e0, e1) in bx.edges() {
        take(pt_seg(p, &e0, &e1));
    }
    for k in 0..3 {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let n = cross(&g[i], &g[j]);
        if is_zero(&n) {
            continue;
        }
        let n2 = norm2(&n);
        for face_center in [add(bx.center(), &g[k]), sub(bx.center(), &g[k])] {
            let w = sub(p, &face_center);
            let ti = dot(&cross(&w, &g[j]), &n);
            let tj = dot(&cross(&g[i], &w), &n);
            if ti.abs() <= n2 && tj.abs() <= n2 {
                take(SqDistance::new(dot(&n, &w).square(), n2.clone()));
            }
        }
    }
    best.expect("a box has edges")
}

pub(crate) fn seg_meets_box(p0: &DVec, p1: &DVec, bx: &ExactBox) -> bool {
    // The segment is the zonotope mid ± d/2: it meets the box iff mid − c lies in the zonotope
    // of the box's generators plus d/2.
    let [g0, g1, g2] = bx.generators();
    let gens = [g0, g1, g2, half(&sub(p1, p0))];
    let mid = half(&add(p0, p1));
    zonotope_query(&gens, &PAIRS4, &sub(&mid, bx.center())).intersects
}

pub(crate) fn seg_box(p0: &DVec, p1: &DVec, bx: &ExactBox) -> SqDistance {
    if seg_meets_box(p0, p1, bx) {
        return SqDistance::zero();
    }
    let mut best = pt_box(p0, bx).min(pt_box(p1, bx));
    for (e0, e1) in bx.edges() {
        best = best.min(seg_seg(p0, p1, &e0, &e1));
    }
    best
}

fn tri(t: [[f64; 3]; 3]) -> [DVec; 3] {
    t.map(dvec)
}

/// Exact squared distance from point `p` to segment `[a, b]` (a point when `a = b`).
#[must_use]
pub fn point_segment_sq_exact(p: [f64; 3], a: [f64; 3], b: [f64; 3]) -> SqDistance {
    pt_seg(&dvec(p), &dvec(a), &dvec(b))
}

/// Squared distance from point `p` to segment `[a, b]`, nearly rounded to `f64`.
#[must_use]
pub fn point_segment_distance_sq(p: [f64; 3], a: [f64; 3], b: [f64; 3]) -> f64 {
    point_segment_sq_exact(p, a, b).to_f64()
}

/// Exact squared distance between segments `[p0, p1]` and `[q0, q1]` (parallel and degenerate
/// segments included).
#[must_use]
pub fn segment_segment_sq_exact(
    p0: [f64; 3],
    p1: [f64; 3],
    q0: [f64; 3],
    q1: [f64; 3],
) -> SqDistance {
    seg_seg(&dvec(p0), &dvec(p1), &dvec(q0), &dvec(q1))
}

/// Squared distance between two segments, nearly rounded to `f64`.
#[must_use]
pub fn segment_segment_distance_sq(p0: [f64; 3], p1: [f64; 3], q0: [f64; 3], q1: [f64; 3]) -> f64 {
    segment_segment_sq_exact(p0, p1, q0, q1).to_f64()
}

/// Exact squared distance from point `p` to the closed triangle `t` (degenerate triangles too).
#[must_use]
pub fn point_triangle_sq_exact(p: [f64; 3], t: [[f64; 3]; 3]) -> SqDistance {
    pt_tri(&dvec(p), &tri(t))
}

/// Squared distance from a point to a triangle, nearly rounded to `f64`.
#[must_use]
pub fn point_triangle_distance_sq(p: [f64; 3], t: [[f64; 3]; 3]) -> f64 {
    point_triangle_sq_exact(p, t).to_f64()
}

/// Exact squared distance between segment `[p0, p1]` and triangle `t` (0 when they meet).
#[must_use]
pub fn segment_triangle_sq_exact(p0: [f64; 3], p1: [f64; 3], t: [[f64; 3]; 3]) -> SqDistance {
    seg_tri(&dvec(p0), &dvec(p1), &tri(t))
}

/// Squared distance between a segment and a triangle, nearly rounded to `f64`.
#[must_use]
pub fn segment_triangle_distance_sq(p0: [f64; 3], p1: [f64; 3], t: [[f64; 3]; 3]) -> f64 {
    segment_triangle_sq_exact(p0, p1, t).to_f64()
}

/// Exact squared distance from point `p` to box `b` (0 inside).
#[must_use]
pub fn point_box_sq_exact(p: [f64; 3], b: &ExactBox) -> SqDistance {
    pt_box(&dvec(p), b)
}

/// Squared distance from a point to a box, nearly rounded to `f64`.
#[must_use]
pub fn point_box_distance_sq(p: [f64; 3], b: &ExactBox) -> f64 {
    point_box_sq_exact(p, b).to_f64()
}

/// Exact squared distance between segment `[p0, p1]` and box `b` (0 when they meet).
#[must_use]
pub fn segment_box_sq_exact(p0: [f64; 3], p1: [f64; 3], b: &ExactBox) -> SqDistance {
    seg_box(&dvec(p0), &dvec(p1), b)
}

/// Squared distance between a segment and a box, nearly rounded to `f64`.
#[must_use]
pub fn segment_box_distance_sq(p0: [f64; 3], p1: [f64; 3], b: &ExactBox) -> f64 {
    segment_box_sq_exact(p0, p1, b).to_f64()
}

/// Exact squared distance between two points.
#[must_use]
pub fn point_point_sq_exact(p: [f64; 3], q: [f64; 3]) -> SqDistance {
    SqDistance::from_dyadic(norm2(&sub(&dvec(p), &dvec(q))))
}
