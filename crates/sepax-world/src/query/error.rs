//! Why a query refused its input.

use crate::error::WorldError;
use crate::id::ColliderId;

/// Why a query refused its input; nothing is reported then. `index` is the position of the
/// offending input in a batch (0 for a single query).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QueryError {
    /// The filter names a collider (`exclude` or `as_collider`) that is removed or of another
    /// world.
    #[error("query filter: {0}: stale or unknown collider id")]
    StaleId(ColliderId),
    /// A pose or a shape placed by it is invalid (the error names the field).
    #[error("query #{index}: {source}")]
    Input {
        /// Position in the batch.
        index: usize,
        /// What was wrong (its subject is `new collider #index`, the query's shape).
        source: WorldError,
    },
    /// A number is NaN or infinite, or negative where it must not be.
    #[error("query #{index}: {field} is {value}, not a finite value >= 0")]
    BadNumber {
        /// Position in the batch.
        index: usize,
        /// The field (`max_time`, `velocity`, `max_distance`, `point`).
        field: &'static str,
        /// The value found.
        value: f64,
    },
    /// Input and output slices of a batch have different lengths.
    #[error("batch: {inputs} inputs but {outputs} output slots")]
    LengthMismatch {
        /// Number of inputs.
        inputs: usize,
        /// Number of output slots.
        outputs: usize,
    },
}
