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
//! Degenerate triangles (normal exactly zero: collinear or coincident vertices), and pairs that
//! some axis leaves ambiguous (within the allowance of touching), are decided by the
//! backward-stable edge–triangle distances of [`crate::geometry::triangle`] instead.
//!
//! Band: with `S` the sum of the 1-norms of the six vertices relative to the base, a pair whose
//! exact gap is at most `2 * ALLOWANCE * S` may be reported as touching; an intersecting pair is
//! never reported as separated.

use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::Triangle;

use super::triangle_aabb::{gap_verdict, triangle_scale, AxisVerdict};
use crate::geometry::robust::{cross_accurate, norm1};
use crate::geometry::triangle::segment_triangle_distance_squared;

use sepax_shapes::tolerance::TRIANGLE_TRIANGLE_ALLOWANCE as ALLOWANCE;

/// The verdict of `axis` on the two vertex triples, with allowance `tol * |axis|_1`.
#[inline]
fn axis_verdict(axis: &Vector3, a: &[Vector3; 3], b: &[Vector3; 3], tol: Real) -> AxisVerdict {
    let pa = [a[0].dot(axis), a[1].dot(axis), a[2].dot(axis)];
    let pb = [b[0].dot(axis), b[1].dot(axis), b[2].dot(axis)];
    let (a_lo, a_hi) = (pa[0].min(pa[1]).min(pa[2]), pa[0].max(pa[1]).max(pa[2]));
    let (b_lo, b_hi) = (pb[0].min(pb[1]).min(pb[2]), pb[0].max(pb[1]).max(pb[2]));
    gap_verdict((b_lo - a_hi).max(a_lo - b_hi), tol * norm1(axis))
}

/// Whether the triangles `d` and `t` are within `reach` of each other, by the backward-stable
/// distance: when they are disjoint a closest pair has a point on an edge of one of them, and
/// when they meet some edge of one meets the other, so the minimum of the six edge–triangle
/// distances is their distance. Degenerate triangles are the union of their edges, so this is
/// exact for them too.
fn within_by_distance(d: &[Vector3; 3], t: &[Vector3; 3], reach: Real) -> bool {
    let t = t.map(Point3::from);
    let d = d.map(Point3::from);
    let r2 = reach * reach;
    (0..3).any(|i| {
        segment_triangle_distance_squared(&d[i], &d[(i + 1) % 3], &t[0], &t[1], &t[2]) <= r2
            || segment_triangle_distance_squared(&t[i], &t[(i + 1) % 3], &d[0], &d[1], &d[2]) <= r2
    })
}

/// The largest absolute coordinates of `v`, as a vector (for [`triangle_scale`]).
fn triangle_scale_size(v: &[Vector3; 3]) -> Vector3 {
    v[0].abs().sup(&v[1].abs()).sup(&v[2].abs())
}

/// Whether two closed triangles intersect (touching counts).
pub fn intersects(a: &Triangle, b: &Triangle) -> bool {
    let base = a.a();
    let va = a.vertices().map(|p| p - base);
    let vb = b.vertices().map(|p| p - base);
    let k = triangle_scale(&va, &triangle_scale_size(&vb));
    let (va, vb) = (va.map(|x| x * k), vb.map(|x| x * k));
    let s = va.iter().chain(vb.iter()).map(norm1).sum::<Real>();
    let tol = ALLOWANCE * s;

    let ea = [va[1] - va[0], va[2] - va[1], va[0] - va[2]];
    let eb = [vb[1] - vb[0], vb[2] - vb[1], vb[0] - vb[2]];
    let na = cross_accurate(&ea[0], &ea[1]);
    let nb = cross_accurate(&eb[0], &eb[1]);
    if na == Vector3::zeros() || nb == Vector3::zeros() {
        return within_by_distance(&va, &vb, tol);
    }

    // 2 normals, 9 edge crosses, 6 in-plane edge normals (for the coplanar case).
    let mut axes = [na; 17];
    axes[1] = nb;
    for (i, e) in ea.iter().enumerate() {
        for (j, f) in eb.iter().enumerate() {
            axes[2 + 3 * i + j] = cross_accurate(e, f);
        }
        axes[11 + i] = cross_accurate(&na, e);
        axes[14 + i] = cross_accurate(&nb, &eb[i]);
    }
    let mut near = false;
    for axis in &axes {
        if *axis == Vector3::zeros() {
            continue;
        }
        match axis_verdict(axis, &va, &vb, tol) {
            AxisVerdict::Separated => return false,
            AxisVerdict::Near => near = true,
            AxisVerdict::Overlap => {}
        }
    }
    // Every axis overlapping by more than rounding certifies an intersection; an ambiguous
    // axis is settled by the Euclidean distance, which keeps the band Euclidean (see
    // `triangle_aabb::triangle_local_box` for why a pure SAT with allowances does not).
    !near || within_by_distance(&va, &vb, tol)
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
