//! Leaf removal: the sibling takes its parent's place and the ancestors are refitted.

use super::node::NULL;
use super::DynamicBvh;

impl DynamicBvh {
    /// Unlinks `leaf` from the tree (the node itself stays allocated, detached, so that `update`
    /// can insert it again).
    pub(crate) fn remove_leaf(&mut self, leaf: u32) {
        self.fast_layout = None;
        self.area_sum = None;
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grand = self.nodes[parent as usize].parent;
        let p = self.nodes[parent as usize];
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        self.nodes[sibling as usize].parent = grand;
        if grand == NULL {
            self.root = sibling;
        } else {
            self.replace_child(grand, parent, sibling);
            // Removal only shrinks boxes; rotations are left to the next insertion and the
            // rebuild trigger, as in Box2D.
            self.refit_ancestors(grand, false);
        }
        self.free_node(parent);
        self.nodes[leaf as usize].parent = NULL;
    }
}
