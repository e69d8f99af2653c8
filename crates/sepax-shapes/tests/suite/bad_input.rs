//! Bad input: every checked constructor rejects NaN, infinities, negative sizes, bad axes and
//! non-unit quaternions with a message naming shape and field; every public function that takes
//! numbers survives NaN and infinities without panicking.

use sepax_shapes::math::{
    Isometry3, Matrix2, Matrix3, Matrix4, Point2, Point3, Quaternion, Real, UnitQuaternion,
    Vector2, Vector3,
};
use sepax_shapes::{
    Aabb, Aabb2, Capsule, CullMode, Frustum, Obb, Obb2, Plane, Ray, Segment, Shape, ShapeError,
    Sphere, Triangle,
};

const NAN: Real = Real::NAN;
const INF: Real = Real::INFINITY;

fn p(x: Real, y: Real, z: Real) -> Point3 {
    Point3::new(x, y, z)
}
fn v(x: Real, y: Real, z: Real) -> Vector3 {
    Vector3::new(x, y, z)
}

#[track_caller]
fn rejects<T: std::fmt::Debug>(r: Result<T, ShapeError>, expected: &str) {
    let msg = r.expect_err("accepted bad input").to_string();
    assert!(msg.contains(expected), "message {msg:?} lacks {expected:?}");
}

#[test]
fn constructors_name_shape_and_field() {
    let o = Point3::origin();
    let one = Vector3::repeat(1.0);
    rejects(Aabb::new(p(NAN, 0.0, 0.0), o), "Aabb: min[0] is not finite");
    rejects(
        Aabb::new(o, p(0.0, INF, 0.0)),
        "Aabb: max[1] is not finite (found inf)",
    );
    rejects(
        Aabb::new(o, p(0.0, 0.0, -INF)),
        "Aabb: max[2] is not finite (found -inf)",
    );
    rejects(
        Aabb::new(p(0.0, 0.0, 1.0), o),
        "Aabb: min[2] = 1 is greater than max[2] = 0",
    );
    rejects(
        Aabb::from_center_half_extents(o, v(-1.0, 0.0, 0.0)),
        "Aabb: half_extents[0] must be >= 0",
    );
    rejects(
        Aabb::from_points(&[o, p(NAN, 0.0, 0.0)]),
        "Aabb: points[0] is not finite",
    );

    let i = Matrix3::identity();
    rejects(
        Obb::new(p(0.0, NAN, 0.0), i, one),
        "Obb: center[1] is not finite",
    );
    rejects(
        Obb::new(o, Matrix3::from_diagonal_element(INF), one),
        "Obb: axes[0] is not finite",
    );
    rejects(
        Obb::new(o, i, v(1.0, -0.5, 1.0)),
        "Obb: half_extents[1] must be >= 0",
    );
    rejects(
        Obb::new(o, i, v(1.0, 1.0, INF)),
        "Obb: half_extents[2] is not finite",
    );
    rejects(
        Obb::new(o, Matrix3::from_diagonal(&v(1.0, 2.0, 1.0)), one),
        "Obb: axes[1] is not unit length",
    );
    let skew = Matrix3::new(1.0, 0.1, 0.0, 0.0, 0.995, 0.0, 0.0, 0.0, 1.0);
    rejects(
        Obb::new(o, skew, one),
        "Obb: axes[0] and axes[1] are not orthogonal",
    );
    rejects(
        Obb::from_quaternion(o, Quaternion::new(2.0, 0.0, 0.0, 0.0), one),
        "Obb: rotation is not a unit quaternion",
    );
    rejects(
        Obb::from_quaternion(o, Quaternion::new(NAN, 0.0, 0.0, 0.0), one),
        "Obb: rotation[0] is not finite",
    );
    rejects(
        Obb::new(p(Real::MAX, 0.0, 0.0), i, v(Real::MAX, 0.0, 0.0)),
        "Obb: half_extents is degenerate",
    );

    rejects(
        Sphere::new(o, -1.0),
        "Sphere: radius must be >= 0 (found -1)",
    );
    rejects(Sphere::new(o, NAN), "Sphere: radius is not finite");
    rejects(
        Sphere::new(p(INF, 0.0, 0.0), 1.0),
        "Sphere: center[0] is not finite",
    );
    rejects(
        Capsule::new(o, p(0.0, 0.0, NAN), 1.0),
        "Capsule: p1[2] is not finite",
    );
    rejects(Capsule::new(o, o, -INF), "Capsule: radius is not finite");
    rejects(Capsule::new(o, o, -2.0), "Capsule: radius must be >= 0");
    rejects(
        Segment::new(p(NAN, 0.0, 0.0), o),
        "Segment: a[0] is not finite",
    );
    rejects(
        Triangle::new(o, o, p(0.0, -INF, 0.0)),
        "Triangle: c[1] is not finite",
    );
    rejects(
        Ray::new(o, Vector3::zeros(), 1.0),
        "Ray: direction is degenerate",
    );
    rejects(
        Ray::new(o, Vector3::x(), NAN),
        "Ray: max_distance is not finite",
    );
    rejects(
        Ray::new(o, Vector3::x(), -1.0),
        "Ray: max_distance must be >= 0",
    );
    rejects(
        Ray::new(p(0.0, 0.0, NAN), Vector3::x(), 1.0),
        "Ray: origin[2] is not finite",
    );
    rejects(
        Plane::new(Vector3::zeros(), 1.0),
        "Plane: normal is degenerate",
    );
    rejects(Plane::new(Vector3::x(), NAN), "Plane: d is not finite");
    rejects(
        Plane::from_point_normal(o, v(INF, 0.0, 0.0)),
        "Plane: normal[0] is not finite",
    );

    let o2 = Point2::origin();
    rejects(
        Aabb2::new(Point2::new(NAN, 0.0), o2),
        "Aabb2: min[0] is not finite",
    );
    rejects(
        Aabb2::new(Point2::new(1.0, 0.0), o2),
        "Aabb2: min[0] = 1 is greater than max[0] = 0",
    );
    rejects(
        Aabb2::from_center_half_extents(o2, Vector2::new(0.0, -1.0)),
        "Aabb2: half_extents[1] must be >= 0",
    );
    rejects(
        Obb2::new(o2, Matrix2::identity() * 2.0, Vector2::zeros()),
        "Obb2: axes[0] is not unit length",
    );
    rejects(
        Obb2::new(o2, Matrix2::new(1.0, 0.5, 0.0, 0.866), Vector2::zeros()),
        "Obb2: axes[0] and axes[1] are not orthogonal",
    );
    rejects(
        Obb2::new(o2, Matrix2::identity(), Vector2::new(-1.0, 0.0)),
        "Obb2: half_extents[0] must be >= 0",
    );
    rejects(
        Obb2::from_angle(o2, INF, Vector2::zeros()),
        "Obb2: angle is not finite",
    );

    rejects(
        Frustum::from_view_projection(&Matrix4::from_element(NAN)),
        "Frustum: view_projection[0] is not finite",
    );
    rejects(
        Frustum::from_view_projection(&Matrix4::zeros()),
        "Frustum: view_projection is degenerate",
    );
    rejects(
        Frustum::from_camera(o, -Vector3::z(), Vector3::y(), 0.0, 1.0, 1.0, 2.0),
        "Frustum: vertical_fov_radians is degenerate",
    );
    rejects(
        Frustum::from_camera(o, -Vector3::z(), Vector3::y(), 1.0, -1.0, 1.0, 2.0),
        "Frustum: aspect is degenerate",
    );
    rejects(
        Frustum::from_camera(o, -Vector3::z(), Vector3::y(), 1.0, 1.0, 1.0, INF),
        "Frustum: far is not finite",
    );
    rejects(
        Frustum::from_camera(o, -Vector3::z(), -Vector3::z(), 1.0, 1.0, 1.0, 2.0),
        "Frustum: up is degenerate (parallel to forward)",
    );

    let b = Aabb::new(o, p(1.0, 1.0, 1.0)).unwrap();
    rejects(b.inflate(NAN), "Aabb: margin is not finite");
    rejects(
        b.translate(&v(INF, 0.0, 0.0)),
        "Aabb: offset[0] is not finite",
    );
    let ob = Obb::from_aabb(&b);
    rejects(ob.inflate(NAN), "Obb: margin is not finite");
    rejects(
        ob.translate(&v(0.0, NAN, 0.0)),
        "Obb: offset[1] is not finite",
    );
    rejects(
        ob.rotate_about_point(&UnitQuaternion::identity(), &p(NAN, 0.0, 0.0)),
        "Obb: pivot[0] is not finite",
    );
    rejects(
        Obb::from_transformed_aabb(&b, &Isometry3::identity(), &v(NAN, 1.0, 1.0)),
        "Obb: scale[0] is not finite",
    );
}

/// Shapes with extreme but valid values, then every query with NaN, infinite and extreme points.
#[test]
fn nan_and_infinity_never_panic() {
    let m = Real::MAX / 4.0;
    let bad = [
        NAN,
        INF,
        -INF,
        Real::MAX,
        -Real::MAX,
        Real::MIN_POSITIVE,
        0.0,
    ];
    let pts: Vec<Point3> = bad
        .iter()
        .flat_map(|&x| [p(x, 0.0, 1.0), p(x, x, x)])
        .collect();
    let aabb = Aabb::new(p(-m, -m, -m), p(m, m, m)).unwrap();
    let obb = Obb::from_rotation(
        p(m, 0.0, -m),
        UnitQuaternion::from_euler_angles(0.1, 0.2, 0.3),
        v(m / 2.0, 0.0, 1.0),
    )
    .unwrap();
    let shapes = [
        Shape::from(aabb),
        Shape::from(obb),
        Shape::from(Sphere::new(p(-m, m, 0.0), m).unwrap()),
        Shape::from(Capsule::new(p(-m, 0.0, 0.0), p(m, m, 0.0), m).unwrap()),
        Shape::from(
            Triangle::new(
                p(-m, 0.0, 0.0),
                p(m, 0.0, 0.0),
                p(0.0, 0.0, Real::MIN_POSITIVE),
            )
            .unwrap(),
        ),
    ];
    let plane = Plane::new(v(1.0, 1.0, 0.0), m).unwrap();
    let seg = Segment::new(p(-m, -m, 0.0), p(m, m, m)).unwrap();
    let frustum = Frustum::from_camera(
        p(m, 0.0, 0.0),
        v(1.0, 1.0, 0.0),
        Vector3::z(),
        1.0,
        1.0,
        1e-30,
        m,
    )
    .unwrap();
    let rays: Vec<Ray> = [p(-Real::MAX, 0.0, 0.0), p(0.0, 0.0, 0.0), p(m, m, m)]
        .iter()
        .flat_map(|o| {
            [
                v(1.0, 0.0, 0.0),
                v(Real::MAX, -Real::MAX, 1.0),
                v(1e-38, 0.0, 0.0),
            ]
            .map(|d| Ray::new(*o, d, INF).unwrap())
        })
        .collect();
    for s in &shapes {
        let _ = s.world_aabb();
        for q in &pts {
            let _ = (
                s.contains_point(q),
                s.closest_point(q),
                s.distance_to_point(q),
            );
            let _ = Segment::new(*q, p(0.0, 0.0, 0.0)).map(|sg| s.cast_segment(&sg));
        }
        for r in &rays {
            if let Some(h) = s.cast_ray(r) {
                assert!(
                    !h.distance.is_nan() && h.normal.iter().all(|x| !x.is_nan()),
                    "{s:?} {r:?} {h:?}"
                );
            }
        }
        let _ = s.cast_segment(&seg);
        for other in &shapes {
            if let (Shape::Obb(a), Shape::Obb(b)) = (s, other) {
                let _ = a.merge(b);
            }
        }
        let cull = |mode| match s {
            Shape::Aabb(b) => Some(frustum.cull_aabb(b, mode)),
            Shape::Obb(b) => Some(frustum.cull_obb(b, mode)),
            Shape::Sphere(b) => Some(frustum.cull_sphere(b, mode)),
            _ => None,
        };
        let _ = (cull(CullMode::Planes), cull(CullMode::Exact));
    }
    let _ = obb.merge(&Obb::from_aabb(&aabb));
    for q in &pts {
        let _ = (
            plane.contains_point(q),
            plane.closest_point(q),
            plane.distance_to_point(q),
            plane.signed_distance(q),
        );
        let _ = (
            seg.contains_point(q),
            seg.closest_point(q),
            seg.distance_to_point(q),
        );
        let _ = (
            frustum.contains_point(q),
            frustum.closest_point(q),
            frustum.distance_to_point(q),
        );
        let _ = (
            aabb.contains_point(q),
            aabb.distance_squared_to_point(q),
            obb.to_local(q),
        );
        let _ = obb.rotate_about_point(&UnitQuaternion::identity(), q);
        let _ = (
            Aabb::from_points(&[*q]),
            aabb.translate(&q.coords),
            obb.translate(&q.coords),
        );
        let _ = Aabb::enclosing_rotated(q, &Matrix3::identity(), &v(1.0, 1.0, 1.0));
        let _ = Plane::from_point_normal(*q, q.coords);
        let _ = Frustum::from_camera(*q, q.coords, Vector3::y(), q.x, q.y, q.z, q.x);
    }
    for x in bad {
        let _ = (
            aabb.inflate(x),
            obb.inflate(x),
            Ray::new(Point3::origin(), Vector3::x(), x).map(|r| r.point_at(x)),
        );
        let _ = (
            Obb2::from_angle(Point2::origin(), x, Vector2::repeat(1.0)),
            Aabb2::new(Point2::new(x, x), Point2::new(x, x)),
        );
        let _ = Obb::from_quaternion(
            Point3::origin(),
            Quaternion::new(x, 0.0, 0.0, 0.0),
            v(1.0, 1.0, 1.0),
        );
        let _ = Obb::from_rotation(
            Point3::origin(),
            UnitQuaternion::new_unchecked(Quaternion::new(x, x, 0.0, 0.0)),
            v(1.0, 1.0, 1.0),
        );
        let _ = aabb.transformed(&Isometry3::translation(x, 0.0, 0.0));
        let _ = Frustum::from_view_projection(&Matrix4::from_element(x));
        let _ = Plane::new(v(x, 1.0, 0.0), x);
        let q2 = Point2::new(x, 1.0);
        let b2 = Aabb2::new(Point2::new(-m, -m), Point2::new(m, m)).unwrap();
        let o2 = Obb2::from_angle(Point2::new(m, 0.0), 0.7, Vector2::new(m / 2.0, 1.0)).unwrap();
        let _ = (
            b2.contains_point(&q2),
            b2.closest_point(&q2),
            b2.distance_to_point(&q2),
            b2.merge(&b2),
            b2.corners(),
        );
        let _ = (
            o2.contains_point(&q2),
            o2.closest_point(&q2),
            o2.distance_to_point(&q2),
            o2.to_local(&q2),
            o2.world_aabb(),
        );
        let _ = (
            o2.intersects_obb2(&o2),
            o2.intersects_aabb2(&b2),
            b2.intersects_obb2(&o2),
            b2.intersects_aabb2(&b2),
            o2.merge(&Obb2::from_aabb2(&b2)),
        );
    }
}
