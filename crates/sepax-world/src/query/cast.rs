//! Linear shape casts: a shape moving with a constant velocity, its first contact with each
//! seen collider ([`sepax_narrowphase::toi::cast_shapes`]); a start in contact is reported at
//! time 0 with its penetration. The rotational form in `rotational` shares the sweep here.

use super::collect::{hit_record, Clip, Closest, Collector};
use super::filter::Resolved;
use super::{check_finite, check_limit, place_query, QueryError, QueryFilter};
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use crate::world::World;
use sepax_narrowphase::toi::{time_of_impact_shapes, CastOptions, Motion, ToiStatus};
use sepax_shapes::math::{Isometry3, Point3, Real, Vector3};
use sepax_shapes::tolerance::{TOI_DISTANCE_ALLOWANCE, UNIT_ROUNDOFF};
use sepax_shapes::{Aabb, Shape};

/// The first contact of a cast shape with a collider.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeCastHit {
    /// The collider.
    pub id: ColliderId,
    /// Time of first contact in `[0, max_time]`, never later than the exact one (0 when the
    /// shape starts in contact).
    pub time: Real,
    /// The contact point at that time (halfway between the two closest points).
    pub point: Point3,
    /// Unit normal from the collider toward the cast shape (the surface normal a character
    /// slides along). At a start in contact: the minimum translation's direction, moving the
    /// cast shape by `depth * normal` separates them (zero if the narrow phase has none).
    pub normal: Vector3,
    /// Penetration depth at a start in contact (`>= 0`); 0 otherwise.
    pub depth: Real,
    /// How the time was found ([`ToiStatus::StartedInContact`] at a start in contact).
    pub status: ToiStatus,
}

hit_record!(ShapeCastHit, |h| h.time);

impl<B: MovingPhase> World<B> {
    /// Casts `shape` placed by `pose` along `velocity` for times `[0, max_time]` (it sits at
    /// `pose` translated by `velocity * t`) and hands its first contact with every seen
    /// collider within that time to `collector`. Errors on an invalid pose, a non-finite
    /// velocity, a `max_time` that is negative or not finite, or a stale filter id.
    pub fn cast_shape_with(
        &self,
        shape: &Shape,
        pose: &Isometry3,
        velocity: &Vector3,
        max_time: Real,
        filter: &QueryFilter<'_>,
        collector: &mut impl Collector<ShapeCastHit>,
    ) -> Result<(), QueryError> {
        let sees = self.resolve(filter)?;
        check_finite(0, "velocity", velocity.as_slice())?;
        check_limit(0, "max_time", max_time, false)?;
        let (placed, aabb) = place_query(0, shape, pose)?;
        let motion = Motion::linear(*velocity);
        self.cast_resolved(&placed, &aabb, &motion, max_time, &sees, collector);
        collector.finish();
        Ok(())
    }

    /// The first contact over all seen colliders (least time, then least id), or `None`.
    pub fn cast_shape(
        &self,
        shape: &Shape,
        pose: &Isometry3,
        velocity: &Vector3,
        max_time: Real,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<ShapeCastHit>, QueryError> {
        let mut c = Closest::default();
        self.cast_shape_with(shape, pose, velocity, max_time, filter, &mut c)?;
        Ok(c.0)
    }

    /// The sweep shared by the linear and the rotational casts: every seen collider whose
    /// stored box meets the box swept by the moving shape (grown by the time of impact's
    /// rounding allowance) gets the exact time of impact against its placed shape.
    pub(crate) fn cast_resolved(
        &self,
        placed: &Shape,
        aabb: &Aabb,
        motion: &Motion,
        max_time: Real,
        sees: &Resolved<'_, '_>,
        collector: &mut impl Collector<ShapeCastHit>,
    ) {
        let swept = swept_box(aabb, motion, max_time);
        let mut clip = Clip::new(max_time);
        let still = Motion::linear(Vector3::zeros());
        let options = CastOptions::default();
        self.visit_aabb(&swept, sees, |id, c, _| {
            // The full window, not the clip: the closed form's rounding allowances depend on
            // it, and each hit must be the single pair's answer.
            let Some(toi) =
                time_of_impact_shapes(placed, motion, c.world_shape(), &still, max_time, &options)
            else {
                return true;
            };
            let hit = ShapeCastHit {
                id,
                time: toi.time,
                point: toi.point(),
                normal: -toi.normal,
                depth: toi.depth,
                status: toi.status,
            };
            clip.offer(collector, hit)
        });
    }
}

/// A box holding every placement of a shape with box `aabb` moving by `motion` over
/// `[0, t_max]`, grown by the time of impact's rounding allowance, clamped to the finite range.
pub(crate) fn swept_box(aabb: &Aabb, motion: &Motion, t_max: Real) -> Aabb {
    let shift = motion.linear * t_max;
    let (mut lo, mut hi) = if motion.angular == Vector3::zeros() {
        (aabb.min().coords, aabb.max().coords)
    } else {
        // A spinning shape stays in the ball about its pivot through its farthest box corner.
        let r = aabb
            .corners()
            .iter()
            .map(|p| (p - motion.pivot).norm())
            .fold(0.0, Real::max);
        let r = Vector3::repeat(r);
        (motion.pivot.coords - r, motion.pivot.coords + r)
    };
    let end_lo = lo + shift;
    let end_hi = hi + shift;
    lo = lo.inf(&end_lo);
    hi = hi.sup(&end_hi);
    // The narrow phase may report a contact where the gap is within its allowance (relative to
    // the pair's scale): grow by a generous multiple of it, relative to the swept magnitudes.
    let scale = lo.amax().max(hi.amax()).min(Real::MAX);
    let grow = 4.0 * TOI_DISTANCE_ALLOWANCE * scale + 64.0 * UNIT_ROUNDOFF * scale;
    let clamp = |x: Real| x.clamp(-Real::MAX, Real::MAX);
    let lo = lo.map(|x| clamp(x - grow));
    let hi = hi.map(|x| clamp(x + grow));
    Aabb::new(Point3::from(lo), Point3::from(hi)).unwrap_or(*aabb)
}
