//! Full rebuild by binned SAH (Wald 2007, "On fast construction of SAH-based bounding volume
//! hierarchies", §3), and the SAH cost that triggers it.

use super::node::{FREE, NULL};
use super::DynamicBvh;
use sepax_shapes::math::{Point3, Real};
use sepax_shapes::Aabb;

/// Bins per axis. Wald reports 8 to 32 bins within a few percent of the full sweep.
const BINS: usize = 16;

/// Ranges of at most this many leaves are split at the median instead of by binned SAH.
const SMALL: usize = 8;

/// A leaf to place, with its box centroid.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Item {
    node: u32,
    centroid: Point3,
    /// The leaf's box, copied so that the binning sweeps read memory in order.
    aabb: Aabb,
}

impl Item {
    /// An item for `aabb`, carrying `node` (a node index here, a primitive index in the wide
    /// tree's builder).
    pub(crate) fn new(node: u32, aabb: Aabb) -> Item {
        Item {
            node,
            centroid: aabb.center(),
            aabb,
        }
    }

    /// The carried index.
    pub(crate) fn node(&self) -> u32 {
        self.node
    }

    /// The box.
    pub(crate) fn aabb(&self) -> &Aabb {
        &self.aabb
    }
}

/// A range of items still to build, and where to hang the subtree.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Task {
    start: u32,
    end: u32,
    parent: u32,
    first: bool,
}

/// Bins centroid coordinates of one range: bin `((c - lo) * scale)` clamped to `0..BINS`, with
/// `scale = BINS / (hi - lo)` computed once per axis. Coordinates are halved first so that the
/// differences stay finite near `Real::MAX`; an axis with no extent (or a non-finite scale) is
/// inactive. A NaN lands in bin 0.
struct Binner {
    lo: [Real; 3],
    scale: [Real; 3],
    active: [bool; 3],
}

impl Binner {
    fn new(lo: &Point3, hi: &Point3) -> Binner {
        let mut b = Binner {
            lo: [0.0; 3],
            scale: [0.0; 3],
            active: [false; 3],
        };
        for k in 0..3 {
            let extent = hi[k] * 0.5 - lo[k] * 0.5;
            let scale = BINS as Real / extent;
            b.lo[k] = lo[k] * 0.5;
            b.scale[k] = scale;
            b.active[k] = hi[k] > lo[k] && scale.is_finite();
        }
        b
    }

    #[inline(always)]
    fn bin(&self, k: usize, c: Real) -> usize {
        (((c * 0.5 - self.lo[k]) * self.scale[k]) as usize).min(BINS - 1)
    }
}

impl DynamicBvh {
    /// The tree's SAH cost per leaf: the summed surface area of the internal nodes divided by the
    /// root's area and by the leaf count (the expected number of internal nodes a random ray or
    /// small box query visits, per leaf). 0 for trees of fewer than two leaves, of zero area, or
    /// with infinite areas.
    pub fn sah_cost(&self) -> Real {
        self.normalised_cost(self.area_walk())
    }

    /// The summed surface area of the internal nodes, by a walk over the pool.
    fn area_walk(&self) -> Real {
        self.nodes
            .iter()
            .filter(|n| n.height != FREE && !n.is_leaf())
            .map(|n| n.aabb.surface_area())
            .sum()
    }

    /// [`DynamicBvh::sah_cost`], from the summed internal area kept by the passes that know it
    /// (walking the pool only when none does).
    pub(crate) fn current_cost(&mut self) -> Real {
        let sum = match self.area_sum {
            Some(s) => s,
            None => {
                let s = self.area_walk();
                self.area_sum = Some(s);
                s
            }
        };
        self.normalised_cost(sum)
    }

    /// The SAH cost per leaf of a tree whose internal nodes sum to `sum`.
    pub(crate) fn normalised_cost(&self, sum: Real) -> Real {
        if self.root == NULL || self.nodes[self.root as usize].is_leaf() {
            return 0.0;
        }
        let root_area = self.nodes[self.root as usize].aabb.surface_area();
        let c = sum / root_area / self.proxies.len() as Real;
        if c.is_finite() {
            c
        } else {
            0.0
        }
    }

    /// Rebuilds when the configured trigger says so (see [`super::BvhConfig::rebuild_ratio`]).
    pub(crate) fn maybe_rebuild(&mut self) {
        let ratio = self.config.rebuild_ratio;
        if self.proxies.len() < self.config.rebuild_min_proxies.max(2) || ratio == Real::INFINITY {
            return;
        }
        let due = match self.built_cost {
            None => true,
            Some(built) => self.current_cost() > ratio * built,
        };
        if due {
            // The fast rebuild: its cost is a small multiple of a frame's, so the trigger never
            // stalls a frame as a full binned-SAH build would.
            self.rebuild_fast();
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
        self.fast_layout = None;
        self.area_sum = None;
        let mut items = core::mem::take(&mut self.scratch.build);
        let mut tasks = core::mem::take(&mut self.scratch.tasks);
        let mut created = core::mem::take(&mut self.scratch.created);
        items.clear();
        tasks.clear();
        created.clear();
        for p in self.proxies.slots() {
            if p.extra.node != NULL {
                let aabb = self.nodes[p.extra.node as usize].aabb;
                items.push(Item {
                    node: p.extra.node,
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
                let mid = sah_split(&mut items[t.start as usize..t.end as usize]) + t.start;
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
        self.built_cost = Some(self.current_cost());
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
                    self.proxies.slot_mut(n.child2).extra.node = new;
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
}

/// Partitions `items` (at least two) by the cheapest binned SAH plane; returns the size of
/// the left part, always in `1..items.len()`.
///
/// One pass over the items bins them on all three axes at once (bin index by one multiply
/// with the precomputed `BINS / extent`, boxes kept as min/max arrays), then the prefix and
/// suffix sweeps price the `BINS - 1` planes of each axis.
pub(crate) fn sah_split(items: &mut [Item]) -> u32 {
    let n = items.len();
    let (mut lo, mut hi) = (items[0].centroid, items[0].centroid);
    for it in items.iter() {
        lo = lo.inf(&it.centroid);
        hi = hi.sup(&it.centroid);
    }
    if n <= SMALL {
        // Binning has a fixed cost (3 x BINS bins to clear and sweep) that dominates on
        // the many tiny ranges near the leaves: split those at the median of the longest
        // centroid axis instead.
        let d = hi - lo;
        let k = if d.x >= d.y && d.x >= d.z {
            0
        } else if d.y >= d.z {
            1
        } else {
            2
        };
        let mid = n / 2;
        items.select_nth_unstable_by(mid, |a, b| a.centroid[k].total_cmp(&b.centroid[k]));
        return mid as u32;
    }
    let binner = Binner::new(&lo, &hi);
    // Per axis and bin: box min, box max, count.
    let mut bmin = [[[Real::INFINITY; 3]; BINS]; 3];
    let mut bmax = [[[Real::NEG_INFINITY; 3]; BINS]; 3];
    let mut counts = [[0u32; BINS]; 3];
    for it in items.iter() {
        let (amin, amax) = (it.aabb.min(), it.aabb.max());
        for k in 0..3 {
            let b = binner.bin(k, it.centroid[k]);
            counts[k][b] += 1;
            for c in 0..3 {
                bmin[k][b][c] = bmin[k][b][c].min(amin[c]);
                bmax[k][b][c] = bmax[k][b][c].max(amax[c]);
            }
        }
    }
    let area = |lo: &[Real; 3], hi: &[Real; 3]| {
        let d = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
        2.0 * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0])
    };
    // (cost, axis, first bin of the right side)
    let mut best: Option<(Real, usize, usize)> = None;
    for k in 0..3 {
        if !binner.active[k] {
            continue;
        }
        // right[i]: area and count of bins i.. (suffix sweep)
        let mut right_area = [0.0 as Real; BINS];
        let mut right_count = [0u32; BINS];
        let (mut rlo, mut rhi) = ([Real::INFINITY; 3], [Real::NEG_INFINITY; 3]);
        let mut cnt = 0;
        for i in (1..BINS).rev() {
            if counts[k][i] > 0 {
                for c in 0..3 {
                    rlo[c] = rlo[c].min(bmin[k][i][c]);
                    rhi[c] = rhi[c].max(bmax[k][i][c]);
                }
            }
            cnt += counts[k][i];
            right_area[i] = if cnt > 0 { area(&rlo, &rhi) } else { 0.0 };
            right_count[i] = cnt;
        }
        let (mut llo, mut lhi) = ([Real::INFINITY; 3], [Real::NEG_INFINITY; 3]);
        let mut cnt = 0;
        for i in 1..BINS {
            if counts[k][i - 1] > 0 {
                for c in 0..3 {
                    llo[c] = llo[c].min(bmin[k][i - 1][c]);
                    lhi[c] = lhi[c].max(bmax[k][i - 1][c]);
                }
            }
            cnt += counts[k][i - 1];
            if cnt == 0 || right_count[i] == 0 {
                continue;
            }
            let cost = cnt as Real * area(&llo, &lhi) + right_count[i] as Real * right_area[i];
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
        if binner.bin(k, items[i].centroid[k]) < split {
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
