//! A typed `UnitQuaternion` (or an `Isometry3`'s rotation) that drifted off unit length, as a
//! game loop's orientation does when it is multiplied by a small rotation every frame, is
//! accepted by the OBB constructors after renormalising; the tolerances apply to raw axes and
//! raw quaternions only (as read from files), and a zero or non-finite quaternion stays an
//! error.

use nalgebra::Unit;
use sepax_shapes::math::{Isometry3, Point3, Quaternion, Real, UnitQuaternion, Vector3};

type Translation3 = nalgebra::Translation3<Real>;
use sepax_shapes::tolerance::QUATERNION_TOLERANCE;
use sepax_shapes::{Obb, ShapeError};

/// `frames` multiplications by a rotation of 0.01 rad about a fixed axis (no renormalisation,
/// as a naive integrator does), building a box every 1000 frames.
fn drifted(frames: usize, mut each: impl FnMut(usize, &UnitQuaternion)) -> UnitQuaternion {
    let axis = Unit::new_normalize(Vector3::new(0.3, -0.8, 0.52));
    let step = UnitQuaternion::from_axis_angle(&axis, 0.01);
    let mut q = UnitQuaternion::from_euler_angles(0.1, 0.2, 0.3);
    for k in 0..frames {
        q *= step;
        if k % 1000 == 999 {
            each(k, &q);
        }
    }
    q
}

#[test]
fn a_quaternion_multiplied_every_frame_stays_accepted() {
    let h = Vector3::new(0.5, 1.0, 2.0);
    let mut built = 0;
    let q = drifted(100_000, |k, q| {
        let pose = Isometry3::from_parts(Translation3::new(1.0, -2.0, 3.0), *q);
        let b = Obb::from_isometry(&pose, h)
            .unwrap_or_else(|e| panic!("frame {k}: |q| = {}: {e}", q.norm()));
        // The axes are those of the renormalised quaternion: orthonormal to rounding.
        assert!(
            b.axes_error() < 1e-5,
            "frame {k}: defect {}",
            b.axes_error()
        );
        let unit = UnitQuaternion::new_normalize(*q.quaternion());
        let want = unit.to_rotation_matrix().into_inner();
        assert!((b.axes() - want).amax() < 1e-5, "frame {k}");
        // The other typed-rotation entry points.
        let r = Obb::from_rotation(Point3::origin(), *q, h).unwrap();
        r.rotate_about_center(q).unwrap();
        let pivot = Point3::new(4.0, 0.0, 0.0);
        let moved = r.rotate_about_point(q, &pivot).unwrap();
        let (d0, d1) = ((r.center() - pivot).norm(), (moved.center() - pivot).norm());
        assert!(
            (d0 - d1).abs() < 1e-5 * d0,
            "frame {k}: the rotation scaled the offset"
        );
        built += 1;
    });
    assert_eq!(built, 100);
    // In f32 the drift is well past the tolerance of raw quaternions: the test bites.
    #[cfg(not(feature = "f64"))]
    assert!(
        (q.norm() - 1.0).abs() > QUATERNION_TOLERANCE,
        "|q| = {} did not drift",
        q.norm()
    );
    let _ = q;
}

#[test]
fn raw_quaternions_keep_the_tolerance_and_bad_ones_are_errors() {
    let h = Vector3::new(1.0, 1.0, 1.0);
    let c = Point3::origin();
    // A raw quaternion from a file: off unit length beyond the tolerance is an error.
    let off = Quaternion::new(1.0 + 10.0 * QUATERNION_TOLERANCE, 0.0, 0.0, 0.0);
    assert!(matches!(
        Obb::from_quaternion(c, off, h),
        Err(ShapeError::NonUnitQuaternion { .. })
    ));
    // A typed unit quaternion far off unit length (scaled by 3) is renormalised.
    let q = UnitQuaternion::from_euler_angles(0.4, -0.1, 1.2);
    let scaled = UnitQuaternion::new_unchecked(q.quaternion() * 3.0);
    let b = Obb::from_rotation(c, scaled, h).unwrap();
    assert!((b.axes() - q.to_rotation_matrix().into_inner()).amax() < 1e-6);
    // Huge and tiny components (the norm would overflow or underflow).
    for s in [1e30 as Real, 1e-30 as Real] {
        let big = UnitQuaternion::new_unchecked(q.quaternion() * s);
        let b = Obb::from_rotation(c, big, h).unwrap();
        assert!(
            (b.axes() - q.to_rotation_matrix().into_inner()).amax() < 1e-6,
            "{s}"
        );
    }
    // A unit quaternion keeps its bits.
    let b = Obb::from_rotation(c, q, h).unwrap();
    assert_eq!(*b.axes(), q.to_rotation_matrix().into_inner());
    // The zero quaternion is no rotation; non-finite components are errors.
    let zero = UnitQuaternion::new_unchecked(Quaternion::new(0.0, 0.0, 0.0, 0.0));
    assert!(matches!(
        Obb::from_rotation(c, zero, h),
        Err(ShapeError::NonUnitQuaternion { .. })
    ));
    let nan = UnitQuaternion::new_unchecked(Quaternion::new(Real::NAN, 0.0, 0.0, 0.0));
    assert!(Obb::from_rotation(c, nan, h).is_err());
    let pose = Isometry3::from_parts(Translation3::new(0.0, 0.0, 0.0), zero);
    assert!(Obb::from_isometry(&pose, h).is_err());
}
