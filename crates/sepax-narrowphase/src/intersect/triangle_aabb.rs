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
//! Band: with `v_i` the vertices in the box frame and `h` the half-extents,
//! `S = sum_i |v_i|_1 + |h|_1`. A pair is reported as intersecting when no axis separates it
//! by more than `ALLOWANCE * S` per unit of `|a|_1` (so a gap of at most `2 sqrt(3) ALLOWANCE S`
//! along an axis's unit direction). That bounds the Euclidean gap of false hits by that amount
//! divided by the sine of the sharpest angle of the Minkowski difference at the closest
//! feature; see the differential suite for the measured band.

use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::{Aabb, Triangle};

use crate::geometry::robust::{cross_accurate, norm1};

/// Rounding allowance per unit of `S` and of `|a|_1` on each axis `a`: the frame change costs
/// two roundings per coordinate, the projections `gamma(3)`, the box radius `gamma(3)`; 16u
/// covers them.
pub const ALLOWANCE: Real = 16.0 * UNIT_ROUNDOFF;

/// Whether the axis `a` separates the triangle `v` from the box `[-h, h]` by more than
/// `tol * |a|_1`.
#[inline]
fn separates(a: &Vector3, v: &[Vector3; 3], h: &Vector3, tol: Real) -> bool {
    let p = [v[0].dot(a), v[1].dot(a), v[2].dot(a)];
    let lo = p[0].min(p[1]).min(p[2]);
    let hi = p[0].max(p[1]).max(p[2]);
    let r = h.x * a.x.abs() + h.y * a.y.abs() + h.z * a.z.abs();
    let slack = r + tol * norm1(a);
    lo > slack || hi < -slack
}

/// The 13-axis test for a triangle given in the frame of the box `[-h, h]`. `tol` is the
/// rounding allowance per unit of `|a|_1` (an absolute length). Shared with `triangle_obb`.
pub(crate) fn triangle_local_box(v: &[Vector3; 3], h: &Vector3, tol: Real) -> bool {
    // Box face normals.
    for k in 0..3 {
        let lo = v[0][k].min(v[1][k]).min(v[2][k]);
        let hi = v[0][k].max(v[1][k]).max(v[2][k]);
        if lo > h[k] + tol || hi < -h[k] - tol {
            return false;
        }
    }
    let f = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    // Triangle normal (zero for a degenerate triangle: then it separates nothing).
    let n = cross_accurate(&f[0], &f[1]);
    if separates(&n, v, h, tol) {
        return false;
    }
    // Box axis x edge, formed exactly.
    for e in &f {
        let axes = [
            Vector3::new(0.0, -e.z, e.y),
            Vector3::new(e.z, 0.0, -e.x),
            Vector3::new(-e.y, e.x, 0.0),
        ];
        for a in &axes {
            if separates(a, v, h, tol) {
                return false;
            }
        }
    }
    true
}

/// Whether a closed triangle and a closed AABB intersect (touching counts).
pub fn intersects(a: &Triangle, b: &Aabb) -> bool {
    let min = b.min();
    let h = (b.max() - min) * 0.5;
    let v = a.vertices().map(|p| (p - min) - h);
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
