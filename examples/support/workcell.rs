//! The workcell of `examples/robot_trajectory.rs`: the arm of `arm.rs` on its table, a post, a
//! cable beside the pick point, and four candidate trajectories.

#![allow(dead_code)]

use crate::arm::{self, Config, LINK_NAMES};
use sepax_shapes::math::{Isometry3, Point3, Real};
use sepax_world::{
    ColliderId, Serial, Sweep, TrajectoryOptions, TrajectoryReport, TrajectoryResult, World,
};

/// Waypoints per trajectory.
pub const STEPS: usize = 6;

/// The workcell and the four candidate trajectories.
pub struct Workcell {
    /// The world: arm, table, a post, a cable.
    pub world: World,
    /// The arm's links, base first.
    pub links: Vec<ColliderId>,
    /// Names of the workcell's colliders.
    pub names: Vec<(ColliderId, &'static str)>,
    /// The candidates: name and link poses (`STEPS * JOINTS`).
    pub candidates: Vec<(&'static str, Vec<Isometry3>)>,
}

/// Where the gripper picks: arm turned to the side, wrist pointing down.
const PICK: Config = [-1.2, 0.9, 1.1, 0.0, 1.1, 0.0, 0.0];

impl Workcell {
    /// Builds the workcell and the candidates.
    pub fn new() -> Self {
        let mut world = World::new();
        let links = arm::insert_arm(&mut world);
        let table = arm::insert_table(&mut world, links[0]);
        // A post on the table in front of the arm.
        let post = arm::insert_rod(
            &mut world,
            Point3::new(0.55, 0.35, 0.0),
            Point3::new(0.55, 0.35, 0.6),
            0.03,
            101,
        );
        // A 1 cm cable hanging 10 cm beside the gripper at the pick pose, along its tool axis.
        let spin = |a: Real| {
            let mut q = PICK;
            q[6] = a;
            q
        };
        let p0 = arm::link_point(&PICK, 6, Point3::new(0.0, 0.10, -0.05));
        let p1 = arm::link_point(&PICK, 6, Point3::new(0.0, 0.10, 0.30));
        let cable = arm::insert_rod(&mut world, p0, p1, 0.005, 102);
        let home: Config = [0.0, 0.3, 0.6, 0.0, 0.6, 0.0, 0.0];
        let mut candidates = Vec::new();
        let mut add = |name, from: &Config, to: &Config| {
            let mut poses = Vec::new();
            arm::waypoints(from, to, STEPS, &mut poses);
            candidates.push((name, poses));
        };
        add(
            "reach over the table",
            &home,
            &[0.8, 0.5, 0.7, 0.0, 0.5, 0.0, 0.0],
        );
        add(
            "dive into the table",
            &home,
            &[0.0, 1.5, 1.4, 0.0, 0.8, 0.0, 0.0],
        );
        add(
            "fold onto itself",
            &home,
            &[0.0, 0.2, 2.9, 0.0, 2.6, 0.0, 0.0],
        );
        // At the pick pose, the wrist turns the gripper half a turn in one waypoint.
        let mut poses = Vec::new();
        for a in [0.0, 0.05, 0.1, 2.9, 2.95, 3.0] {
            poses.extend(arm::forward(&spin(a)));
        }
        candidates.push(("turn the gripper at the pick", poses));
        let mut names = vec![(table, "table"), (post, "post"), (cable, "cable")];
        names.extend(links.iter().zip(LINK_NAMES).map(|(&id, n)| (id, n)));
        Workcell {
            world,
            links,
            names,
            candidates,
        }
    }

    /// The name of a collider of the workcell.
    pub fn name(&self, id: ColliderId) -> &'static str {
        self.names
            .iter()
            .find(|(i, _)| *i == id)
            .map_or("?", |(_, n)| n)
    }

    /// Checks every candidate in one batch.
    pub fn check(&self, sweep: Sweep) -> TrajectoryReport {
        let poses: Vec<Isometry3> = self
            .candidates
            .iter()
            .flat_map(|(_, p)| p.iter().copied())
            .collect();
        let options = TrajectoryOptions {
            sweep,
            distance: Some(0.05),
            ..TrajectoryOptions::default()
        };
        self.world
            .check_trajectories(&self.links, &poses, STEPS, &options, &Serial)
            .expect("valid trajectories")
    }

    /// One line about a result.
    pub fn describe(&self, r: &TrajectoryResult) -> String {
        match r.first_hit {
            None => {
                let near = r
                    .min_distance
                    .map_or(String::from("nothing within 5 cm"), |d| {
                        format!(
                            "closest {:.1} cm ({} to {}, waypoint {})",
                            d.distance * 100.0,
                            self.name(d.pair.0),
                            self.name(d.pair.1),
                            d.step
                        )
                    });
                format!("clear; {near}")
            }
            Some(h) => {
                let when = match h.t {
                    Some(t) => format!(
                        "between waypoints {} and {} (t = {t:.2})",
                        h.step - 1,
                        h.step
                    ),
                    None => format!("at waypoint {}", h.step),
                };
                format!(
                    "COLLIDES {when}: {} with {}",
                    self.name(h.pair.0),
                    self.name(h.pair.1)
                )
            }
        }
    }
}

impl Default for Workcell {
    fn default() -> Self {
        Self::new()
    }
}
