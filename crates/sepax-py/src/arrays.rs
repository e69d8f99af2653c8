//! Reading NumPy inputs: C-contiguous arrays of `Real` read in place (the Python layer converts
//! other dtypes and layouts, which is the only copy), checked value by value with messages that
//! name the argument, the index and the problem, and NumPy outputs from flat vectors.

use numpy::ndarray::{Array, Dimension, IntoDimension};
use numpy::{IntoPyArray, PyArray, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sepax_shapes::math::{Isometry3, Point3, Quaternion, Real, UnitQuaternion, Vector3};
use sepax_shapes::tolerance::QUATERNION_TOLERANCE;

/// A `ValueError` with `msg`.
pub(crate) fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// The rows of a `(N, cols)` array as one flat slice, without a copy.
pub(crate) fn rows<'a>(
    name: &str,
    a: &'a PyReadonlyArray2<'_, Real>,
    cols: usize,
) -> PyResult<&'a [Real]> {
    let shape = a.shape();
    if shape[1] != cols {
        return Err(value_error(format!(
            "{name} must have shape (N, {cols}), found ({}, {})",
            shape[0], shape[1]
        )));
    }
    a.as_slice()
        .map_err(|_| value_error(format!("{name} must be C-contiguous")))
}

/// A 1-D array as a slice, without a copy.
pub(crate) fn column<'a, T: numpy::Element>(
    name: &str,
    a: &'a PyReadonlyArray1<'_, T>,
) -> PyResult<&'a [T]> {
    a.as_slice()
        .map_err(|_| value_error(format!("{name} must be C-contiguous")))
}

/// `f(i)` for `i` in `0..n`, stopping at the first error, into a vector allocated once
/// (collecting an iterator of `Result`s has no lower size hint, so the vector would grow by
/// doubling, copying the rows each time).
pub(crate) fn try_rows<T, E>(
    n: usize,
    mut f: impl FnMut(usize) -> Result<T, E>,
) -> Result<Vec<T>, E> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(f(i)?);
    }
    Ok(out)
}

/// Errors unless `len` rows were given for `name` (`n` expected).
pub(crate) fn check_len(name: &str, len: usize, n: usize) -> PyResult<()> {
    if len == n {
        Ok(())
    } else {
        Err(value_error(format!("{name} has {len} rows, expected {n}")))
    }
}

/// The index of element `k` of a table with `cols` columns as the message shows it.
fn at(name: &str, k: usize, cols: usize) -> String {
    if cols == 1 {
        format!("{name}[{k}]")
    } else {
        format!("{name}[{}, {}]", k / cols, k % cols)
    }
}

/// Every number finite.
pub(crate) fn check_finite(name: &str, data: &[Real], cols: usize) -> PyResult<()> {
    match data.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(k) => Err(value_error(format!(
            "{} is not finite (found {})",
            at(name, k, cols),
            data[k]
        ))),
    }
}

/// Every number finite and `>= 0` (sizes: half-extents, radii).
pub(crate) fn check_size(name: &str, data: &[Real], cols: usize) -> PyResult<()> {
    check_finite(name, data, cols)?;
    match data.iter().position(|&v| v < 0.0) {
        None => Ok(()),
        Some(k) => Err(value_error(format!(
            "{} must be >= 0 (found {})",
            at(name, k, cols),
            data[k]
        ))),
    }
}

/// Row `i` of a 3-column table as a point.
#[inline]
pub(crate) fn point(data: &[Real], i: usize) -> Point3 {
    Point3::new(data[3 * i], data[3 * i + 1], data[3 * i + 2])
}

/// Row `i` of a 3-column table as a vector.
#[inline]
pub(crate) fn vector(data: &[Real], i: usize) -> Vector3 {
    point(data, i).coords
}

/// Row `i` of a 4-column `[w, x, y, z]` table as a raw quaternion.
#[inline]
pub(crate) fn quaternion(data: &[Real], i: usize) -> Quaternion {
    Quaternion::new(
        data[4 * i],
        data[4 * i + 1],
        data[4 * i + 2],
        data[4 * i + 3],
    )
}

/// Every row of a `[w, x, y, z]` table finite and unit within [`QUATERNION_TOLERANCE`] (the rule
/// of the world's raw poses and of `Obb::from_quaternion`).
pub(crate) fn check_rotations(name: &str, data: &[Real]) -> PyResult<()> {
    check_finite(name, data, 4)?;
    for i in 0..data.len() / 4 {
        let norm = quaternion(data, i).norm();
        if (norm - 1.0).abs() > QUATERNION_TOLERANCE {
            return Err(value_error(format!(
                "{name}[{i}] is not a unit quaternion (norm {norm}, tolerance {QUATERNION_TOLERANCE})"
            )));
        }
    }
    Ok(())
}

/// The pose of row `i`: translation and a checked raw quaternion, normalised as the world's
/// `set_pose_raw` does (a quaternion of squared norm exactly 1 keeps its bits).
pub(crate) fn pose(positions: &[Real], rotations: Option<&[Real]>, i: usize) -> Isometry3 {
    let t = vector(positions, i);
    let Some(r) = rotations else {
        return Isometry3::translation(t.x, t.y, t.z);
    };
    let q = quaternion(r, i);
    let rot = if q.norm_squared() == 1.0 {
        UnitQuaternion::new_unchecked(q)
    } else {
        UnitQuaternion::new_normalize(q)
    };
    Isometry3::from_parts(t.into(), rot)
}

/// A NumPy array of shape `dims` from a flat row-major vector.
pub(crate) fn output<'py, T: numpy::Element, D: IntoDimension>(
    py: Python<'py>,
    dims: D,
    data: Vec<T>,
) -> PyResult<Bound<'py, PyArray<T, D::Dim>>>
where
    D::Dim: Dimension,
{
    let a = Array::from_shape_vec(dims, data).map_err(|e| value_error(e.to_string()))?;
    Ok(a.into_pyarray(py))
}
