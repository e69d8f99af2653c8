//! A robot planner's collision check: four candidate trajectories of a 7-joint arm (boxes and
//! capsules, forward kinematics in `examples/support/arm.rs`) checked in one batch against
//! the arm's workcell and against the arm itself, adjacent links switched off in the
//! allowed-collision matrix. The check runs twice: at the waypoints only (what most planners
//! do), then swept, which also checks the motion between waypoints and finds the contact a
//! fast wrist turn makes with a cable hanging beside the pick point. `tests/robot_trajectory.rs`
//! runs it and checks its findings.
//!
//! ```text
//! cargo run --release --example robot_trajectory
//! ```

#[path = "support/arm.rs"]
mod arm;
#[path = "support/workcell.rs"]
mod workcell;

use arm::JOINTS;
use sepax::world::Sweep;
use workcell::{Workcell, STEPS};

fn main() {
    let cell = Workcell::new();
    println!(
        "A {JOINTS}-link arm, {} candidate trajectories of {STEPS} waypoints, {} colliders in the world.",
        cell.candidates.len(),
        cell.world.len()
    );
    for (title, sweep) in [
        ("Checked at the waypoints only:", Sweep::Discrete),
        (
            "Checked swept (the motion between waypoints too):",
            Sweep::Swept,
        ),
    ] {
        println!("\n{title}");
        let report = cell.check(sweep);
        for ((name, _), r) in cell.candidates.iter().zip(&report.trajectories) {
            println!("  {name:<30} {}", cell.describe(r));
        }
    }
}
