//! The broad phase of the moving colliders, as the world drives it.

use sepax_broadphase::bvh::DynamicBvh;
use sepax_broadphase::sorted_grid::SortedGrid;
use sepax_broadphase::{BroadPhase, ProxyId, Visit};
use sepax_shapes::math::Real;
use sepax_shapes::Aabb;

/// A [`BroadPhase`] for the world's kinematic and dynamic colliders, with what the world needs
/// beyond the trait: pairs against the static tree, a bulk load and tree statistics. The
/// defaults work for any broad phase; [`DynamicBvh`] (the default) overrides them with its
/// tree-against-tree walk and its one-build bulk insert.
pub trait MovingPhase: BroadPhase {
    /// Calls `f(moving proxy, static proxy)` once for every pair whose stored boxes overlap.
    /// The default queries `self` with every static proxy's box.
    fn pairs_with_static(&self, statics: &DynamicBvh, f: &mut dyn FnMut(ProxyId, ProxyId)) {
        for s in statics.proxies() {
            let Some(b) = statics.stored_aabb(s) else {
                continue;
            };
            self.query_aabb(&b, &mut |m| {
                f(m, s);
                Visit::Continue
            });
        }
    }

    /// Inserts many proxies (tight box, user value), appending their handles to `ids` in
    /// order. The default inserts one by one.
    fn insert_bulk(&mut self, boxes: &[(Aabb, u64)], ids: &mut Vec<ProxyId>) {
        for &(b, u) in boxes {
            ids.push(self.insert(b, u));
        }
    }

    /// Height, for a tree (cheap: read every update).
    fn tree_depth(&self) -> Option<u32> {
        None
    }

    /// SAH cost, for a tree (walks every node: computed only on request).
    fn tree_sah(&self) -> Option<Real> {
        None
    }

    /// The tree itself, when the broad phase is a [`DynamicBvh`] (for debug drawing).
    fn as_tree(&self) -> Option<&DynamicBvh> {
        None
    }
}

impl MovingPhase for DynamicBvh {
    fn pairs_with_static(&self, statics: &DynamicBvh, f: &mut dyn FnMut(ProxyId, ProxyId)) {
        self.pairs_with(statics, |m, s| {
            f(m, s);
            Visit::Continue
        });
    }

    fn insert_bulk(&mut self, boxes: &[(Aabb, u64)], ids: &mut Vec<ProxyId>) {
        self.insert_many(boxes.iter().copied(), ids);
    }

    fn tree_depth(&self) -> Option<u32> {
        Some(self.height())
    }

    fn tree_sah(&self) -> Option<Real> {
        Some(self.sah_cost())
    }

    fn as_tree(&self) -> Option<&DynamicBvh> {
        Some(self)
    }
}

impl MovingPhase for SortedGrid {}
