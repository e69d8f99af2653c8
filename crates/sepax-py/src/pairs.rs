//! Pairwise batch queries without a world: `intersects`, `classify`, `contact` and `distance`
//! over `Shapes` batches, pair `i` being `(a[i], b[i])` (a batch of one pairs with every shape
//! of the other). The GIL is released while the pairs are computed.

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sepax_narrowphase::contact::{contact_manifold_shapes, ContactConfig};
use sepax_narrowphase::distance::closest_points_shapes;
use sepax_narrowphase::intersect::{classify as classify_boxes, intersects_shapes, Classification};
use sepax_shapes::math::Real;
use sepax_shapes::Shape;

use crate::arrays::{output, try_rows, value_error};
use crate::shapes::PyShapes;

/// The number of pairs of batches of `na` and `nb` shapes: equal sizes, or one of them 1.
fn pair_count(na: usize, nb: usize) -> PyResult<usize> {
    match (na, nb) {
        _ if na == nb => Ok(na),
        (1, n) | (n, 1) => Ok(n),
        _ => Err(value_error(format!(
            "a has {na} shapes and b has {nb}: they must be equal, or one must be 1"
        ))),
    }
}

/// The shapes of pair `i`.
#[inline]
fn pair<'s>(a: &'s [Shape], b: &'s [Shape], i: usize) -> (&'s Shape, &'s Shape) {
    let pick = |s: &'s [Shape]| if s.len() == 1 { &s[0] } else { &s[i] };
    (pick(a), pick(b))
}

/// `f` over every pair with the GIL released; the first error names its pair.
fn each_pair<T: Send, E: std::fmt::Display>(
    py: Python<'_>,
    a: &PyShapes,
    b: &PyShapes,
    f: impl Fn(&Shape, &Shape) -> Result<T, E> + Send + Sync,
) -> PyResult<Vec<T>> {
    let n = pair_count(a.shapes.len(), b.shapes.len())?;
    let (sa, sb) = (&a.shapes[..], &b.shapes[..]);
    py.detach(|| {
        try_rows(n, |i| {
            let (x, y) = pair(sa, sb, i);
            f(x, y).map_err(|e| format!("pair {i}: {e}"))
        })
    })
    .map_err(value_error)
}

/// `f` (a query that cannot fail) over every pair with the GIL released.
fn all_pairs<T: Send>(
    py: Python<'_>,
    a: &PyShapes,
    b: &PyShapes,
    f: impl Fn(&Shape, &Shape) -> T + Send + Sync,
) -> PyResult<Vec<T>> {
    each_pair(py, a, b, |x, y| Ok::<_, std::convert::Infallible>(f(x, y)))
}

/// Whether each pair intersects (closed sets: touching counts), as
/// `sepax_narrowphase::intersect::intersects_shapes` says.
#[pyfunction]
pub fn intersects<'py>(
    py: Python<'py>,
    a: &PyShapes,
    b: &PyShapes,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let hits = all_pairs(py, a, b, intersects_shapes)?;
    Ok(PyArray1::from_vec(py, hits))
}

/// The certified classification of box pairs (AABBs and OBBs only): `SEPARATED` 0,
/// `OVERLAPPING` 1, `UNCERTAIN` 2 (within the proven rounding band).
#[pyfunction]
pub fn classify<'py>(
    py: Python<'py>,
    a: &PyShapes,
    b: &PyShapes,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let code = |c: Classification| match c {
        Classification::Separated => 0u8,
        Classification::Overlapping => 1,
        Classification::Uncertain => 2,
    };
    let out = each_pair(py, a, b, |x, y| match (x, y) {
        (Shape::Aabb(p), Shape::Aabb(q)) => Ok(code(classify_boxes(p, q))),
        (Shape::Aabb(p), Shape::Obb(q)) => Ok(code(classify_boxes(p, q))),
        (Shape::Obb(p), Shape::Aabb(q)) => Ok(code(classify_boxes(p, q))),
        (Shape::Obb(p), Shape::Obb(q)) => Ok(code(classify_boxes(p, q))),
        _ => Err(format!(
            "classify takes boxes only (found {} and {})",
            x.kind().name(),
            y.kind().name()
        )),
    })?;
    Ok(PyArray1::from_vec(py, out))
}

/// Contact manifolds of each pair (`contact_manifold` with the speculative `margin`): a dict of
/// `hit (N,)`, `depth (N,)`, `normal (N, 3)` (from a toward b), `count (N,)` points, and per
/// point (up to 4, NaN / 0 past `count`) `point_a`, `point_b (N, 4, 3)`, `point_depth (N, 4)`,
/// `feature (N, 4)`. Pairs without a manifold have `hit` false, NaN numbers and `count` 0.
#[pyfunction]
#[pyo3(signature = (a, b, margin = 0.0))]
pub fn contact<'py>(
    py: Python<'py>,
    a: &PyShapes,
    b: &PyShapes,
    margin: Real,
) -> PyResult<Bound<'py, PyDict>> {
    if !(margin >= 0.0 && margin.is_finite()) {
        return Err(value_error(format!(
            "margin must be finite and >= 0 (found {margin})"
        )));
    }
    let config = ContactConfig::with_margin(margin);
    let found = all_pairs(py, a, b, |x, y| contact_manifold_shapes(x, y, &config))?;
    let n = found.len();
    let nan = Real::NAN;
    let mut hit = vec![false; n];
    let (mut depth, mut normal) = (vec![nan; n], vec![nan; 3 * n]);
    let (mut count, mut feature) = (vec![0u8; n], vec![0u32; 4 * n]);
    let (mut pa, mut pb, mut pd) = (vec![nan; 12 * n], vec![nan; 12 * n], vec![nan; 4 * n]);
    for (i, m) in found.iter().enumerate() {
        let Some(m) = m else { continue };
        hit[i] = true;
        depth[i] = m.depth;
        normal[3 * i..3 * i + 3].copy_from_slice(m.normal.as_slice());
        count[i] = m.points.len() as u8;
        for (k, p) in m.points.iter().enumerate() {
            let j = 4 * i + k;
            pa[3 * j..3 * j + 3].copy_from_slice(p.point_a.coords.as_slice());
            pb[3 * j..3 * j + 3].copy_from_slice(p.point_b.coords.as_slice());
            pd[j] = p.depth;
            feature[j] = p.id.0;
        }
    }
    let d = PyDict::new(py);
    d.set_item("hit", PyArray1::from_vec(py, hit))?;
    d.set_item("depth", PyArray1::from_vec(py, depth))?;
    d.set_item("normal", output(py, (n, 3), normal)?)?;
    d.set_item("count", PyArray1::from_vec(py, count))?;
    d.set_item("point_a", output(py, (n, 4, 3), pa)?)?;
    d.set_item("point_b", output(py, (n, 4, 3), pb)?)?;
    d.set_item("point_depth", output(py, (n, 4), pd)?)?;
    d.set_item("feature", output(py, (n, 4), feature)?)?;
    Ok(d)
}

/// Distances and closest points of each pair (`closest_points_shapes`): a dict of
/// `distance (N,)` (0 when touching or overlapping), `point_a`, `point_b`, `normal (N, 3)`.
#[pyfunction]
pub fn distance<'py>(py: Python<'py>, a: &PyShapes, b: &PyShapes) -> PyResult<Bound<'py, PyDict>> {
    let found = all_pairs(py, a, b, closest_points_shapes)?;
    let n = found.len();
    let mut dist = Vec::with_capacity(n);
    let (mut pa, mut pb, mut nrm) = (
        Vec::with_capacity(3 * n),
        Vec::with_capacity(3 * n),
        Vec::with_capacity(3 * n),
    );
    for c in &found {
        dist.push(c.distance);
        pa.extend_from_slice(c.point_a.coords.as_slice());
        pb.extend_from_slice(c.point_b.coords.as_slice());
        nrm.extend_from_slice(c.normal.as_slice());
    }
    let d = PyDict::new(py);
    d.set_item("distance", PyArray1::from_vec(py, dist))?;
    d.set_item("point_a", output(py, (n, 3), pa)?)?;
    d.set_item("point_b", output(py, (n, 3), pb)?)?;
    d.set_item("normal", output(py, (n, 3), nrm)?)?;
    Ok(d)
}
