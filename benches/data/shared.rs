//! Helpers shared by the box benches (and the contact and cast profiles): random rotations and
//! the conversion of a box to parry3d's pose and cuboid.
#![allow(dead_code)]
// Real -> f32 casts are identities in the default build and needed in the f64 build.
#![allow(clippy::unnecessary_cast)]

use parry3d::math::{Pose, Rot3, Vec3};
use parry3d::shape::Cuboid;
use sepax::prelude::*;

/// A uniformly random rotation (the one of the contact benchmark's box pairs).
pub use sepax_testkit::box_pairs::random_rotation;

/// The box as parry3d sees it: a pose and a cuboid (f32).
pub fn to_parry(o: &Obb) -> (Pose, Cuboid) {
    let q = UnitQuaternion::from_matrix(o.axes());
    let c = o.center();
    let pose = Pose::from_parts(
        Vec3::new(c.x as f32, c.y as f32, c.z as f32),
        Rot3::from_xyzw(q.i as f32, q.j as f32, q.k as f32, q.w as f32),
    );
    let h = o.half_extents();
    (
        pose,
        Cuboid::new(Vec3::new(h.x as f32, h.y as f32, h.z as f32)),
    )
}
