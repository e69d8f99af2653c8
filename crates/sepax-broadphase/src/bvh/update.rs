//! Moving many proxies in one call: the proxy table is written in the caller's order and the
//! hierarchy is repaired once, after all of them, instead of per proxy.
//!
//! Enlarging the ancestors of each proxy that left its fat box (what [`BroadPhase::update`]
//! does) costs a chain of dependent, scattered node reads per proxy. When many proxies left
//! their boxes and the tree still has the layout of a fast rebuild (internal children after
//! their parents, `lbvh.rs`), one reverse pass over the internal nodes refits every box from its
//! children instead: sequential reads, and the boxes come out tight rather than grown.

use super::node::fatten;
use super::{DynamicBvh, UpdateMode};
use crate::{BroadPhase, ProxyId};
use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::Aabb;

/// A batch refits the whole tree when at least one leaf in this many left its fat box (below,
/// each such leaf enlarges its own ancestors).
const REFIT_ALL_ONE_IN: usize = 16;

impl DynamicBvh {
    /// Moves many proxies, as [`BroadPhase::update`] on each `(handle, tight box,
    /// displacement)` in turn, and returns how many handles were live. The stored boxes, the
    /// pairs and the queries afterwards are those of the one-by-one calls; internal boxes may
    /// come out tighter (a whole-tree refit replaces per-proxy enlargement when many proxies
    /// left their fat boxes). Stale handles are skipped. Allocates nothing once warm.
    pub fn update_many<I>(&mut self, updates: I) -> usize
    where
        I: IntoIterator<Item = (ProxyId, Aabb, Vector3)>,
    {
        if self.fast_layout.is_none() || self.config.update_mode == UpdateMode::Reinsert {
            return updates
                .into_iter()
                .map(|(id, aabb, d)| usize::from(BroadPhase::update(self, id, aabb, d)))
                .sum();
        }
        let (margin, prediction) = (self.config.margin, self.config.prediction);
        let exact = self.config.exact_pairs;
        let mut escaped = core::mem::take(&mut self.scratch.escaped);
        escaped.clear();
        let mut live = 0;
        for (id, aabb, d) in updates {
            let Some(slot) = self.slot(id) else {
                continue;
            };
            live += 1;
            let p = self.proxies.slot_mut(slot as u32);
            p.aabb = aabb;
            if !p.extra.fat.contains_aabb(&aabb) {
                p.extra.fat = fatten(&aabb, margin, prediction, &d);
                escaped.push(slot as u32);
            } else if !exact {
                continue;
            }
            self.mark_moved(slot as u32);
        }
        if !escaped.is_empty() {
            // New stored boxes: the query mirror is stale.
            self.changed();
        }
        // A slot may appear twice: its leaf then takes the last fat box, as one by one.
        for &slot in &escaped {
            let p = &self.proxies.slot(slot).extra;
            self.nodes[p.node as usize].aabb = p.fat;
        }
        if escaped.len() * REFIT_ALL_ONE_IN >= self.proxies.len() {
            self.refit_fast_layout();
        } else {
            for &slot in &escaped {
                self.enlarge_ancestors(self.proxies.slot(slot).extra.node);
            }
        }
        self.scratch.escaped = escaped;
        live
    }

    /// Refits every internal node of a fast-rebuild layout in one reverse pass (children sit
    /// after their parents) and records the summed area for the rebuild trigger. Heights and
    /// topology do not change.
    fn refit_fast_layout(&mut self) {
        debug_assert!(self.fast_layout.is_some());
        let internal = self.proxies.len().saturating_sub(1);
        let mut area: Real = 0.0;
        for i in (0..internal).rev() {
            let n = self.nodes[i];
            let b = self.nodes[n.child1 as usize]
                .aabb
                .merge(&self.nodes[n.child2 as usize].aabb);
            area += b.surface_area();
            self.nodes[i].aabb = b;
        }
        self.area_sum = Some(area);
    }
}
