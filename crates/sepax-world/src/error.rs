//! Errors of the world's calls: each names the collider (or the position of a new one in its
//! batch) and the field.

use core::fmt;

use crate::id::ColliderId;
use sepax_shapes::ShapeError;

/// The collider an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// A live (or stale) collider.
    Id(ColliderId),
    /// A collider being inserted: its position in the `insert_many` batch (0 for `insert`).
    New {
        /// Position in the batch, counted from 0.
        index: usize,
    },
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Id(id) => write!(f, "{id}"),
            Subject::New { index } => write!(f, "new collider #{index}"),
        }
    }
}

/// Why a world call refused its input. Nothing was changed when an error is returned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WorldError {
    /// The id is of a removed collider, or of another world.
    #[error("{0}: stale or unknown collider id")]
    StaleId(ColliderId),
    /// A number is NaN or infinite.
    #[error("{collider}: {field}[{component}] is not finite (found {value})")]
    NotFinite {
        /// The collider.
        collider: Subject,
        /// The field (`pose.translation`, `pose.rotation`).
        field: &'static str,
        /// The component index (`rotation` in `[w, x, y, z]` order).
        component: usize,
        /// The value found.
        value: f64,
    },
    /// A rotation given as raw numbers is not a unit quaternion within
    /// [`sepax_shapes::tolerance::QUATERNION_TOLERANCE`] (or a typed one has zero norm).
    #[error("{collider}: {field} is not a unit quaternion (norm {norm})")]
    NonUnitRotation {
        /// The collider.
        collider: Subject,
        /// The field.
        field: &'static str,
        /// The norm found.
        norm: f64,
    },
    /// The shape placed by the pose is invalid (it overflows the finite range, or its world
    /// box is not finite).
    #[error("{collider}: shape: {source}")]
    Shape {
        /// The collider.
        collider: Subject,
        /// The shape error.
        source: ShapeError,
    },
    /// `allow_pair` was given the same collider twice.
    #[error("{0}: a pair needs two different colliders")]
    SamePair(ColliderId),
    /// `set_poses` was given slices of different lengths.
    #[error("set_poses: {ids} ids but {poses} poses")]
    LengthMismatch {
        /// Number of ids.
        ids: usize,
        /// Number of poses.
        poses: usize,
    },
}
