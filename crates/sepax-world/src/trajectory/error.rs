//! Why a trajectory check refused its input; each error names the index at fault.

use crate::error::WorldError;
use crate::id::ColliderId;

/// A refused trajectory check. Nothing is reported when an error is returned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TrajectoryError {
    /// `movers` is empty.
    #[error("trajectory: no moving colliders")]
    NoMovers,
    /// `steps` is 0.
    #[error("trajectory: steps must be at least 1")]
    NoSteps,
    /// A mover is not a live collider.
    #[error("trajectory: movers[{index}]: {id}: stale or unknown collider id")]
    StaleMover {
        /// Position in `movers`.
        index: usize,
        /// The id.
        id: ColliderId,
    },
    /// A mover is listed twice.
    #[error("trajectory: movers[{index}] is movers[{first}] again")]
    DuplicateMover {
        /// Position of the repeat.
        index: usize,
        /// Position of the first listing.
        first: usize,
    },
    /// The number of poses is not a multiple of `steps * movers`.
    #[error("trajectory: {poses} poses is not a whole number of trajectories of {per_trajectory} (steps x movers)")]
    PoseCount {
        /// Poses given.
        poses: usize,
        /// Poses per trajectory (`usize::MAX` when `steps * movers` overflows).
        per_trajectory: usize,
    },
    /// A pose is refused (not finite, not a rotation, or the shape placed by it leaves the
    /// finite range).
    #[error("trajectory {trajectory}, step {step}, mover {mover}: poses[{index}]: {source}")]
    Pose {
        /// Position in `poses`.
        index: usize,
        /// The trajectory.
        trajectory: usize,
        /// The step.
        step: usize,
        /// The mover (position in `movers`).
        mover: usize,
        /// Why.
        source: WorldError,
    },
    /// [`crate::TrajectoryOptions::distance`] is negative or not finite.
    #[error("trajectory: distance must be finite and >= 0 (found {0})")]
    Distance(f64),
    /// The output slice of the raw form does not have one entry per trajectory.
    #[error("trajectory: out has {found} entries, {expected} trajectories")]
    OutputLength {
        /// Trajectories.
        expected: usize,
        /// Entries of `out`.
        found: usize,
    },
}
