//! The touching pairs of the current placements, streamed: no pair list is held, so a scene
//! whose shapes all overlap one another (a million boxes: half a trillion pairs) is visited in
//! memory linear in the number of colliders.

use super::update::pair_allowed;
use super::World;
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use sepax_broadphase::{BroadPhase, Visit};
use sepax_narrowphase::intersect::intersects_shapes;

impl<B: MovingPhase> World<B> {
    /// Calls `f(a, b)` for every pair that passes the filter and touches *now* (placements as
    /// last set, no update needed), with `a < b`: by first collider in id order, then by the
    /// second. Returning [`Visit::Stop`] ends the walk. Touching is the same test as
    /// [`World::update`]'s, so after an update without edits since, this visits exactly
    /// [`World::touching`]. Memory: one candidate list for one collider at a time.
    pub fn for_each_touching(&self, mut f: impl FnMut(ColliderId, ColliderId) -> Visit) {
        let mut candidates: Vec<ColliderId> = Vec::new();
        for (id, c) in &self.colliders {
            if !c.desc.enabled {
                continue;
            }
            candidates.clear();
            let mut take = |bits: Option<u64>| {
                if let Some(bits) = bits {
                    let other = ColliderId::from_bits(bits);
                    if other > id {
                        candidates.push(other);
                    }
                }
                Visit::Continue
            };
            BroadPhase::query_aabb(&self.moving, &c.world_aabb, &mut |p| {
                take(self.moving.user(p))
            });
            self.statics
                .query_aabb(&c.world_aabb, |p| take(self.statics.user(p)));
            candidates.sort_unstable();
            for &other in &candidates {
                let o = &self.colliders[other];
                if !pair_allowed(self.config.policy, c, o, other)
                    || !c.world_aabb.intersects(&o.world_aabb)
                {
                    continue;
                }
                if intersects_shapes(&c.world_shape, &o.world_shape) && f(id, other) == Visit::Stop
                {
                    return;
                }
            }
        }
    }
}
