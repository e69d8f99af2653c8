//! The closest collider to a point, and every collider within a distance of it.

use super::collect::{hit_record, All, Closest, Collector};
use super::{check_finite, check_limit, QueryError, QueryFilter};
use crate::collider::grow_saturating;
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use crate::world::World;
use sepax_narrowphase::distance::point_closest_points;
use sepax_shapes::math::{Point3, Real};
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::Aabb;

/// A collider near a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointHit {
    /// The collider.
    pub id: ColliderId,
    /// Distance from the point to the collider's placed shape (0 when inside or on it).
    pub distance: Real,
    /// The shape's point closest to the query point (the point itself when inside).
    pub point: Point3,
}

hit_record!(PointHit, |h| h.distance);

impl<B: MovingPhase> World<B> {
    /// Hands every seen collider within `max_distance` of `point` (`Real::INFINITY` for no
    /// limit) to `collector`, nearer ones first as far as the search goes (see the module
    /// `nearest`: rounds of growing radius). Errors on a non-finite point, a negative or NaN
    /// `max_distance`, or a stale filter id.
    pub fn point_query_with(
        &self,
        point: &Point3,
        max_distance: Real,
        filter: &QueryFilter<'_>,
        collector: &mut impl Collector<PointHit>,
    ) -> Result<(), QueryError> {
        let sees = self.resolve(filter)?;
        self.point_checked(0, point, max_distance)?;
        self.point_resolved(point, max_distance, &sees, collector);
        collector.finish();
        Ok(())
    }

    /// The closest seen collider to `point` within `max_distance` (ties: least id), or `None`.
    pub fn closest_collider(
        &self,
        point: &Point3,
        max_distance: Real,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<PointHit>, QueryError> {
        let mut c = Closest::default();
        self.point_query_with(point, max_distance, filter, &mut c)?;
        Ok(c.0)
    }

    /// Clears `out` and fills it with every seen collider within `max_distance` of `point`,
    /// sorted by distance, then id (a point inside a collider is at distance 0).
    pub fn colliders_near(
        &self,
        point: &Point3,
        max_distance: Real,
        filter: &QueryFilter<'_>,
        out: &mut Vec<PointHit>,
    ) -> Result<(), QueryError> {
        out.clear();
        self.point_query_with(point, max_distance, filter, &mut All(out))
    }

    pub(crate) fn point_checked(
        &self,
        index: usize,
        point: &Point3,
        max_distance: Real,
    ) -> Result<(), QueryError> {
        check_finite(index, "point", point.coords.as_slice())?;
        check_limit(index, "max_distance", max_distance, true)
    }

    pub(crate) fn point_resolved(
        &self,
        point: &Point3,
        max_distance: Real,
        sees: &super::filter::Resolved<'_, '_>,
        collector: &mut impl Collector<PointHit>,
    ) {
        // The point's box, grown by the rounding band of the distance kernels.
        let p = Aabb::new_unchecked(*point, *point);
        let bounds = grow_saturating(&p, 64.0 * UNIT_ROUNDOFF * point.coords.amax());
        self.nearest_search(&bounds, max_distance, sees, collector, |id, c| {
            let cp = point_closest_points(point, c.world_shape());
            (cp.distance <= max_distance).then_some(PointHit {
                id,
                distance: cp.distance,
                point: cp.point_b,
            })
        });
    }
}
