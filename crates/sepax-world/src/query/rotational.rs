//! Rotational shape casts: a shape moving with constant linear and angular velocities
//! ([`sepax_narrowphase::toi::time_of_impact`] with a [`Motion`]).

use super::cast::ShapeCastHit;
use super::collect::{Closest, Collector};
use super::{check_finite, check_limit, place_query, QueryError, QueryFilter};
use crate::phase::MovingPhase;
use crate::world::World;
use sepax_narrowphase::toi::Motion;
use sepax_shapes::math::{Isometry3, Real};
use sepax_shapes::Shape;

impl<B: MovingPhase> World<B> {
    /// Casts `shape` placed by `pose` along `motion` (pivot in world space, spinning by
    /// `|angular| t` about it while it translates by `linear * t`) for times `[0, max_time]`,
    /// handing its first contact with every seen collider to `collector` (the colliders stand
    /// still). Errors on an invalid pose, a non-finite motion, a bad `max_time` or a stale
    /// filter id.
    pub fn cast_motion_with(
        &self,
        shape: &Shape,
        pose: &Isometry3,
        motion: &Motion,
        max_time: Real,
        filter: &QueryFilter<'_>,
        collector: &mut impl Collector<ShapeCastHit>,
    ) -> Result<(), QueryError> {
        let sees = self.resolve(filter)?;
        check_finite(0, "motion.pivot", motion.pivot.coords.as_slice())?;
        check_finite(0, "motion.linear", motion.linear.as_slice())?;
        check_finite(0, "motion.angular", motion.angular.as_slice())?;
        check_limit(0, "max_time", max_time, false)?;
        let (placed, aabb) = place_query(0, shape, pose)?;
        self.cast_resolved(&placed, &aabb, motion, max_time, &sees, collector);
        collector.finish();
        Ok(())
    }

    /// The first contact of a rotational cast over all seen colliders (least time, then least
    /// id), or `None`.
    pub fn cast_motion(
        &self,
        shape: &Shape,
        pose: &Isometry3,
        motion: &Motion,
        max_time: Real,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<ShapeCastHit>, QueryError> {
        let mut c = Closest::default();
        self.cast_motion_with(shape, pose, motion, max_time, filter, &mut c)?;
        Ok(c.0)
    }
}
