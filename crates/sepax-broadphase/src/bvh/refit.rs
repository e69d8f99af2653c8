//! Refitting: recomputing internal boxes and heights from the children.

use super::node::NULL;
use super::DynamicBvh;

impl DynamicBvh {
    /// Recomputes box and height of the internal node `i` from its children.
    #[inline]
    pub(crate) fn refit_node(&mut self, i: u32) {
        let n = self.nodes[i as usize];
        let (a, b) = (self.nodes[n.child1 as usize], self.nodes[n.child2 as usize]);
        let n = &mut self.nodes[i as usize];
        n.aabb = a.aabb.merge(&b.aabb);
        n.height = 1 + a.height.max(b.height);
    }

    /// Refits `start` and its ancestors, rotating each when `rotate` is set. Stops at the first
    /// ancestor whose box and height come out unchanged with no rotation applied: everything
    /// above it depends only on that box and height, so it is already up to date.
    pub(crate) fn refit_ancestors(&mut self, start: u32, rotate: bool) {
        let mut i = start;
        while i != NULL {
            let before = self.nodes[i as usize];
            self.refit_node(i);
            let rotated = rotate && self.rotate(i);
            let after = &self.nodes[i as usize];
            if !rotated && i != start && after.aabb == before.aabb && after.height == before.height
            {
                break;
            }
            i = after.parent;
        }
    }

    /// Grows the ancestors of `leaf` until one already contains the leaf's box
    /// ([`super::UpdateMode::Enlarge`]). Heights do not change.
    pub(crate) fn enlarge_ancestors(&mut self, leaf: u32) {
        let b = self.nodes[leaf as usize].aabb;
        let mut i = self.nodes[leaf as usize].parent;
        while i != NULL {
            let n = &mut self.nodes[i as usize];
            if n.aabb.contains_aabb(&b) {
                break;
            }
            let grown = n.aabb.merge(&b);
            if let Some(sum) = &mut self.area_sum {
                *sum += grown.surface_area() - n.aabb.surface_area();
            }
            n.aabb = grown;
            i = n.parent;
        }
    }

    /// Recomputes every internal box from the leaves up, making each the tightest box of its
    /// children (boxes grown by [`super::UpdateMode::Enlarge`] shrink back). The shape of the tree
    /// and the leaves do not change. O(nodes), using the scratch stack.
    pub fn refit(&mut self) {
        self.area_sum = None;
        if self.root == NULL {
            return;
        }
        // Pre-order into the stack, then refit in reverse: children before parents.
        let mut order = core::mem::take(&mut self.scratch.created);
        order.clear();
        order.push(self.root);
        let mut k = 0;
        while k < order.len() {
            let n = self.nodes[order[k] as usize];
            if !n.is_leaf() {
                order.push(n.child1);
                order.push(n.child2);
            }
            k += 1;
        }
        for &i in order.iter().rev() {
            if !self.nodes[i as usize].is_leaf() {
                self.refit_node(i);
            }
        }
        self.scratch.created = order;
    }
}
