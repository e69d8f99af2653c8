//! The fast full rebuild: leaves sorted along a Morton curve, the hierarchy split at the highest
//! differing code bit (Lauterbach et al. 2009, "Fast BVH construction on GPUs", the linear BVH),
//! internal nodes laid out depth-first and the leaves after them in sorted order, then refitted
//! in one reverse pass.
//!
//! Linear in the leaf count (three radix passes, one split pass, one refit pass) and coherent
//! from frame to frame, so that a tree whose leaves all move can be rebuilt every frame for less
//! than incremental maintenance costs. Each node also records the range of sorted leaves it
//! covers, which the whole-tree pair search (`sweep.rs`) uses to test small subtrees as flat
//! clusters.

use super::node::{Node, NULL};
use super::DynamicBvh;
use sepax_shapes::math::{Point3, Real};
use sepax_shapes::Aabb;

/// Bits of the Morton code per axis (30-bit codes).
const BITS: u32 = 10;

/// Radix digit width of the code sort (three passes cover 30 bits).
const DIGIT: u32 = 10;

/// Spreads the low 10 bits of `x` to every third bit.
#[inline]
fn spread(mut x: u32) -> u32 {
    x &= 0x3ff;
    x = (x | (x << 16)) & 0x0300_00ff;
    x = (x | (x << 8)) & 0x0300_f00f;
    x = (x | (x << 4)) & 0x030c_30c3;
    x = (x | (x << 2)) & 0x0924_9249;
    x
}

/// Quantises centres into `0..2^BITS` per axis over the centres' bounds. Coordinates are halved
/// first so that differences stay finite near `Real::MAX`; an axis with no extent, or NaN, maps to 0.
struct Quantizer {
    lo: [Real; 3],
    scale: [Real; 3],
}

impl Quantizer {
    fn new(lo: &Point3, hi: &Point3) -> Self {
        let mut q = Quantizer {
            lo: [0.0; 3],
            scale: [0.0; 3],
        };
        let cells = ((1u32 << BITS) - 1) as Real;
        for k in 0..3 {
            let extent = hi[k] * 0.5 - lo[k] * 0.5;
            let s = cells / extent;
            q.lo[k] = lo[k] * 0.5;
            q.scale[k] = if extent > 0.0 && s.is_finite() {
                s
            } else {
                0.0
            };
        }
        q
    }

    #[inline]
    fn code(&self, c: &Point3) -> u32 {
        let mut code = 0;
        for k in 0..3 {
            // `as u32` saturates and maps NaN to 0.
            let v = ((c[k] * 0.5 - self.lo[k]) * self.scale[k]) as u32;
            code |= spread(v.min((1 << BITS) - 1)) << (2 - k);
        }
        code
    }
}

/// Buffers of the fast rebuild, kept between calls so that a warm rebuild allocates nothing.
#[derive(Debug, Clone, Default)]
pub(crate) struct LbvhScratch {
    /// `(code << 32) | slot`, sorted by code (ties in slot order).
    keys: Vec<u64>,
    /// The other buffer of the radix sort.
    tmp: Vec<u64>,
    /// Pending ranges `(start, end, node)` of the top-down split.
    tasks: Vec<(u32, u32, u32)>,
    /// The new node pool.
    out: Vec<Node>,
    /// Per internal node of the current tree (valid after a fast rebuild until the next
    /// structural change): the range of sorted leaves below it. Leaf `first_leaf + i` is sorted
    /// position `i`.
    pub(crate) range: Vec<(u32, u32)>,
    /// Sorted position -> proxy slot (valid with `range`).
    pub(crate) order: Vec<u32>,
    /// Sorted position -> the proxy's tight box at the rebuild.
    pub(crate) tight: Vec<Aabb>,
    /// Bumped by every fast rebuild: the pair search rebuilds its copy of the topology when it
    /// changes.
    pub(crate) build_id: u64,
}

impl LbvhScratch {
    /// Heap bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        use core::mem::size_of;
        (self.keys.capacity() + self.tmp.capacity()) * 8
            + self.tasks.capacity() * 12
            + self.out.capacity() * size_of::<Node>()
            + self.range.capacity() * 8
            + self.order.capacity() * 4
            + self.tight.capacity() * core::mem::size_of::<Aabb>()
    }
}

/// Stable LSD radix sort of `keys` by bits 32..62, using `tmp` as the second buffer.
fn radix_sort(keys: &mut Vec<u64>, tmp: &mut Vec<u64>) {
    const R: usize = 1 << DIGIT;
    tmp.clear();
    tmp.resize(keys.len(), 0);
    let mut counts = [0u32; R];
    for pass in 0..3 {
        let shift = 32 + pass * DIGIT;
        counts.fill(0);
        for &k in keys.iter() {
            counts[((k >> shift) as usize) & (R - 1)] += 1;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for &k in keys.iter() {
            let d = ((k >> shift) as usize) & (R - 1);
            tmp[counts[d] as usize] = k;
            counts[d] += 1;
        }
        core::mem::swap(keys, tmp);
    }
}

impl DynamicBvh {
    /// Rebuilds the whole tree as a linear BVH over the current leaf boxes: leaves sorted by the
    /// Morton code of their box centres (ties by slot), each range split where the highest
    /// differing code bit changes (at the middle when all codes are equal), internal nodes laid
    /// out depth-first, leaves after them in curve order. Handles and leaf boxes are kept, so the pair set does
    /// not change. Deterministic: the result depends only on the leaf boxes and slots.
    ///
    /// Several times faster than [`DynamicBvh::rebuild`] (binned SAH) for a somewhat higher SAH
    /// cost; `update_pairs` uses it when many proxies moved and when the SAH-cost trigger fires.
    /// Records the new SAH cost as the reference of that trigger.
    pub fn rebuild_fast(&mut self) {
        self.rebuild_fast_inner(false);
        self.rebuilds += 1;
        self.built_cost = Some(self.current_cost());
    }

    /// With `clear_moved`, the pass that computes the keys also clears every move flag (the
    /// caller then empties the move buffer): a separate pass over the table would cost as much
    /// memory traffic as that one.
    pub(crate) fn rebuild_fast_inner(&mut self, clear_moved: bool) {
        let mut s = core::mem::take(&mut self.scratch.lbvh);
        s.keys.clear();
        s.out.clear();
        s.range.clear();
        s.order.clear();
        s.tasks.clear();
        s.tight.clear();
        s.build_id = s.build_id.wrapping_add(1);
        // The root box contains every leaf, hence every centre: it bounds the quantisation
        // without a pass over the proxies.
        let q = match self.root {
            NULL => Quantizer::new(&Point3::origin(), &Point3::origin()),
            r => {
                let b = &self.nodes[r as usize].aabb;
                Quantizer::new(&b.min(), &b.max())
            }
        };
        for (slot, p) in self.proxies.slots_mut().iter_mut().enumerate() {
            if clear_moved && p.extra.moved {
                p.extra.moved = false;
            }
            if p.extra.node != NULL {
                s.keys
                    .push(((q.code(&p.extra.fat.center()) as u64) << 32) | slot as u64);
            }
        }
        radix_sort(&mut s.keys, &mut s.tmp);
        let n = s.keys.len() as u32;
        self.root = NULL;
        self.free_node = NULL;
        if n == 0 {
            core::mem::swap(&mut self.nodes, &mut s.out);
            self.scratch.lbvh = s;
            return;
        }
        // Layout: internal nodes `0..n-1` depth-first, then the leaves `n-1..2n-1` in sorted
        // order. One pass in sorted order gathers each proxy's boxes (independent scattered
        // reads, which the CPU overlaps) and points it at its new leaf.
        let first_leaf = n - 1;
        s.out.resize(2 * n as usize - 1, blank());
        s.range.resize(n as usize - 1, (0, 0));
        s.order.extend(s.keys.iter().map(|&k| k as u32));
        for (i, &slot) in s.order.iter().enumerate() {
            let p = self.proxies.slot_mut(slot);
            p.extra.node = first_leaf + i as u32;
            s.tight.push(p.aabb);
            let leaf = &mut s.out[(first_leaf as usize) + i];
            leaf.aabb = p.extra.fat;
            leaf.child2 = slot;
        }
        // Internal nodes, top-down: `(start, end, node)`; a one-leaf range is that leaf.
        let mut next = 1u32;
        if n == 1 {
            self.root = first_leaf;
        } else {
            self.root = 0;
            s.range[0] = (0, n);
            s.tasks.push((0, n, 0));
        }
        while let Some((start, end, node)) = s.tasks.pop() {
            let mid = split(&s.keys[start as usize..end as usize]) + start;
            let mut child = [0u32; 2];
            for (k, (a, b)) in [(start, mid), (mid, end)].into_iter().enumerate() {
                child[k] = if b - a == 1 {
                    first_leaf + a
                } else {
                    let c = next;
                    next += 1;
                    s.range[c as usize] = (a, b);
                    c
                };
                s.out[child[k] as usize].parent = node;
            }
            let nd = &mut s.out[node as usize];
            nd.child1 = child[0];
            nd.child2 = child[1];
            // Second child first on the stack: the first child's subtree is laid out next.
            for (k, (a, b)) in [(mid, end), (start, mid)].into_iter().enumerate() {
                if b - a > 1 {
                    s.tasks.push((a, b, child[1 - k]));
                }
            }
        }
        debug_assert_eq!(next, first_leaf.max(1));
        // Internal children sit after their parents: one reverse pass refits bottom-up (and
        // sums the areas the rebuild trigger reads).
        let mut area: Real = 0.0;
        for i in (0..first_leaf as usize).rev() {
            let nd = s.out[i];
            let (a, b) = (&s.out[nd.child1 as usize], &s.out[nd.child2 as usize]);
            let (aabb, height) = (a.aabb.merge(&b.aabb), 1 + a.height.max(b.height));
            area += aabb.surface_area();
            let nd = &mut s.out[i];
            nd.aabb = aabb;
            nd.height = height;
        }
        self.area_sum = Some(area);
        core::mem::swap(&mut self.nodes, &mut s.out);
        self.scratch.lbvh = s;
        self.fast_layout = Some(0);
    }

    /// Keeps the layout of the last fast rebuild for one more frame (only when it still holds):
    /// re-reads the tight boxes in curve order and clears the move flags. The leaves did not
    /// move in the pool (boxes enlarged in place keep their nodes), so the pair search runs on
    /// the same topology with fresh boxes.
    pub(crate) fn keep_fast_layout(&mut self) {
        let s = &mut self.scratch.lbvh;
        for (t, &slot) in s.tight.iter_mut().zip(&s.order) {
            *t = self.proxies.slot(slot).aabb;
        }
        for &slot in &self.moved {
            self.proxies.slot_mut(slot).extra.moved = false;
        }
        if let Some(k) = &mut self.fast_layout {
            *k += 1;
        }
    }
}

/// An internal node to be filled in.
#[inline]
fn blank() -> Node {
    Node {
        aabb: Aabb::new_unchecked(Point3::origin(), Point3::origin()),
        parent: NULL,
        child1: NULL,
        child2: NULL,
        height: 0,
    }
}

/// Where to split sorted keys (at least two): the first key whose highest bit differing between
/// the first and last code is set; the middle when all codes are equal. Always in `1..len`.
fn split(keys: &[u64]) -> u32 {
    let (first, last) = (keys[0] >> 32, keys[keys.len() - 1] >> 32);
    if first == last {
        return (keys.len() / 2) as u32;
    }
    let bit = 63 - (first ^ last).leading_zeros();
    let mid = keys.partition_point(|&k| (k >> 32) & (1 << bit) == 0);
    mid.clamp(1, keys.len() - 1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_interleaves() {
        assert_eq!(spread(0b1), 0b1);
        assert_eq!(spread(0b11), 0b1001);
        assert_eq!(spread(0x3ff), 0x0924_9249);
    }

    #[test]
    fn split_is_inside() {
        let k = |c: u64| c << 32;
        assert_eq!(split(&[k(1), k(1), k(1)]), 1);
        assert_eq!(split(&[k(0), k(1), k(2), k(3)]), 2);
        assert_eq!(split(&[k(0), k(4), k(4), k(4)]), 1);
    }

    #[test]
    fn radix_is_stable_by_code() {
        let mut keys: Vec<u64> = [(5u64, 0u64), (1, 1), (5, 2), (0, 3), (1 << 29, 4)]
            .iter()
            .map(|&(c, s)| (c << 32) | s)
            .collect();
        let mut tmp = Vec::new();
        radix_sort(&mut keys, &mut tmp);
        let slots: Vec<u64> = keys.iter().map(|k| k & 0xffff_ffff).collect();
        assert_eq!(slots, vec![3, 1, 0, 2, 4]);
    }
}
