//! Capsule–triangle overlap: the core segment's distance to the (closed, solid) triangle
//! against the radius (Ericson, *Real-Time Collision Detection*, §5.1.10; see
//! [`crate::geometry::triangle::segment_triangle_distance_squared`]). Everything is taken
//! relative to the capsule's `p0` first. Degenerate triangles and `p0 == p1` capsules work.
//!
//! Band: with `S` the sum of the 1-norms of `p1` and the three vertices relative to `p0`, plus
//! `r`, a pair whose exact gap is at most `2 * ALLOWANCE * S` may be reported as touching; an
//! intersecting pair is never reported as separated.

use sepax_shapes::math::Point3;
use sepax_shapes::{Capsule, Triangle};

use crate::geometry::robust::{max_abs, norm1, unit_scale, within_reach};
use crate::geometry::triangle::segment_triangle_distance_squared;

use sepax_shapes::tolerance::CAPSULE_TRIANGLE_ALLOWANCE as ALLOWANCE;

/// Whether a closed capsule and a closed triangle intersect (touching counts).
pub fn intersects(a: &Capsule, b: &Triangle) -> bool {
    let base = a.p0();
    let p = Point3::origin();
    let q = a.p1() - base;
    let [v0, v1, v2] = b.vertices().map(|v| v - base);
    let k = unit_scale(max_abs(&[&q, &v0, &v1, &v2], &[a.radius()]));
    let [q, v0, v1, v2] = [q, v0, v1, v2].map(|v| Point3::from(v * k));
    let radius = a.radius() * k;
    let s = norm1(&q.coords) + norm1(&v0.coords) + norm1(&v1.coords) + norm1(&v2.coords) + radius;
    let d2 = segment_triangle_distance_squared(&p, &q, &v0, &v1, &v2);
    within_reach(d2, radius + ALLOWANCE * s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Real;

    fn cap(p: [Real; 3], q: [Real; 3], r: Real) -> Capsule {
        Capsule::new(Point3::from(p), Point3::from(q), r).unwrap()
    }
    fn t(a: [Real; 3], b: [Real; 3], c: [Real; 3]) -> Triangle {
        Triangle::new(Point3::from(a), Point3::from(b), Point3::from(c)).unwrap()
    }

    #[test]
    fn cases() {
        let tr = t([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
        assert!(intersects(
            &cap([1.0, 1.0, -1.0], [1.0, 1.0, 1.0], 0.0),
            &tr
        )); // piercing
        assert!(intersects(&cap([0.0, 0.0, 2.0], [3.0, 0.0, 2.0], 2.0), &tr)); // parallel, touching
        assert!(!intersects(
            &cap([0.0, 0.0, 2.0], [3.0, 0.0, 2.0], 1.99),
            &tr
        ));
        // Beside the hypotenuse in the plane: distance sqrt(2)/2 * 2 = sqrt(2).
        assert!(intersects(
            &cap([6.0, 0.0, 0.0], [0.0, 6.0, 0.0], 1.42),
            &tr
        ));
        assert!(!intersects(
            &cap([6.0, 0.0, 0.0], [0.0, 6.0, 0.0], 1.41),
            &tr
        ));
    }

    #[test]
    fn degenerate_and_far() {
        let tr = t([1e4, 0.0, 0.0], [1e4 + 4.0, 0.0, 0.0], [1e4, 4.0, 0.0]);
        // p0 == p1 above the face.
        assert!(intersects(
            &cap([1e4 + 1.0, 1.0, 1.0], [1e4 + 1.0, 1.0, 1.0], 1.0),
            &tr
        ));
        assert!(!intersects(
            &cap([1e4 + 1.0, 1.0, 1.0], [1e4 + 1.0, 1.0, 1.0], 0.9375),
            &tr
        ));
        // Collinear triangle (a segment) crossed by the core.
        let seg = t(
            [1e4, 0.0, 0.0],
            [1e4 + 4.0, 0.0, 0.0],
            [1e4 + 2.0, 0.0, 0.0],
        );
        assert!(intersects(
            &cap([1e4 + 1.0, -1.0, 0.0], [1e4 + 1.0, 1.0, 0.0], 0.0),
            &seg
        ));
        assert!(!intersects(
            &cap([1e4 + 1.0, -1.0, 0.5], [1e4 + 1.0, 1.0, 0.5], 0.25),
            &seg
        ));
    }
}
