//! A shape placed by a rigid motion: what a collider's local shape becomes in the world.

use crate::math::{Isometry3, Point3};
use crate::shape::{Capsule, Obb, Shape, Sphere, Triangle};
use crate::ShapeError;

impl Shape {
    /// This shape (given in a local frame) placed by `pose` (rotation, then translation).
    ///
    /// The identity pose returns the shape unchanged, bit for bit; a pose without rotation
    /// (quaternion `i = j = k = 0`) only translates, so an [`crate::Aabb`] stays an AABB; a
    /// rotated AABB becomes the [`Obb`] it is. Errors (naming the shape and field) when the
    /// placed shape leaves the finite range or a rotated box's axes fail the OBB check.
    pub fn transformed(&self, pose: &Isometry3) -> Result<Shape, ShapeError> {
        let q = pose.rotation.quaternion();
        let no_rotation = q.i == 0.0 && q.j == 0.0 && q.k == 0.0;
        let t = pose.translation.vector;
        if no_rotation && t == crate::math::Vector3::zeros() {
            return Ok(*self);
        }
        let place = |p: Point3| if no_rotation { p + t } else { pose * p };
        Ok(match self {
            Shape::Aabb(b) if no_rotation => Shape::Aabb(b.translate(&t)?),
            Shape::Aabb(b) => Shape::Obb(Obb::from_rotation(
                place(b.center()),
                pose.rotation,
                b.half_extents(),
            )?),
            Shape::Obb(b) => {
                let axes = if no_rotation {
                    *b.axes()
                } else {
                    pose.rotation.to_rotation_matrix().into_inner() * b.axes()
                };
                Shape::Obb(Obb::new(place(b.center()), axes, b.half_extents())?)
            }
            Shape::Sphere(s) => Shape::Sphere(Sphere::new(place(s.center()), s.radius())?),
            Shape::Capsule(c) => {
                Shape::Capsule(Capsule::new(place(c.p0()), place(c.p1()), c.radius())?)
            }
            Shape::Triangle(tr) => {
                let [a, b, c] = tr.vertices().map(place);
                Shape::Triangle(Triangle::new(a, b, c)?)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::math::{Isometry3, Point3, Real, UnitQuaternion, Vector3};
    use crate::{Aabb, Shape, Sphere};

    #[test]
    fn identity_is_exact_and_translation_keeps_aabbs() {
        let a =
            Shape::Aabb(Aabb::new(Point3::new(0.1, 0.2, 0.3), Point3::new(1.0, 2.0, 3.0)).unwrap());
        assert_eq!(a.transformed(&Isometry3::identity()).unwrap(), a);
        let moved = a
            .transformed(&Isometry3::translation(1.0, 0.0, 0.0))
            .unwrap();
        assert!(matches!(moved, Shape::Aabb(_)));
        let r = Isometry3::from_parts(
            Vector3::zeros().into(),
            UnitQuaternion::from_euler_angles(0.0, 0.5, 0.0),
        );
        assert!(matches!(a.transformed(&r).unwrap(), Shape::Obb(_)));
    }

    #[test]
    fn rotation_moves_points() {
        let s = Shape::Sphere(Sphere::new(Point3::new(1.0, 0.0, 0.0), 0.5).unwrap());
        let half_turn = core::f64::consts::PI as Real;
        let pose = Isometry3::from_parts(
            Vector3::new(0.0, 2.0, 0.0).into(),
            UnitQuaternion::from_euler_angles(0.0, 0.0, half_turn),
        );
        let Shape::Sphere(p) = s.transformed(&pose).unwrap() else {
            panic!("a sphere stays a sphere");
        };
        assert!((p.center() - Point3::new(-1.0, 2.0, 0.0)).norm() < 1e-5);
    }

    #[test]
    fn overflow_is_an_error() {
        let s = Shape::Sphere(Sphere::new(Point3::new(Real::MAX, 0.0, 0.0), 0.5).unwrap());
        assert!(s
            .transformed(&Isometry3::translation(Real::MAX, 0.0, 0.0))
            .is_err());
    }
}
