//! Capsule–capsule overlap: the distance between the core segments against the radius sum
//! (Ericson, *Real-Time Collision Detection*, §4.5.1, with the closest points of §5.1.9 in the
//! robust form of [`crate::geometry::segment::segment_segment_closest`]). Everything is taken
//! relative to the first capsule's `p0` first.
//!
//! Band: with `S` the sum of the 1-norms of the four end points relative to that base plus both
//! radii, a pair whose exact gap is at most `2 * ALLOWANCE * S` may be reported as touching; an
//! intersecting pair is never reported as separated. Parallel, collinear and point (`p0 == p1`)
//! cores are handled.

use sepax_shapes::math::Point3;
use sepax_shapes::Capsule;

use crate::geometry::robust::{max_abs, norm1, unit_scale, within_reach};
use crate::geometry::segment::segment_segment_distance_squared;

use sepax_shapes::tolerance::CAPSULE_CAPSULE_ALLOWANCE as ALLOWANCE;

/// Whether two closed capsules intersect (touching counts).
pub fn intersects(a: &Capsule, b: &Capsule) -> bool {
    let base = a.p0();
    let p1 = Point3::origin();
    let (q1, p2, q2) = (a.p1() - base, b.p0() - base, b.p1() - base);
    let k = unit_scale(max_abs(&[&q1, &p2, &q2], &[a.radius(), b.radius()]));
    let [q1, p2, q2] = [q1, p2, q2].map(|v| Point3::from(v * k));
    let r = (a.radius() + b.radius()) * k;
    let s = norm1(&q1.coords) + norm1(&p2.coords) + norm1(&q2.coords) + r;
    within_reach(
        segment_segment_distance_squared(&p1, &q1, &p2, &q2),
        r + ALLOWANCE * s,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Real;

    fn cap(p: [Real; 3], q: [Real; 3], r: Real) -> Capsule {
        Capsule::new(Point3::from(p), Point3::from(q), r).unwrap()
    }

    #[test]
    fn cases() {
        let a = cap([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], 0.5);
        assert!(intersects(&a, &cap([2.0, -1.0, 1.0], [2.0, 1.0, 1.0], 0.5))); // crossing, touching
        assert!(!intersects(
            &a,
            &cap([2.0, -1.0, 1.0], [2.0, 1.0, 1.0], 0.49)
        ));
        assert!(intersects(&a, &cap([0.0, 2.0, 0.0], [4.0, 2.0, 0.0], 1.5))); // parallel, touching
        assert!(!intersects(
            &a,
            &cap([0.0, 2.0, 0.0], [4.0, 2.0, 0.0], 1.49)
        ));
        assert!(intersects(&a, &cap([7.0, 4.0, 0.0], [9.0, 4.0, 0.0], 4.5))); // end to end: 3-4-5
        assert!(!intersects(
            &a,
            &cap([7.0, 4.0, 0.0], [9.0, 4.0, 0.0], 4.49)
        ));
    }

    #[test]
    fn degenerate_and_far() {
        // Both capsules are spheres (p0 == p1), far from the origin.
        let a = cap([1e4, 1e4, 1e4], [1e4, 1e4, 1e4], 0.5);
        assert!(intersects(
            &a,
            &cap([1e4 + 1.0, 1e4, 1e4], [1e4 + 1.0, 1e4, 1e4], 0.5)
        ));
        assert!(!intersects(
            &a,
            &cap([1e4 + 1.0, 1e4, 1e4], [1e4 + 1.0, 1e4, 1e4], 0.4375)
        ));
        // Collinear segments, radius 0, touching end to end.
        let a = cap([1e4, 0.0, 0.0], [1e4 + 1.0, 0.0, 0.0], 0.0);
        assert!(intersects(
            &a,
            &cap([1e4 + 1.0, 0.0, 0.0], [1e4 + 3.0, 0.0, 0.0], 0.0)
        ));
        assert!(!intersects(
            &a,
            &cap([1e4 + 1.0078125, 0.0, 0.0], [1e4 + 3.0, 0.0, 0.0], 0.0)
        ));
    }
}
