//! Tree rotations: local swaps that lower the SAH cost below a node (Kopta et al. 2012, "Fast,
//! effective BVH updates for animated scenes"; Box2D v3 `b2RotateNodes`).

use super::DynamicBvh;
use sepax_shapes::math::Real;

impl DynamicBvh {
    /// Tries the swaps below the internal node `a` and applies the one that reduces the summed
    /// surface area of `a`'s children the most (none when none reduces it). Returns whether a
    /// swap was applied.
    ///
    /// ```text
    ///        a                 b = a.child1 = (d, e),  c = a.child2 = (f, g)
    ///      /   \
    ///     b     c           candidate swaps (the areas of a and of the leaves never change):
    ///    / \   / \            b<->f: c becomes (b, g)     c<->d: b becomes (c, e)
    ///   d   e f   g           b<->g: c becomes (f, b)     c<->e: b becomes (d, c)
    ///                         d<->f, d<->g, e<->f, e<->g: both b and c change
    /// gain = SA(old children of a) - SA(new children of a); apply the largest positive gain.
    /// ```
    pub(crate) fn rotate(&mut self, a: u32) -> bool {
        let na = self.nodes[a as usize];
        let (b, c) = (na.child1, na.child2);
        let (nb, nc) = (self.nodes[b as usize], self.nodes[c as usize]);
        let union = |x: u32, y: u32| {
            self.nodes[x as usize]
                .aabb
                .merge(&self.nodes[y as usize].aabb)
                .surface_area()
        };
        let (area_b, area_c) = (nb.aabb.surface_area(), nc.aabb.surface_area());
        // (node moved down, node moved up, change in area)
        let mut best: Option<(u32, u32, Real)> = None;
        let mut consider = |x: u32, y: u32, delta: Real| {
            if delta < best.map_or(0.0, |b| b.2) {
                best = Some((x, y, delta));
            }
        };
        if !nc.is_leaf() {
            let (f, g) = (nc.child1, nc.child2);
            consider(b, f, union(b, g) - area_c);
            consider(b, g, union(b, f) - area_c);
        }
        if !nb.is_leaf() {
            let (d, e) = (nb.child1, nb.child2);
            consider(c, d, union(c, e) - area_b);
            consider(c, e, union(c, d) - area_b);
            if !nc.is_leaf() {
                let (f, g) = (nc.child1, nc.child2);
                let base = area_b + area_c;
                consider(d, f, union(f, e) + union(d, g) - base);
                consider(d, g, union(g, e) + union(f, d) - base);
                consider(e, f, union(d, f) + union(e, g) - base);
                consider(e, g, union(d, g) + union(f, e) - base);
            }
        }
        if let Some((x, y, _)) = best {
            self.swap_subtrees(x, y);
            for child in [b, c] {
                if !self.nodes[child as usize].is_leaf() {
                    self.refit_node(child);
                }
            }
            self.refit_node(a);
            return true;
        }
        false
    }

    /// Exchanges two subtrees, neither an ancestor of the other (boxes are not refitted).
    fn swap_subtrees(&mut self, x: u32, y: u32) {
        let (px, py) = (self.nodes[x as usize].parent, self.nodes[y as usize].parent);
        self.replace_child(px, x, y);
        self.replace_child(py, y, x);
        self.nodes[x as usize].parent = py;
        self.nodes[y as usize].parent = px;
    }
}
