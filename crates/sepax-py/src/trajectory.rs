//! Trajectory checks on arrays: `World::check_trajectories_raw` over poses `(B, T, M, 7)`
//! (`[x, y, z, qw, qx, qy, qz]` rows, read in place), one result per trajectory as arrays.

use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sepax_shapes::math::Real;
use sepax_world::{ColliderId, Sweep, TrajectoryHit, TrajectoryOptions, TrajectoryResult};

use crate::arrays::{column, output, value_error};
use crate::world::PyWorld;

/// `(first_step (B,) int64, pair (B, 2) uint64, t (B,))` columns of hits, `-1`, `0` and NaN
/// where there is none.
struct HitColumns {
    step: Vec<i64>,
    pair: Vec<u64>,
    t: Vec<Real>,
}

impl HitColumns {
    fn with_capacity(n: usize) -> Self {
        Self {
            step: Vec::with_capacity(n),
            pair: Vec::with_capacity(2 * n),
            t: Vec::with_capacity(n),
        }
    }

    fn push(&mut self, h: Option<&TrajectoryHit>) {
        match h {
            Some(h) => {
                self.step.push(h.step as i64);
                self.pair
                    .extend_from_slice(&[h.pair.0.to_bits(), h.pair.1.to_bits()]);
                self.t.push(h.t.unwrap_or(Real::NAN));
            }
            None => {
                self.step.push(-1);
                self.pair.extend_from_slice(&[0, 0]);
                self.t.push(Real::NAN);
            }
        }
    }

    fn into_dict(self, py: Python<'_>, d: &Bound<'_, PyDict>, prefix: &str) -> PyResult<()> {
        let n = self.step.len();
        d.set_item(format!("{prefix}step"), PyArray1::from_vec(py, self.step))?;
        d.set_item(format!("{prefix}pair"), output(py, (n, 2), self.pair)?)?;
        d.set_item(format!("{prefix}t"), PyArray1::from_vec(py, self.t))?;
        Ok(())
    }
}

/// Checks `B` trajectories of `T` steps of the `M` colliders `movers`: `poses` is `(B, T, M, 7)`.
/// Returns a dict: `first_step (B,)` (-1 when free), `pair (B, 2)` (the first hit's pair, 0 0
/// when free), `t (B,)` (swept mode: fraction of the motion into the step; NaN otherwise); with
/// `min_distance`: `distance (B,)` (inf when no pair came within it), `distance_step (B,)`,
/// `distance_pair (B, 2)`; with `all_hits`: `hits_offsets (B + 1,)` and `hits_step`,
/// `hits_pair`, `hits_t` (every (step, pair) contact, by trajectory).
#[pyfunction]
#[allow(clippy::too_many_arguments)] // the Python keyword arguments, one each
#[pyo3(signature = (world, poses, movers, swept, all_hits, min_distance, threads))]
pub fn check_trajectories<'py>(
    py: Python<'py>,
    mut world: PyRefMut<'py, PyWorld>,
    poses: PyReadonlyArrayDyn<'py, Real>,
    movers: PyReadonlyArray1<'py, u64>,
    swept: bool,
    all_hits: bool,
    min_distance: Option<Real>,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let shape = poses.shape().to_vec();
    let movers: Vec<ColliderId> = column("movers", &movers)?
        .iter()
        .map(|&b| ColliderId::from_bits(b))
        .collect();
    if shape.len() != 4 || shape[3] != 7 || shape[2] != movers.len() {
        return Err(value_error(format!(
            "poses must have shape (B, T, {}, 7) (M = len(movers)), found {shape:?}",
            movers.len()
        )));
    }
    let (b, steps) = (shape[0], shape[1]);
    let flat = poses
        .as_slice()
        .map_err(|_| value_error("poses must be C-contiguous"))?;
    let (rows, rest) = flat.as_chunks::<7>();
    debug_assert!(rest.is_empty());
    let options = TrajectoryOptions {
        sweep: if swept { Sweep::Swept } else { Sweep::Discrete },
        all_hits,
        distance: min_distance,
    };
    world.ensure_pool(threads)?;
    let (w, exec) = world.parts(threads);
    let results = py
        .detach(|| {
            let mut out = vec![TrajectoryResult::default(); b];
            w.check_trajectories_raw(&movers, rows, steps, &options, &exec, &mut out)
                .map(|()| out)
        })
        .map_err(|e| value_error(e.to_string()))?;
    let d = PyDict::new(py);
    let mut first = HitColumns::with_capacity(b);
    for r in &results {
        first.push(r.first_hit.as_ref());
    }
    // The Python layer names them `first_step`, `pair`, `t`.
    first.into_dict(py, &d, "first_")?;
    if min_distance.is_some() {
        let (mut dist, mut step, mut pair) = (
            Vec::with_capacity(b),
            Vec::with_capacity(b),
            Vec::with_capacity(2 * b),
        );
        for r in &results {
            match &r.min_distance {
                Some(m) => {
                    dist.push(m.distance);
                    step.push(m.step as i64);
                    pair.extend_from_slice(&[m.pair.0.to_bits(), m.pair.1.to_bits()]);
                }
                None => {
                    dist.push(Real::INFINITY);
                    step.push(-1);
                    pair.extend_from_slice(&[0, 0]);
                }
            }
        }
        d.set_item("distance", PyArray1::from_vec(py, dist))?;
        d.set_item("distance_step", PyArray1::from_vec(py, step))?;
        d.set_item("distance_pair", output(py, (b, 2), pair)?)?;
    }
    if all_hits {
        let total = results.iter().map(|r| r.hits.len()).sum();
        let mut hits = HitColumns::with_capacity(total);
        let mut offsets = Vec::with_capacity(b + 1);
        offsets.push(0i64);
        for r in &results {
            for h in &r.hits {
                hits.push(Some(h));
            }
            offsets.push(hits.step.len() as i64);
        }
        d.set_item("hits_offsets", PyArray1::from_vec(py, offsets))?;
        hits.into_dict(py, &d, "hits_")?;
    }
    Ok(d)
}
