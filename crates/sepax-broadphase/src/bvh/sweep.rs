//! The whole-tree pair search that follows a fast rebuild (`lbvh.rs`): a simultaneous descent of
//! the tree against itself that stops at subtrees of at most [`CLUSTER`] leaves and tests those
//! as flat, contiguous runs of boxes (the leaves are stored in Morton order, so a subtree is a
//! range of that order).
//!
//! The hierarchy boxes it descends are rebuilt here from the boxes the pairs are defined on (the
//! tight boxes for exact pairs, so that the descent prunes as early as the pairs allow).

use super::chunks::{lock, ChunkBufs, Runner};
use super::lanes::Lanes;
use super::node::NULL;
use super::runs::{cross_runs, self_run, BoxColumns};
use super::DynamicBvh;
use crate::ProxyId;
use sepax_shapes::Aabb;
use sepax_simd::{Lane256, LaneKernel, V};

/// Subtrees of at most this many leaves are tested as runs of boxes, in lanes. Smaller runs
/// leave the descent's per-node cost dominant; larger ones test more missing pairs than the
/// descent would prune (the benchmark's minimum lies between 32 and 64).
const CLUSTER: u32 = 32;

/// The whole-tree search is split into about this many jobs (enough to balance 8 or more
/// threads; each costs a buffer and a lock).
const SPLIT: usize = 256;

/// One internal node as the pair search reads it: the box of the leaves below it (tight or
/// fat, as the pairs are defined), its children (node indices of the fast-rebuild layout: at or
/// above the first leaf index a child is a leaf) and its range of sorted leaves, in one record
/// so that a visit costs one cache line.
#[derive(Debug, Clone, Copy)]
struct SweepNode {
    aabb: Aabb,
    child: [u32; 2],
    span: (u32, u32),
}

/// Buffers of the pair search, kept so that a warm search allocates nothing.
#[derive(Debug, Clone, Default)]
pub(crate) struct SweepScratch {
    /// Internal nodes in layout order (children after parents).
    nodes: Vec<SweepNode>,
    /// The fast rebuild `nodes` copies the topology of (`None`: not built yet).
    topology_of: Option<u64>,
    /// Per sorted position: the leaf's fat box (for fat pairs only).
    leaf_box: Vec<Aabb>,
    /// The boxes the pairs are defined on, per sorted position, as columns for the lane tests.
    cols: BoxColumns,
    /// Pending node pairs, each already known to overlap (or a node against itself).
    stack: Vec<(u32, u32)>,
    /// Found pairs as `(lower slot << 32) | higher slot`.
    found: Vec<u64>,
    /// The jobs' buffers.
    chunks: ChunkBufs,
}

impl SweepScratch {
    /// Heap bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        use core::mem::size_of;
        self.nodes.capacity() * size_of::<SweepNode>()
            + self.leaf_box.capacity() * size_of::<Aabb>()
            + self.cols.memory_bytes()
            + self.stack.capacity() * 8
            + self.found.capacity() * 8
            + self.chunks.memory_bytes()
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

impl DynamicBvh {
    /// Every overlapping pair of the whole tree into `out` (cleared), sorted, each once as
    /// `(smaller handle, larger handle)`. Requires the layout of a fast rebuild done since the
    /// last structural change (`update_pairs` calls it right after one).
    ///
    /// ```text
    /// pop (a, b)  -- a == b, or the boxes of a and b overlap:
    ///   a == b: at most CLUSTER leaves -> test the run against itself
    ///           else push (a1, a1), (a2, a2) for internal children, (a1, a2) if they overlap
    ///   both at most CLUSTER leaves -> for each leaf of a touching b's box, test b's run
    ///   otherwise split the one with more leaves, pushing each child that overlaps the other
    /// ```
    /// Boxes are tested before a pair is pushed, so the stack holds only pairs to open.
    ///
    /// The search runs as jobs on `run` (`chunks.rs`): the entries pending after a fixed number
    /// of breadth-first steps, each searched to the end by one job into its own buffer.
    pub(crate) fn sweep_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, run: Runner<'_>) {
        let mut s = core::mem::take(&mut self.scratch.sweep);
        s.stack.clear();
        s.found.clear();
        out.clear();
        let lb = &self.scratch.lbvh;
        let n = lb.order.len();
        if self.root == NULL || n < 2 {
            self.scratch.sweep = s;
            return;
        }
        let first_leaf = (n - 1) as u32;
        s.leaf_box.clear();
        if !self.config.exact_pairs {
            s.leaf_box
                .extend(self.nodes[first_leaf as usize..].iter().map(|nd| nd.aabb));
        }
        let boxes: &[Aabb] = if self.config.exact_pairs {
            &lb.tight
        } else {
            &s.leaf_box
        };
        if s.topology_of != Some(lb.build_id) {
            s.nodes.clear();
            s.nodes
                .extend(self.nodes[..first_leaf as usize].iter().zip(&lb.range).map(
                    |(nd, &span)| SweepNode {
                        aabb: boxes[0],
                        child: [nd.child1, nd.child2],
                        span,
                    },
                ));
            s.topology_of = Some(lb.build_id);
        }
        refit(&mut s.nodes, boxes, first_leaf);
        s.cols.fill(boxes);
        let ctx = Sweep {
            sn: &s.nodes,
            boxes,
            cols: &s.cols,
            order: &lb.order,
            first_leaf,
        };
        // The split into jobs: breadth-first steps from the root until `SPLIT` entries are
        // pending (a function of the tree alone), pairs found on the way kept in `found`.
        let (stack, found) = (&mut s.stack, &mut s.found);
        stack.push((0, 0));
        let mut head = 0;
        while head < stack.len() && stack.len() - head < SPLIT {
            let e = stack[head];
            head += 1;
            ctx.step::<V>(e, stack, found);
        }
        let tasks = &stack[head..];
        let bufs = s.chunks.prepare(tasks.len());
        let lanes = Lanes::detect();
        run(tasks.len(), &|t| {
            let mut guard = lock(&bufs[t]);
            let b = &mut *guard;
            b.pair_stack.clear();
            b.pair_stack.push(tasks[t]);
            lanes.run(Drain, &ctx, &mut b.pair_stack, &mut b.keys);
        });
        for t in 0..tasks.len() {
            s.found.extend_from_slice(&s.chunks.get_mut(t).keys);
        }
        // Every pair is found once: the sorted keys do not depend on the order the jobs ran in.
        s.found.sort_unstable();
        grow_with_headroom(out, s.found.len());
        out.extend(s.found.iter().map(|&k| {
            let (a, b) = ((k >> 32) as u32, k as u32);
            (self.handle(a), self.handle(b))
        }));
        self.scratch.sweep = s;
    }
}

/// What one step of the pair search reads: the internal nodes, the boxes per sorted position,
/// the slots per sorted position, and where the leaves start.
struct Sweep<'a> {
    sn: &'a [SweepNode],
    boxes: &'a [Aabb],
    cols: &'a BoxColumns,
    order: &'a [u32],
    first_leaf: u32,
}

impl Sweep<'_> {
    #[inline(always)]
    fn bx(&self, i: u32) -> &Aabb {
        if i >= self.first_leaf {
            &self.boxes[(i - self.first_leaf) as usize]
        } else {
            &self.sn[i as usize].aabb
        }
    }

    #[inline(always)]
    fn span(&self, i: u32) -> (u32, u32) {
        if i >= self.first_leaf {
            let p = i - self.first_leaf;
            (p, p + 1)
        } else {
            self.sn[i as usize].span
        }
    }

    /// Opens one pending entry (see `DynamicBvh::sweep_pairs`): pairs to `found`, entries
    /// still to open to `stack`.
    #[inline(always)]
    fn step<L: Lane256>(
        &self,
        (a, b): (u32, u32),
        stack: &mut Vec<(u32, u32)>,
        found: &mut Vec<u64>,
    ) {
        let (boxes, cols, order) = (self.boxes, self.cols, self.order);
        let (first_leaf, sn) = (self.first_leaf, self.sn);
        let (ra, rb) = (self.span(a), self.span(b));
        let (len_a, len_b) = (ra.1 - ra.0, rb.1 - rb.0);
        if a == b {
            if len_a <= CLUSTER {
                self_run::<L>(boxes, cols, order, ra, found);
            } else {
                let [c1, c2] = sn[a as usize].child;
                for c in [c2, c1] {
                    if c < first_leaf {
                        stack.push((c, c));
                    }
                }
                if self.bx(c1).intersects(self.bx(c2)) {
                    stack.push((c1, c2));
                }
            }
            return;
        }
        let (small_a, small_b) = (len_a <= CLUSTER, len_b <= CLUSTER);
        if small_a && small_b {
            cross_runs::<L>(boxes, cols, order, ra, rb, self.bx(b), found);
        } else if small_b || (!small_a && len_a >= len_b) {
            let bb = self.bx(b);
            for c in sn[a as usize].child {
                if self.bx(c).intersects(bb) {
                    stack.push((c, b));
                }
            }
        } else {
            let ba = self.bx(a);
            for c in sn[b as usize].child {
                if ba.intersects(self.bx(c)) {
                    stack.push((a, c));
                }
            }
        }
    }
}

/// Recomputes every internal box from `boxes` (per sorted position) in one reverse pass:
/// internal children sit after their parents in the fast-rebuild layout.
fn refit(nodes: &mut [SweepNode], boxes: &[Aabb], first_leaf: u32) {
    for i in (0..nodes.len()).rev() {
        let [c1, c2] = nodes[i].child;
        let get = |c: u32| {
            if c >= first_leaf {
                boxes[(c - first_leaf) as usize]
            } else {
                nodes[c as usize].aabb
            }
        };
        nodes[i].aabb = get(c1).merge(&get(c2));
    }
}

/// One job of the search: every entry on `stack` opened to the end, on the lane vector `L`.
struct Drain;

impl<'s, 'a, 'b> LaneKernel<&'s Sweep<'a>, &'b mut Vec<(u32, u32)>, &'b mut Vec<u64>> for Drain {
    type Output = ();
    #[inline(always)]
    fn run<L: Lane256>(
        self,
        ctx: &'s Sweep<'a>,
        stack: &'b mut Vec<(u32, u32)>,
        found: &'b mut Vec<u64>,
        _: (),
    ) {
        while let Some(e) = stack.pop() {
            ctx.step::<L>(e, stack, found);
        }
    }
}
