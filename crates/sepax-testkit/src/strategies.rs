//! proptest strategies shared by the property suites of the round shapes and distances.

use proptest::prelude::*;
use sepax_shapes::math::{Point3, Quaternion, Real, UnitQuaternion};

/// A coordinate in `[-4, 4)`.
pub fn coord() -> impl Strategy<Value = Real> {
    -4.0 as Real..4.0 as Real
}

/// A point with coordinates from [`coord`].
pub fn point() -> impl Strategy<Value = Point3> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| Point3::new(x, y, z))
}

/// A size (radius or half-extent) in `[0, 2)`, exactly 0 in about half the cases.
pub fn size() -> impl Strategy<Value = Real> {
    prop_oneof![Just(0.0 as Real), 0.0 as Real..2.0 as Real]
}

/// A rotation: a random quaternion (norm above 0.1 before normalising).
pub fn rotation() -> impl Strategy<Value = UnitQuaternion> {
    (-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0).prop_filter_map(
        "zero quaternion",
        |(w, x, y, z)| {
            let n = (w * w + x * x + y * y + z * z).sqrt();
            (n > 0.1).then(|| {
                UnitQuaternion::new_normalize(Quaternion::new(
                    w as Real, x as Real, y as Real, z as Real,
                ))
            })
        },
    )
}
