//! Leaf insertion: a sibling of low SAH cost by a greedy branch-and-bound descent, then refit
//! with rotations.

use super::node::NULL;
use super::DynamicBvh;
use sepax_shapes::math::Real;
use sepax_shapes::Aabb;

impl DynamicBvh {
    /// A sibling for a new leaf with box `d`, by the SAH insertion cost
    ///
    /// ```text
    /// cost(x) = SA(d ∪ x) + Σ over proper ancestors a of x of (SA(d ∪ a) - SA(a))
    /// ```
    ///
    /// found by a single greedy descent with branch and bound (the idea of Catto's Box2D v3
    /// dynamic tree; the bound is Bittner et al. 2012, §3.2): below a node whose ancestors force
    /// the inherited cost `c`, every node of the subtree of child `k` costs at least
    /// `c' + SA(d ∪ k) + min(0, SA(d) - SA(k))` with `c' = c + SA(d ∪ node) - SA(node)`.
    ///
    /// ```text
    /// best = root, best_cost = SA(d ∪ root), node = root, c = 0
    /// while node is internal:
    ///     c += SA(d ∪ node) - SA(node)
    ///     for each child k: cost_k = SA(d ∪ k) + c (choosing k itself); keep the best
    ///                       bound_k = cost_k + min(0, SA(d) - SA(k)) (anything below k)
    ///     if best_cost <= both bounds: stop
    ///     descend into the child of smaller bound
    /// ```
    /// O(depth) work and no queue; not always the global optimum (the rebuild trigger keeps the
    /// tree's SAH cost in check), always a valid sibling.
    fn find_best_sibling(&self, d: &Aabb) -> u32 {
        let area_d = d.surface_area();
        let mut node = self.root;
        let mut best = node;
        let mut best_cost = d.merge(&self.nodes[node as usize].aabb).surface_area();
        let mut inherited: Real = 0.0;
        loop {
            let n = &self.nodes[node as usize];
            if n.is_leaf() {
                return best;
            }
            inherited += d.merge(&n.aabb).surface_area() - n.aabb.surface_area();
            let mut bounds = [Real::INFINITY; 2];
            for (slot, child) in [n.child1, n.child2].into_iter().enumerate() {
                let c = &self.nodes[child as usize];
                let cost = d.merge(&c.aabb).surface_area() + inherited;
                if cost < best_cost {
                    best_cost = cost;
                    best = child;
                }
                if !c.is_leaf() {
                    bounds[slot] = cost + (area_d - c.aabb.surface_area()).min(0.0);
                }
            }
            // NaN bounds (infinite areas) compare false: the descent stops.
            let next = if bounds[0] <= bounds[1] { 0 } else { 1 };
            let worth_descending = bounds[next] < best_cost;
            if !worth_descending {
                return best;
            }
            node = if next == 0 { n.child1 } else { n.child2 };
        }
    }

    /// Links the detached leaf `leaf` (its box already set) into the tree.
    pub(crate) fn insert_leaf(&mut self, leaf: u32) {
        self.fast_layout = None;
        self.area_sum = None;
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let d = self.nodes[leaf as usize].aabb;
        let sibling = self.find_best_sibling(&d);
        let old_parent = self.nodes[sibling as usize].parent;
        let parent = self.alloc_node();
        {
            let s = self.nodes[sibling as usize];
            let p = &mut self.nodes[parent as usize];
            p.aabb = d.merge(&s.aabb);
            p.height = s.height + 1;
            p.child1 = sibling;
            p.child2 = leaf;
            p.parent = old_parent;
        }
        if old_parent == NULL {
            self.root = parent;
        } else {
            self.replace_child(old_parent, sibling, parent);
        }
        self.nodes[sibling as usize].parent = parent;
        self.nodes[leaf as usize].parent = parent;
        self.refit_ancestors(parent, true);
    }

    /// In `parent`, replaces the child link `old` by `new` (does not touch `new.parent`).
    pub(crate) fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        let p = &mut self.nodes[parent as usize];
        if p.child1 == old {
            p.child1 = new;
        } else {
            debug_assert_eq!(p.child2, old);
            p.child2 = new;
        }
    }
}
