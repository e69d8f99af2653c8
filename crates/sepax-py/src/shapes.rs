//! `Shapes`: a batch of validated shapes built from arrays, what the pairwise functions and the
//! world's `insert` take.

use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sepax_shapes::math::{Point3, Real};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, ShapeError, Sphere, Triangle};

use crate::arrays::{
    check_finite, check_len, check_rotations, check_size, column, output, point, quaternion, rows,
    try_rows, value_error, vector,
};

/// A batch of shapes, each built by the checked constructors of sepax-shapes. Make one with
/// `Shapes.boxes`, `Shapes.spheres`, `Shapes.capsules`, `Shapes.aabbs` or `Shapes.triangles`;
/// join batches with `Shapes.concat`.
#[pyclass(module = "sepax._sepax", name = "Shapes", frozen)]
pub struct PyShapes {
    pub(crate) shapes: Vec<Shape>,
}

/// A constructor's error for row `i`, naming the argument (range errors the pre-checks leave).
fn row_error(what: &str, i: usize, e: ShapeError) -> PyErr {
    value_error(format!("{what}[{i}]: {e}"))
}

/// `(n, centers)`: the row count and the centres (`None`: every centre at the origin).
fn centres<'a>(
    centers: &'a Option<PyReadonlyArray2<'_, Real>>,
    n: usize,
) -> PyResult<Option<&'a [Real]>> {
    let Some(c) = centers else { return Ok(None) };
    let c = rows("centers", c, 3)?;
    check_len("centers", c.len() / 3, n)?;
    check_finite("centers", c, 3)?;
    Ok(Some(c))
}

#[pymethods]
impl PyShapes {
    /// Boxes: `half_extents (N, 3)`, centres `(N, 3)` (default the origin) and rotations
    /// `(N, 4)` as `[w, x, y, z]` (default none: the boxes are AABBs). A rotated box is
    /// `Obb::from_quaternion` (unit within 1e-4, then normalised).
    #[staticmethod]
    #[pyo3(signature = (half_extents, centers = None, rotations = None))]
    fn boxes(
        py: Python<'_>,
        half_extents: PyReadonlyArray2<'_, Real>,
        centers: Option<PyReadonlyArray2<'_, Real>>,
        rotations: Option<PyReadonlyArray2<'_, Real>>,
    ) -> PyResult<Self> {
        let he = rows("half_extents", &half_extents, 3)?;
        let n = he.len() / 3;
        let c = centres(&centers, n)?;
        let r = match &rotations {
            Some(r) => Some(rows("rotations", r, 4)?),
            None => None,
        };
        check_size("half_extents", he, 3)?;
        if let Some(r) = r {
            check_len("rotations", r.len() / 4, n)?;
            check_rotations("rotations", r)?;
        }
        let shapes = py.detach(|| {
            try_rows(n, |i| {
                let centre = c.map_or(Point3::origin(), |c| point(c, i));
                let shape = match r {
                    None => Aabb::from_center_half_extents(centre, vector(he, i)).map(Shape::Aabb),
                    Some(r) => Obb::from_quaternion(centre, quaternion(r, i), vector(he, i))
                        .map(Shape::Obb),
                };
                shape.map_err(|e| (i, e))
            })
        });
        let shapes = shapes.map_err(|(i, e)| row_error("boxes", i, e))?;
        Ok(Self { shapes })
    }

    /// Axis-aligned boxes from corners `mins (N, 3)` and `maxs (N, 3)`.
    #[staticmethod]
    fn aabbs(
        py: Python<'_>,
        mins: PyReadonlyArray2<'_, Real>,
        maxs: PyReadonlyArray2<'_, Real>,
    ) -> PyResult<Self> {
        let lo = rows("mins", &mins, 3)?;
        let hi = rows("maxs", &maxs, 3)?;
        let n = lo.len() / 3;
        check_len("maxs", hi.len() / 3, n)?;
        check_finite("mins", lo, 3)?;
        check_finite("maxs", hi, 3)?;
        if let Some(k) = (0..3 * n).find(|&k| lo[k] > hi[k]) {
            return Err(value_error(format!(
                "mins[{}, {}] = {} is greater than maxs[{0}, {1}] = {}",
                k / 3,
                k % 3,
                lo[k],
                hi[k]
            )));
        }
        let shapes = py.detach(|| {
            try_rows(n, |i| {
                Aabb::new(point(lo, i), point(hi, i))
                    .map(Shape::Aabb)
                    .map_err(|e| (i, e))
            })
        });
        let shapes = shapes.map_err(|(i, e)| row_error("aabbs", i, e))?;
        Ok(Self { shapes })
    }

    /// Spheres: `radii (N,)` and centres `(N, 3)` (default the origin).
    #[staticmethod]
    #[pyo3(signature = (radii, centers = None))]
    fn spheres(
        py: Python<'_>,
        radii: PyReadonlyArray1<'_, Real>,
        centers: Option<PyReadonlyArray2<'_, Real>>,
    ) -> PyResult<Self> {
        let r = column("radii", &radii)?;
        let c = centres(&centers, r.len())?;
        check_size("radii", r, 1)?;
        let shapes = py.detach(|| {
            try_rows(r.len(), |i| {
                let centre = c.map_or(Point3::origin(), |c| point(c, i));
                Sphere::new(centre, r[i])
                    .map(Shape::Sphere)
                    .map_err(|e| (i, e))
            })
        });
        let shapes = shapes.map_err(|(i, e)| row_error("spheres", i, e))?;
        Ok(Self { shapes })
    }

    /// Capsules: the segment `p0 (N, 3)`–`p1 (N, 3)` grown by `radii (N,)`.
    #[staticmethod]
    fn capsules(
        py: Python<'_>,
        p0: PyReadonlyArray2<'_, Real>,
        p1: PyReadonlyArray2<'_, Real>,
        radii: PyReadonlyArray1<'_, Real>,
    ) -> PyResult<Self> {
        let a = rows("p0", &p0, 3)?;
        let b = rows("p1", &p1, 3)?;
        let r = column("radii", &radii)?;
        let n = a.len() / 3;
        check_len("p1", b.len() / 3, n)?;
        check_len("radii", r.len(), n)?;
        check_finite("p0", a, 3)?;
        check_finite("p1", b, 3)?;
        check_size("radii", r, 1)?;
        let shapes = py.detach(|| {
            try_rows(n, |i| {
                Capsule::new(point(a, i), point(b, i), r[i])
                    .map(Shape::Capsule)
                    .map_err(|e| (i, e))
            })
        });
        let shapes = shapes.map_err(|(i, e)| row_error("capsules", i, e))?;
        Ok(Self { shapes })
    }

    /// Triangles with vertices `a (N, 3)`, `b (N, 3)`, `c (N, 3)`.
    #[staticmethod]
    fn triangles(
        py: Python<'_>,
        a: PyReadonlyArray2<'_, Real>,
        b: PyReadonlyArray2<'_, Real>,
        c: PyReadonlyArray2<'_, Real>,
    ) -> PyResult<Self> {
        let (a, b, c) = (rows("a", &a, 3)?, rows("b", &b, 3)?, rows("c", &c, 3)?);
        let n = a.len() / 3;
        check_len("b", b.len() / 3, n)?;
        check_len("c", c.len() / 3, n)?;
        for (name, v) in [("a", a), ("b", b), ("c", c)] {
            check_finite(name, v, 3)?;
        }
        let shapes = py.detach(|| {
            try_rows(n, |i| {
                Triangle::new(point(a, i), point(b, i), point(c, i))
                    .map(Shape::Triangle)
                    .map_err(|e| (i, e))
            })
        });
        let shapes = shapes.map_err(|(i, e)| row_error("triangles", i, e))?;
        Ok(Self { shapes })
    }

    /// The batches one after the other.
    #[staticmethod]
    fn concat(parts: Vec<PyRef<'_, PyShapes>>) -> Self {
        let shapes = parts
            .iter()
            .flat_map(|p| p.shapes.iter().copied())
            .collect();
        Self { shapes }
    }

    fn __len__(&self) -> usize {
        self.shapes.len()
    }

    fn __repr__(&self) -> String {
        let mut counts = [0usize; sepax_shapes::ShapeKind::COUNT];
        for s in &self.shapes {
            counts[s.kind() as usize] += 1;
        }
        let parts: Vec<String> = sepax_shapes::ShapeKind::ALL
            .iter()
            .filter(|k| counts[**k as usize] > 0)
            .map(|k| format!("{} {}", counts[*k as usize], k.name()))
            .collect();
        format!("Shapes({} shapes: {})", self.shapes.len(), parts.join(", "))
    }

    /// The shapes' kinds as codes (`KIND_AABB` 0, `KIND_OBB` 1, `KIND_SPHERE` 2,
    /// `KIND_CAPSULE` 3, `KIND_TRIANGLE` 4).
    fn kinds<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        let k: Vec<u8> = self.shapes.iter().map(|s| s.kind() as u8).collect();
        PyArray1::from_vec(py, k)
    }

    /// The shapes' numbers as arrays (NaN where a field does not apply to a kind): `kind (N,)`,
    /// `center (N, 3)` and `half_extents (N, 3)` (boxes, spheres), `axes (N, 3, 3)` (boxes; the
    /// columns are the box's axes), `radius (N,)` (spheres, capsules), `p0`, `p1 (N, 3)`
    /// (capsules), `vertices (N, 3, 3)` (triangles).
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let n = self.shapes.len();
        let nan = Real::NAN;
        let (mut center, mut half) = (vec![nan; 3 * n], vec![nan; 3 * n]);
        let (mut axes, mut verts) = (vec![nan; 9 * n], vec![nan; 9 * n]);
        let (mut radius, mut p0, mut p1) = (vec![nan; n], vec![nan; 3 * n], vec![nan; 3 * n]);
        let put = |dst: &mut [Real], i: usize, p: Point3| {
            dst[3 * i..3 * i + 3].copy_from_slice(p.coords.as_slice())
        };
        for (i, s) in self.shapes.iter().enumerate() {
            let boxed = match s {
                Shape::Aabb(b) => Some(Obb::from_aabb(b)),
                Shape::Obb(b) => Some(*b),
                _ => None,
            };
            if let Some(b) = boxed {
                put(&mut center, i, b.center());
                put(&mut half, i, b.half_extents().into());
                for r in 0..3 {
                    for c in 0..3 {
                        axes[9 * i + 3 * r + c] = b.axes()[(r, c)];
                    }
                }
            }
            match s {
                Shape::Sphere(x) => {
                    put(&mut center, i, x.center());
                    radius[i] = x.radius();
                }
                Shape::Capsule(x) => {
                    put(&mut p0, i, x.p0());
                    put(&mut p1, i, x.p1());
                    radius[i] = x.radius();
                }
                Shape::Triangle(t) => {
                    for (k, v) in t.vertices().iter().enumerate() {
                        verts[9 * i + 3 * k..9 * i + 3 * k + 3]
                            .copy_from_slice(v.coords.as_slice());
                    }
                }
                _ => {}
            }
        }
        let d = PyDict::new(py);
        d.set_item("kind", self.kinds(py))?;
        d.set_item("center", output(py, (n, 3), center)?)?;
        d.set_item("half_extents", output(py, (n, 3), half)?)?;
        d.set_item("axes", output(py, (n, 3, 3), axes)?)?;
        d.set_item("radius", output(py, n, radius)?)?;
        d.set_item("p0", output(py, (n, 3), p0)?)?;
        d.set_item("p1", output(py, (n, 3), p1)?)?;
        d.set_item("vertices", output(py, (n, 3, 3), verts)?)?;
        Ok(d)
    }
}
