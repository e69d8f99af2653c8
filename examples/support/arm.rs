//! A 7-joint arm of boxes and capsules on a table, its forward kinematics, and the world it
//! works in: shared by `examples/robot_trajectory.rs`, its test and the trajectory bench.
//! Written against `sepax_world` and `sepax_shapes` only, so that the world crate's bench can
//! include it too.

#![allow(dead_code)]

use sepax_shapes::math::{Isometry3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape};
use sepax_world::{ColliderDesc, ColliderId, Kind, World};

/// Joints (and links) of the arm.
pub const JOINTS: usize = 7;

/// A joint configuration (radians).
pub type Config = [Real; JOINTS];

/// Link names, base first.
pub const LINK_NAMES: [&str; JOINTS] = [
    "base",
    "upper arm",
    "forearm",
    "wrist",
    "wrist 2",
    "flange",
    "gripper",
];

/// Joint `i` turns about this axis of the frame of link `i - 1`'s end (the base's joint
/// about the table's z).
const AXES: [Vector3; JOINTS] = [
    Vector3::new(0.0, 0.0, 1.0),
    Vector3::new(0.0, 1.0, 0.0),
    Vector3::new(0.0, 1.0, 0.0),
    Vector3::new(0.0, 0.0, 1.0),
    Vector3::new(0.0, 1.0, 0.0),
    Vector3::new(0.0, 1.0, 0.0),
    Vector3::new(0.0, 0.0, 1.0),
];

/// Length of each link along its local z (joint `i + 1` sits at its end).
const LENGTHS: [Real; JOINTS] = [0.30, 0.35, 0.30, 0.14, 0.10, 0.08, 0.06];

/// Where the base stands: on the table top (z = 0) at the origin.
pub fn base_pose() -> Isometry3 {
    Isometry3::identity()
}

/// The local shape of link `i`: boxes for the base, the wrist and the gripper (a paddle
/// 30 cm across its local x), capsules for the rest, each from its joint along local z.
pub fn link_shape(i: usize) -> Shape {
    let l = LENGTHS[i];
    let column = |hx: Real, hy: Real| {
        Shape::Obb(
            Obb::new(
                Point3::new(0.0, 0.0, l / 2.0),
                sepax_shapes::math::Matrix3::identity(),
                Vector3::new(hx, hy, l / 2.0),
            )
            .expect("a valid box"),
        )
    };
    let rod = |r: Real| {
        Shape::Capsule(
            Capsule::new(Point3::origin(), Point3::new(0.0, 0.0, l), r).expect("a valid capsule"),
        )
    };
    match i {
        0 => column(0.08, 0.08),
        3 => column(0.05, 0.05),
        6 => column(0.15, 0.02),
        1 | 2 => rod(0.045),
        _ => rod(0.04),
    }
}

/// Forward kinematics: the pose of every link's frame (its joint) for configuration `q`.
pub fn forward(q: &Config) -> [Isometry3; JOINTS] {
    let mut poses = [Isometry3::identity(); JOINTS];
    let mut frame = base_pose();
    for i in 0..JOINTS {
        if i > 0 {
            frame *= Isometry3::translation(0.0, 0.0, LENGTHS[i - 1]);
        }
        // The axes are unit vectors: axis times angle is the rotation's scaled axis.
        frame *= UnitQuaternion::from_scaled_axis(AXES[i] * q[i]);
        poses[i] = frame;
    }
    poses
}

/// `steps` waypoints from `from` to `to`, straight in joint space, as link poses (row-major:
/// waypoint, then link), the layout `World::check_trajectories` reads.
pub fn waypoints(from: &Config, to: &Config, steps: usize, out: &mut Vec<Isometry3>) {
    for k in 0..steps {
        let s = if steps > 1 {
            k as Real / (steps - 1) as Real
        } else {
            0.0
        };
        let q: Config = core::array::from_fn(|j| from[j] + (to[j] - from[j]) * s);
        out.extend(forward(&q));
    }
}

/// Inserts the arm's links (kinematic, at configuration 0) and returns their ids, base
/// first. Adjacent links overlap at their joints by design: their pairs are switched off in
/// the world's allowed-collision matrix, every other pair of links is checked.
pub fn insert_arm(world: &mut World) -> Vec<ColliderId> {
    let home = forward(&[0.0; JOINTS]);
    let links: Vec<ColliderId> = (0..JOINTS)
        .map(|i| {
            let desc = ColliderDesc::new(link_shape(i))
                .pose(home[i])
                .kind(Kind::Kinematic)
                .user(i as u64);
            world.insert(desc).expect("a valid link")
        })
        .collect();
    for w in links.windows(2) {
        world.allow_pair(w[0], w[1], false).expect("two links");
    }
    links
}

/// The table the arm stands on: its top is z = 0. The base stands on it, so the pair is off.
pub fn insert_table(world: &mut World, base: ColliderId) -> ColliderId {
    let top = Aabb::new(Point3::new(-1.2, -1.2, -0.04), Point3::new(1.2, 1.2, 0.0)).expect("box");
    let table = world
        .insert(ColliderDesc::new(top).kind(Kind::Static).user(100))
        .expect("the table");
    world.allow_pair(base, table, false).expect("two colliders");
    table
}

/// A capsule of radius `r` from `p0` to `p1`, static.
pub fn insert_rod(world: &mut World, p0: Point3, p1: Point3, r: Real, user: u64) -> ColliderId {
    let rod = Capsule::new(p0, p1, r).expect("a valid capsule");
    world
        .insert(ColliderDesc::new(rod).kind(Kind::Static).user(user))
        .expect("the rod")
}

/// A point of link `i`'s frame at configuration `q`, in world coordinates.
pub fn link_point(q: &Config, i: usize, local: Point3) -> Point3 {
    forward(q)[i] * local
}
