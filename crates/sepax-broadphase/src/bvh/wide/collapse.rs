//! The dynamic tree's binary nodes collapsed into wide nodes: the query mirror's build.
//!
//! ```text
//! collapse(binary node b):
//!   kids = open(b)    (the subtrees of b that become its wide node's lanes, see `open`)
//!   each kid: a leaf -> a primitive lane (its proxy slot); internal -> a wide node, collapsed next
//! ```
//! The rule of `open` is the one of `WideBvh::build` (greedy largest-area opening, Wald, Benthin,
//! Boulos 2008, with small subtrees gathered whole into primitive lanes), here applied to an
//! existing binary tree instead of fresh SAH splits: no sorting and no binning, one pass over
//! the nodes (O(n)), so the mirror costs a small fraction of a rebuild. The lane boxes are the
//! binary nodes' boxes: each contains every leaf below it (the dynamic tree's invariant), which
//! is all the traversals need.
//!
//! Gathering puts a far leaf beside near subtrees in one node; the traversal takes every lane,
//! primitive or node, nearest first (`ordered.rs`), so such a leaf is still reported only after
//! the nearer subtrees.

use super::{placeholder, WideBvh, EMPTY, PRIM, WIDTH};
use crate::bvh::node::{Node, NULL};

/// Reusable buffers of [`collapse`].
#[derive(Debug, Default)]
pub(crate) struct CollapseScratch {
    /// (binary node, wide node to fill).
    tasks: Vec<(u32, u32)>,
}

impl CollapseScratch {
    pub(crate) fn memory_bytes(&self) -> usize {
        self.tasks.capacity() * core::mem::size_of::<(u32, u32)>()
    }
}

/// Refills `out` with the wide nodes of the binary tree `nodes` rooted at `root` (`NULL`: an
/// empty tree), primitives named by the leaves' proxy slots. `len` is the number of leaves.
/// Reuses the capacities of `out` and `scratch` (no allocation once they have grown).
///
/// Every slot must be below `PRIM` (`2^31`); the caller checks it.
pub(crate) fn collapse(
    nodes: &[Node],
    root: u32,
    len: usize,
    out: &mut WideBvh,
    scratch: &mut CollapseScratch,
) {
    out.nodes.clear();
    out.len = len;
    if root == NULL {
        return;
    }
    let tasks = &mut scratch.tasks;
    tasks.clear();
    out.nodes.push(placeholder());
    tasks.push((root, 0));
    while let Some((b, w)) = tasks.pop() {
        let (kids, count) = open(nodes, b);
        let mut n = placeholder();
        n.mask = (1 << count) - 1;
        for (j, &k) in kids.iter().enumerate() {
            // Empty lanes repeat lane 0's box (see `WideNode`).
            let k = if j < count { k } else { kids[0] };
            let (lo, hi) = (nodes[k as usize].aabb.min(), nodes[k as usize].aabb.max());
            for a in 0..3 {
                n.bounds[a][j] = lo[a];
                n.bounds[a + 3][j] = hi[a];
            }
        }
        let first_new = tasks.len();
        for (j, &k) in kids[..count].iter().enumerate() {
            let node = &nodes[k as usize];
            n.children[j] = if node.is_leaf() {
                n.prims |= 1 << j;
                PRIM | node.child2
            } else {
                let idx = out.nodes.len() as u32;
                out.nodes.push(placeholder());
                tasks.push((k, idx));
                idx
            };
        }
        // The first child is collapsed (and laid out) first, as in `WideBvh::build`.
        tasks[first_new..].reverse();
        debug_assert!(n.children[..count].iter().all(|&c| c != EMPTY));
        out.nodes[w as usize] = n;
    }
}

/// Height up to which a subtree is small enough (at most [`WIDTH`] leaves) to be gathered
/// into one node's primitive lanes.
const SMALL: u32 = WIDTH.trailing_zeros();

/// The children of the wide node made from binary node `b` (a leaf `b` gives itself), by the
/// rule of `WideBvh::build`'s `children_of` on the binary tree's subtrees:
///
/// ```text
/// kids = [b]
/// repeat:
///   c = the internal kid of largest surface area not marked; none: stop
///   c small (height <= SMALL): if its leaves fit in the free lanes (its own included),
///                              replace c by its leaves, else mark c (a node of its own)
///   else: if a lane is free, replace c by its two children, else stop
/// ```
/// Gathering a small subtree's leaves keeps the nodes next to the leaves full (opening small
/// subtrees greedily leaves many nodes of two or three lanes); kids stay in the binary order
/// (child1's leaves before child2's), so that siblings are laid out in space order.
fn open(nodes: &[Node], b: u32) -> ([u32; WIDTH], usize) {
    let mut kids = [b; WIDTH];
    let mut marked = [false; WIDTH];
    let mut count = 1;
    loop {
        let mut pick: Option<(usize, sepax_shapes::math::Real)> = None;
        for (j, &k) in kids[..count].iter().enumerate() {
            let n: &Node = &nodes[k as usize];
            if n.is_leaf() || marked[j] {
                continue;
            }
            let area = n.aabb.surface_area();
            if pick.is_none_or(|(_, a)| area > a) {
                pick = Some((j, area));
            }
        }
        let Some((j, _)) = pick else { break };
        let k = kids[j];
        let n = &nodes[k as usize];
        let mut leaves = [k; WIDTH];
        let small = if n.height <= SMALL {
            small_leaves(nodes, k, &mut leaves)
        } else {
            None
        };
        if let Some(size) = small {
            if count - 1 + size > WIDTH {
                marked[j] = true;
                continue;
            }
            // Shift the later kids right by `size - 1` and put the leaves in c's place.
            kids.copy_within(j + 1..count, j + size);
            marked.copy_within(j + 1..count, j + size);
            kids[j..j + size].copy_from_slice(&leaves[..size]);
            marked[j..j + size].fill(false);
            count += size - 1;
            continue;
        }
        if count == WIDTH {
            break;
        }
        // Keep the binary order: child1 in place, child2 right after it.
        kids.copy_within(j + 1..count, j + 2);
        marked.copy_within(j + 1..count, j + 2);
        kids[j] = n.child1;
        kids[j + 1] = n.child2;
        marked[j] = false;
        marked[j + 1] = false;
        count += 1;
    }
    (kids, count)
}

/// The leaves of the subtree `k`, in binary order (child1's first), written to `out`; returns
/// how many, or `None` when there are more than [`WIDTH`] (never for a height of at most
/// [`SMALL`]: the bound only guards against a wrong height).
fn small_leaves(nodes: &[Node], k: u32, out: &mut [u32; WIDTH]) -> Option<usize> {
    // Depth-first; the pending second children never outnumber the leaves still to come.
    let mut stack = [k; WIDTH];
    let (mut top, mut len) = (1, 0);
    while top > 0 {
        top -= 1;
        let n = &nodes[stack[top] as usize];
        if n.is_leaf() {
            *out.get_mut(len)? = stack[top];
            len += 1;
        } else {
            if top + 2 > WIDTH {
                return None;
            }
            stack[top] = n.child2;
            stack[top + 1] = n.child1;
            top += 2;
        }
    }
    Some(len)
}
