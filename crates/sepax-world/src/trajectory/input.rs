//! The entry points: input checks (every index named), then one job per trajectory on the
//! executor, results in input order.

use std::sync::Mutex;

use super::check::{Link, Plan};
use super::{TrajectoryError, TrajectoryOptions, TrajectoryReport, TrajectoryResult};
use crate::collider::{check_pose, pose_from_raw};
use crate::error::Subject;
use crate::executor::Executor;
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use crate::world::World;
use sepax_shapes::math::{Isometry3, Real};

impl<B: MovingPhase + Sync> World<B> {
    /// Checks `poses.len() / (steps * movers.len())` trajectories of `steps` steps of the
    /// colliders `movers` (see the module docs of the trajectory types for the layout and the
    /// swept motion): at each step every mover, placed at its pose, against every other
    /// collider of the world at its current placement and against the other movers at the
    /// same step, each pair through the filter rule of [`World`] (explicit pair entries, the
    /// pair policy on the colliders' kinds, the filters). Touching is
    /// [`sepax_narrowphase::intersect::intersects_shapes`], as in [`World::update`].
    ///
    /// Errors name the mover or the pose at fault; the input is checked before any work.
    /// The report is the same for every executor and thread count.
    pub fn check_trajectories(
        &self,
        movers: &[ColliderId],
        poses: &[Isometry3],
        steps: usize,
        options: &TrajectoryOptions,
        exec: &impl Executor,
    ) -> Result<TrajectoryReport, TrajectoryError> {
        let count = self.check_shape(movers, poses.len(), steps, options)?;
        for (index, pose) in poses.iter().enumerate() {
            let m = index % movers.len();
            check_pose(Subject::Id(movers[m]), pose)
                .map_err(|e| pose_error(index, steps, movers.len(), e))?;
        }
        let mut out = vec![TrajectoryResult::default(); count];
        self.run_batch(movers, (poses, false), steps, options, exec, &mut out)?;
        Ok(TrajectoryReport { trajectories: out })
    }

    /// [`World::check_trajectories`] with poses as raw rows `[x, y, z, qw, qx, qy, qz]` (the
    /// quaternion unit within [`sepax_shapes::tolerance::QUATERNION_TOLERANCE`], then
    /// normalised) and one result per trajectory written into `out`, which must have exactly
    /// that many entries. On error `out` is left as it was.
    pub fn check_trajectories_raw(
        &self,
        movers: &[ColliderId],
        poses: &[[Real; 7]],
        steps: usize,
        options: &TrajectoryOptions,
        exec: &impl Executor,
        out: &mut [TrajectoryResult],
    ) -> Result<(), TrajectoryError> {
        let count = self.check_shape(movers, poses.len(), steps, options)?;
        if out.len() != count {
            return Err(TrajectoryError::OutputLength {
                expected: count,
                found: out.len(),
            });
        }
        let mut typed = Vec::with_capacity(poses.len());
        for (index, p) in poses.iter().enumerate() {
            let who = Subject::Id(movers[index % movers.len()]);
            let pose = pose_from_raw(who, [p[0], p[1], p[2]], [p[3], p[4], p[5], p[6]])
                .map_err(|e| pose_error(index, steps, movers.len(), e))?;
            typed.push(pose);
        }
        let mut fresh = vec![TrajectoryResult::default(); count];
        self.run_batch(movers, (&typed, true), steps, options, exec, &mut fresh)?;
        for (slot, r) in out.iter_mut().zip(fresh) {
            *slot = r;
        }
        Ok(())
    }

    /// Checks the movers, the steps, the options and the pose count; the number of
    /// trajectories.
    fn check_shape(
        &self,
        movers: &[ColliderId],
        poses: usize,
        steps: usize,
        options: &TrajectoryOptions,
    ) -> Result<usize, TrajectoryError> {
        if movers.is_empty() {
            return Err(TrajectoryError::NoMovers);
        }
        if steps == 0 {
            return Err(TrajectoryError::NoSteps);
        }
        for (index, &id) in movers.iter().enumerate() {
            if !self.colliders.contains_key(id) {
                return Err(TrajectoryError::StaleMover { index, id });
            }
            if let Some(first) = movers[..index].iter().position(|&m| m == id) {
                return Err(TrajectoryError::DuplicateMover { index, first });
            }
        }
        if let Some(d) = options.distance {
            if !(d.is_finite() && d >= 0.0) {
                return Err(TrajectoryError::Distance(d as f64));
            }
        }
        let per = steps.saturating_mul(movers.len());
        if !poses.is_multiple_of(per) {
            return Err(TrajectoryError::PoseCount {
                poses,
                per_trajectory: per,
            });
        }
        Ok(poses / per)
    }

    /// One job per trajectory; the first error in trajectory order wins. `poses.1`: whether
    /// the poses are already normalised.
    fn run_batch(
        &self,
        movers: &[ColliderId],
        (poses, normalised): (&[Isometry3], bool),
        steps: usize,
        options: &TrajectoryOptions,
        exec: &impl Executor,
        out: &mut [TrajectoryResult],
    ) -> Result<(), TrajectoryError> {
        let links: Vec<Link> = movers
            .iter()
            .map(|&id| Link {
                id,
                collider: &self.colliders[id],
            })
            .collect();
        let mut sorted = movers.to_vec();
        sorted.sort_unstable();
        let plan = Plan {
            world: self,
            links: &links,
            sorted_movers: &sorted,
            steps,
            options,
            normalised,
        };
        let per = steps * movers.len();
        let slots: Vec<Mutex<(&mut TrajectoryResult, Result<(), TrajectoryError>)>> =
            out.iter_mut().map(|r| Mutex::new((r, Ok(())))).collect();
        exec.run(slots.len(), &|b| {
            let mut guard = slots[b].lock().unwrap_or_else(|e| e.into_inner());
            let (result, status) = &mut *guard;
            *status = plan.trajectory(b, &poses[b * per..(b + 1) * per], result);
        });
        for slot in slots {
            let (_, status) = slot.into_inner().unwrap_or_else(|e| e.into_inner());
            status?;
        }
        Ok(())
    }
}

/// A pose error at flat index `index`, with its trajectory, step and mover.
pub(super) fn pose_error(
    index: usize,
    steps: usize,
    movers: usize,
    source: crate::error::WorldError,
) -> TrajectoryError {
    TrajectoryError::Pose {
        index,
        trajectory: index / (steps * movers),
        step: index / movers % steps,
        mover: index % movers,
        source,
    }
}
