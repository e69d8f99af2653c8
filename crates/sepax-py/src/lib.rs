//! # sepax-py
//!
//! The native part of the `sepax` Python package (built by maturin; the Python layer is
//! `python/sepax`): batches of shapes from NumPy arrays, the pairwise batch queries, the world,
//! and the file and fitting functions. Every input array is read in place when it is
//! C-contiguous and of the module's float type (`float32`, or `float64` in the `f64` build);
//! the GIL is released while the work is done; every error is a Python exception naming the
//! argument, the index and the problem.

// Casts between `Real` and `f64` are needed in the default `f32` build and are no-ops with `f64`.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

mod arrays;
mod files;
mod pairs;
mod queries;
mod shapes;
mod snapshot;
mod trajectory;
mod world;

use pyo3::prelude::*;

/// The module `sepax._sepax`.
#[pymodule]
fn _sepax(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add(
        "PRECISION",
        if cfg!(feature = "f64") { "f64" } else { "f32" },
    )?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<shapes::PyShapes>()?;
    m.add_class::<world::PyWorld>()?;
    m.add_function(wrap_pyfunction!(pairs::intersects, m)?)?;
    m.add_function(wrap_pyfunction!(pairs::classify, m)?)?;
    m.add_function(wrap_pyfunction!(pairs::contact, m)?)?;
    m.add_function(wrap_pyfunction!(pairs::distance, m)?)?;
    m.add_function(wrap_pyfunction!(files::read_scene, m)?)?;
    m.add_function(wrap_pyfunction!(files::load_mesh, m)?)?;
    m.add_function(wrap_pyfunction!(files::fit_obb, m)?)?;
    m.add_function(wrap_pyfunction!(queries::cast_rays, m)?)?;
    m.add_function(wrap_pyfunction!(queries::overlap, m)?)?;
    m.add_function(wrap_pyfunction!(queries::cast_shapes, m)?)?;
    m.add_function(wrap_pyfunction!(queries::closest_colliders, m)?)?;
    m.add_function(wrap_pyfunction!(queries::closest_to_shapes, m)?)?;
    m.add_function(wrap_pyfunction!(trajectory::check_trajectories, m)?)?;
    m.add_function(wrap_pyfunction!(snapshot::to_scene, m)?)?;
    m.add_function(wrap_pyfunction!(snapshot::from_scene, m)?)?;
    Ok(())
}
