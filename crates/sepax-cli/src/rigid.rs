//! The rigid motion that takes a scene shape from one placement to another of the same size
//! (what a frame's placement means for `play --trajectory`): its centre moved (box centre,
//! sphere centre, capsule midpoint, triangle centroid) and its orientation turned.
//!
//! The orientation of a box is its axes (made orthonormal, right-handed: a box is symmetric,
//! so a flipped axis is the same box), of a triangle the frame of its first edge and its
//! normal (so a mirrored copy is a half turn about an edge, as it is for a flat shape), of a
//! capsule its axis (the turn from one to the other along the shortest arc); spheres and
//! AABBs only move.

use sepax_shapes::math::{Isometry3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::Shape;

/// The centre the motion moves on a straight line.
fn centre(s: &Shape) -> Point3 {
    match s {
        Shape::Aabb(b) => b.center(),
        Shape::Obb(b) => b.center(),
        Shape::Sphere(b) => b.center(),
        Shape::Capsule(c) => Point3::from((c.p0().coords + c.p1().coords) * 0.5),
        Shape::Triangle(t) => Point3::from((t.a().coords + t.b().coords + t.c().coords) / 3.0),
    }
}

/// A right-handed orthonormal frame whose first two columns span `u`, `v` (Gram-Schmidt);
/// `None` when they are (nearly) parallel or zero.
fn frame(u: Vector3, v: Vector3) -> Option<UnitQuaternion> {
    let e1 = u.try_normalize(Real::EPSILON)?;
    let n = u.cross(&v).try_normalize(Real::EPSILON)?;
    let e2 = n.cross(&e1);
    Some(UnitQuaternion::from_basis_unchecked(&[e1, e2, n]))
}

/// The shortest turn from direction `a` to direction `b` (identity when either is zero; a half
/// turn about a perpendicular axis when they are opposite).
fn turn_between(a: Vector3, b: Vector3) -> UnitQuaternion {
    if a == Vector3::zeros() || b == Vector3::zeros() {
        return UnitQuaternion::identity();
    }
    UnitQuaternion::rotation_between(&a, &b).unwrap_or_else(|| {
        let side = if a.x.abs() < a.y.abs() {
            Vector3::x()
        } else {
            Vector3::y()
        };
        let axis = a.cross(&side);
        UnitQuaternion::from_scaled_axis(axis.normalize() * core::f64::consts::PI as Real)
    })
}

/// The turn from `from`'s orientation to `to`'s.
fn turn(from: &Shape, to: &Shape) -> UnitQuaternion {
    match (from, to) {
        (Shape::Obb(a), Shape::Obb(b)) => {
            let fa = frame(a.axis(0), a.axis(1));
            let fb = frame(b.axis(0), b.axis(1));
            match (fa, fb) {
                (Some(fa), Some(fb)) => fb * fa.inverse(),
                _ => UnitQuaternion::identity(),
            }
        }
        (Shape::Capsule(a), Shape::Capsule(b)) => turn_between(a.p1() - a.p0(), b.p1() - b.p0()),
        (Shape::Triangle(a), Shape::Triangle(b)) => {
            let f = |t: &sepax_shapes::Triangle| frame(t.b() - t.a(), t.c() - t.a());
            match (f(a), f(b)) {
                (Some(fa), Some(fb)) => fb * fa.inverse(),
                // A degenerate triangle (a segment or a point): its longest direction.
                _ => turn_between(a.b() - a.a(), b.b() - b.a()),
            }
        }
        _ => UnitQuaternion::identity(),
    }
}

/// The pose that places `from` (at the identity pose) at `to`: `to`'s centre, `from` turned
/// by the orientation change. The identity for the same placement.
pub fn motion(from: &Shape, to: &Shape) -> Isometry3 {
    if from == to {
        return Isometry3::identity();
    }
    let q = turn(from, to);
    let t = centre(to) - q * centre(from);
    Isometry3::from_parts(t.into(), q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::{Capsule, Obb, Triangle};

    fn close(a: &Shape, b: &Shape) -> bool {
        let pts = |s: &Shape| -> Vec<Point3> {
            match s {
                Shape::Obb(o) => o.corners().to_vec(),
                Shape::Capsule(c) => vec![c.p0(), c.p1()],
                Shape::Triangle(t) => t.vertices().to_vec(),
                _ => vec![centre(s)],
            }
        };
        let (pa, pb) = (pts(a), pts(b));
        // Box corners may come in another order: every corner of one near some corner of the
        // other.
        pa.iter().all(|p| pb.iter().any(|q| (p - q).norm() < 1e-4))
    }

    #[test]
    fn moved_turned_and_mirrored_copies_are_reached() {
        let q = UnitQuaternion::from_euler_angles(0.3, -1.1, 2.0);
        let iso = Isometry3::from_parts(Vector3::new(1.0, -2.0, 0.5).into(), q);
        let shapes = [
            Shape::Obb(
                Obb::from_rotation(
                    Point3::new(0.2, 0.1, 0.0),
                    UnitQuaternion::identity(),
                    Vector3::new(0.5, 0.2, 0.1),
                )
                .unwrap(),
            ),
            Shape::Capsule(
                Capsule::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), 0.1).unwrap(),
            ),
            Shape::Triangle(
                Triangle::new(
                    Point3::new(0.0, 0.0, 0.0),
                    Point3::new(1.0, 0.0, 0.0),
                    Point3::new(0.2, 0.7, 0.0),
                )
                .unwrap(),
            ),
        ];
        for s in shapes {
            let to = s.transformed(&iso).unwrap();
            let back = s.transformed(&motion(&s, &to)).unwrap();
            assert!(close(&back, &to), "{s:?}");
        }
        // A capsule reversed, a triangle mirrored in its plane.
        let c = Capsule::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), 0.1).unwrap();
        let r = Capsule::new(Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 0.0, 0.0), 0.1).unwrap();
        let back = Shape::Capsule(c)
            .transformed(&motion(&Shape::Capsule(c), &Shape::Capsule(r)))
            .unwrap();
        assert!(close(&back, &Shape::Capsule(r)));
        let t = Triangle::new(
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.2, 0.7, 0.0),
        )
        .unwrap();
        let m = Triangle::new(
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.2, -0.7, 0.0),
        )
        .unwrap();
        let back = Shape::Triangle(t)
            .transformed(&motion(&Shape::Triangle(t), &Shape::Triangle(m)))
            .unwrap();
        assert!(close(&back, &Shape::Triangle(m)));
    }
}
