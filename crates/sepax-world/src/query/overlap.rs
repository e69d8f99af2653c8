//! Overlap of any shape at a pose: the colliders whose placed shape it touches (closed sets,
//! exactly [`sepax_narrowphase::intersect::intersects_shapes`], as the update's touching rule).

use super::collect::{All, AnyHit, Clip, Collector};
use super::filter::Resolved;
use super::{place_query, QueryError, QueryFilter};
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use crate::world::World;
use sepax_narrowphase::intersect::intersects_shapes;
use sepax_shapes::math::Isometry3;
use sepax_shapes::{Aabb, Shape};

impl<B: MovingPhase> World<B> {
    /// Hands the id of every seen collider that `shape` placed by `pose` touches to
    /// `collector` (hits have `t = 0`: the built-ins order them by id). Errors on an invalid
    /// pose or placed shape (naming the field) and on a stale filter id.
    pub fn overlap_with(
        &self,
        shape: &Shape,
        pose: &Isometry3,
        filter: &QueryFilter<'_>,
        collector: &mut impl Collector<ColliderId>,
    ) -> Result<(), QueryError> {
        let sees = self.resolve(filter)?;
        let (placed, aabb) = place_query(0, shape, pose)?;
        self.overlap_resolved(&placed, &aabb, &sees, collector);
        collector.finish();
        Ok(())
    }

    /// Clears `out` and fills it with every seen collider `shape` at `pose` touches, by id.
    pub fn overlap(
        &self,
        shape: &Shape,
        pose: &Isometry3,
        filter: &QueryFilter<'_>,
        out: &mut Vec<ColliderId>,
    ) -> Result<(), QueryError> {
        out.clear();
        self.overlap_with(shape, pose, filter, &mut All(out))
    }

    /// Some seen collider that `shape` at `pose` touches (the first found), or `None`.
    pub fn overlap_any(
        &self,
        shape: &Shape,
        pose: &Isometry3,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<ColliderId>, QueryError> {
        let mut c = AnyHit::default();
        self.overlap_with(shape, pose, filter, &mut c)?;
        Ok(c.0)
    }

    pub(crate) fn overlap_resolved(
        &self,
        placed: &Shape,
        aabb: &Aabb,
        sees: &Resolved<'_, '_>,
        collector: &mut impl Collector<ColliderId>,
    ) {
        let mut clip = Clip::new(0.0);
        self.visit_aabb(aabb, sees, |id, c, _| {
            if intersects_shapes(placed, c.world_shape()) {
                return clip.offer(collector, id);
            }
            true
        });
    }
}
