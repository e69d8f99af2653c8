//! Exact closed-set intersection predicates for every pair of {AABB, box, sphere, capsule,
//! triangle}. AABBs enter as [`ExactBox::from_aabb`]; boxes against boxes through
//! [`crate::box_box`] (or [`boxes_intersect`]).
//!
//! Round shapes compare an exact squared distance with the exact squared radius sum; flat shapes
//! use the exact separating-axis test of `zonotope::polytopes_intersect`.

use std::cmp::Ordering;

use crate::box_box::box_box;
use crate::boxes::ExactBox;
use crate::distance::{pt_box, pt_seg, pt_tri, seg_box, seg_seg, seg_tri};
use crate::dyadic::Dyadic;
use crate::vector::{dvec, norm2, sub, DVec, SqDistance};
use crate::zonotope::polytopes_intersect;

fn radius(r: f64) -> Dyadic {
    assert!(
        r.is_finite() && r >= 0.0,
        "sepax-exact: radius must be finite and >= 0, got {r}"
    );
    Dyadic::from_f64(r)
}

fn within(d: &SqDistance, r: &Dyadic) -> bool {
    d.cmp_dyadic_sq(r) != Ordering::Greater
}

/// Do the two closed boxes share a point?
#[must_use]
pub fn boxes_intersect(a: &ExactBox, b: &ExactBox) -> bool {
    box_box(a, b).intersects
}

/// Do the two closed balls share a point?
#[must_use]
pub fn sphere_sphere(c0: [f64; 3], r0: f64, c1: [f64; 3], r1: f64) -> bool {
    let d = SqDistance::from_dyadic(norm2(&sub(&dvec(c0), &dvec(c1))));
    within(&d, &(radius(r0) + radius(r1)))
}

/// Does the closed ball meet the box?
#[must_use]
pub fn sphere_box(c: [f64; 3], r: f64, b: &ExactBox) -> bool {
    within(&pt_box(&dvec(c), b), &radius(r))
}

/// Does the ball `(c, r)` meet the capsule `(p0, p1, rc)`?
#[must_use]
pub fn sphere_capsule(c: [f64; 3], r: f64, p0: [f64; 3], p1: [f64; 3], rc: f64) -> bool {
    within(
        &pt_seg(&dvec(c), &dvec(p0), &dvec(p1)),
        &(radius(r) + radius(rc)),
    )
}

/// Does the ball meet the closed triangle `t`?
#[must_use]
pub fn sphere_triangle(c: [f64; 3], r: f64, t: [[f64; 3]; 3]) -> bool {
    within(&pt_tri(&dvec(c), &t.map(dvec)), &radius(r))
}

/// Do the capsules `(p0, p1, r0)` and `(q0, q1, r1)` meet?
#[must_use]
pub fn capsule_capsule(
    p0: [f64; 3],
    p1: [f64; 3],
    r0: f64,
    q0: [f64; 3],
    q1: [f64; 3],
    r1: f64,
) -> bool {
    let d = seg_seg(&dvec(p0), &dvec(p1), &dvec(q0), &dvec(q1));
    within(&d, &(radius(r0) + radius(r1)))
}

/// Does the capsule `(p0, p1, r)` meet the box?
#[must_use]
pub fn capsule_box(p0: [f64; 3], p1: [f64; 3], r: f64, b: &ExactBox) -> bool {
    within(&seg_box(&dvec(p0), &dvec(p1), b), &radius(r))
}

/// Does the capsule `(p0, p1, r)` meet the closed triangle `t`?
#[must_use]
pub fn capsule_triangle(p0: [f64; 3], p1: [f64; 3], r: f64, t: [[f64; 3]; 3]) -> bool {
    within(&seg_tri(&dvec(p0), &dvec(p1), &t.map(dvec)), &radius(r))
}

fn tri_parts(t: [[f64; 3]; 3]) -> ([DVec; 3], [DVec; 3]) {
    let v = t.map(dvec);
    let e = [sub(&v[1], &v[0]), sub(&v[2], &v[1]), sub(&v[0], &v[2])];
    (v, e)
}

/// Does the closed triangle meet the box? (Exact SAT; degenerate triangles and boxes included.)
#[must_use]
pub fn triangle_box(t: [[f64; 3]; 3], b: &ExactBox) -> bool {
    let (tv, te) = tri_parts(t);
    polytopes_intersect(&tv, &te, &b.vertices(), &b.generators())
}

/// Do the two closed triangles meet? (Exact SAT; coplanar and degenerate triangles included.)
#[must_use]
pub fn triangle_triangle(t0: [[f64; 3]; 3], t1: [[f64; 3]; 3]) -> bool {
    let (v0, e0) = tri_parts(t0);
    let (v1, e1) = tri_parts(t1);
    polytopes_intersect(&v0, &e0, &v1, &e1)
}
