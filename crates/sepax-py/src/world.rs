//! `World`: sepax-world's `World` with batch edits from arrays. The Python class `sepax.World`
//! wraps this one (broadcasting the keyword arguments and shaping the events).

use std::collections::BTreeMap;

use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use sepax_shapes::math::{Isometry3, Real};
use sepax_world::{
    ColliderDesc, ColliderId, Events, Executor, Filter, Kind, OwnerId, PairPolicy, RayonExecutor,
    Report, Serial, World, WorldConfig, NO_MANIFOLD,
};

use crate::arrays::{
    check_finite, check_len, check_rotations, column, output, pose, rows, value_error,
};
use crate::shapes::PyShapes;

/// The per-collider options of `insert`, one row per collider (the Python layer broadcasts).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Options<'py> {
    membership: PyReadonlyArray1<'py, u64>,
    mask: PyReadonlyArray1<'py, u64>,
    group: PyReadonlyArray1<'py, i32>,
    owner: PyReadonlyArray1<'py, u64>,
    has_owner: PyReadonlyArray1<'py, bool>,
    user: PyReadonlyArray1<'py, u64>,
}

/// A collision world (see `sepax.World`).
#[pyclass(module = "sepax._sepax", name = "World")]
pub struct PyWorld {
    pub(crate) world: World,
    /// The rayon pool of the last call with `threads != 1` and the count it was asked for, kept
    /// for the next.
    pool: Option<(usize, RayonExecutor)>,
    /// The explicit pair entries set through `allow_pairs` (smaller id first), which a
    /// snapshot writes (the world keeps them per collider without a listing).
    pub(crate) entries: BTreeMap<(u64, u64), bool>,
}

/// The executor of one call: the calling thread, or the world's rayon pool.
pub(crate) enum Exec<'a> {
    Serial,
    Pool(&'a RayonExecutor),
}

impl Executor for Exec<'_> {
    fn run(&self, count: usize, job: &(dyn Fn(usize) + Sync)) {
        match self {
            Exec::Serial => Serial.run(count, job),
            Exec::Pool(p) => p.run(count, job),
        }
    }
}

/// Inputs per job of [`chunked`] (fixed, so the split never depends on the thread count).
const CHUNK: usize = 64;

/// `f(i)` for `i` in `0..n` on `exec`, `CHUNK` inputs per job, results in input order; the
/// first error in input order wins.
pub(crate) fn chunked<T: Send, E: Send>(
    exec: &impl Executor,
    n: usize,
    f: impl Fn(usize) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E> {
    use std::sync::Mutex;
    let jobs = n.div_ceil(CHUNK);
    let slots: Vec<Mutex<Vec<Result<T, E>>>> = (0..jobs).map(|_| Mutex::new(Vec::new())).collect();
    exec.run(jobs, &|j| {
        let part: Vec<_> = (j * CHUNK..n.min((j + 1) * CHUNK)).map(&f).collect();
        *slots[j].lock().unwrap_or_else(|e| e.into_inner()) = part;
    });
    slots
        .into_iter()
        .flat_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

impl PyWorld {
    /// A world restored by a snapshot with its explicit pair entries.
    pub(crate) fn from_parts(world: World, entries: BTreeMap<(u64, u64), bool>) -> Self {
        Self {
            world,
            pool: None,
            entries,
        }
    }

    /// Makes (or keeps) the pool for `threads` (1: none needed; 0: one thread per core).
    pub(crate) fn ensure_pool(&mut self, threads: usize) -> PyResult<()> {
        if threads != 1 && self.pool.as_ref().is_none_or(|(t, _)| *t != threads) {
            let pool = RayonExecutor::new(threads)
                .map_err(|e| PyRuntimeError::new_err(format!("thread pool: {e}")))?;
            self.pool = Some((threads, pool));
        }
        Ok(())
    }

    /// The world and the executor for `threads` (after [`PyWorld::ensure_pool`]).
    pub(crate) fn parts(&self, threads: usize) -> (&World, Exec<'_>) {
        let exec = match &self.pool {
            Some((_, p)) if threads != 1 => Exec::Pool(p),
            _ => Exec::Serial,
        };
        (&self.world, exec)
    }
}

fn parse_kind(kind: &str) -> PyResult<Kind> {
    match kind {
        "static" => Ok(Kind::Static),
        "kinematic" => Ok(Kind::Kinematic),
        "dynamic" => Ok(Kind::Dynamic),
        _ => Err(value_error(format!(
            "kind must be 'static', 'kinematic' or 'dynamic' (found {kind:?})"
        ))),
    }
}

fn parse_report(report: &str) -> PyResult<Report> {
    match report {
        "begin_end" => Ok(Report::BeginEnd),
        "persist" => Ok(Report::Persist),
        "manifolds" => Ok(Report::Manifolds),
        _ => Err(value_error(format!(
            "report must be 'begin_end', 'persist' or 'manifolds' (found {report:?})"
        ))),
    }
}

impl PyWorld {
    /// The ids of a `uint64` array, each naming a live collider.
    fn live_ids(&self, name: &str, ids: &[u64]) -> PyResult<Vec<ColliderId>> {
        ids.iter()
            .enumerate()
            .map(|(i, &bits)| {
                let id = ColliderId::from_bits(bits);
                if self.world.contains(id) {
                    Ok(id)
                } else {
                    Err(value_error(format!(
                        "{name}[{i}] = {bits} is a stale or unknown collider id"
                    )))
                }
            })
            .collect()
    }
}

/// One event list as a `(k, 6)` `uint64` table: a, b, user_a, user_b, flags, manifold (the
/// Python layer views it as the structured event dtype, `manifold` as int64 with -1 for none).
fn event_table<'py>(
    py: Python<'py>,
    list: &[sepax_world::PairEvent],
) -> PyResult<Bound<'py, numpy::PyArray2<u64>>> {
    let mut v = Vec::with_capacity(6 * list.len());
    for e in list {
        let m = if e.manifold == NO_MANIFOLD {
            u64::MAX
        } else {
            e.manifold as u64
        };
        v.extend_from_slice(&[
            e.pair.0.to_bits(),
            e.pair.1.to_bits(),
            e.user[0],
            e.user[1],
            e.flags.0 as u64,
            m,
        ]);
    }
    output(py, (list.len(), 6), v)
}

/// The manifolds of an update as arrays, each with its pair (from the events that index it).
fn manifold_tuple<'py>(py: Python<'py>, ev: &Events) -> PyResult<Bound<'py, PyTuple>> {
    let m = ev.manifolds.len();
    let mut pair = vec![0u64; 2 * m];
    let mut speculative = vec![false; m];
    for e in ev.begin.iter().chain(&ev.persist) {
        if let Some(k) = (e.manifold != NO_MANIFOLD).then_some(e.manifold as usize) {
            pair[2 * k] = e.pair.0.to_bits();
            pair[2 * k + 1] = e.pair.1.to_bits();
        }
    }
    for &(key, k) in &ev.speculative {
        let k = k as usize;
        pair[2 * k] = key.0.to_bits();
        pair[2 * k + 1] = key.1.to_bits();
        speculative[k] = true;
    }
    let nan = Real::NAN;
    let (mut normal, mut depth, mut count) = (
        Vec::with_capacity(3 * m),
        Vec::with_capacity(m),
        Vec::with_capacity(m),
    );
    let (mut pa, mut pb, mut pd) = (vec![nan; 12 * m], vec![nan; 12 * m], vec![nan; 4 * m]);
    let mut feature = vec![0u32; 4 * m];
    for (i, man) in ev.manifolds.iter().enumerate() {
        normal.extend_from_slice(man.normal.as_slice());
        depth.push(man.depth);
        count.push(man.points.len() as u8);
        for (k, p) in man.points.iter().enumerate() {
            let j = 4 * i + k;
            pa[3 * j..3 * j + 3].copy_from_slice(p.point_a.coords.as_slice());
            pb[3 * j..3 * j + 3].copy_from_slice(p.point_b.coords.as_slice());
            pd[j] = p.depth;
            feature[j] = p.id.0;
        }
    }
    PyTuple::new(
        py,
        [
            output(py, (m, 2), pair)?.into_any(),
            PyArray1::from_vec(py, speculative).into_any(),
            output(py, (m, 3), normal)?.into_any(),
            PyArray1::from_vec(py, depth).into_any(),
            PyArray1::from_vec(py, count).into_any(),
            output(py, (m, 4, 3), pa)?.into_any(),
            output(py, (m, 4, 3), pb)?.into_any(),
            output(py, (m, 4), pd)?.into_any(),
            output(py, (m, 4), feature)?.into_any(),
        ],
    )
}

#[pymethods]
impl PyWorld {
    /// An empty world. `all_pairs`: test static–static pairs too; `margin`: the speculative
    /// contact margin of manifold pairs.
    #[new]
    #[pyo3(signature = (all_pairs = false, margin = 0.0))]
    fn new(all_pairs: bool, margin: Real) -> PyResult<Self> {
        if !(margin >= 0.0 && margin.is_finite()) {
            return Err(value_error(format!(
                "margin must be finite and >= 0 (found {margin})"
            )));
        }
        let mut config = WorldConfig::default();
        config.contact.margin = margin;
        if all_pairs {
            config.policy = PairPolicy::AllPairs;
        }
        let world = World::with_config(config).map_err(|e| value_error(e.to_string()))?;
        Ok(Self::from_parts(world, BTreeMap::new()))
    }

    /// Inserts `shapes` (local frames) placed at `positions (N, 3)` with `rotations (N, 4)`
    /// (`[w, x, y, z]`, default identity); returns the ids. Nothing is inserted on error.
    #[allow(clippy::too_many_arguments)] // the Python keyword arguments, one each
    #[pyo3(signature = (shapes, positions, rotations, kind, report, sensor, options))]
    fn insert<'py>(
        &mut self,
        py: Python<'py>,
        shapes: &PyShapes,
        positions: Option<PyReadonlyArray2<'py, Real>>,
        rotations: Option<PyReadonlyArray2<'py, Real>>,
        kind: &str,
        report: &str,
        sensor: bool,
        options: Options<'py>,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let n = shapes.shapes.len();
        let (kind, report) = (parse_kind(kind)?, parse_report(report)?);
        let p = match &positions {
            Some(p) => Some(rows("positions", p, 3)?),
            None => None,
        };
        let r = match &rotations {
            Some(r) => Some(rows("rotations", r, 4)?),
            None => None,
        };
        if let Some(p) = p {
            check_len("positions", p.len() / 3, n)?;
            check_finite("positions", p, 3)?;
        }
        if let Some(r) = r {
            check_len("rotations", r.len() / 4, n)?;
            check_rotations("rotations", r)?;
        }
        let o = &options;
        let (membership, mask) = (
            column("membership", &o.membership)?,
            column("mask", &o.mask)?,
        );
        let (group, owner) = (column("group", &o.group)?, column("owner", &o.owner)?);
        let (has_owner, user) = (column("has_owner", &o.has_owner)?, column("user", &o.user)?);
        for (name, len) in [
            ("membership", membership.len()),
            ("mask", mask.len()),
            ("group", group.len()),
            ("owner", owner.len()),
            ("has_owner", has_owner.len()),
            ("user", user.len()),
        ] {
            check_len(name, len, n)?;
        }
        let origin = if p.is_none() {
            vec![0.0; 3 * n]
        } else {
            Vec::new()
        };
        let p = p.unwrap_or(&origin);
        let descs: Vec<ColliderDesc> = (0..n)
            .map(|i| {
                let pose = pose(p, r, i);
                let filter = Filter {
                    membership: membership[i],
                    mask: mask[i],
                    group: group[i],
                    owner: has_owner[i].then_some(OwnerId(owner[i])),
                };
                ColliderDesc::new(shapes.shapes[i])
                    .pose(pose)
                    .kind(kind)
                    .report(report)
                    .sensor(sensor)
                    .filter(filter)
                    .user(user[i])
            })
            .collect();
        let mut ids = Vec::with_capacity(n);
        let world = &mut self.world;
        py.detach(|| world.insert_many(descs, &mut ids))
            .map_err(|e| value_error(e.to_string()))?;
        let bits: Vec<u64> = ids.iter().map(|id| id.to_bits()).collect();
        Ok(PyArray1::from_vec(py, bits))
    }

    /// Moves colliders `ids (N,)` to `positions (N, 3)`, `rotations (N, 4)` (`[w, x, y, z]`,
    /// unit within 1e-4, default identity). Nothing moves on error.
    #[pyo3(signature = (ids, positions, rotations = None))]
    fn set_poses(
        &mut self,
        py: Python<'_>,
        ids: PyReadonlyArray1<'_, u64>,
        positions: PyReadonlyArray2<'_, Real>,
        rotations: Option<PyReadonlyArray2<'_, Real>>,
    ) -> PyResult<()> {
        let ids = self.live_ids("ids", column("ids", &ids)?)?;
        let p = rows("positions", &positions, 3)?;
        check_len("positions", p.len() / 3, ids.len())?;
        check_finite("positions", p, 3)?;
        let r = match &rotations {
            Some(r) => Some(rows("rotations", r, 4)?),
            None => None,
        };
        if let Some(r) = r {
            check_len("rotations", r.len() / 4, ids.len())?;
            check_rotations("rotations", r)?;
        }
        let world = &mut self.world;
        py.detach(|| {
            let poses: Vec<Isometry3> = (0..ids.len()).map(|i| pose(p, r, i)).collect();
            world.set_poses(&ids, &poses)
        })
        .map_err(|e| value_error(e.to_string()))
    }

    /// Removes colliders `ids (N,)` (all checked first: nothing is removed on error).
    fn remove(&mut self, ids: PyReadonlyArray1<'_, u64>) -> PyResult<()> {
        let ids = self.live_ids("ids", column("ids", &ids)?)?;
        let mut sorted = ids.clone();
        sorted.sort();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(value_error(format!(
                "ids: {} is given twice",
                w[0].to_bits()
            )));
        }
        for &id in &ids {
            self.world
                .remove(id)
                .map_err(|e| value_error(e.to_string()))?;
        }
        // The world drops a removed collider's pair entries; so does the listing.
        let gone: std::collections::BTreeSet<u64> = ids.iter().map(|id| id.to_bits()).collect();
        self.entries
            .retain(|(a, b), _| !gone.contains(a) && !gone.contains(b));
        Ok(())
    }

    /// Sets (`allowed` true or false) or, with `allowed = None`, clears the explicit entries of
    /// the pairs `(a[i], b[i])`. All are checked first.
    #[pyo3(signature = (a, b, allowed))]
    fn allow_pairs(
        &mut self,
        a: PyReadonlyArray1<'_, u64>,
        b: PyReadonlyArray1<'_, u64>,
        allowed: Option<PyReadonlyArray1<'_, bool>>,
    ) -> PyResult<()> {
        let a = self.live_ids("a", column("a", &a)?)?;
        let b = self.live_ids("b", column("b", &b)?)?;
        check_len("b", b.len(), a.len())?;
        if let Some(i) = (0..a.len()).find(|&i| a[i] == b[i]) {
            return Err(value_error(format!(
                "a[{i}] and b[{i}] are the same collider ({})",
                a[i].to_bits()
            )));
        }
        let allowed = match &allowed {
            Some(x) => Some(column("allowed", x)?),
            None => None,
        };
        if let Some(x) = allowed {
            check_len("allowed", x.len(), a.len())?;
        }
        for i in 0..a.len() {
            let r = match allowed {
                Some(x) => self.world.allow_pair(a[i], b[i], x[i]),
                None => self.world.reset_pair(a[i], b[i]),
            };
            r.map_err(|e| value_error(e.to_string()))?;
            let (x, y) = (a[i].to_bits(), b[i].to_bits());
            let key = (x.min(y), x.max(y));
            match allowed {
                Some(v) => self.entries.insert(key, v[i]),
                None => self.entries.remove(&key),
            };
        }
        Ok(())
    }

    /// Runs one update on `threads` threads (1: the calling thread; 0: one per core) and returns
    /// `(begin, persist, end, manifolds)`: three `(k, 6)` uint64 event tables and the manifold
    /// arrays. The output is the same bit for bit for any thread count.
    #[pyo3(signature = (threads = 1))]
    fn update<'py>(&mut self, py: Python<'py>, threads: usize) -> PyResult<Bound<'py, PyTuple>> {
        self.ensure_pool(threads)?;
        let (world, pool) = (&mut self.world, &self.pool);
        py.detach(|| match pool {
            Some((_, p)) if threads != 1 => {
                world.update(p);
            }
            _ => {
                world.update(&Serial);
            }
        });
        let ev = self.world.events();
        PyTuple::new(
            py,
            [
                event_table(py, &ev.begin)?.into_any(),
                event_table(py, &ev.persist)?.into_any(),
                event_table(py, &ev.end)?.into_any(),
                manifold_tuple(py, ev)?.into_any(),
            ],
        )
    }

    /// The world's state hash (the colliders, their filters and the touching set; see
    /// `World::state_hash`).
    fn state_hash(&self) -> u64 {
        self.world.state_hash()
    }

    /// The ids of every live collider, in slot order.
    fn ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        let ids: Vec<u64> = self.world.iter().map(|(id, _)| id.to_bits()).collect();
        PyArray1::from_vec(py, ids)
    }

    /// The number of completed updates.
    fn update_count(&self) -> u64 {
        self.world.update_count()
    }

    fn __len__(&self) -> usize {
        self.world.len()
    }
}
