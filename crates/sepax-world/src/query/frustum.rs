//! Frustum queries: which colliders are inside a view frustum, and which cross its boundary.

use super::collect::{hit_record, All, Clip, Collector};
use super::{QueryError, QueryFilter};
use crate::collider::grow_saturating;
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use crate::world::World;
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::{Aabb, CullMode, Frustum, Shape, Sphere, Visibility};

/// A collider not outside the frustum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrustumHit {
    /// The collider.
    pub id: ColliderId,
    /// [`Visibility::Inside`] or [`Visibility::Intersecting`].
    pub visibility: Visibility,
}

hit_record!(FrustumHit, |_h| 0.0);

/// Where a placed shape lies relative to `frustum`. Boxes and spheres use the frustum's own
/// culling in `mode`. A capsule is `Inside` when both end spheres are (the frustum is convex),
/// a triangle when its three corners are; either is `Outside` when its bounding box is, else
/// `Intersecting` (so one that misses the frustum near an edge, inside its box, counts as
/// intersecting, as the plane test does for boxes).
///
/// A shape whose box misses the frustum's box (grown by a rounding band) is `Outside` first,
/// which removes the plane test's false positives far from the frustum.
pub fn frustum_visibility(frustum: &Frustum, shape: &Shape, mode: CullMode) -> Visibility {
    if !shape.world_aabb().intersects(&frustum_box(frustum)) {
        return Visibility::Outside;
    }
    let point_in =
        |p| Sphere::new(p, 0.0).is_ok_and(|s| frustum.cull_sphere(&s, mode) == Visibility::Inside);
    let rest = |all_inside: bool| {
        if all_inside {
            Visibility::Inside
        } else if frustum.cull_aabb(&shape.world_aabb(), mode) == Visibility::Outside {
            Visibility::Outside
        } else {
            Visibility::Intersecting
        }
    };
    match shape {
        Shape::Aabb(b) => frustum.cull_aabb(b, mode),
        Shape::Obb(b) => frustum.cull_obb(b, mode),
        Shape::Sphere(s) => frustum.cull_sphere(s, mode),
        Shape::Capsule(c) => {
            let end = |p| {
                Sphere::new(p, c.radius())
                    .is_ok_and(|s| frustum.cull_sphere(&s, mode) == Visibility::Inside)
            };
            rest(end(c.p0()) && end(c.p1()))
        }
        Shape::Triangle(t) => rest(t.vertices().into_iter().all(point_in)),
    }
}

/// The frustum's box grown by a rounding band (the culling tests allow for rounding near the
/// boundary).
fn frustum_box(frustum: &Frustum) -> Aabb {
    let b = frustum.world_aabb();
    let band = 256.0 * UNIT_ROUNDOFF * (b.center().coords.amax() + b.half_extents().amax());
    grow_saturating(&b, band)
}

impl<B: MovingPhase> World<B> {
    /// Hands every seen collider whose placed shape is not outside `frustum` (by
    /// [`frustum_visibility`] in `mode`) to `collector`, with its visibility (`t = 0`: the
    /// built-ins order by id). Errors only on a stale filter id (a [`Frustum`] is checked when
    /// made).
    pub fn frustum_with(
        &self,
        frustum: &Frustum,
        mode: CullMode,
        filter: &QueryFilter<'_>,
        collector: &mut impl Collector<FrustumHit>,
    ) -> Result<(), QueryError> {
        let sees = self.resolve(filter)?;
        let mut clip = Clip::new(0.0);
        // Grown by a rounding band: the culling tests allow for rounding near the boundary.
        let b = frustum.world_aabb();
        let band = 256.0 * UNIT_ROUNDOFF * (b.center().coords.amax() + b.half_extents().amax());
        self.visit_aabb(
            &grow_saturating(&b, band),
            &sees,
            |id, c, _| match frustum_visibility(frustum, c.world_shape(), mode) {
                Visibility::Outside => true,
                visibility => clip.offer(collector, FrustumHit { id, visibility }),
            },
        );
        collector.finish();
        Ok(())
    }

    /// Clears `out` and fills it with every seen collider not outside `frustum`, by id.
    pub fn frustum_query(
        &self,
        frustum: &Frustum,
        mode: CullMode,
        filter: &QueryFilter<'_>,
        out: &mut Vec<FrustumHit>,
    ) -> Result<(), QueryError> {
        out.clear();
        self.frustum_with(frustum, mode, filter, &mut All(out))
    }
}
