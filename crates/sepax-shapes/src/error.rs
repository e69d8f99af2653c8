//! Construction errors. Each names the shape, the field (and component) and what was wrong.

use crate::math::Real;

/// Why a checked constructor refused its input. The message names the shape kind, the field,
/// the component where there is one, what was expected and what was found.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShapeError {
    /// A number is NaN or infinite.
    #[error("{shape}: {field}{} is not finite (found {value})", component_suffix(*.component))]
    NotFinite {
        /// The shape kind ("Obb", "Sphere", ...).
        shape: &'static str,
        /// The field name as in the constructor (and the scene format).
        field: &'static str,
        /// The component index (x = 0) for vector fields.
        component: Option<usize>,
        /// The value found.
        value: f64,
    },
    /// A size (half-extent, radius, distance) is negative.
    #[error("{shape}: {field}{} must be >= 0 (found {value})", component_suffix(*.component))]
    Negative {
        /// The shape kind.
        shape: &'static str,
        /// The field name.
        field: &'static str,
        /// The component index for vector fields.
        component: Option<usize>,
        /// The value found.
        value: f64,
    },
    /// An AABB whose min is above its max on some axis.
    #[error("{shape}: min[{axis}] = {min} is greater than max[{axis}] = {max}")]
    MinAboveMax {
        /// The shape kind.
        shape: &'static str,
        /// The axis index.
        axis: usize,
        /// min on that axis.
        min: f64,
        /// max on that axis.
        max: f64,
    },
    /// An axis (or normal) is not of unit length within the documented tolerance.
    #[error(
        "{shape}: {field}[{index}] is not unit length (|v|^2 = {norm_sq}, tolerance {tolerance})"
    )]
    NonUnitAxis {
        /// The shape kind.
        shape: &'static str,
        /// The field name ("axes", "normal").
        field: &'static str,
        /// Which axis.
        index: usize,
        /// Its squared length.
        norm_sq: f64,
        /// The tolerance allowed on the squared length.
        tolerance: f64,
    },
    /// Two axes are not orthogonal within the documented tolerance.
    #[error("{shape}: {field}[{i}] and {field}[{j}] are not orthogonal (dot = {dot}, tolerance {tolerance})")]
    NonOrthogonalAxes {
        /// The shape kind.
        shape: &'static str,
        /// The field name.
        field: &'static str,
        /// First axis.
        i: usize,
        /// Second axis.
        j: usize,
        /// Their dot product.
        dot: f64,
        /// The tolerance allowed.
        tolerance: f64,
    },
    /// A quaternion is not of unit norm within the documented tolerance.
    #[error("{shape}: {field} is not a unit quaternion (norm {norm}, tolerance {tolerance})")]
    NonUnitQuaternion {
        /// The shape kind.
        shape: &'static str,
        /// The field name.
        field: &'static str,
        /// Its norm.
        norm: f64,
        /// The tolerance allowed.
        tolerance: f64,
    },
    /// A vector that must be non-zero is zero (ray direction, plane normal, ...), or a shape is
    /// degenerate where that is not allowed.
    #[error("{shape}: {field} is degenerate ({reason})")]
    Degenerate {
        /// The shape kind.
        shape: &'static str,
        /// The field name.
        field: &'static str,
        /// What is wrong, in words.
        reason: &'static str,
    },
}

fn component_suffix(c: Option<usize>) -> String {
    match c {
        Some(i) => format!("[{i}]"),
        None => String::new(),
    }
}

/// Checks one scalar: finite.
pub(crate) fn check_finite(
    shape: &'static str,
    field: &'static str,
    component: Option<usize>,
    value: Real,
) -> Result<(), ShapeError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(ShapeError::NotFinite {
            shape,
            field,
            component,
            value: value as f64,
        })
    }
}

/// Checks one scalar: finite and non-negative.
pub(crate) fn check_size(
    shape: &'static str,
    field: &'static str,
    component: Option<usize>,
    value: Real,
) -> Result<(), ShapeError> {
    check_finite(shape, field, component, value)?;
    if value < 0.0 {
        return Err(ShapeError::Negative {
            shape,
            field,
            component,
            value: value as f64,
        });
    }
    Ok(())
}

/// Checks every component of a vector (or point coordinates): finite.
pub(crate) fn check_finite_slice(
    shape: &'static str,
    field: &'static str,
    values: &[Real],
) -> Result<(), ShapeError> {
    for (i, v) in values.iter().enumerate() {
        check_finite(shape, field, Some(i), *v)?;
    }
    Ok(())
}

/// Checks every component: finite and non-negative.
pub(crate) fn check_size_slice(
    shape: &'static str,
    field: &'static str,
    values: &[Real],
) -> Result<(), ShapeError> {
    for (i, v) in values.iter().enumerate() {
        check_size(shape, field, Some(i), *v)?;
    }
    Ok(())
}
