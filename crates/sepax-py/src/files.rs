//! Files and fitting: `read_scene`, `load_mesh` and `fit_obb`.

use numpy::{PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sepax_scene::mesh::read_mesh_file;
use sepax_shapes::fit::{fit_obb as fit, Method};
use sepax_shapes::math::{Point3, Real};

use crate::arrays::{output, point, rows, value_error};
use crate::shapes::PyShapes;

/// A 1-D and a 2-D NumPy output.
type Out1<'py, T> = Bound<'py, PyArray1<T>>;
type Out2<'py, T> = Bound<'py, numpy::PyArray2<T>>;

/// Reads a scene file (`docs/scene-format.md`): a dict of `ids` (list of str), `shapes`
/// (`Shapes`, frame 0), `layer`, `mask` (`(N,)` int64, -1 where the file has none), `pairs`
/// (`(P, 2)` int64 indices into the shapes, or None for all pairs) and `frames` (a list of
/// `(indices (K,), Shapes)`, the shapes that move in each later frame at their new placement).
/// Errors (`ValueError`) give the file's line and column and the shape, field and problem.
#[pyfunction]
pub fn read_scene<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let scene = py
        .detach(|| sepax_scene::read_scene_file(&path))
        .map_err(|e| value_error(e.to_string()))?;
    let ids: Vec<String> = scene.shapes.iter().map(|s| s.id.clone()).collect();
    let shapes = PyShapes {
        shapes: scene.shapes.iter().map(|s| s.shape).collect(),
    };
    let opt = |v: Option<u32>| v.map_or(-1, i64::from);
    let layer: Vec<i64> = scene.shapes.iter().map(|s| opt(s.layer)).collect();
    let mask: Vec<i64> = scene.shapes.iter().map(|s| opt(s.mask)).collect();
    let d = PyDict::new(py);
    d.set_item("ids", ids)?;
    d.set_item("shapes", Bound::new(py, shapes)?)?;
    d.set_item("layer", PyArray1::from_vec(py, layer))?;
    d.set_item("mask", PyArray1::from_vec(py, mask))?;
    match &scene.pairs {
        None => d.set_item("pairs", py.None())?,
        Some(p) => {
            let flat: Vec<i64> = p.iter().flat_map(|&(a, b)| [a as i64, b as i64]).collect();
            d.set_item("pairs", output(py, (p.len(), 2), flat)?)?;
        }
    }
    let mut frames = Vec::with_capacity(scene.frames.len());
    for f in &scene.frames {
        let idx: Vec<i64> = f.poses.iter().map(|&(i, _)| i as i64).collect();
        let moved = PyShapes {
            shapes: f.poses.iter().map(|&(_, s)| s).collect(),
        };
        frames.push((PyArray1::from_vec(py, idx), Bound::new(py, moved)?));
    }
    d.set_item("frames", frames)?;
    Ok(d)
}

/// Reads a mesh file (OBJ, STL, PLY, glTF/GLB; `docs/mesh-import.md`): `(vertices (V, 3),
/// faces (F, 3) uint32)`, every part of the model in one mesh (each part's face indices offset
/// by the vertices before it).
#[pyfunction]
pub fn load_mesh<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
) -> PyResult<(Out2<'py, Real>, Out2<'py, u32>)> {
    let parts = py
        .detach(|| read_mesh_file(&path))
        .map_err(|e| value_error(e.to_string()))?;
    let (mut verts, mut faces) = (Vec::new(), Vec::new());
    for part in &parts {
        let Ok(base) = u32::try_from(verts.len() / 3) else {
            return Err(value_error("the mesh has more than 2^32 vertices"));
        };
        verts.extend(part.vertices.iter().flat_map(|p| [p.x, p.y, p.z]));
        faces.extend(part.triangles.iter().flat_map(|t| t.map(|i| i + base)));
    }
    let (nv, nf) = (verts.len() / 3, faces.len() / 3);
    Ok((output(py, (nv, 3), verts)?, output(py, (nf, 3), faces)?))
}

/// The box of `points (N, 3)` by `method` (`aabb`, `pca`, `hull-pca`, `dito`, `exact`):
/// `(center (3,), axes (3, 3) (the columns are the box's axes), half_extents (3,))`.
#[pyfunction]
#[pyo3(signature = (points, method = "dito"))]
pub fn fit_obb<'py>(
    py: Python<'py>,
    points: PyReadonlyArray2<'py, Real>,
    method: &str,
) -> PyResult<(Out1<'py, Real>, Out2<'py, Real>, Out1<'py, Real>)> {
    let Some(m) = Method::from_name(method) else {
        let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
        return Err(value_error(format!(
            "method must be one of {} (found {method:?})",
            names.join(", ")
        )));
    };
    let p = rows("points", &points, 3)?;
    let obb = py
        .detach(|| {
            let pts: Vec<Point3> = (0..p.len() / 3).map(|i| point(p, i)).collect();
            fit(&pts, m)
        })
        .map_err(|e| value_error(e.to_string()))?;
    let mut axes = Vec::with_capacity(9);
    for r in 0..3 {
        for c in 0..3 {
            axes.push(obb.axes()[(r, c)]);
        }
    }
    Ok((
        PyArray1::from_vec(py, obb.center().coords.as_slice().to_vec()),
        output(py, (3, 3), axes)?,
        PyArray1::from_vec(py, obb.half_extents().as_slice().to_vec()),
    ))
}
