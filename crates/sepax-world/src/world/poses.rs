//! Moving many colliders at once. Every new pose is checked and its shape placed first, in
//! chunks on an executor (a collider's placement reads only its own shape and new pose, so the
//! chunks are independent and the result does not depend on who runs them); only once all are
//! valid are they written, and the moving proxies updated in one batch.

use std::sync::Mutex;

use super::World;
use crate::collider::{check_pose, place, Collider};
use crate::error::{Subject, WorldError};
use crate::executor::{Executor, Serial};
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use sepax_shapes::math::Isometry3;
use sepax_shapes::{Aabb, Shape};

/// Colliders per placement job. Placement is per collider, so the cut changes no result; it
/// only has to be large enough that a job outweighs its hand-off.
const POSE_CHUNK: usize = 1024;

/// One placement job's output, kept between calls so that warm frames allocate nothing.
#[derive(Debug, Default)]
pub(crate) struct PlaceChunk {
    /// The checked pose, the placed shape and its broad-phase box, in the job's order.
    placed: Vec<(Isometry3, Shape, Aabb)>,
    /// The job's first error (it stops there).
    error: Option<WorldError>,
}

impl<B: MovingPhase> World<B> {
    /// Moves many colliders: `poses[k]` for `ids[k]`. Everything is checked first; on error
    /// (naming the first collider in `ids` order that fails) nothing moves. The same as
    /// [`World::set_poses_with`] on [`Serial`].
    pub fn set_poses(&mut self, ids: &[ColliderId], poses: &[Isometry3]) -> Result<(), WorldError> {
        self.set_poses_with(&Serial, ids, poses)
    }

    /// [`World::set_poses`] with the checks and placements run in chunks on `exec`; the world
    /// afterwards (and the error, if any) is the same bit for bit whatever the executor.
    pub fn set_poses_with(
        &mut self,
        exec: &impl Executor,
        ids: &[ColliderId],
        poses: &[Isometry3],
    ) -> Result<(), WorldError> {
        if ids.len() != poses.len() {
            return Err(WorldError::LengthMismatch {
                ids: ids.len(),
                poses: poses.len(),
            });
        }
        let chunks = ids.len().div_ceil(POSE_CHUNK);
        let mut buf = core::mem::take(&mut self.scratch_placed);
        while buf.len() < chunks {
            buf.push(Mutex::new(PlaceChunk::default()));
        }
        let colliders = &self.colliders;
        let jobs = &buf[..chunks];
        exec.run(chunks, &|i| {
            let range = i * POSE_CHUNK..((i + 1) * POSE_CHUNK).min(ids.len());
            let mut guard = jobs[i].lock().unwrap_or_else(|e| e.into_inner());
            let out = &mut *guard;
            out.placed.clear();
            out.error = None;
            for (&id, pose) in ids[range.clone()].iter().zip(&poses[range]) {
                if let Err(e) = checked_placement(colliders, id, pose, &mut out.placed) {
                    out.error = Some(e);
                    break;
                }
            }
        });
        // The chunks run in `ids` order, so the first chunk with an error has the first one.
        let first_error = buf[..chunks]
            .iter_mut()
            .find_map(|m| m.get_mut().unwrap_or_else(|e| e.into_inner()).error.take());
        if let Some(e) = first_error {
            self.scratch_placed = buf;
            return Err(e);
        }
        // The moving colliders' proxies move in one batch: the tree repairs itself once.
        let mut moves = core::mem::take(&mut self.scratch_moves);
        moves.clear();
        for (i, chunk) in buf[..chunks].iter_mut().enumerate() {
            let out = chunk.get_mut().unwrap_or_else(|e| e.into_inner());
            let ids = &ids[i * POSE_CHUNK..];
            for (&id, &(pose, shape, aabb)) in ids.iter().zip(&out.placed) {
                moves.extend(self.place_collider(id, pose, None, shape, aabb));
            }
        }
        self.moving.update_many(&mut moves.drain(..));
        self.scratch_moves = moves;
        self.scratch_placed = buf;
        Ok(())
    }
}

/// Pushes `id`'s checked new pose, its placed shape and box (see [`World::set_pose`]) to `out`.
/// (Writing into `out` rather than returning them keeps the large success value out of the
/// `Result`: this runs once per moved collider.)
#[inline]
fn checked_placement(
    colliders: &slotmap::SlotMap<ColliderId, Collider>,
    id: ColliderId,
    pose: &Isometry3,
    out: &mut Vec<(Isometry3, Shape, Aabb)>,
) -> Result<(), WorldError> {
    let c = colliders.get(id).ok_or(WorldError::StaleId(id))?;
    let who = Subject::Id(id);
    let pose = check_pose(who, pose)?;
    let (s, b) = place(who, &c.desc.shape, &pose)?;
    out.push((pose, s, b));
    Ok(())
}
