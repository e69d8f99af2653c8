//! 2D boxes: SAT agrees with sampling, containment with closest points, merges contain both.

use proptest::prelude::*;
use sepax_shapes::math::{Point2, Real, Vector2};
use sepax_shapes::{Aabb2, Obb2};

fn obb2() -> impl Strategy<Value = Obb2> {
    (
        prop::array::uniform2(-5.0 as Real..5.0),
        -4.0 as Real..4.0,
        prop::array::uniform2(0.0 as Real..3.0),
    )
        .prop_map(|(c, a, h)| Obb2::from_angle(Point2::from(c), a, Vector2::from(h)).unwrap())
}

fn sample(b: &Obb2, u: [Real; 2]) -> Point2 {
    b.center()
        + b.axes()
            * Vector2::new(
                (2.0 * u[0] - 1.0) * b.half_extents().x,
                (2.0 * u[1] - 1.0) * b.half_extents().y,
            )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A point in both boxes means they intersect; separated boxes have no common sample, and
    /// their closest points are apart.
    #[test]
    fn sat_agrees_with_points(a in obb2(), b in obb2(), us in prop::collection::vec(prop::array::uniform2(0.0 as Real..=1.0), 32)) {
        let hit = a.intersects_obb2(&b);
        prop_assert_eq!(hit, b.intersects_obb2(&a));
        for u in &us {
            let p = sample(&a, *u);
            if b.distance_to_point(&p) == 0.0 {
                prop_assert!(hit, "{p:?} in both");
            }
        }
        // A separating gap: the distance from b's closest point to a is positive along the way.
        if !hit {
            for u in &us {
                prop_assert!(b.distance_to_point(&sample(&a, *u)) > 0.0);
            }
        }
        let wa = a.world_aabb();
        let wb = b.world_aabb();
        if hit {
            prop_assert!(wa.intersects_aabb2(&wb));
        }
        prop_assert_eq!(wa.intersects_obb2(&b), Obb2::from_aabb2(&wa).intersects_obb2(&b));
    }

    #[test]
    fn queries(a in obb2(), p in prop::array::uniform2(-10.0 as Real..10.0), u in prop::array::uniform2(0.0 as Real..=1.0)) {
        let p = Point2::from(p);
        prop_assert_eq!(a.contains_point(&p), a.distance_to_point(&p) == 0.0);
        let c = a.closest_point(&p);
        prop_assert!(a.distance_to_point(&c) <= 1e-4);
        prop_assert!((p - c).norm() <= (p - sample(&a, u)).norm() + 1e-4);
        let w = a.world_aabb();
        for q in a.corners() {
            prop_assert!(w.contains_point(&q));
        }
        prop_assert!(w.contains_point(&sample(&a, u)));
        let ab = Aabb2::new(w.min(), w.max()).unwrap();
        prop_assert_eq!(ab.contains_point(&p), ab.distance_to_point(&p) == 0.0);
    }

    #[test]
    fn merge_contains_both(a in obb2(), b in obb2(), us in prop::collection::vec(prop::array::uniform2(0.0 as Real..=1.0), 8)) {
        let m = a.merge(&b);
        for o in [a, b] {
            for q in o.corners() {
                prop_assert!(m.contains_point(&q), "{q:?} not in {m:?}");
            }
            for u in &us {
                prop_assert!(m.contains_point(&sample(&o, *u)));
            }
        }
        let (wa, wb) = (a.world_aabb(), b.world_aabb());
        let mm = wa.merge(&wb);
        for q in wa.corners().iter().chain(wb.corners().iter()) {
            prop_assert!(mm.contains_point(q));
        }
    }
}
