//! Full rebuild by binned SAH (Wald 2007, "On fast construction of SAH-based bounding volume
//! hierarchies", §3), and the SAH cost that triggers it.

use super::node::{FREE, NULL};
use super::DynamicBvh;
use sepax_shapes::math::{Point3, Real};
use sepax_shapes::Aabb;

/// Bins per axis. Wald reports 8 to 32 bins within a few percent of the full sweep.
const BINS: usize = 16;

/// A leaf to place, with its box centroid.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Item {
    node: u32,
    centroid: Point3,
    /// The leaf's box, copied so that the binning sweeps read memory in order.
    aabb: Aabb,
}

/// A range of items still to build, and where to hang the subtree.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Task {
    start: u32,
    end: u32,
    parent: u32,
    first: bool,
}

/// The bin of centroid coordinate `c` in `[lo, hi]` (`hi > lo`). Halving first keeps the
/// difference finite near `Real::MAX`; a NaN ratio lands in bin 0.
#[inline]
fn bin_of(c: Real, lo: Real, hi: Real) -> usize {
    let t = (c * 0.5 - lo * 0.5) / (hi * 0.5 - lo * 0.5);
    ((t * BINS as Real) as usize).min(BINS - 1)
}

impl DynamicBvh {
    /// The tree's SAH cost per leaf: the summed surface area of the internal nodes divided by the
    /// root's area and by the leaf count (the expected number of internal nodes a random ray or
    /// small box query visits, per leaf). 0 for trees of fewer than two leaves, of zero area, or
    /// with infinite areas.
    pub fn sah_cost(&self) -> Real {
        if self.root == NULL || self.nodes[self.root as usize].is_leaf() {
            return 0.0;
        }
        let sum: Real = self
            .nodes
            .iter()
            .filter(|n| n.height != FREE && !n.is_leaf())
            .map(|n| n.aabb.surface_area())
            .sum();
        let root_area = self.nodes[self.root as usize].aabb.surface_area();
        let c = sum / root_area / self.proxy_count as Real;
        if c.is_finite() {
            c
        } else {
            0.0
        }
    }

    /// Rebuilds when the configured trigger says so (see [`super::BvhConfig::rebuild_ratio`]).
    pub(crate) fn maybe_rebuild(&mut self) {
        let ratio = self.config.rebuild_ratio;
        if self.proxy_count < self.config.rebuild_min_proxies.max(2) || ratio == Real::INFINITY {
            return;
        }
        let due = match self.built_cost {
            None => true,
            Some(built) => self.sah_cost() > ratio * built,
        };
        if due {
            self.rebuild();
        }
    }

    /// Rebuilds the whole tree top-down with binned SAH over the current leaf boxes. Leaves and
    /// handles are kept (so the pair set does not change); internal nodes are recreated. Records
    /// the new SAH cost as the reference of the rebuild trigger.
    ///
    /// ```text
    /// build(items):
    ///   one item: it is the node
    ///   centroid bounds C; for each axis with extent > 0: drop centroids into 16 bins,
    ///     sweep prefix/suffix boxes; cost(split i) = n_left SA(left) + n_right SA(right)
    ///   split at the cheapest plane (or at the middle index when all centroids coincide)
    ///   node = (build(left), build(right))
    /// ```
    /// The recursion runs on an explicit task stack, so degenerate inputs cannot overflow the
    /// call stack.
    pub fn rebuild(&mut self) {
        let mut items = core::mem::take(&mut self.scratch.build);
        let mut tasks = core::mem::take(&mut self.scratch.tasks);
        let mut created = core::mem::take(&mut self.scratch.created);
        items.clear();
        tasks.clear();
        created.clear();
        for p in &self.proxies {
            if p.node != NULL {
                let aabb = self.nodes[p.node as usize].aabb;
                items.push(Item {
                    node: p.node,
                    centroid: aabb.center(),
                    aabb,
                });
            }
        }
        for i in 0..self.nodes.len() {
            let n = self.nodes[i];
            if n.height != FREE && !n.is_leaf() {
                self.free_node(i as u32);
            }
        }
        self.root = NULL;
        if !items.is_empty() {
            tasks.push(Task {
                start: 0,
                end: items.len() as u32,
                parent: NULL,
                first: true,
            });
        }
        while let Some(t) = tasks.pop() {
            let node = if t.end - t.start == 1 {
                items[t.start as usize].node
            } else {
                let n = self.alloc_node();
                created.push(n);
                let mid = self.split(&mut items[t.start as usize..t.end as usize]) + t.start;
                tasks.push(Task {
                    start: mid,
                    end: t.end,
                    parent: n,
                    first: false,
                });
                tasks.push(Task {
                    start: t.start,
                    end: mid,
                    parent: n,
                    first: true,
                });
                n
            };
            self.nodes[node as usize].parent = t.parent;
            if t.parent == NULL {
                self.root = node;
            } else if t.first {
                self.nodes[t.parent as usize].child1 = node;
            } else {
                self.nodes[t.parent as usize].child2 = node;
            }
        }
        // Children were created after their parents: refit in reverse creation order.
        for &n in created.iter().rev() {
            self.refit_node(n);
        }
        self.scratch.build = items;
        self.scratch.tasks = tasks;
        self.scratch.created = created;
        self.compact();
        self.rebuilds += 1;
        self.built_cost = Some(self.sah_cost());
    }

    /// Renumbers the nodes so that the two children of every internal node sit next to each
    /// other and each subtree occupies a compact range (depth-first, first child first), and
    /// drops the free nodes. A traversal then reads both children of a node from one or two
    /// adjacent cache lines, and queries of nearby boxes touch nearby memory. Handles do not
    /// change; the proxies' leaf indices are updated. Uses scratch buffers only.
    fn compact(&mut self) {
        let mut out = core::mem::take(&mut self.scratch.nodes);
        let mut stack = core::mem::take(&mut self.scratch.stack);
        out.clear();
        stack.clear();
        if self.root != NULL {
            // `stack` holds (old index) of nodes already given their new index `out.len()` at
            // push time; each entry of `out` is filled when its node is popped.
            let mut root = self.nodes[self.root as usize];
            root.parent = NULL;
            out.push(root);
            stack.push(self.root);
            stack.push(0);
            while let Some(new) = stack.pop() {
                let old = stack.pop().unwrap_or(NULL);
                let n = self.nodes[old as usize];
                if n.is_leaf() {
                    self.proxies[n.child2 as usize].node = new;
                    continue;
                }
                let c1 = out.len() as u32;
                for child in [n.child1, n.child2] {
                    let mut c = self.nodes[child as usize];
                    c.parent = new;
                    out.push(c);
                }
                out[new as usize].child1 = c1;
                out[new as usize].child2 = c1 + 1;
                // Second child first on the stack: the first child's subtree is laid out next.
                stack.push(n.child2);
                stack.push(c1 + 1);
                stack.push(n.child1);
                stack.push(c1);
            }
            self.root = 0;
        }
        core::mem::swap(&mut self.nodes, &mut out);
        self.free_node = NULL;
        self.scratch.nodes = out;
        self.scratch.stack = stack;
    }

    /// Partitions `items` (at least two) by the cheapest binned SAH plane; returns the size of
    /// the left part, always in `1..items.len()`.
    fn split(&self, items: &mut [Item]) -> u32 {
        let n = items.len();
        let (mut lo, mut hi) = (items[0].centroid, items[0].centroid);
        for it in items.iter() {
            lo = lo.inf(&it.centroid);
            hi = hi.sup(&it.centroid);
        }
        // (cost, axis, first bin of the right side)
        let mut best: Option<(Real, usize, usize)> = None;
        for k in 0..3 {
            if hi[k] <= lo[k] {
                continue;
            }
            let mut boxes: [Option<Aabb>; BINS] = [None; BINS];
            let mut counts = [0usize; BINS];
            for it in items.iter() {
                let b = bin_of(it.centroid[k], lo[k], hi[k]);
                let a = it.aabb;
                boxes[b] = Some(boxes[b].map_or(a, |x| x.merge(&a)));
                counts[b] += 1;
            }
            // right[i]: area and count of bins i.. (suffix sweep)
            let mut right_area = [0.0 as Real; BINS];
            let mut right_count = [0usize; BINS];
            let (mut acc, mut cnt): (Option<Aabb>, usize) = (None, 0);
            for i in (1..BINS).rev() {
                if let Some(b) = boxes[i] {
                    acc = Some(acc.map_or(b, |x| x.merge(&b)));
                }
                cnt += counts[i];
                right_area[i] = acc.map_or(0.0, |x| x.surface_area());
                right_count[i] = cnt;
            }
            let (mut acc, mut cnt): (Option<Aabb>, usize) = (None, 0);
            for i in 1..BINS {
                if let Some(b) = boxes[i - 1] {
                    acc = Some(acc.map_or(b, |x| x.merge(&b)));
                }
                cnt += counts[i - 1];
                if cnt == 0 || right_count[i] == 0 {
                    continue;
                }
                let left_area = acc.map_or(0.0, |x| x.surface_area());
                let cost = cnt as Real * left_area + right_count[i] as Real * right_area[i];
                if best.is_none_or(|b| cost < b.0) {
                    best = Some((cost, k, i));
                }
            }
        }
        let Some((_, k, split)) = best else {
            return (n / 2) as u32;
        };
        // Two-pointer partition: bins below `split` to the left.
        let (mut i, mut j) = (0, n);
        while i < j {
            if bin_of(items[i].centroid[k], lo[k], hi[k]) < split {
                i += 1;
            } else {
                j -= 1;
                items.swap(i, j);
            }
        }
        debug_assert!(i > 0 && i < n);
        if i == 0 || i == n {
            (n / 2) as u32
        } else {
            i as u32
        }
    }
}
