//! Continuous collision: each update sweeps the colliders flagged `ccd` from their pose at the
//! last update to their new one (centre linear, rotation along the shortest arc), against every
//! collider the filter admits whose box meets the swept box, and reports the first contact of a
//! pair during the frame with its time of impact.
//!
//! The other side of a pair is swept too when it is a ccd collider; otherwise it is taken at its
//! pose at the end of the frame (its previous pose is not kept). Candidates are the colliders
//! whose broad-phase box meets the swept box (the union of the start and end boxes, grown for
//! a turning collider to the box of its centre's path widened by its reach) in either tree, plus every pair of swept ccd colliders whose swept boxes meet (a direct pairwise test:
//! ccd colliders are few). Jobs of [`CHUNK`] pairs run on the executor and are joined in pair
//! order, so the result does not depend on it.

use std::sync::Mutex;

use super::update::pair_allowed;
use super::World;
use crate::collider::place;
use crate::error::{Subject, WorldError};
use crate::events::CcdHit;
use crate::executor::Executor;
use crate::id::{ColliderId, PairKey};
use crate::phase::MovingPhase;
use sepax_broadphase::{BroadPhase, Visit};
use sepax_narrowphase::toi::{time_of_impact_shapes, CastOptions, Motion, Toi, ToiStatus};
use sepax_shapes::math::{Isometry3, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Shape};

/// Pairs per job (a constant: the cut does not depend on the executor).
const CHUNK: usize = 16;

/// What continuous collision keeps between updates, and its reused buffers.
#[derive(Debug, Default)]
pub(crate) struct CcdState {
    /// The ccd colliders; stale ids and cleared flags are dropped at the next update.
    ids: Vec<ColliderId>,
    /// The pose of each enabled ccd collider at the last update, sorted by id.
    starts: Vec<(ColliderId, Isometry3)>,
    /// The pose of each ccd collider inserted (enabled) or switched to ccd since the last
    /// update, at that moment: the start of its first sweep. In edit order; an id's first
    /// entry counts.
    pending: Vec<(ColliderId, Isometry3)>,
    /// The pairs that touched during the last update's sweep but not at its end, sorted.
    pub(crate) swept: Vec<PairKey>,
    /// The same for the update that runs (swapped into `swept` at its end).
    pub(crate) swept_new: Vec<PairKey>,
    sweeps: Vec<Sweep>,
    jobs: Vec<Job>,
    out: Vec<Mutex<Vec<Option<Toi>>>>,
}

/// One ccd collider's motion over the frame.
#[derive(Debug, Clone)]
struct Sweep {
    id: ColliderId,
    /// The shape placed at the start pose.
    start: Shape,
    motion: Motion,
    /// The union of the start and end boxes.
    bounds: Aabb,
}

/// One pair to sweep: which sides move (indices into `sweeps`) and whether it touches at the
/// end of the frame.
#[derive(Debug, Clone, Copy)]
struct Job {
    pair: PairKey,
    a: Option<u32>,
    b: Option<u32>,
    touching: bool,
}

impl CcdState {
    /// Records a new collider (`ccd`: flagged and enabled) placed at `pose`.
    pub(crate) fn track(&mut self, id: ColliderId, ccd: bool, pose: Isometry3) {
        if ccd {
            self.ids.push(id);
            self.pending.push((id, pose));
        }
    }

    /// Moves the kept start poses with the origin (see [`World::shift_origin`]).
    pub(crate) fn shift_origin(&mut self, origin: &Vector3) {
        for (_, pose) in self.starts.iter_mut().chain(&mut self.pending) {
            pose.translation.vector -= origin;
        }
    }

    /// Where `id`'s sweep of this update starts: its pose at the last update, else the one it
    /// had when it was inserted or switched to ccd since (`pending` sorted stably by id).
    fn start_of(&self, id: ColliderId) -> Option<Isometry3> {
        if let Ok(k) = self.starts.binary_search_by_key(&id, |s| s.0) {
            return Some(self.starts[k].1);
        }
        let k = self.pending.partition_point(|s| s.0 < id);
        self.pending.get(k).filter(|s| s.0 == id).map(|s| s.1)
    }
}

/// The motion from `start` (placed at `p0`) to `end` (placed at `p1`): the shape's centre moves
/// on a line, the rotation turns along the shortest arc about it. At time 1 it is the end
/// placement (up to rounding).
fn sweep_motion(start: &Shape, end: &Shape, p0: &Isometry3, p1: &Isometry3) -> Motion {
    let c0 = Motion::about_center(start, Vector3::zeros(), Vector3::zeros()).pivot;
    let c1 = Motion::about_center(end, Vector3::zeros(), Vector3::zeros()).pivot;
    let rel = p1.rotation * p0.rotation.inverse();
    let q = rel.into_inner();
    let rel = if q.w < 0.0 {
        UnitQuaternion::new_unchecked(-q)
    } else {
        rel
    };
    Motion::new(c0, c1 - c0, rel.scaled_axis())
}

/// A box holding a spinning shape over the whole frame: its centre moves on a segment and
/// every point stays within `reach` of it (the start box's corners are that far at most), so
/// the segment's box grown by `reach` bounds it. (The union of the start and end boxes alone
/// misses a bar that turns through a wall and ends clear of it.)
fn spin_bounds(start_box: &Aabb, m: &Motion) -> Aabb {
    let to_centre = start_box.center() - m.pivot;
    let reach = start_box.half_extents().norm() + to_centre.norm();
    let (a, b) = (m.pivot, m.pivot + m.linear);
    let lo = a.coords.inf(&b.coords).add_scalar(-reach);
    let hi = a.coords.sup(&b.coords).add_scalar(reach);
    Aabb::new(lo.into(), hi.into()).unwrap_or_else(|_| start_box.merge(start_box))
}

impl<B: MovingPhase> World<B> {
    /// Turns continuous collision on or off for `id`. Switched on, the collider is swept at
    /// the next update from its pose at that moment (or from its pose at the last update, if
    /// it was a ccd collider then).
    pub fn set_ccd(&mut self, id: ColliderId, ccd: bool) -> Result<(), WorldError> {
        let c = self.colliders.get_mut(id).ok_or(WorldError::StaleId(id))?;
        if ccd && !c.desc.ccd {
            self.ccd.ids.push(id);
            if c.desc.enabled {
                self.ccd.pending.push((id, c.desc.pose));
            }
        }
        c.desc.ccd = ccd;
        Ok(())
    }

    /// Moves a collider like [`World::set_pose`], but a ccd collider is not swept from where
    /// it was: the next update's sweep starts at `pose` (a respawn, a portal). The same as
    /// `set_pose` for other colliders.
    pub fn teleport(&mut self, id: ColliderId, pose: Isometry3) -> Result<(), WorldError> {
        self.set_pose(id, pose)?;
        let c = &self.colliders[id];
        if !c.desc.ccd {
            return Ok(());
        }
        let placed = c.desc.pose;
        let st = &mut self.ccd;
        if let Ok(k) = st.starts.binary_search_by_key(&id, |s| s.0) {
            st.starts.remove(k);
        }
        st.pending.retain(|s| s.0 != id);
        st.pending.push((id, placed));
        Ok(())
    }

    /// The sweep of this update, after the narrow phase (`tested` holds this update's results,
    /// `scratch.tested` the last one's): fills `events.ccd` and `ccd.swept_new`. Does nothing
    /// (and allocates nothing) without ccd colliders.
    pub(super) fn ccd_sweep(&mut self, exec: &impl Executor) {
        self.ccd.swept_new.clear();
        if self.ccd.ids.is_empty() {
            return;
        }
        let _span = tracing::debug_span!("ccd").entered();
        self.prepare_sweeps();
        self.ccd_jobs();
        let jobs = self.ccd.jobs.len();
        let chunks = jobs.div_ceil(CHUNK);
        while self.ccd.out.len() < chunks {
            self.ccd.out.push(Mutex::new(Vec::new()));
        }
        let (colliders, st) = (&self.colliders, &self.ccd);
        exec.run(chunks, &|i| {
            let mut out = st.out[i].lock().unwrap_or_else(|e| e.into_inner());
            out.clear();
            for job in &st.jobs[i * CHUNK..((i + 1) * CHUNK).min(jobs)] {
                let side = |id: ColliderId, s: Option<u32>| match s {
                    Some(k) => (&st.sweeps[k as usize].start, st.sweeps[k as usize].motion),
                    None => (&colliders[id].world_shape, Motion::linear(Vector3::zeros())),
                };
                let (sa, ma) = side(job.pair.0, job.a);
                let (sb, mb) = side(job.pair.1, job.b);
                out.push(time_of_impact_shapes(
                    sa,
                    &ma,
                    sb,
                    &mb,
                    1.0,
                    &CastOptions::default(),
                ));
            }
        });
        let CcdState {
            jobs: all,
            out,
            swept_new,
            ..
        } = &mut self.ccd;
        let hits = &mut self.events.ccd;
        for (group, res) in all.chunks(CHUNK).zip(out.iter_mut()) {
            let res = res.get_mut().unwrap_or_else(|e| e.into_inner());
            for (job, toi) in group.iter().zip(res.iter()) {
                // A start in contact is the last update's state, not a contact of this motion.
                let Some(toi) = toi.filter(|t| t.status != ToiStatus::StartedInContact) else {
                    continue;
                };
                hits.push(CcdHit {
                    pair: job.pair,
                    time: toi.time,
                    point: toi.point(),
                    normal: toi.normal,
                });
                if !job.touching {
                    swept_new.push(job.pair);
                }
            }
        }
        self.events.stats.ccd_swept = self.ccd.sweeps.len();
        self.events.stats.ccd_pairs = jobs;
    }

    /// The live, enabled ccd colliders that moved since the last update, with their motion.
    fn prepare_sweeps(&mut self) {
        let colliders = &self.colliders;
        let st = &mut self.ccd;
        st.ids
            .retain(|&id| colliders.get(id).is_some_and(|c| c.desc.ccd));
        st.ids.sort_unstable();
        st.ids.dedup();
        // Stable: an id's first entry (its pose when first recorded) stays first.
        st.pending.sort_by_key(|s| s.0);
        st.sweeps.clear();
        for &id in &st.ids {
            let c = &colliders[id];
            let Some(p0) = st.start_of(id) else {
                continue;
            };
            if !c.desc.enabled || p0 == c.desc.pose {
                continue;
            }
            // The start pose was valid at the last update; with a new shape it may not be.
            let Ok((start, start_box)) = place(Subject::Id(id), &c.desc.shape, &p0) else {
                continue;
            };
            let motion = sweep_motion(&start, &c.world_shape, &p0, &c.desc.pose);
            let mut bounds = start_box.merge(&c.world_aabb);
            if motion.angular != Vector3::zeros() {
                bounds = bounds.merge(&spin_bounds(&start_box, &motion));
            }
            st.sweeps.push(Sweep {
                id,
                start,
                motion,
                bounds,
            });
        }
    }

    /// The pairs to sweep, sorted by pair key: candidates of the swept boxes that pass the
    /// filter, except those touching both at the last update and now (nothing to report).
    fn ccd_jobs(&mut self) {
        let st = &mut self.ccd;
        st.jobs.clear();
        let (moving, statics) = (&self.moving, &self.statics);
        let jobs = &mut st.jobs;
        let mut push = |me: ColliderId, other: Option<u64>| {
            let Some(o) = other.map(ColliderId::from_bits) else {
                return;
            };
            if o != me {
                jobs.push(Job {
                    pair: PairKey::new(me, o),
                    a: None,
                    b: None,
                    touching: false,
                });
            }
        };
        for (i, s) in st.sweeps.iter().enumerate() {
            BroadPhase::query_aabb(moving, &s.bounds, &mut |p| {
                push(s.id, moving.user(p));
                Visit::Continue
            });
            statics.query_aabb(&s.bounds, |p| {
                push(s.id, statics.user(p));
                Visit::Continue
            });
            for t in &st.sweeps[i + 1..] {
                if s.bounds.intersects(&t.bounds) {
                    push(s.id, Some(t.id.to_bits()));
                }
            }
        }
        jobs.sort_unstable_by_key(|j| j.pair);
        jobs.dedup_by_key(|j| j.pair);
        let (colliders, policy) = (&self.colliders, self.config.policy);
        let (now, last) = (&self.tested, &self.scratch.tested);
        let touching = |list: &[super::Tested], pair: PairKey| {
            list.binary_search_by(|t| t.pair.cmp(&pair))
                .is_ok_and(|i| list[i].touching)
        };
        let sweeps = &st.sweeps;
        let swept = &st.swept;
        let index = |id: ColliderId| {
            sweeps
                .binary_search_by_key(&id, |s| s.id)
                .ok()
                .map(|k| k as u32)
        };
        jobs.retain_mut(|j| {
            let (a, b) = (&colliders[j.pair.0], &colliders[j.pair.1]);
            if !pair_allowed(policy, a, b, j.pair.1) {
                return false;
            }
            j.touching = touching(now, j.pair);
            let before = touching(last, j.pair) || swept.binary_search(&j.pair).is_ok();
            if j.touching && before {
                return false;
            }
            j.a = index(j.pair.0);
            j.b = index(j.pair.1);
            true
        });
    }

    /// After the events: this update's swept pairs become the last update's, and every enabled
    /// ccd collider's pose is kept as the start of the next sweep.
    pub(super) fn ccd_finish(&mut self) {
        let st = &mut self.ccd;
        core::mem::swap(&mut st.swept, &mut st.swept_new);
        st.starts.clear();
        st.pending.clear();
        for &id in &st.ids {
            if let Some(c) = self
                .colliders
                .get(id)
                .filter(|c| c.desc.enabled && c.desc.ccd)
            {
                st.starts.push((id, c.desc.pose));
            }
        }
    }
}

/// Merges two sorted sequences into one sorted sequence.
pub(super) fn merge_sorted<T: Ord>(
    a: impl Iterator<Item = T>,
    b: impl Iterator<Item = T>,
) -> impl Iterator<Item = T> {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    core::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(x), Some(y)) if x <= y => a.next(),
        (Some(_), Some(_)) => b.next(),
        (Some(_), None) => a.next(),
        (None, _) => b.next(),
    })
}
