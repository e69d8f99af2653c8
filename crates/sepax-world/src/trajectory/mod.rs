//! Trajectory checks for robots: B trajectories of T steps of M moving colliders (the links),
//! each step checked against the rest of the world and against the other links of the same
//! step (self-collision), through the world's filter, pair policy and allowed-pair entries.
//!
//! - [`crate::World::check_trajectories`]: typed poses, a [`TrajectoryReport`] back.
//! - [`crate::World::check_trajectories_raw`]: poses as `[x, y, z, qw, qx, qy, qz]` rows and
//!   one [`TrajectoryResult`] written per trajectory into the caller's slice (the form a
//!   binding wraps).
//!
//! Poses are row-major: pose `(b * T + k) * M + m` is link `m` (`movers[m]`) at step `k` of
//! trajectory `b`. A link's own world pose is ignored; its local shape is placed at each pose.
//!
//! In [`Sweep::Swept`] mode the motion from step `k - 1` to step `k` is checked too: each
//! link's shape centre (box centre, sphere centre, capsule midpoint, triangle centroid) moves
//! on the straight line between its two positions while the link turns along the shortest arc
//! between its two orientations, at constant rates, and `t` in `[0, 1]` is the fraction of
//! that motion at first contact (from [`sepax_narrowphase::toi::time_of_impact`], never later
//! than the exact one). Step 0 is checked at its poses only.
//!
//! Trajectories are independent jobs on the given [`crate::Executor`], so the report is the
//! same for every executor and thread count.

mod check;
mod error;
mod input;
mod motion;

pub use error::TrajectoryError;

use crate::id::PairKey;
use sepax_shapes::math::Real;

/// Whether the motion between steps is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sweep {
    /// Each step at its poses only (what waypoint checkers do: a contact between two steps
    /// is missed).
    #[default]
    Discrete,
    /// The poses of each step and the motion from the step before (see the module docs).
    Swept,
}

/// What [`crate::World::check_trajectories`] looks for.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TrajectoryOptions {
    /// Discrete or swept (default discrete).
    pub sweep: Sweep,
    /// Report every colliding (step, pair) instead of stopping a trajectory at its first
    /// colliding step (default false).
    pub all_hits: bool,
    /// Also report the smallest distance between the pairs that are within this distance at
    /// the steps' poses (`None`, the default: no distances). Must be finite and `>= 0`.
    pub distance: Option<Real>,
}

/// A contact of a trajectory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrajectoryHit {
    /// The step (from 0).
    pub step: usize,
    /// The two colliders: a link and a collider of the world, or two links (self-collision).
    pub pair: PairKey,
    /// In swept mode at steps `>= 1`, the fraction of the motion from step `step - 1` at first
    /// contact; `None` for a contact found at the step's poses in discrete mode or at step 0.
    pub t: Option<Real>,
}

/// The smallest distance of a trajectory (among pairs within the asked distance).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrajectoryDistance {
    /// The distance (0 for touching shapes).
    pub distance: Real,
    /// The step where it is smallest (the first such step, then the smallest pair).
    pub step: usize,
    /// The pair.
    pub pair: PairKey,
}

/// The answer for one trajectory.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrajectoryResult {
    /// The first colliding step and its first contact: in swept mode the smallest `t`, then
    /// the smallest pair; otherwise the smallest pair. `None` when the trajectory is free.
    pub first_hit: Option<TrajectoryHit>,
    /// With [`TrajectoryOptions::all_hits`], every contact, sorted by step then pair (one per
    /// pair and step); otherwise empty.
    pub hits: Vec<TrajectoryHit>,
    /// With [`TrajectoryOptions::distance`], the smallest distance at the poses of the steps
    /// checked (in first-hit mode, up to the first colliding step); `None` when no pair came
    /// within the distance.
    pub min_distance: Option<TrajectoryDistance>,
}

/// The answers of a batch, one per trajectory in input order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrajectoryReport {
    /// One result per trajectory.
    pub trajectories: Vec<TrajectoryResult>,
}

impl TrajectoryReport {
    /// Whether any trajectory collides.
    pub fn any_hit(&self) -> bool {
        self.trajectories.iter().any(|r| r.first_hit.is_some())
    }
}
