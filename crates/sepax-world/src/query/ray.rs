//! Ray casts: closest, any, all, or any collector.

use super::collect::{hit_record, All, AnyHit, Clip, Closest, Collector};
use super::filter::Resolved;
use super::table::RayTable;
use super::{KindMask, QueryError, QueryFilter};
use crate::collider::Kind;
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use crate::world::World;
use sepax_broadphase::bvh::{RayCaster, RayStep};
use sepax_broadphase::{BroadPhase, ProxyId};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Ray, RayHit};

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

hit_record!(RayCastHit, |h| h.distance);

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
        self.ray_resolved(&self.statics.ray_caster(1), ray, &sees, collector);
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

    /// The cast of `ray` through the moving phase and, by `statics` (a caster of
    /// `self.statics`), the static tree.
    pub(crate) fn ray_resolved(
        &self,
        statics: &RayCaster<'_>,
        ray: &Ray,
        sees: &Resolved<'_, '_>,
        collector: &mut impl Collector<RayCastHit>,
    ) {
        let mut clip = Clip::new(ray.max_distance());
        let kinds = sees.kinds();
        // One leaf: the exact shape (only hits within the clip are finished), then the
        // collector; the tree's clip follows the query's. `fast`: every collider of the tree
        // is seen, so a box in the table is tested without touching its collider.
        let mut leaf = |moving: bool, fast: bool, p: ProxyId, t_box: Real| -> RayStep {
            if clip.stopped {
                return RayStep::Stop;
            }
            if t_box > clip.value {
                return RayStep::Clip(clip.value);
            }
            let table = if moving {
                &self.rays.moving
            } else {
                &self.rays.statics
            };
            let found = match table.obb(p.index).filter(|_| fast) {
                Some(b) => b
                    .cast_ray_within(ray, clip.value)
                    .and_then(|h| Some((table.id(p.index)?, h))),
                None => self.exact_leaf(table, moving, p, ray, clip.value, sees),
            };
            let Some((id, h)) = found else {
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
        if (kinds.contains(Kind::Kinematic) || kinds.contains(Kind::Dynamic))
            && !self.moving.is_empty()
        {
            let fast = sees.sees_all_of(KindMask::MOVING);
            self.moving
                .cast_ray(ray, &mut |p, t| leaf(true, fast, p, t));
        }
        if kinds.contains(Kind::Static) && !self.statics.is_empty() {
            let fast = sees.sees_all_of(KindMask::STATIC);
            statics.cast_ray_candidates(ray, |slot, t| {
                let p = ProxyId {
                    index: slot,
                    generation: 0,
                };
                leaf(false, fast, p, t)
            });
        }
    }

    /// The leaf test through the collider: the filter, then its placed shape's hit within
    /// `limit`. The collider comes from the table, else from the tree's user value (`p`'s
    /// generation is only read then, and is real only for moving proxies).
    #[inline(never)]
    fn exact_leaf(
        &self,
        table: &RayTable,
        moving: bool,
        p: ProxyId,
        ray: &Ray,
        limit: Real,
        sees: &Resolved<'_, '_>,
    ) -> Option<(ColliderId, RayHit)> {
        let (id, c) = match table.id(p.index) {
            Some(id) => (id, self.colliders.get(id)?),
            None => self.proxy_collider(moving, p)?,
        };
        if !sees.sees(id, c) {
            return None;
        }
        Some((id, c.world_shape().cast_ray_within(ray, limit)?))
    }
}
