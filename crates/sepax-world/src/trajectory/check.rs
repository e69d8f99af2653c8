//! One trajectory, step by step: the links placed at their poses, candidates from both trees
//! (the links' own entries skipped), then the filter, the box test and the exact test, or in
//! swept mode the time of impact over the motion from the step before.

use super::input::pose_error;
use super::motion::{still, swept, Swept, END};
use super::TrajectoryResult;
use super::{Sweep, TrajectoryDistance, TrajectoryError, TrajectoryHit, TrajectoryOptions};
use crate::collider::{check_pose, grow_saturating, place, Collider};
use crate::error::Subject;
use crate::id::{ColliderId, PairKey};
use crate::phase::MovingPhase;
use crate::world::{pair_allowed, World};
use sepax_broadphase::{BroadPhase, Visit};
use sepax_narrowphase::distance::distance_shapes;
use sepax_narrowphase::intersect::intersects_shapes;
use sepax_narrowphase::toi::{time_of_impact_shapes, CastOptions, Motion};
use sepax_shapes::math::{Isometry3, Real};
use sepax_shapes::{Aabb, Shape};

/// A moving collider of the batch.
pub(crate) struct Link<'a> {
    pub id: ColliderId,
    pub collider: &'a Collider,
}

/// What every trajectory job reads.
pub(crate) struct Plan<'a, B: MovingPhase> {
    pub world: &'a World<B>,
    pub links: &'a [Link<'a>],
    /// The movers' ids, sorted (their world entries are skipped).
    pub sorted_movers: &'a [ColliderId],
    pub steps: usize,
    pub options: &'a TrajectoryOptions,
    /// The poses are already checked and normalised (the raw form): used as they are, so that
    /// a pose is normalised once.
    pub normalised: bool,
}

/// Reused buffers of one trajectory.
#[derive(Default)]
struct Buffers {
    prev: Vec<(Shape, Aabb)>,
    cur: Vec<(Shape, Aabb)>,
    /// The checked (normalised) poses of the step before and of this step.
    prev_poses: Vec<Isometry3>,
    cur_poses: Vec<Isometry3>,
    swept: Vec<Swept>,
    candidates: Vec<ColliderId>,
    step_hits: Vec<TrajectoryHit>,
}

impl<B: MovingPhase> Plan<'_, B> {
    /// Checks trajectory `b` (its `steps * movers` poses) into `out`.
    pub(crate) fn trajectory(
        &self,
        b: usize,
        poses: &[Isometry3],
        out: &mut TrajectoryResult,
    ) -> Result<(), TrajectoryError> {
        *out = TrajectoryResult::default();
        let m = self.links.len();
        let mut buf = Buffers::default();
        for k in 0..self.steps {
            let step_poses = &poses[k * m..(k + 1) * m];
            buf.cur.clear();
            buf.cur_poses.clear();
            for (i, (link, pose)) in self.links.iter().zip(step_poses).enumerate() {
                let index = (b * self.steps + k) * m + i;
                let who = Subject::Id(link.id);
                let err = |e| pose_error(index, self.steps, m, e);
                let pose = if self.normalised {
                    *pose
                } else {
                    check_pose(who, pose).map_err(err)?
                };
                let placed = place(who, &link.collider.desc.shape, &pose).map_err(err)?;
                buf.cur.push(placed);
                buf.cur_poses.push(pose);
            }
            buf.step_hits.clear();
            if self.options.sweep == Sweep::Swept && k > 0 {
                buf.swept.clear();
                for i in 0..m {
                    let (p0, p1) = (&buf.prev_poses[i], &buf.cur_poses[i]);
                    buf.swept.push(swept(&buf.prev[i], &buf.cur[i], p0, p1));
                }
                self.swept_hits(k, &mut buf);
            } else {
                self.discrete_hits(k, &mut buf);
            }
            if let Some(d) = self.options.distance {
                self.distances(k, d, &mut buf, out);
            }
            let hits = &mut buf.step_hits;
            hits.sort_by_key(|h| h.pair);
            if out.first_hit.is_none() {
                out.first_hit = hits.iter().copied().min_by(|x, y| {
                    let (tx, ty) = (x.t.unwrap_or(0.0), y.t.unwrap_or(0.0));
                    tx.total_cmp(&ty).then(x.pair.cmp(&y.pair))
                });
            }
            if self.options.all_hits {
                out.hits.extend_from_slice(hits);
            } else if out.first_hit.is_some() {
                return Ok(());
            }
            core::mem::swap(&mut buf.prev, &mut buf.cur);
            core::mem::swap(&mut buf.prev_poses, &mut buf.cur_poses);
        }
        Ok(())
    }

    /// The world's colliders (not movers) whose broad-phase boxes overlap `aabb`, sorted.
    fn candidates(&self, aabb: &Aabb, out: &mut Vec<ColliderId>) {
        out.clear();
        let w = self.world;
        let mut take = |bits: Option<u64>| {
            if let Some(bits) = bits {
                let id = ColliderId::from_bits(bits);
                if self.sorted_movers.binary_search(&id).is_err() {
                    out.push(id);
                }
            }
            Visit::Continue
        };
        BroadPhase::query_aabb(&w.moving, aabb, &mut |p| take(w.moving.user(p)));
        w.statics.query_aabb(aabb, |p| take(w.statics.user(p)));
        out.sort_unstable();
        out.dedup();
    }

    /// Whether link `i` and collider `other` may collide (the world's filter rule).
    fn allowed(&self, i: usize, other: ColliderId, o: &Collider) -> bool {
        pair_allowed(self.world.config.policy, self.links[i].collider, o, other)
    }

    /// Contacts at the poses of step `k`.
    fn discrete_hits(&self, k: usize, buf: &mut Buffers) {
        let colliders = &self.world.colliders;
        for (i, (shape, aabb)) in buf.cur.iter().enumerate() {
            let me = self.links[i].id;
            self.candidates(aabb, &mut buf.candidates);
            for &other in &buf.candidates {
                let o = &colliders[other];
                if self.allowed(i, other, o)
                    && aabb.intersects(&o.world_aabb)
                    && intersects_shapes(shape, &o.world_shape)
                {
                    buf.step_hits.push(hit(k, me, other, None));
                }
            }
            for (j, (s2, b2)) in buf.cur.iter().enumerate().skip(i + 1) {
                let link = &self.links[j];
                if self.allowed(i, link.id, link.collider)
                    && aabb.intersects(b2)
                    && intersects_shapes(shape, s2)
                {
                    buf.step_hits.push(hit(k, me, link.id, None));
                }
            }
        }
    }

    /// Contacts during the motion from step `k - 1` to step `k` (both ends included).
    fn swept_hits(&self, k: usize, buf: &mut Buffers) {
        let colliders = &self.world.colliders;
        let rest = still();
        for i in 0..buf.cur.len() {
            let me = self.links[i].id;
            let sw = buf.swept[i];
            self.candidates(&sw.aabb, &mut buf.candidates);
            for &other in &buf.candidates {
                let o = &colliders[other];
                if !(self.allowed(i, other, o) && sw.aabb.intersects(&o.world_aabb)) {
                    continue;
                }
                let ends = [
                    (&buf.prev[i].0, &buf.cur[i].0),
                    (&o.world_shape, &o.world_shape),
                ];
                if let Some(t) = first_contact(ends, [&sw.motion, &rest]) {
                    buf.step_hits.push(hit(k, me, other, Some(t)));
                }
            }
            for j in i + 1..buf.cur.len() {
                let link = &self.links[j];
                let sj = &buf.swept[j];
                if !(self.allowed(i, link.id, link.collider) && sw.aabb.intersects(&sj.aabb)) {
                    continue;
                }
                let ends = [
                    (&buf.prev[i].0, &buf.cur[i].0),
                    (&buf.prev[j].0, &buf.cur[j].0),
                ];
                if let Some(t) = first_contact(ends, [&sw.motion, &sj.motion]) {
                    buf.step_hits.push(hit(k, me, link.id, Some(t)));
                }
            }
        }
    }

    /// The smallest distance at step `k` among the pairs within `max` (ties: the earlier
    /// step, then the smaller pair).
    fn distances(&self, k: usize, max: Real, buf: &mut Buffers, out: &mut TrajectoryResult) {
        let colliders = &self.world.colliders;
        let mut best = out.min_distance;
        let mut offer = |d: Real, a: ColliderId, b: ColliderId| {
            // A NaN distance is never within `max`.
            if d.is_nan() || d > max {
                return;
            }
            let cand = TrajectoryDistance {
                distance: d,
                step: k,
                pair: PairKey::new(a, b),
            };
            let better = best.is_none_or(|x| (d, k, cand.pair) < (x.distance, x.step, x.pair));
            if better {
                best = Some(cand);
            }
        };
        for (i, (shape, aabb)) in buf.cur.iter().enumerate() {
            let me = self.links[i].id;
            let reach = grow_saturating(aabb, max);
            self.candidates(&reach, &mut buf.candidates);
            for &other in &buf.candidates {
                let o = &colliders[other];
                if self.allowed(i, other, o) && reach.intersects(&o.world_aabb) {
                    offer(distance_shapes(shape, &o.world_shape), me, other);
                }
            }
            for (j, (s2, b2)) in buf.cur.iter().enumerate().skip(i + 1) {
                let link = &self.links[j];
                if self.allowed(i, link.id, link.collider) && reach.intersects(b2) {
                    offer(distance_shapes(shape, s2), me, link.id);
                }
            }
        }
        out.min_distance = best;
    }
}

fn hit(step: usize, a: ColliderId, b: ColliderId, t: Option<Real>) -> TrajectoryHit {
    TrajectoryHit {
        step,
        pair: PairKey::new(a, b),
        t,
    }
}

/// The first time in `[0, 1]` at which two shapes moving from their first to their second
/// placement touch: the time of impact of the motions, or 1 when only the end placements
/// touch (a contact the advancement's rounding allowance left at the very end).
fn first_contact(ends: [(&Shape, &Shape); 2], motions: [&Motion; 2]) -> Option<Real> {
    let [(a0, a1), (b0, b1)] = ends;
    let options = CastOptions::default();
    match time_of_impact_shapes(a0, motions[0], b0, motions[1], END, &options) {
        Some(toi) => Some(toi.time.clamp(0.0, END)),
        None => intersects_shapes(a1, b1).then_some(END),
    }
}
