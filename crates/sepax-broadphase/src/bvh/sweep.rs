//! The whole-tree pair search that follows a fast rebuild (`lbvh.rs`): a simultaneous descent of
//! the tree against itself that stops at subtrees of at most [`CLUSTER`] leaves and tests those
//! as flat, contiguous runs of boxes (the leaves are stored in Morton order, so a subtree is a
//! range of that order).
//!
//! The hierarchy boxes it descends are rebuilt here from the boxes the pairs are defined on (the
//! tight boxes for exact pairs, so that the descent prunes as early as the pairs allow).

use super::node::{overlaps, NULL};
use super::DynamicBvh;
use crate::ProxyId;
use sepax_shapes::Aabb;

/// Subtrees of at most this many leaves are tested as runs of boxes.
const CLUSTER: u32 = 8;

/// Buffers of the pair search, kept so that a warm search allocates nothing.
#[derive(Debug, Clone, Default)]
pub(crate) struct SweepScratch {
    /// Per internal node: the box of the leaves below it (tight or fat, as the pairs are
    /// defined).
    node_box: Vec<Aabb>,
    /// Per sorted position: the leaf's fat box (for fat pairs only).
    leaf_box: Vec<Aabb>,
    /// Pending node pairs.
    stack: Vec<(u32, u32)>,
    /// Found pairs as `(lower slot << 32) | higher slot`.
    found: Vec<u64>,
}

impl SweepScratch {
    /// Heap bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        use core::mem::size_of;
        (self.node_box.capacity() + self.leaf_box.capacity()) * size_of::<Aabb>()
            + self.stack.capacity() * 8
            + self.found.capacity() * 8
    }
}

/// Makes room for `n` entries in the empty `v`, with half as many again when it must grow: an
/// exact fit would grow again (one allocation in a warm frame) at the next small rise of the
/// pair count.
pub(crate) fn grow_with_headroom<T>(v: &mut Vec<T>, n: usize) {
    if v.capacity() < n {
        v.reserve(n + n / 2);
    }
}

/// Pushes the pair of slots `a`, `b` (distinct) as one ordered key.
#[inline(always)]
fn push(found: &mut Vec<u64>, a: u32, b: u32) {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    found.push(((lo as u64) << 32) | hi as u64);
}

impl DynamicBvh {
    /// Every overlapping pair of the whole tree into `out` (cleared), sorted, each once as
    /// `(smaller handle, larger handle)`. Requires the layout of a fast rebuild done since the
    /// last structural change (`update_pairs` calls it right after one).
    ///
    /// ```text
    /// pop (a, b):
    ///   a == b: at most CLUSTER leaves -> test the run against itself
    ///           else push (a1, a1), (a2, a2), (a1, a2)
    ///   boxes disjoint -> nothing
    ///   both at most CLUSTER leaves -> for each leaf of a touching b's box, test b's run
    ///   otherwise split the one with more leaves
    /// ```
    pub(crate) fn sweep_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        let mut s = core::mem::take(&mut self.scratch.sweep);
        let lb = &self.scratch.lbvh;
        let (range, order) = (&lb.range, &lb.order);
        s.node_box.clear();
        s.leaf_box.clear();
        s.stack.clear();
        s.found.clear();
        out.clear();
        let first_leaf = order.len().saturating_sub(1);
        if self.root == NULL || order.len() < 2 {
            self.scratch.sweep = s;
            return;
        }
        if !self.config.exact_pairs {
            s.leaf_box
                .extend(self.nodes[first_leaf..].iter().map(|n| n.aabb));
        }
        let boxes: &[Aabb] = if self.config.exact_pairs {
            &lb.tight
        } else {
            &s.leaf_box
        };
        // Internal children sit after their parents (fast-rebuild layout): refit in reverse.
        s.node_box.resize(first_leaf, boxes[0]);
        let nb = &mut s.node_box;
        let get = |nb: &[Aabb], i: u32| {
            let i = i as usize;
            if i >= first_leaf {
                boxes[i - first_leaf]
            } else {
                nb[i]
            }
        };
        for i in (0..first_leaf).rev() {
            let n = &self.nodes[i];
            nb[i] = get(nb, n.child1).merge(&get(nb, n.child2));
        }
        let nb = &s.node_box;
        // A node's leaf range (sorted positions).
        let span = |i: u32| {
            let iu = i as usize;
            if iu >= first_leaf {
                let p = (iu - first_leaf) as u32;
                (p, p + 1)
            } else {
                range[iu]
            }
        };
        let bx = |i: u32| -> &Aabb {
            let iu = i as usize;
            if iu >= first_leaf {
                &boxes[iu - first_leaf]
            } else {
                &nb[iu]
            }
        };
        s.stack.push((self.root, self.root));
        while let Some((a, b)) = s.stack.pop() {
            let (ra, rb) = (span(a), span(b));
            let (len_a, len_b) = (ra.1 - ra.0, rb.1 - rb.0);
            if a == b {
                if len_a <= CLUSTER {
                    for i in ra.0..ra.1 {
                        let bi = &boxes[i as usize];
                        for j in i + 1..ra.1 {
                            if overlaps(bi, &boxes[j as usize]) {
                                push(&mut s.found, order[i as usize], order[j as usize]);
                            }
                        }
                    }
                } else {
                    let n = &self.nodes[a as usize];
                    s.stack.push((n.child1, n.child2));
                    s.stack.push((n.child2, n.child2));
                    s.stack.push((n.child1, n.child1));
                }
                continue;
            }
            let bb = bx(b);
            if !overlaps(bx(a), bb) {
                continue;
            }
            let (small_a, small_b) = (len_a <= CLUSTER, len_b <= CLUSTER);
            if small_a && small_b {
                for i in ra.0..ra.1 {
                    let bi = &boxes[i as usize];
                    if !overlaps(bi, bb) {
                        continue;
                    }
                    for j in rb.0..rb.1 {
                        if overlaps(bi, &boxes[j as usize]) {
                            push(&mut s.found, order[i as usize], order[j as usize]);
                        }
                    }
                }
            } else if small_b || (!small_a && len_a >= len_b) {
                let n = &self.nodes[a as usize];
                s.stack.push((n.child2, b));
                s.stack.push((n.child1, b));
            } else {
                let n = &self.nodes[b as usize];
                s.stack.push((a, n.child2));
                s.stack.push((a, n.child1));
            }
        }
        s.found.sort_unstable();
        grow_with_headroom(out, s.found.len());
        out.extend(s.found.iter().map(|&k| {
            let (a, b) = ((k >> 32) as u32, k as u32);
            (self.handle(a), self.handle(b))
        }));
        self.scratch.sweep = s;
    }
}
