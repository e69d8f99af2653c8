//! Shared proptest strategies and samplers for the property suites.
#![allow(dead_code)]

use proptest::prelude::*;
use sepax_shapes::math::{Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Ray, Shape, Sphere, Triangle};

/// Relative tolerance of the suites: a few thousand roundoffs, scaled by `1 + magnitude`.
pub fn tol(m: Real) -> Real {
    2048.0 * Real::EPSILON * (1.0 + m)
}

pub fn coord() -> impl Strategy<Value = Real> {
    -10.0 as Real..10.0
}

pub fn point() -> impl Strategy<Value = Point3> {
    prop::array::uniform3(coord()).prop_map(Point3::from)
}

/// A size, exactly zero a quarter of the time (flat, needle and point shapes).
pub fn size() -> impl Strategy<Value = Real> {
    prop_oneof![3 => 0.0 as Real..4.0, 1 => Just(0.0 as Real)]
}

pub fn rotation() -> impl Strategy<Value = UnitQuaternion> {
    prop::array::uniform3(-3.2 as Real..3.2)
        .prop_map(|a| UnitQuaternion::from_euler_angles(a[0], a[1], a[2]))
}

pub fn aabb() -> impl Strategy<Value = Aabb> {
    (point(), prop::array::uniform3(size()))
        .prop_map(|(c, h)| Aabb::from_center_half_extents(c, Vector3::from(h)).unwrap())
}

pub fn obb() -> impl Strategy<Value = Obb> {
    (point(), rotation(), prop::array::uniform3(size()))
        .prop_map(|(c, q, h)| Obb::from_rotation(c, q, Vector3::from(h)).unwrap())
}

pub fn sphere() -> impl Strategy<Value = Sphere> {
    (point(), size()).prop_map(|(c, r)| Sphere::new(c, r).unwrap())
}

pub fn capsule() -> impl Strategy<Value = Capsule> {
    (point(), point(), size()).prop_map(|(a, b, r)| Capsule::new(a, b, r).unwrap())
}

pub fn triangle() -> impl Strategy<Value = Triangle> {
    (point(), point(), point()).prop_map(|(a, b, c)| Triangle::new(a, b, c).unwrap())
}

pub fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        aabb().prop_map(Shape::from),
        obb().prop_map(Shape::from),
        sphere().prop_map(Shape::from),
        capsule().prop_map(Shape::from),
        triangle().prop_map(Shape::from),
    ]
}

/// Unit-cube parameters for [`sample_in`].
pub fn params() -> impl Strategy<Value = [Real; 3]> {
    prop::array::uniform3(0.0 as Real..=1.0)
}

/// A point of the shape from parameters in `[0, 1]^3` (for spheres and capsules a point of the
/// ball by direction and radius fraction; for triangles barycentric).
pub fn sample_in(s: &Shape, u: [Real; 3]) -> Point3 {
    let dir = || {
        let (th, z) = (u[0] * core::f64::consts::TAU as Real, u[1] * 2.0 - 1.0);
        let r = (1.0 - z * z).max(0.0).sqrt();
        Vector3::new(r * th.cos(), r * th.sin(), z)
    };
    match s {
        Shape::Aabb(b) => b.min() + b.extents().component_mul(&Vector3::from(u)),
        Shape::Obb(b) => {
            let l = Vector3::from(u.map(|x| 2.0 * x - 1.0)).component_mul(&b.half_extents());
            b.center() + b.axes() * l
        }
        Shape::Sphere(sp) => sp.center() + dir() * (sp.radius() * u[2]),
        Shape::Capsule(c) => c.p0() + (c.p1() - c.p0()) * u[2] + dir() * (c.radius() * u[2]),
        Shape::Triangle(t) => {
            let (a, b) = if u[0] + u[1] > 1.0 {
                (1.0 - u[0], 1.0 - u[1])
            } else {
                (u[0], u[1])
            };
            t.a() + (t.b() - t.a()) * a + (t.c() - t.a()) * b
        }
    }
}

/// The largest absolute coordinate of the shape's bounds.
pub fn magnitude(s: &Shape) -> Real {
    let b = s.world_aabb();
    b.min().coords.amax().max(b.max().coords.amax())
}

/// A ray from `origin` toward `target` (or along x when they coincide), unlimited.
pub fn ray_toward(origin: Point3, target: Point3) -> Ray {
    let d = target - origin;
    let d = if d.norm() > 1e-3 { d } else { Vector3::x() };
    Ray::new(origin, d, Real::INFINITY).unwrap()
}
