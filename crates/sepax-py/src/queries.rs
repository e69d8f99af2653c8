//! The world's batch queries on arrays: rays, overlaps, linear shape casts, the closest collider
//! to points and the closest collider to shapes. Each wraps the Rust batch form of
//! `sepax_world::World` (one answer per input, in input order, the same for any thread count),
//! reads its inputs in place and releases the GIL while it runs.

use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sepax_narrowphase::toi::ToiStatus;
use sepax_shapes::math::{Isometry3, Real};
use sepax_shapes::{Ray, Shape};
use sepax_world::{ColliderId, DistanceHit, Filter, KindMask, OwnerId, QueryFilter, ShapeCast};

use crate::arrays::{
    check_finite, check_len, check_rotations, column, output, point, pose, rows, value_error,
    vector,
};
use crate::shapes::PyShapes;
use crate::world::PyWorld;

/// The query filter as the Python layer passes it: `(filter data or None, kind bits, exclude,
/// as_collider)`, the filter data being `(membership, mask, group, owner or None)`.
pub type FilterArgs = (
    Option<(u64, u64, i32, Option<u64>)>,
    u8,
    Option<u64>,
    Option<u64>,
);

/// The Rust filter of `args` (ids are checked by the world when the query resolves it).
fn query_filter(args: FilterArgs) -> PyResult<QueryFilter<'static>> {
    let (data, kinds, exclude, as_collider) = args;
    if kinds == 0 || kinds & !KindMask::ALL.0 != 0 {
        return Err(value_error(format!(
            "kinds must be a non-empty set of 'static', 'kinematic', 'dynamic' (found bits {kinds})"
        )));
    }
    let mut q = QueryFilter::new().kinds(KindMask(kinds));
    if let Some((membership, mask, group, owner)) = data {
        q = q.filter(Filter {
            membership,
            mask,
            group,
            owner: owner.map(OwnerId),
        });
    }
    q.exclude = exclude.map(ColliderId::from_bits);
    q.as_collider = as_collider.map(ColliderId::from_bits);
    Ok(q)
}

/// Query shapes placed at `positions` and `rotations` (default: the identity pose).
fn placed_shapes(
    shapes: &PyShapes,
    positions: &Option<PyReadonlyArray2<'_, Real>>,
    rotations: &Option<PyReadonlyArray2<'_, Real>>,
) -> PyResult<Vec<(Shape, Isometry3)>> {
    let n = shapes.shapes.len();
    let p = match positions {
        Some(p) => {
            let p = rows("positions", p, 3)?;
            check_len("positions", p.len() / 3, n)?;
            check_finite("positions", p, 3)?;
            Some(p)
        }
        None => None,
    };
    let r = match rotations {
        Some(r) => {
            let r = rows("rotations", r, 4)?;
            check_len("rotations", r.len() / 4, n)?;
            check_rotations("rotations", r)?;
            Some(r)
        }
        None => None,
    };
    let origin = [0.0; 3];
    Ok((0..n)
        .map(|i| {
            let pose = match p {
                Some(p) => pose(p, r, i),
                None => pose(&origin, r.map(|r| &r[4 * i..4 * i + 4]), 0),
            };
            (shapes.shapes[i], pose)
        })
        .collect())
}

/// `(N,)` limits from the Python layer (already broadcast), each `>= 0` and finite unless
/// `infinite_ok`.
fn limits<'a>(
    name: &str,
    a: &'a PyReadonlyArray1<'_, Real>,
    n: usize,
    infinite_ok: bool,
) -> PyResult<&'a [Real]> {
    let v = column(name, a)?;
    check_len(name, v.len(), n)?;
    if let Some(i) = v
        .iter()
        .position(|&x| !(x >= 0.0 && (x.is_finite() || (infinite_ok && x == Real::INFINITY))))
    {
        let what = if infinite_ok {
            ">= 0 (inf allowed)"
        } else {
            "finite and >= 0"
        };
        return Err(value_error(format!(
            "{name}[{i}] must be {what} (found {})",
            v[i]
        )));
    }
    Ok(v)
}

/// Flat outputs of hits: a 3-vector per input, NaN where there is no hit.
fn put3(dst: &mut [Real], i: usize, v: &[Real]) {
    dst[3 * i..3 * i + 3].copy_from_slice(v);
}

/// Rays per block of [`cast_rays`] (a multiple of the world's `QUERY_CHUNK`).
const RAY_BLOCK: usize = 4096;

/// The nearest hit of each ray: a dict of `hit`, `t` (inf when none), `id` (0 when none),
/// `point`, `normal` (NaN when none).
#[pyfunction]
#[pyo3(signature = (world, origins, directions, max_t, filter, threads))]
pub fn cast_rays<'py>(
    py: Python<'py>,
    mut world: PyRefMut<'py, PyWorld>,
    origins: PyReadonlyArray2<'py, Real>,
    directions: PyReadonlyArray2<'py, Real>,
    max_t: PyReadonlyArray1<'py, Real>,
    filter: FilterArgs,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let o = rows("origins", &origins, 3)?;
    let d = rows("directions", &directions, 3)?;
    let n = o.len() / 3;
    check_len("directions", d.len() / 3, n)?;
    let t = limits("max_t", &max_t, n, true)?;
    check_finite("origins", o, 3)?;
    check_finite("directions", d, 3)?;
    let q = query_filter(filter)?;
    world.ensure_pool(threads)?;
    let (w, exec) = world.parts(threads);
    let nan = Real::NAN;
    let (hit, dist, id, pt, nrm) = py
        .detach(|| {
            let (mut hit, mut dist, mut id) =
                (vec![false; n], vec![Real::INFINITY; n], vec![0u64; n]);
            let (mut pt, mut nrm) = (vec![nan; 3 * n], vec![nan; 3 * n]);
            // Blocks of rays: the rays and the hits of one block stay in the cache, and no
            // whole-batch buffer is allocated (and faulted in) besides the outputs.
            let mut rays = Vec::with_capacity(RAY_BLOCK.min(n));
            let mut found = vec![None; RAY_BLOCK.min(n)];
            for start in (0..n).step_by(RAY_BLOCK) {
                let end = (start + RAY_BLOCK).min(n);
                rays.clear();
                for (i, &ti) in (start..end).zip(&t[start..end]) {
                    rays.push(Ray::new(point(o, i), vector(d, i), ti).map_err(|e| {
                        format!("rays[{i}]: {e} (directions[{i}] must be non-zero)")
                    })?);
                }
                let found = &mut found[..end - start];
                w.cast_rays(&exec, &rays, &q, found)
                    .map_err(|e| e.to_string())?;
                for (k, h) in found.iter().enumerate() {
                    let Some(h) = h else { continue };
                    let i = start + k;
                    hit[i] = true;
                    dist[i] = h.distance;
                    id[i] = h.id.to_bits();
                    put3(&mut pt, i, h.point.coords.as_slice());
                    put3(&mut nrm, i, h.normal.as_slice());
                }
            }
            Ok::<_, String>((hit, dist, id, pt, nrm))
        })
        .map_err(value_error)?;
    let out = PyDict::new(py);
    out.set_item("hit", PyArray1::from_vec(py, hit))?;
    out.set_item("t", PyArray1::from_vec(py, dist))?;
    out.set_item("id", PyArray1::from_vec(py, id))?;
    out.set_item("point", output(py, (n, 3), pt)?)?;
    out.set_item("normal", output(py, (n, 3), nrm)?)?;
    Ok(out)
}

/// Offsets and ids of an overlap (row `i` is `ids[offsets[i]..offsets[i + 1]]`).
type Csr<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<u64>>);

/// Every collider each placed shape touches: `(offsets (N + 1,) int64, ids (K,) uint64)`, the
/// ids of shape `i` being `ids[offsets[i]:offsets[i + 1]]`, sorted.
#[pyfunction]
#[pyo3(signature = (world, shapes, positions, rotations, filter, threads))]
pub fn overlap<'py>(
    py: Python<'py>,
    mut world: PyRefMut<'py, PyWorld>,
    shapes: &PyShapes,
    positions: Option<PyReadonlyArray2<'py, Real>>,
    rotations: Option<PyReadonlyArray2<'py, Real>>,
    filter: FilterArgs,
    threads: usize,
) -> PyResult<Csr<'py>> {
    let placed = placed_shapes(shapes, &positions, &rotations)?;
    let q = query_filter(filter)?;
    world.ensure_pool(threads)?;
    let (w, exec) = world.parts(threads);
    let (offsets, ids) = py
        .detach(|| {
            let mut out = vec![Vec::new(); placed.len()];
            w.overlap_batch(&exec, &placed, &q, &mut out)?;
            let mut offsets = Vec::with_capacity(out.len() + 1);
            offsets.push(0i64);
            let mut ids = Vec::new();
            for list in &out {
                let mut sorted: Vec<u64> = list.iter().map(|id| id.to_bits()).collect();
                sorted.sort_unstable();
                ids.extend_from_slice(&sorted);
                offsets.push(ids.len() as i64);
            }
            Ok::<_, sepax_world::QueryError>((offsets, ids))
        })
        .map_err(|e| value_error(e.to_string()))?;
    Ok((PyArray1::from_vec(py, offsets), PyArray1::from_vec(py, ids)))
}

/// The first contact of each linear cast: a dict of `hit`, `time` (inf when none), `id`,
/// `point`, `normal` (from the collider toward the cast shape), `depth`, `status`
/// (0 converged, 1 started in contact, 2 iteration cap, 255 no hit).
#[pyfunction]
#[allow(clippy::too_many_arguments)] // the Python keyword arguments, one each
#[pyo3(signature = (world, shapes, positions, rotations, velocities, max_time, filter, threads))]
pub fn cast_shapes<'py>(
    py: Python<'py>,
    mut world: PyRefMut<'py, PyWorld>,
    shapes: &PyShapes,
    positions: Option<PyReadonlyArray2<'py, Real>>,
    rotations: Option<PyReadonlyArray2<'py, Real>>,
    velocities: PyReadonlyArray2<'py, Real>,
    max_time: PyReadonlyArray1<'py, Real>,
    filter: FilterArgs,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let placed = placed_shapes(shapes, &positions, &rotations)?;
    let n = placed.len();
    let v = rows("velocities", &velocities, 3)?;
    check_len("velocities", v.len() / 3, n)?;
    check_finite("velocities", v, 3)?;
    let t = limits("max_time", &max_time, n, false)?;
    let casts: Vec<ShapeCast> = placed
        .iter()
        .enumerate()
        .map(|(i, &(shape, pose))| ShapeCast {
            shape,
            pose,
            velocity: vector(v, i),
            max_time: t[i],
        })
        .collect();
    let q = query_filter(filter)?;
    world.ensure_pool(threads)?;
    let (w, exec) = world.parts(threads);
    let found = py
        .detach(|| {
            let mut out = vec![None; n];
            w.cast_shapes_batch(&exec, &casts, &q, &mut out)
                .map(|()| out)
        })
        .map_err(|e| value_error(e.to_string()))?;
    let nan = Real::NAN;
    let (mut hit, mut time, mut id) = (vec![false; n], vec![Real::INFINITY; n], vec![0u64; n]);
    let (mut pt, mut nrm, mut depth) = (vec![nan; 3 * n], vec![nan; 3 * n], vec![nan; n]);
    let mut status = vec![u8::MAX; n];
    for (i, h) in found.iter().enumerate() {
        let Some(h) = h else { continue };
        hit[i] = true;
        time[i] = h.time;
        id[i] = h.id.to_bits();
        put3(&mut pt, i, h.point.coords.as_slice());
        put3(&mut nrm, i, h.normal.as_slice());
        depth[i] = h.depth;
        status[i] = match h.status {
            ToiStatus::Converged => 0,
            ToiStatus::StartedInContact => 1,
            ToiStatus::MaxIterations => 2,
        };
    }
    let out = PyDict::new(py);
    out.set_item("hit", PyArray1::from_vec(py, hit))?;
    out.set_item("time", PyArray1::from_vec(py, time))?;
    out.set_item("id", PyArray1::from_vec(py, id))?;
    out.set_item("point", output(py, (n, 3), pt)?)?;
    out.set_item("normal", output(py, (n, 3), nrm)?)?;
    out.set_item("depth", PyArray1::from_vec(py, depth))?;
    out.set_item("status", PyArray1::from_vec(py, status))?;
    Ok(out)
}

/// The closest collider to each point within `max_distance`: a dict of `hit`, `distance` (inf
/// when none), `id`, `point` (on the collider; NaN when none).
#[pyfunction]
#[pyo3(signature = (world, points, max_distance, filter, threads))]
pub fn closest_colliders<'py>(
    py: Python<'py>,
    mut world: PyRefMut<'py, PyWorld>,
    points: PyReadonlyArray2<'py, Real>,
    max_distance: Real,
    filter: FilterArgs,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let p = rows("points", &points, 3)?;
    let n = p.len() / 3;
    check_finite("points", p, 3)?;
    if max_distance.is_nan() || max_distance < 0.0 {
        return Err(value_error(format!(
            "max_distance must be >= 0 (found {max_distance})"
        )));
    }
    let q = query_filter(filter)?;
    world.ensure_pool(threads)?;
    let (w, exec) = world.parts(threads);
    let found = py
        .detach(|| {
            let pts: Vec<_> = (0..n).map(|i| point(p, i)).collect();
            let mut out = vec![None; n];
            w.closest_colliders(&exec, &pts, max_distance, &q, &mut out)
                .map(|()| out)
        })
        .map_err(|e| value_error(e.to_string()))?;
    let (mut hit, mut dist, mut id) = (vec![false; n], vec![Real::INFINITY; n], vec![0u64; n]);
    let mut pt = vec![Real::NAN; 3 * n];
    for (i, h) in found.iter().enumerate() {
        let Some(h) = h else { continue };
        hit[i] = true;
        dist[i] = h.distance;
        id[i] = h.id.to_bits();
        put3(&mut pt, i, h.point.coords.as_slice());
    }
    let out = PyDict::new(py);
    out.set_item("hit", PyArray1::from_vec(py, hit))?;
    out.set_item("distance", PyArray1::from_vec(py, dist))?;
    out.set_item("id", PyArray1::from_vec(py, id))?;
    out.set_item("point", output(py, (n, 3), pt)?)?;
    Ok(out)
}

/// The closest collider to each placed shape within `max_distance` (`World::closest_to_shape`
/// per shape, in chunks on the executor): a dict of `hit`, `distance` (inf when none), `id`,
/// `point_query`, `point_collider`, `normal` (NaN when none).
#[pyfunction]
#[pyo3(signature = (world, shapes, positions, rotations, max_distance, filter, threads))]
#[allow(clippy::too_many_arguments)] // the Python keyword arguments, one each
pub fn closest_to_shapes<'py>(
    py: Python<'py>,
    mut world: PyRefMut<'py, PyWorld>,
    shapes: &PyShapes,
    positions: Option<PyReadonlyArray2<'py, Real>>,
    rotations: Option<PyReadonlyArray2<'py, Real>>,
    max_distance: Real,
    filter: FilterArgs,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let placed = placed_shapes(shapes, &positions, &rotations)?;
    let n = placed.len();
    if max_distance.is_nan() || max_distance < 0.0 {
        return Err(value_error(format!(
            "max_distance must be >= 0 (found {max_distance})"
        )));
    }
    let q = query_filter(filter)?;
    world.ensure_pool(threads)?;
    let (w, exec) = world.parts(threads);
    let found = py
        .detach(|| {
            let one = |i: usize| {
                let (s, p) = &placed[i];
                w.closest_to_shape(s, p, max_distance, &q)
                    .map_err(|e| format!("shapes[{i}]: {e}"))
            };
            crate::world::chunked(&exec, n, one)
        })
        .map_err(value_error)?;
    let nan = Real::NAN;
    let (mut hit, mut dist, mut id) = (vec![false; n], vec![Real::INFINITY; n], vec![0u64; n]);
    let (mut pq, mut pc, mut nrm) = (vec![nan; 3 * n], vec![nan; 3 * n], vec![nan; 3 * n]);
    for (i, h) in found.iter().enumerate() {
        let Some(DistanceHit {
            id: hid,
            distance,
            point_query,
            point_collider,
            normal,
        }) = h
        else {
            continue;
        };
        hit[i] = true;
        dist[i] = *distance;
        id[i] = hid.to_bits();
        put3(&mut pq, i, point_query.coords.as_slice());
        put3(&mut pc, i, point_collider.coords.as_slice());
        put3(&mut nrm, i, normal.as_slice());
    }
    let out = PyDict::new(py);
    out.set_item("hit", PyArray1::from_vec(py, hit))?;
    out.set_item("distance", PyArray1::from_vec(py, dist))?;
    out.set_item("id", PyArray1::from_vec(py, id))?;
    out.set_item("point_query", output(py, (n, 3), pq)?)?;
    out.set_item("point_collider", output(py, (n, 3), pc)?)?;
    out.set_item("normal", output(py, (n, 3), nrm)?)?;
    Ok(out)
}
