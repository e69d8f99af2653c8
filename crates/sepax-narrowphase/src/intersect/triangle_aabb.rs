//! Triangle–AABB overlap by the 13-axis separating-axis test (Akenine-Möller 2001, "Fast 3D
//! triangle-box overlap testing"; Ericson, *Real-Time Collision Detection*, §5.2.9): the three
//! box face normals, the triangle normal, and the nine cross products of the box axes with the
//! triangle edges. The vertices are moved into the box frame (relative to the minimum corner,
//! then the centre) first.
//!
//! The nine edge axes `e_k x f` are formed *exactly* (a box axis crossed with a vector is a
//! permutation of its components with one sign flip), and the normal comes from
//! [`crate::geometry::robust::cross_accurate`]; so nearly parallel edges give short but
//! accurate axes, never noise. On each axis `a` the projections are off by at most
//! `gamma(3) S |a|_1`; the test widens the overlap by `ALLOWANCE * S * |a|_1` so that an
//! intersecting pair is never reported as separated.
//!
//! Degenerate triangles (segments, points) need no extra axes: the Minkowski difference of a
//! segment and a box has the box normals and the `d x e_k` as facet normals.
//!
//! Pairs that some axis leaves ambiguous (within the allowance of touching) are decided by the
//! backward-stable triangle–box distance instead (see `triangle_local_box`).
//!
//! Band: with `v_i` the vertices in the box frame and `h` the half-extents,
//! `S = sum_i |v_i|_1 + |h|_1`; a pair whose exact gap is at most `2 * ALLOWANCE * S` may be
//! reported as touching; an intersecting pair is never reported as separated.

use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Aabb, Triangle};

use crate::geometry::robust::{cross_accurate, max_abs, norm1, pow2_scale};
use crate::geometry::segment_box::segment_local_box_distance_squared;
use crate::geometry::triangle::segment_triangle_distance_squared;

use sepax_shapes::tolerance::TRIANGLE_AABB_ALLOWANCE as ALLOWANCE;

/// What one SAT axis says, given a rounding allowance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AxisVerdict {
    /// Separated by more than the allowance: certainly disjoint.
    Separated,
    /// Within the allowance of touching: rounding could decide either way.
    Near,
    /// Overlapping by more than the allowance.
    Overlap,
}

/// Classifies the projections `[lo, hi]` of one shape against `[-r, r]` of the other (both on
/// the same axis) with the absolute allowance `slack`.
#[inline]
pub(crate) fn verdict(lo: Real, hi: Real, r: Real, slack: Real) -> AxisVerdict {
    gap_verdict((lo - r).max(-hi - r), slack)
}

/// Classifies a signed gap (positive: separated) along one axis with the allowance `slack`.
#[inline]
pub(crate) fn gap_verdict(gap: Real, slack: Real) -> AxisVerdict {
    if gap > slack {
        AxisVerdict::Separated
    } else if gap >= -slack {
        AxisVerdict::Near
    } else {
        AxisVerdict::Overlap
    }
}

/// The verdict of axis `a` for the triangle `v` against the box `[-h, h]`, with allowance
/// `tol * |a|_1`.
#[inline]
fn axis_verdict(a: &Vector3, v: &[Vector3; 3], h: &Vector3, tol: Real) -> AxisVerdict {
    let p = [v[0].dot(a), v[1].dot(a), v[2].dot(a)];
    let lo = p[0].min(p[1]).min(p[2]);
    let hi = p[0].max(p[1]).max(p[2]);
    let r = h.x * a.x.abs() + h.y * a.y.abs() + h.z * a.z.abs();
    verdict(lo, hi, r, tol * norm1(a))
}

/// Squared distance between the triangle `v` and the box `[-h, h]`: 0 when they meet, else a
/// closest pair has a point on a triangle edge or on a box edge, so the minimum of the three
/// edge–box and twelve box-edge–triangle distances (all backward stable).
fn local_distance_squared(v: &[Vector3; 3], h: &Vector3) -> Real {
    let mut best = Real::INFINITY;
    for i in 0..3 {
        best = best.min(segment_local_box_distance_squared(
            &v[i],
            &v[(i + 1) % 3],
            h,
        ));
    }
    let [a, b, c] = v.map(Point3::from);
    for k in 0..3 {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        for (si, sj) in [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)] {
            if best == 0.0 {
                return 0.0;
            }
            let mut p = Point3::origin();
            p[i] = si * h[i];
            p[j] = sj * h[j];
            let mut q = p;
            p[k] = -h[k];
            q[k] = h[k];
            best = best.min(segment_triangle_distance_squared(&p, &q, &a, &b, &c));
        }
    }
    best
}

/// The 13-axis test for a triangle given in the frame of the box `[-h, h]`. `tol` is the
/// rounding allowance per unit of `|a|_1` (an absolute length). Shared with `triangle_obb`.
///
/// ```text
/// for each of the 13 axes: Separated -> return false; Near -> remember
/// if no axis was Near: return true        (every axis overlaps by more than rounding)
/// return distance(triangle, box) <= tol   (ambiguous: decide by the robust distance)
/// ```
///
/// A candidate axis that separates the exact shapes shows up here as `Separated` or `Near`
/// (the computed axis and projections are within `tol |a|_1` of the exact ones), so "all
/// overlap" certifies an intersection. Deciding the ambiguous pairs by the Euclidean distance
/// instead of the SAT gaps keeps the band a Euclidean one: a pure SAT with allowances also
/// passes pairs whose distance is many allowances when the Minkowski difference has a thin
/// wedge there (a triangle nearly coplanar with a box face near an edge).
pub(crate) fn triangle_local_box(v: &[Vector3; 3], h: &Vector3, tol: Real) -> bool {
    let mut near = false;
    // Box face normals.
    for k in 0..3 {
        let lo = v[0][k].min(v[1][k]).min(v[2][k]);
        let hi = v[0][k].max(v[1][k]).max(v[2][k]);
        match verdict(lo, hi, h[k], tol) {
            AxisVerdict::Separated => return false,
            AxisVerdict::Near => near = true,
            AxisVerdict::Overlap => {}
        }
    }
    let f = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    // Triangle normal (zero for a degenerate triangle: then it separates nothing).
    let n = cross_accurate(&f[0], &f[1]);
    let mut axes = [n; 10];
    // Box axis x edge, formed exactly.
    for (j, e) in f.iter().enumerate() {
        axes[1 + 3 * j] = Vector3::new(0.0, -e.z, e.y);
        axes[2 + 3 * j] = Vector3::new(e.z, 0.0, -e.x);
        axes[3 + 3 * j] = Vector3::new(-e.y, e.x, 0.0);
    }
    for a in &axes {
        if *a == Vector3::zeros() {
            continue;
        }
        match axis_verdict(a, v, h, tol) {
            AxisVerdict::Separated => return false,
            AxisVerdict::Near => near = true,
            AxisVerdict::Overlap => {}
        }
    }
    !near || local_distance_squared(v, h) <= tol * tol
}

/// A power of two for a triangle (vertices `v` relative to a base point) and a size `h`: 1 when
/// their magnitude is within `2^-16 .. 2^16`, else one that brings it into `[1/32, 1/16)`. The
/// normals are products of two edges and their projections of three coordinates, which must
/// stay in the normal range even for edges of a few ulps (the same window as the rounded
/// contacts). Exact, so the answer does not change inside the window.
pub(crate) fn triangle_scale(v: &[Vector3; 3], h: &Vector3) -> Real {
    pow2_scale(max_abs(&[&v[0], &v[1], &v[2], h], &[]), 65536.0)
}

/// Whether a closed triangle and a closed AABB intersect (touching counts).
pub fn intersects(a: &Triangle, b: &Aabb) -> bool {
    let min = b.min();
    let h = (b.max() - min) * 0.5;
    let v = a.vertices().map(|p| (p - min) - h);
    let k = triangle_scale(&v, &h);
    let (v, h) = (v.map(|x| x * k), h * k);
    let s = norm1(&v[0]) + norm1(&v[1]) + norm1(&v[2]) + norm1(&h);
    triangle_local_box(&v, &h, ALLOWANCE * s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Point3;

    fn t(a: [Real; 3], b: [Real; 3], c: [Real; 3]) -> Triangle {
        Triangle::new(Point3::from(a), Point3::from(b), Point3::from(c)).unwrap()
    }
    fn bx(min: [Real; 3], max: [Real; 3]) -> Aabb {
        Aabb::new(Point3::from(min), Point3::from(max)).unwrap()
    }

    #[test]
    fn cases() {
        let b = bx([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]);
        // Through the middle.
        assert!(intersects(
            &t([-1.0, 0.5, -1.0], [2.0, 0.5, -1.0], [0.5, 0.5, 2.0]),
            &b
        ));
        // Touching a face with a vertex.
        assert!(intersects(
            &t([1.0, 0.5, 0.5], [2.0, 0.5, 0.5], [2.0, 1.0, 0.5]),
            &b
        ));
        assert!(!intersects(
            &t([1.01, 0.5, 0.5], [2.0, 0.5, 0.5], [2.0, 1.0, 0.5]),
            &b
        ));
        // Separated only by the triangle normal: the plane x + y + z = 3.01 cuts off the corner.
        let off = |d: Real| t([d, 0.0, 0.0], [0.0, d, 0.0], [0.0, 0.0, d]);
        assert!(intersects(&off(3.0), &b)); // touches the corner (1,1,1)
        assert!(!intersects(&off(3.01), &b));
        // A vertical triangle in the plane x + y = d, touching the edge x = 1, y = 1 at d = 2.
        let e = |d: Real| t([d, 0.0, -1.0], [0.0, d, -1.0], [0.0, d, 2.0]);
        assert!(intersects(&e(2.0), &b));
        assert!(!intersects(&e(2.01), &b));
    }

    #[test]
    fn degenerate_and_far() {
        let b = bx([1e4, 1e4, 1e4], [1e4 + 1.0, 1e4 + 1.0, 1e4 + 1.0]);
        // Collinear triangle (a segment) touching the edge x=1e4+1, y=1e4+1.
        let s = |d: Real| {
            t(
                [1e4 + d, 1e4, 1e4 + 0.5],
                [1e4, 1e4 + d, 1e4 + 0.5],
                [1e4 + d / 2.0, 1e4 + d / 2.0, 1e4 + 0.5],
            )
        };
        assert!(intersects(&s(2.0), &b));
        assert!(!intersects(&s(2.0078125), &b));
        // A point triangle on a face; a zero-extent box inside a triangle.
        let p = t(
            [1e4 + 1.0, 1e4 + 0.5, 1e4 + 0.5],
            [1e4 + 1.0, 1e4 + 0.5, 1e4 + 0.5],
            [1e4 + 1.0, 1e4 + 0.5, 1e4 + 0.5],
        );
        assert!(intersects(&p, &b));
        let pb = bx([0.25, 0.25, 0.0], [0.25, 0.25, 0.0]);
        assert!(intersects(
            &t([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
            &pb
        ));
        assert!(!intersects(
            &t([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
            &bx([0.25, 0.25, 0.01], [0.25, 0.25, 0.01])
        ));
    }
}
