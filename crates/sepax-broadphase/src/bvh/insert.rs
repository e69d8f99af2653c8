//! Leaf insertion: the sibling of least SAH cost by branch and bound, then refit with rotations.

use super::node::NULL;
use super::DynamicBvh;
use core::cmp::Ordering;
use sepax_shapes::math::Real;
use sepax_shapes::Aabb;

/// A node waiting in the branch-and-bound queue with its inherited cost: the growth in surface
/// area that placing the new leaf below it forces on its proper ancestors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidate {
    inherited: Real,
    node: u32,
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Candidate {}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Candidate {
    /// Reversed, so that `BinaryHeap` pops the smallest inherited cost first; ties by node index
    /// keep the search deterministic.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .inherited
            .total_cmp(&self.inherited)
            .then(other.node.cmp(&self.node))
    }
}

impl DynamicBvh {
    /// The sibling `x` minimising the SAH cost of inserting a leaf with box `d` next to it:
    ///
    /// ```text
    /// cost(x) = SA(d ∪ x) + Σ over proper ancestors a of x of (SA(d ∪ a) - SA(a))
    ///
    /// Best-first branch and bound (Bittner et al. 2012, §3.2):
    ///   queue = {(root, inherited 0)}; best = root, best_cost = SA(d ∪ root)
    ///   pop the candidate of least inherited cost c:
    ///     lower bound of anything in its subtree = SA(d) + c; if >= best_cost: done
    ///     cost = SA(d ∪ x) + c; keep x if cost < best_cost
    ///     children inherit c' = c + SA(d ∪ x) - SA(x); push them if SA(d) + c' < best_cost
    /// ```
    /// Every subtree skipped has a lower bound no better than the best found, so the result is
    /// the exact optimum of the cost above.
    fn find_best_sibling(&mut self, d: &Aabb) -> u32 {
        let area_d = d.surface_area();
        let root = self.root;
        let mut best = root;
        let mut best_cost = d.merge(&self.nodes[root as usize].aabb).surface_area();
        let heap = &mut self.scratch.heap;
        heap.clear();
        heap.push(Candidate {
            inherited: 0.0,
            node: root,
        });
        while let Some(Candidate { inherited, node }) = heap.pop() {
            // A NaN bound (infinite areas) stops the search too.
            let bound = area_d + inherited;
            if bound >= best_cost || bound.is_nan() {
                break;
            }
            let n = &self.nodes[node as usize];
            let direct = d.merge(&n.aabb).surface_area();
            let cost = direct + inherited;
            if cost < best_cost {
                best_cost = cost;
                best = node;
            }
            if !n.is_leaf() {
                let child_inherited = inherited + (direct - n.aabb.surface_area());
                if area_d + child_inherited < best_cost {
                    for child in [n.child1, n.child2] {
                        heap.push(Candidate {
                            inherited: child_inherited,
                            node: child,
                        });
                    }
                }
            }
        }
        best
    }

    /// Links the detached leaf `leaf` (its box already set) into the tree.
    pub(crate) fn insert_leaf(&mut self, leaf: u32) {
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
