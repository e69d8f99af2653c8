//! Single-shape queries: containment agrees with distance, closest points are closest, world
//! AABBs contain their shapes, and merged boxes contain both inputs.

use crate::common;

use common::*;
use proptest::prelude::*;
use sepax_shapes::math::{Point3, Real};
use sepax_shapes::{Plane, Segment, Shape};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn containment_agrees_with_distance(s in shape(), p in point(), u in params()) {
        for q in [p, sample_in(&s, u)] {
            let d = s.distance_to_point(&q);
            prop_assert!(d >= 0.0 && !d.is_nan());
            match s {
                // Solids: the same computed quantity decides both, so they agree exactly.
                Shape::Triangle(t) => {
                    let m = magnitude(&s).max(q.coords.amax());
                    let flat = sepax_shapes::tolerance::FLAT_CONTAINMENT_TOLERANCE * m;
                    prop_assert_eq!(t.contains_point(&q), d <= flat);
                }
                _ => prop_assert_eq!(s.contains_point(&q), d == 0.0, "{:?} {:?} {}", s, q, d),
            }
        }
    }

    #[test]
    fn closest_point_is_on_shape_and_closest(s in shape(), p in point(), u in params()) {
        let m = magnitude(&s).max(p.coords.amax());
        let c = s.closest_point(&p);
        prop_assert!(s.distance_to_point(&c) <= tol(m), "{s:?} {p:?} -> {c:?}");
        if let Shape::Triangle(t) = s {
            prop_assert!(t.contains_point(&c), "a triangle contains its own closest points");
        }
        prop_assert!(((p - c).norm() - s.distance_to_point(&p)).abs() <= tol(m));
        let q = sample_in(&s, u);
        prop_assert!((p - c).norm() <= (p - q).norm() + tol(m));
        if s.contains_point(&p) {
            prop_assert_eq!(c, p);
        }
    }

    #[test]
    fn world_aabb_contains_shape(s in shape(), us in prop::collection::vec(params(), 16)) {
        let b = s.world_aabb();
        for u in us {
            let p = sample_in(&s, u);
            prop_assert!(b.contains_point(&p), "{p:?} outside {b:?} of {s:?}");
        }
        if let Shape::Obb(o) = s {
            for c in o.corners() {
                prop_assert!(b.contains_point(&c), "corner {c:?} outside {b:?}");
            }
        }
    }

    #[test]
    fn obb_merge_contains_both(a in obb(), b in obb(), us in prop::collection::vec(params(), 8)) {
        let m = a.merge(&b);
        for o in [a, b] {
            for c in o.corners() {
                prop_assert!(m.contains_point(&c), "corner {c:?} of {o:?} not in {m:?}");
            }
            for u in &us {
                let p = sample_in(&Shape::from(o), *u);
                prop_assert!(m.contains_point(&p));
            }
        }
        // Never larger than the merged world AABB (a candidate), up to its rounding pad.
        let merged = a.world_aabb().merge(&b.world_aabb());
        let mag = merged.min().coords.amax().max(merged.max().coords.amax());
        prop_assert!(m.volume() <= merged.inflate(tol(mag)).unwrap().volume());
    }

    #[test]
    fn segment_and_plane_queries(a in point(), b in point(), p in point(), t in 0.0 as Real..=1.0) {
        let seg = Segment::new(a, b).unwrap();
        let c = seg.closest_point(&p);
        prop_assert!(seg.contains_point(&c));
        let on = a + (b - a) * t;
        prop_assert!(seg.contains_point(&on));
        prop_assert!((p - c).norm() <= (p - on).norm() + tol(10.0));
        prop_assert!(seg.world_aabb().contains_point(&on) || (b - a).norm() > 0.0 && seg.world_aabb().distance_to_point(&on) <= tol(10.0));
        if (b - a).norm() > 1e-2 {
            let pl = Plane::from_point_normal(a, b - a).unwrap();
            let q = pl.closest_point(&p);
            prop_assert!(pl.contains_point(&q));
            prop_assert!((pl.distance_to_point(&p) - pl.signed_distance(&p).abs()).abs() <= tol(20.0));
            let _ = Point3::origin();
        }
    }
}
