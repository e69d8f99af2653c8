//! Exact distances between any two shapes of {box, sphere, capsule, triangle}, and exact overlap
//! of translating shapes at a given (dyadic) time, for the distance and time-of-impact suites.
//!
//! A shape is a polytope core (point, segment, triangle, box) plus a radius ([`ExactShape`]).
//! The squared core distance is exact ([`SqDistance`]); for two disjoint convex polytopes a
//! closest pair always has a vertex of one on the other or a point on an edge of each, so the
//! polytope pairs (box–box, triangle–box, triangle–triangle) are the minimum over vertex–shape
//! and edge–edge candidates once the exact overlap tests have said "disjoint".
//!
//! Translating a shape by `v · t` with `f64` numbers `v`, `t` is exact in dyadics, so "do the
//! shapes overlap at time `t`" has an exact answer for every float time.

use std::cmp::Ordering;

use crate::box_box::box_box;
use crate::boxes::ExactBox;
use crate::distance::{pt_box, pt_seg, pt_tri, seg_box, seg_seg, seg_tri};
use crate::dyadic::Dyadic;
use crate::vector::{add, dvec, norm2, scale, sub, DVec, SqDistance};
use crate::zonotope::polytopes_intersect;

/// A shape for the exact reference: a core plus a radius (`f64` inputs, exact inside).
#[derive(Clone, Debug)]
pub enum ExactShape {
    /// A box (AABBs through [`ExactBox::from_aabb`]).
    Box(Box<ExactBox>),
    /// A ball.
    Sphere {
        /// Centre.
        center: [f64; 3],
        /// Radius.
        radius: f64,
    },
    /// A capsule (segment plus radius).
    Capsule {
        /// First end point.
        p0: [f64; 3],
        /// Second end point.
        p1: [f64; 3],
        /// Radius.
        radius: f64,
    },
    /// A closed triangle.
    Triangle([[f64; 3]; 3]),
}

enum Core {
    Point(DVec),
    Segment(DVec, DVec),
    Triangle([DVec; 3]),
    Box(ExactBox),
}

impl ExactShape {
    fn core(&self, offset: &DVec) -> (Core, Dyadic) {
        let m = |p: &[f64; 3]| add(&dvec(*p), offset);
        match self {
            ExactShape::Box(b) => (
                Core::Box(ExactBox::from_exact(
                    add(b.center(), offset),
                    *b.axes(),
                    b.half_extents().clone(),
                )),
                Dyadic::zero(),
            ),
            ExactShape::Sphere { center, radius } => {
                (Core::Point(m(center)), Dyadic::from_f64(radius.abs()))
            }
            ExactShape::Capsule { p0, p1, radius } => {
                (Core::Segment(m(p0), m(p1)), Dyadic::from_f64(radius.abs()))
            }
            ExactShape::Triangle(t) => (Core::Triangle(t.map(|p| m(&p))), Dyadic::zero()),
        }
    }

    fn radius(&self) -> f64 {
        match self {
            ExactShape::Sphere { radius, .. } | ExactShape::Capsule { radius, .. } => radius.abs(),
            _ => 0.0,
        }
    }
}

fn zero3() -> DVec {
    [Dyadic::zero(), Dyadic::zero(), Dyadic::zero()]
}

fn tri_edges(t: &[DVec; 3]) -> [DVec; 3] {
    [sub(&t[1], &t[0]), sub(&t[2], &t[1]), sub(&t[0], &t[2])]
}

fn tri_segments(t: &[DVec; 3]) -> [(DVec, DVec); 3] {
    [
        (t[0].clone(), t[1].clone()),
        (t[1].clone(), t[2].clone()),
        (t[2].clone(), t[0].clone()),
    ]
}

fn min_all(it: impl IntoIterator<Item = SqDistance>) -> SqDistance {
    it.into_iter()
        .reduce(SqDistance::min)
        .expect("at least one candidate")
}

fn box_box_sq(a: &ExactBox, b: &ExactBox) -> SqDistance {
    if box_box(a, b).intersects {
        return SqDistance::zero();
    }
    let mut c: Vec<SqDistance> = Vec::new();
    c.extend(a.vertices().iter().map(|v| pt_box(v, b)));
    c.extend(b.vertices().iter().map(|v| pt_box(v, a)));
    let eb = b.edges();
    for (p0, p1) in a.edges() {
        for (q0, q1) in &eb {
            c.push(seg_seg(&p0, &p1, q0, q1));
        }
    }
    min_all(c)
}

fn tri_box_sq(t: &[DVec; 3], b: &ExactBox) -> SqDistance {
    if polytopes_intersect(t, &tri_edges(t), &b.vertices(), &b.generators()) {
        return SqDistance::zero();
    }
    let mut c: Vec<SqDistance> = Vec::new();
    c.extend(t.iter().map(|v| pt_box(v, b)));
    c.extend(b.vertices().iter().map(|v| pt_tri(v, t)));
    let eb = b.edges();
    for (p0, p1) in tri_segments(t) {
        for (q0, q1) in &eb {
            c.push(seg_seg(&p0, &p1, q0, q1));
        }
    }
    min_all(c)
}

fn tri_tri_sq(t: &[DVec; 3], u: &[DVec; 3]) -> SqDistance {
    if polytopes_intersect(t, &tri_edges(t), u, &tri_edges(u)) {
        return SqDistance::zero();
    }
    let mut c: Vec<SqDistance> = Vec::new();
    c.extend(t.iter().map(|v| pt_tri(v, u)));
    c.extend(u.iter().map(|v| pt_tri(v, t)));
    for (p0, p1) in tri_segments(t) {
        for (q0, q1) in tri_segments(u) {
            c.push(seg_seg(&p0, &p1, &q0, &q1));
        }
    }
    min_all(c)
}

fn core_sq(a: &Core, b: &Core) -> SqDistance {
    use Core as C;
    match (a, b) {
        (C::Point(p), C::Point(q)) => SqDistance::from_dyadic(norm2(&sub(p, q))),
        (C::Point(p), C::Segment(s0, s1)) => pt_seg(p, s0, s1),
        (C::Point(p), C::Triangle(t)) => pt_tri(p, t),
        (C::Point(p), C::Box(b)) => pt_box(p, b),
        (C::Segment(p0, p1), C::Segment(q0, q1)) => seg_seg(p0, p1, q0, q1),
        (C::Segment(p0, p1), C::Triangle(t)) => seg_tri(p0, p1, t),
        (C::Segment(p0, p1), C::Box(b)) => seg_box(p0, p1, b),
        (C::Triangle(t), C::Triangle(u)) => tri_tri_sq(t, u),
        (C::Triangle(t), C::Box(b)) => tri_box_sq(t, b),
        (C::Box(a), C::Box(b)) => box_box_sq(a, b),
        _ => core_sq(b, a),
    }
}

/// Exact squared distance between the *cores* of two shapes (a sphere's centre, a capsule's
/// segment, the triangle or box itself), with `b` translated by `offset_b`.
fn core_sq_translated(a: &ExactShape, b: &ExactShape, offset_b: &DVec) -> (SqDistance, Dyadic) {
    let (ca, ra) = a.core(&zero3());
    let (cb, rb) = b.core(offset_b);
    (core_sq(&ca, &cb), &ra + &rb)
}

/// Exact squared distance between the cores of `a` and `b` (the shapes' distance is its square
/// root minus the radii, when positive).
#[must_use]
pub fn core_sq_distance(a: &ExactShape, b: &ExactShape) -> SqDistance {
    core_sq_translated(a, b, &zero3()).0
}

/// The distance between the two shapes (0 when they meet), rounded to `f64`: the exact squared
/// core distance nearly rounded, its square root, minus the radii. Relative error a few `2^-53`
/// of the core distance.
#[must_use]
pub fn shape_distance(a: &ExactShape, b: &ExactShape) -> f64 {
    let d = core_sq_distance(a, b).to_f64().sqrt() - a.radius() - b.radius();
    d.max(0.0)
}

/// Exactly: do the closed shapes meet?
#[must_use]
pub fn shapes_intersect(a: &ExactShape, b: &ExactShape) -> bool {
    shapes_intersect_translated(a, b, [0.0; 3], 0.0)
}

/// Exactly: do `a` and `b` moved by `velocity_b · t` meet (the product taken exactly)?
#[must_use]
pub fn shapes_intersect_translated(
    a: &ExactShape,
    b: &ExactShape,
    velocity_b: [f64; 3],
    t: f64,
) -> bool {
    assert!(t.is_finite(), "sepax-exact: non-finite time {t}");
    let offset = scale(&dvec(velocity_b), &Dyadic::from_f64(t));
    let (ca, ra) = a.core(&zero3());
    let (cb, rb) = b.core(&offset);
    let r = &ra + &rb;
    // Polytope pairs: the exact overlap tests directly (no distance needed).
    match (&ca, &cb) {
        (Core::Box(x), Core::Box(y)) => box_box(x, y).intersects,
        _ => core_sq(&ca, &cb).cmp_dyadic_sq(&r) != Ordering::Greater,
    }
}

/// Exact squared distance between two boxes (0 when they meet).
#[must_use]
pub fn box_box_sq_exact(a: &ExactBox, b: &ExactBox) -> SqDistance {
    box_box_sq(a, b)
}

/// [`shape_distance`] with `b` moved by `velocity_b · t` (the product taken exactly).
#[must_use]
pub fn shape_distance_translated(
    a: &ExactShape,
    b: &ExactShape,
    velocity_b: [f64; 3],
    t: f64,
) -> f64 {
    assert!(t.is_finite(), "sepax-exact: non-finite time {t}");
    let offset = scale(&dvec(velocity_b), &Dyadic::from_f64(t));
    let (sq, _) = core_sq_translated(a, b, &offset);
    (sq.to_f64().sqrt() - a.radius() - b.radius()).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_cube(c: [f64; 3]) -> ExactBox {
        ExactBox::new(
            c,
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            [0.5; 3],
        )
    }

    #[test]
    fn box_box_distances() {
        // Face to face, 2 apart.
        let d = box_box_sq_exact(&unit_cube([0.0; 3]), &unit_cube([3.0, 0.0, 0.0]));
        assert_eq!(d.to_f64(), 4.0);
        // Corner to corner along the diagonal: 3 * 1^2.
        let d = box_box_sq_exact(&unit_cube([0.0; 3]), &unit_cube([2.0, 2.0, 2.0]));
        assert_eq!(d.to_f64(), 3.0);
        // Touching and overlapping.
        assert!(box_box_sq_exact(&unit_cube([0.0; 3]), &unit_cube([1.0, 0.3, 0.0])).is_zero());
        // A 45-degree box whose edge faces a face: the edge is at x = 3 - sqrt(2)/2 (rounded
        // axes: compare loosely).
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let r = ExactBox::new(
            [3.0, 0.0, 0.0],
            [[s, s, 0.0], [-s, s, 0.0], [0.0, 0.0, 1.0]],
            [0.5; 3],
        );
        let d = box_box_sq_exact(&unit_cube([0.0; 3]), &r).to_f64().sqrt();
        assert!((d - (2.5 - s)).abs() < 1e-15, "{d}");
    }

    #[test]
    fn shapes_and_translations() {
        let ball = ExactShape::Sphere {
            center: [0.0; 3],
            radius: 1.0,
        };
        let cap = ExactShape::Capsule {
            p0: [5.0, -1.0, 0.0],
            p1: [5.0, 1.0, 0.0],
            radius: 0.5,
        };
        assert_eq!(shape_distance(&ball, &cap), 3.5);
        assert!(!shapes_intersect(&ball, &cap));
        // Moving the capsule by (-1, 0, 0) * t: contact exactly at t = 3.5.
        assert!(!shapes_intersect_translated(
            &ball,
            &cap,
            [-1.0, 0.0, 0.0],
            3.4999999
        ));
        assert!(shapes_intersect_translated(
            &ball,
            &cap,
            [-1.0, 0.0, 0.0],
            3.5
        ));
        assert_eq!(
            shape_distance_translated(&ball, &cap, [-1.0, 0.0, 0.0], 1.5),
            2.0
        );
        let tri = ExactShape::Triangle([[0.0, 0.0, 2.0], [1.0, 0.0, 2.0], [0.0, 1.0, 2.0]]);
        let bx = ExactShape::Box(Box::new(unit_cube([0.0; 3])));
        assert_eq!(shape_distance(&tri, &bx), 1.5);
        let tri2 = ExactShape::Triangle([[0.0, 0.0, -2.0], [1.0, 0.0, -2.0], [0.0, 1.0, -2.0]]);
        assert_eq!(shape_distance(&tri, &tri2), 4.0);
    }
}
