//! Ray casts: closest, any, all, or any collector.

use super::collect::{All, AnyHit, Clip, Closest, Collector, Hit};
use super::filter::Resolved;
use super::{QueryError, QueryFilter};
use crate::collider::Kind;
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use crate::world::World;
use sepax_broadphase::bvh::RayStep;
use sepax_broadphase::{BroadPhase, ProxyId};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::Ray;

/// Where a ray meets a collider's placed shape (the solid-aware convention of
/// [`sepax_shapes::cast`]: an origin inside gives distance 0, the origin and a zero normal).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayCastHit {
    /// The collider.
    pub id: ColliderId,
    /// Distance along the ray's unit direction.
    pub distance: Real,
    /// The hit point.
    pub point: Point3,
    /// Unit outward normal of the shape there (zero when the origin is inside).
    pub normal: Vector3,
}

impl Hit for RayCastHit {
    #[inline]
    fn id(&self) -> ColliderId {
        self.id
    }
    #[inline]
    fn t(&self) -> Real {
        self.distance
    }
}

impl<B: MovingPhase> World<B> {
    /// Casts `ray` (its length is `ray.max_distance()`, possibly infinite) and hands every hit
    /// of a seen collider's exact shape to `collector`. Errors only on a stale filter id.
    pub fn cast_ray_with(
        &self,
        ray: &Ray,
        filter: &QueryFilter<'_>,
        collector: &mut impl Collector<RayCastHit>,
    ) -> Result<(), QueryError> {
        let sees = self.resolve(filter)?;
        self.ray_resolved(ray, &sees, collector);
        collector.finish();
        Ok(())
    }

    /// The nearest hit (least distance, then least id), or `None`.
    pub fn cast_ray(
        &self,
        ray: &Ray,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<RayCastHit>, QueryError> {
        let mut c = Closest::default();
        self.cast_ray_with(ray, filter, &mut c)?;
        Ok(c.0)
    }

    /// Some hit (the first found), or `None`: the cheapest "is anything in the way" test.
    pub fn cast_ray_any(
        &self,
        ray: &Ray,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<RayCastHit>, QueryError> {
        let mut c = AnyHit::default();
        self.cast_ray_with(ray, filter, &mut c)?;
        Ok(c.0)
    }

    /// Clears `out` and fills it with every hit, sorted by distance, then id.
    pub fn cast_ray_all(
        &self,
        ray: &Ray,
        filter: &QueryFilter<'_>,
        out: &mut Vec<RayCastHit>,
    ) -> Result<(), QueryError> {
        out.clear();
        self.cast_ray_with(ray, filter, &mut All(out))
    }

    pub(crate) fn ray_resolved(
        &self,
        ray: &Ray,
        sees: &Resolved<'_, '_>,
        collector: &mut impl Collector<RayCastHit>,
    ) {
        let mut clip = Clip::new(ray.max_distance());
        let kinds = sees.kinds();
        // One leaf: the exact shape, then the collector; the tree's clip follows the query's.
        let mut leaf = |moving: bool, p: ProxyId, t_box: Real| -> RayStep {
            if clip.stopped {
                return RayStep::Stop;
            }
            if t_box > clip.value {
                return RayStep::Clip(clip.value);
            }
            let Some((id, c)) = self.proxy_collider(moving, p) else {
                return RayStep::Continue;
            };
            if !sees.sees(id, c) {
                return RayStep::Continue;
            }
            let Some(h) = c.world_shape().cast_ray(ray) else {
                return RayStep::Continue;
            };
            let hit = RayCastHit {
                id,
                distance: h.distance,
                point: h.point,
                normal: h.normal,
            };
            if !clip.offer(collector, hit) {
                return RayStep::Stop;
            }
            RayStep::Clip(clip.value)
        };
        if kinds.contains(Kind::Kinematic) || kinds.contains(Kind::Dynamic) {
            self.moving.cast_ray(ray, &mut |p, t| leaf(true, p, t));
        }
        if kinds.contains(Kind::Static) && !self.statics.is_empty() {
            self.statics.cast_ray(ray, |p, t| leaf(false, p, t));
        }
    }
}
