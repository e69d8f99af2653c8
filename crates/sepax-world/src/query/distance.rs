//! Distances from a shape at a pose to the colliders, with a maximum distance and witness
//! points ([`sepax_narrowphase::distance::closest_points_shapes`]).

use super::collect::{hit_record, All, Closest, Collector};
use super::{check_limit, place_query, QueryError, QueryFilter};
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use crate::world::World;
use sepax_narrowphase::distance::closest_points_shapes;
use sepax_shapes::math::{Isometry3, Point3, Real, Vector3};
use sepax_shapes::Shape;

/// The distance from the query shape to a collider, with the witness points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistanceHit {
    /// The collider.
    pub id: ColliderId,
    /// Euclidean distance (0 when touching or overlapping).
    pub distance: Real,
    /// The query shape's point closest to the collider.
    pub point_query: Point3,
    /// The collider's point closest to the query shape.
    pub point_collider: Point3,
    /// Unit direction from the query shape toward the collider (zero when they meet).
    pub normal: Vector3,
}

hit_record!(DistanceHit, |h| h.distance);

impl<B: MovingPhase> World<B> {
    /// Hands every seen collider within `max_distance` (`Real::INFINITY` for no limit) of
    /// `shape` placed by `pose` to `collector`, with its distance and witness points. Errors on
    /// an invalid pose, a negative or NaN `max_distance`, or a stale filter id.
    pub fn distance_with(
        &self,
        shape: &Shape,
        pose: &Isometry3,
        max_distance: Real,
        filter: &QueryFilter<'_>,
        collector: &mut impl Collector<DistanceHit>,
    ) -> Result<(), QueryError> {
        let sees = self.resolve(filter)?;
        check_limit(0, "max_distance", max_distance, true)?;
        let (placed, bounds) = place_query(0, shape, pose)?;
        self.nearest_search(&bounds, max_distance, &sees, collector, |id, c| {
            let cp = closest_points_shapes(&placed, c.world_shape());
            (cp.distance <= max_distance).then_some(DistanceHit {
                id,
                distance: cp.distance,
                point_query: cp.point_a,
                point_collider: cp.point_b,
                normal: cp.normal,
            })
        });
        collector.finish();
        Ok(())
    }

    /// The nearest seen collider to `shape` at `pose` within `max_distance` (ties: least id).
    pub fn closest_to_shape(
        &self,
        shape: &Shape,
        pose: &Isometry3,
        max_distance: Real,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<DistanceHit>, QueryError> {
        let mut c = Closest::default();
        self.distance_with(shape, pose, max_distance, filter, &mut c)?;
        Ok(c.0)
    }

    /// Clears `out` and fills it with every seen collider within `max_distance` of `shape` at
    /// `pose`, sorted by distance, then id.
    pub fn colliders_within(
        &self,
        shape: &Shape,
        pose: &Isometry3,
        max_distance: Real,
        filter: &QueryFilter<'_>,
        out: &mut Vec<DistanceHit>,
    ) -> Result<(), QueryError> {
        out.clear();
        self.distance_with(shape, pose, max_distance, filter, &mut All(out))
    }
}
