//! Sphere–triangle overlap: the centre's distance to the (closed, solid) triangle against the
//! radius (Ericson, *Real-Time Collision Detection*, §5.2.7 with the closest point of §5.1.5).
//! Vertices are taken relative to the centre first; degenerate triangles are the segments or
//! points they collapse to.
//!
//! Band: with `S = sum_i |v_i - c|_1 + r`, a pair whose exact gap is at most
//! `2 * ALLOWANCE * S` may be reported as touching; an intersecting pair never as separated.

use sepax_shapes::math::Point3;
use sepax_shapes::{Sphere, Triangle};

use crate::geometry::robust::{max_abs, norm1, unit_scale, within_reach};
use crate::geometry::triangle::point_triangle_distance_squared;

use sepax_shapes::tolerance::SPHERE_TRIANGLE_ALLOWANCE as ALLOWANCE;

/// Whether a closed ball and a closed triangle intersect (touching counts).
pub fn intersects(a: &Sphere, b: &Triangle) -> bool {
    let c = a.center();
    let [v0, v1, v2] = b.vertices().map(|v| v - c);
    let k = unit_scale(max_abs(&[&v0, &v1, &v2], &[a.radius()]));
    let [v0, v1, v2] = [v0, v1, v2].map(|v| Point3::from(v * k));
    let radius = a.radius() * k;
    let s = norm1(&v0.coords) + norm1(&v1.coords) + norm1(&v2.coords) + radius;
    let d2 = point_triangle_distance_squared(&Point3::origin(), &v0, &v1, &v2);
    within_reach(d2, radius + ALLOWANCE * s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Real;

    fn t(a: [Real; 3], b: [Real; 3], c: [Real; 3]) -> Triangle {
        Triangle::new(Point3::from(a), Point3::from(b), Point3::from(c)).unwrap()
    }
    fn s(c: [Real; 3], r: Real) -> Sphere {
        Sphere::new(Point3::from(c), r).unwrap()
    }

    #[test]
    fn cases() {
        let tr = t([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
        assert!(intersects(&s([1.0, 1.0, 2.0], 2.0), &tr)); // touching the face
        assert!(!intersects(&s([1.0, 1.0, 2.0], 1.99), &tr));
        assert!(intersects(&s([-3.0, -4.0, 0.0], 5.0), &tr)); // touching a vertex
        assert!(!intersects(&s([-3.0, -4.0, 0.0], 4.99), &tr));
        assert!(intersects(&s([1.0, 1.0, 0.0], 0.0), &tr)); // point in the face
    }

    #[test]
    fn degenerate_and_far() {
        // Collinear triangle = segment from (1e4,0,0) to (1e4+4,0,0).
        let tr = t(
            [1e4, 0.0, 0.0],
            [1e4 + 4.0, 0.0, 0.0],
            [1e4 + 1.0, 0.0, 0.0],
        );
        assert!(intersects(&s([1e4 + 2.0, 1.0, 0.0], 1.0), &tr));
        assert!(!intersects(&s([1e4 + 2.0, 1.0, 0.0], 0.9375), &tr));
        let pt = t([1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]);
        assert!(intersects(&s([1.0, 1.0, 0.0], 1.0), &pt));
        assert!(!intersects(&s([1.0, 1.0, 0.0], 0.99), &pt));
    }
}
