//! Ray and segment casts: the hit lies on the surface, nothing earlier is inside, misses are
//! real misses, inside origins give distance 0, and the slab special cases.

use crate::common;

use common::*;
use proptest::prelude::*;
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Aabb, Plane, Ray, RayHit, Segment, Shape};

fn no_nan(h: &RayHit) -> bool {
    !h.distance.is_nan()
        && h.point
            .coords
            .iter()
            .chain(h.normal.iter())
            .all(|v| !v.is_nan())
}

/// Checks one cast against the shape's own point queries.
fn check_cast(s: &Shape, ray: &Ray) -> Result<(), TestCaseError> {
    let m = magnitude(s).max(ray.origin().coords.amax());
    let eps = tol(m);
    match s.cast_ray(ray) {
        Some(h) => {
            prop_assert!(no_nan(&h), "{h:?}");
            prop_assert!(h.distance >= 0.0 && h.distance <= ray.max_distance());
            prop_assert!((h.point - ray.point_at(h.distance)).norm() <= eps, "{h:?}");
            if h.distance == 0.0 {
                prop_assert!(s.contains_point(&ray.origin()));
                prop_assert_eq!(h.normal, Vector3::zeros());
                return Ok(());
            }
            // On the surface: on or in the shape, and not the origin's inside.
            prop_assert!(
                s.distance_to_point(&h.point) <= eps,
                "hit {h:?} off the shape"
            );
            prop_assert!((h.normal.norm() - 1.0).abs() <= 1e-3, "{h:?}");
            prop_assert!(
                h.normal.dot(&ray.direction()) <= eps,
                "normal faces along the ray"
            );
            // No earlier point inside.
            for k in 0..24 {
                let t = h.distance * k as Real / 24.0;
                if h.distance - t > eps {
                    prop_assert!(
                        !s.contains_point(&ray.point_at(t)),
                        "t = {t} inside before {h:?}"
                    );
                }
            }
        }
        None => {
            let reach = ray.max_distance().min(60.0);
            for k in 0..=48 {
                let p = ray.point_at(reach * k as Real / 48.0);
                prop_assert!(!s.contains_point(&p), "missed, yet {p:?} is inside");
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn cast_toward_shape(s in shape(), o in point(), u in params(), far in 0.0 as Real..40.0) {
        let target = sample_in(&s, u);
        check_cast(&s, &ray_toward(o, target))?;
        let d = target - o;
        if d.norm() > 1e-3 {
            check_cast(&s, &Ray::new(o, d, far).unwrap())?;
        }
    }

    #[test]
    fn cast_random_direction(s in shape(), o in point(), d in prop::array::uniform3(-1.0 as Real..1.0)) {
        let d = Vector3::from(d);
        prop_assume!(d.norm() > 1e-2);
        check_cast(&s, &Ray::new(o, d, Real::INFINITY).unwrap())?;
    }

    #[test]
    fn cast_from_inside(s in shape(), u in params(), d in prop::array::uniform3(-1.0 as Real..1.0)) {
        let o = sample_in(&s, u);
        let d = Vector3::from(d);
        prop_assume!(d.norm() > 1e-2 && s.contains_point(&o));
        let h = s.cast_ray(&Ray::new(o, d, 1.0).unwrap()).unwrap();
        prop_assert_eq!(h, RayHit { distance: 0.0, point: o, normal: Vector3::zeros() });
    }

    /// A segment cast is the ray cast limited to the segment; a point segment is containment.
    #[test]
    fn segment_cast_matches_ray(s in shape(), a in point(), u in params(), stretch in 0.1 as Real..2.0) {
        let b = a + (sample_in(&s, u) - a) * stretch;
        let seg = Segment::new(a, b).unwrap();
        let hit = s.cast_segment(&seg);
        if a == b {
            prop_assert_eq!(hit.is_some(), s.contains_point(&a));
        } else {
            let len = (b - a).norm();
            let ray = Ray::new(a, b - a, len).unwrap();
            check_cast(&s, &ray)?;
            if let Some(h) = hit {
                prop_assert!(h.distance <= len * (1.0 + 1e-5));
                prop_assert!((h.point - b).norm() <= len + tol(magnitude(&s)));
            }
        }
        let p = Segment::new(a, a).unwrap();
        prop_assert_eq!(s.cast_segment(&p).is_some(), s.contains_point(&a));
    }

    /// Slab special cases: origins on slab planes and zero direction components.
    #[test]
    fn aabb_slab_special_cases(
        b in aabb(),
        pick in prop::array::uniform3(0usize..4),
        free in prop::array::uniform3(-12.0 as Real..12.0),
        dpick in prop::array::uniform3(0usize..4),
        dfree in prop::array::uniform3(-1.0 as Real..1.0),
    ) {
        let o = Point3::from(Vector3::from_fn(|k, _| match pick[k] {
            0 => b.min()[k],
            1 => b.max()[k],
            _ => free[k],
        }));
        let d = Vector3::from_fn(|k, _| match dpick[k] {
            0 => 0.0,
            1 => 1.0,
            2 => -1.0,
            _ => dfree[k],
        });
        prop_assume!(d.norm() > 1e-2);
        check_cast(&Shape::from(b), &Ray::new(o, d, Real::INFINITY).unwrap())?;
        check_cast(&Shape::from(sepax_shapes::Obb::from_aabb(&b)), &Ray::new(o, d, Real::INFINITY).unwrap())?;
    }

    #[test]
    fn plane_cast(n in prop::array::uniform3(-1.0 as Real..1.0), d in coord(), o in point(), dir in prop::array::uniform3(-1.0 as Real..1.0)) {
        let n = Vector3::from(n);
        let dir = Vector3::from(dir);
        prop_assume!(n.norm() > 1e-2 && dir.norm() > 1e-2);
        let pl = Plane::new(n, d).unwrap();
        let ray = Ray::new(o, dir, Real::INFINITY).unwrap();
        match pl.cast_ray(&ray) {
            Some(h) if h.distance > 0.0 => {
                prop_assert!(pl.contains_point(&h.point), "{h:?}");
                prop_assert!((h.point - ray.point_at(h.distance)).norm() <= tol(20.0 + h.distance));
                prop_assert!(h.normal.dot(&dir) < 0.0);
            }
            Some(_) => prop_assert!(pl.contains_point(&o)),
            None => prop_assert!(pl.signed_distance(&o) * pl.normal().dot(&dir) >= 0.0),
        }
    }
}

#[test]
fn extreme_shapes_cast_without_nan() {
    let big = Real::MAX / 4.0;
    let shapes = [
        Shape::from(Aabb::new(Point3::new(-big, -big, -big), Point3::new(big, big, big)).unwrap()),
        Shape::from(sepax_shapes::Sphere::new(Point3::new(big, 0.0, 0.0), big).unwrap()),
        Shape::from(
            sepax_shapes::Capsule::new(
                Point3::new(-big, 0.0, 0.0),
                Point3::new(big, 0.0, 0.0),
                big,
            )
            .unwrap(),
        ),
        Shape::from(
            sepax_shapes::Triangle::new(
                Point3::new(-big, 0.0, 0.0),
                Point3::new(big, 0.0, 0.0),
                Point3::new(0.0, big, 0.0),
            )
            .unwrap(),
        ),
        Shape::from(
            sepax_shapes::Obb::from_rotation(
                Point3::new(big, big, 0.0),
                sepax_shapes::math::UnitQuaternion::from_euler_angles(0.3, 0.2, 0.1),
                Vector3::new(big / 2.0, 1.0, 0.0),
            )
            .unwrap(),
        ),
    ];
    let origins = [
        Point3::new(-Real::MAX, Real::MAX, 0.0),
        Point3::new(Real::MAX, 0.0, -Real::MAX),
        Point3::origin(),
        Point3::new(1e-30, -1e-30, 0.0),
    ];
    let dirs = [
        Vector3::new(1.0, -1.0, 0.0),
        Vector3::new(-1.0, 0.0, 1.0),
        Vector3::new(Real::MAX, Real::MAX, Real::MAX),
        Vector3::new(1e-30, 0.0, 0.0),
    ];
    for s in &shapes {
        for o in &origins {
            assert!(!s.distance_to_point(o).is_nan());
            assert!(
                s.closest_point(o).coords.iter().all(|v| !v.is_nan()),
                "{s:?} {o:?}"
            );
            for d in &dirs {
                let r = Ray::new(*o, *d, Real::INFINITY).unwrap();
                if let Some(h) = s.cast_ray(&r) {
                    assert!(no_nan(&h), "{s:?} {r:?} {h:?}");
                }
            }
        }
    }
}
