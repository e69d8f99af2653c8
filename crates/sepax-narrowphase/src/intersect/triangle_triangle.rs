//! Triangle–triangle overlap by the separating-axis test (Möller 1997, "A fast triangle-triangle
//! intersection test", for the problem; Ericson, *Real-Time Collision Detection*, §5.2.10 and
//! §4.4 for the axes): the two normals, the nine edge–edge cross products, and the six in-plane
//! edge normals `n x e` that decide the coplanar case. All vertices are taken relative to the
//! first triangle's vertex `a` first.
//!
//! Robustness: every axis comes from [`crate::geometry::robust::cross_accurate`], so nearly
//! parallel edges give short but accurate axes. Any direction is a valid separating-axis
//! candidate and the same rounded axis is used for both triangles, so only the projections'
//! rounding (`gamma(3) S |a|_1`) needs an allowance, which the test adds: an intersecting pair
//! is never reported as separated. The 17 axes are complete for non-degenerate triangles,
//! coplanar or not.
//!
//! Degenerate triangles (normal exactly zero: collinear or coincident vertices) are the union
//! of their edges; such a triangle is tested edge by edge with the segment–triangle distance of
//! [`crate::geometry::triangle`], against the same allowance.
//!
//! Band: with `S` the sum of the 1-norms of the six vertices relative to the base, a pair is
//! reported as intersecting when no axis separates it by more than `ALLOWANCE * S` per unit of
//! `|a|_1`; for degenerate triangles, when the distance is at most `ALLOWANCE * S`. See the
//! differential suite for the measured band.

use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::Triangle;

use crate::geometry::robust::{cross_accurate, norm1};
use crate::geometry::triangle::segment_triangle_distance_squared;

/// Rounding allowance per unit of `S` and of `|a|_1` on each axis `a` (and per unit of `S` for
/// the distance of degenerate triangles): the projections cost `gamma(3)`, the base shift one
/// rounding per coordinate; the segment–triangle distance about `10 u S`. 16u covers them.
pub const ALLOWANCE: Real = 16.0 * UNIT_ROUNDOFF;

/// Whether `axis` separates the two vertex triples by more than `tol * |axis|_1`.
#[inline]
fn separates(axis: &Vector3, a: &[Vector3; 3], b: &[Vector3; 3], tol: Real) -> bool {
    let pa = [a[0].dot(axis), a[1].dot(axis), a[2].dot(axis)];
    let pb = [b[0].dot(axis), b[1].dot(axis), b[2].dot(axis)];
    let (a_lo, a_hi) = (pa[0].min(pa[1]).min(pa[2]), pa[0].max(pa[1]).max(pa[2]));
    let (b_lo, b_hi) = (pb[0].min(pb[1]).min(pb[2]), pb[0].max(pb[1]).max(pb[2]));
    let slack = tol * norm1(axis);
    b_lo > a_hi + slack || a_lo > b_hi + slack
}

/// Whether the degenerate triangle `d` (a segment or point: the union of its edges) is within
/// `reach` of the triangle `t`.
fn degenerate_within(d: &[Vector3; 3], t: &[Vector3; 3], reach: Real) -> bool {
    let t = t.map(Point3::from);
    let d = d.map(Point3::from);
    (0..3).any(|i| {
        let d2 = segment_triangle_distance_squared(&d[i], &d[(i + 1) % 3], &t[0], &t[1], &t[2]);
        d2 <= reach * reach
    })
}

/// Whether two closed triangles intersect (touching counts).
pub fn intersects(a: &Triangle, b: &Triangle) -> bool {
    let base = a.a();
    let va = a.vertices().map(|p| p - base);
    let vb = b.vertices().map(|p| p - base);
    let s = va.iter().chain(vb.iter()).map(norm1).sum::<Real>();
    let tol = ALLOWANCE * s;

    let ea = [va[1] - va[0], va[2] - va[1], va[0] - va[2]];
    let eb = [vb[1] - vb[0], vb[2] - vb[1], vb[0] - vb[2]];
    let na = cross_accurate(&ea[0], &ea[1]);
    let nb = cross_accurate(&eb[0], &eb[1]);
    if na == Vector3::zeros() {
        return degenerate_within(&va, &vb, tol);
    }
    if nb == Vector3::zeros() {
        return degenerate_within(&vb, &va, tol);
    }

    if separates(&na, &va, &vb, tol) || separates(&nb, &va, &vb, tol) {
        return false;
    }
    for e in &ea {
        for f in &eb {
            if separates(&cross_accurate(e, f), &va, &vb, tol) {
                return false;
            }
        }
    }
    // In-plane edge normals: what separates coplanar (and nearly coplanar) triangles.
    for e in &ea {
        if separates(&cross_accurate(&na, e), &va, &vb, tol) {
            return false;
        }
    }
    for f in &eb {
        if separates(&cross_accurate(&nb, f), &va, &vb, tol) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(a: [Real; 3], b: [Real; 3], c: [Real; 3]) -> Triangle {
        Triangle::new(Point3::from(a), Point3::from(b), Point3::from(c)).unwrap()
    }

    #[test]
    fn crossing_touching_and_separated() {
        let a = t([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
        // Piercing.
        assert!(intersects(
            &a,
            &t([1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [2.0, 2.0, 1.0])
        ));
        // Vertex touching the face.
        assert!(intersects(
            &a,
            &t([1.0, 1.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 1.0])
        ));
        assert!(!intersects(
            &a,
            &t([1.0, 1.0, 0.01], [1.0, 1.0, 1.0], [2.0, 2.0, 1.0])
        ));
        // Edge against edge, skew: the edge from (2,-1,1) to (2,1,-1) passes through (2,0,0).
        assert!(intersects(
            &a,
            &t([2.0, -1.0, 1.0], [2.0, 1.0, -1.0], [2.0, -3.0, 0.0])
        ));
        assert!(!intersects(
            &a,
            &t([2.0, -1.01, 1.0], [2.0, 0.99, -1.0], [2.0, -3.0, 0.0])
        ));
    }

    #[test]
    fn coplanar() {
        let a = t([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
        assert!(intersects(
            &a,
            &t([2.0, 2.0, 0.0], [5.0, 2.0, 0.0], [2.0, 5.0, 0.0])
        )); // touch
        assert!(!intersects(
            &a,
            &t([2.01, 2.01, 0.0], [5.0, 2.0, 0.0], [2.0, 5.0, 0.0])
        ));
        assert!(intersects(
            &a,
            &t([1.0, 1.0, 0.0], [1.5, 1.0, 0.0], [1.0, 1.5, 0.0])
        )); // inside
    }

    #[test]
    fn degenerate_and_far() {
        let o = 1e4;
        let a = t([o, 0.0, 0.0], [o + 4.0, 0.0, 0.0], [o, 4.0, 0.0]);
        // Collinear triangle piercing the face.
        let seg = t(
            [o + 1.0, 1.0, -1.0],
            [o + 1.0, 1.0, 1.0],
            [o + 1.0, 1.0, 0.5],
        );
        assert!(intersects(&a, &seg));
        assert!(intersects(&seg, &a));
        let seg = t(
            [o + 1.0, 1.0, 0.5],
            [o + 1.0, 1.0, 1.0],
            [o + 1.0, 1.0, 0.75],
        );
        assert!(!intersects(&a, &seg));
        // Point triangle on an edge; two point triangles.
        let p = t(
            [o + 2.0, 0.0, 0.0],
            [o + 2.0, 0.0, 0.0],
            [o + 2.0, 0.0, 0.0],
        );
        assert!(intersects(&a, &p));
        assert!(intersects(&p, &p));
        let q = t(
            [o + 2.0, 0.0, 0.5],
            [o + 2.0, 0.0, 0.5],
            [o + 2.0, 0.0, 0.5],
        );
        assert!(!intersects(&p, &q));
        // Two collinear segments crossing.
        let s1 = t([0.0, -1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]);
        let s2 = t([-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.0, 0.0]);
        assert!(intersects(&s1, &s2));
    }
}
