//! The dynamic tree's binary nodes collapsed into wide nodes: the query mirror's build.
//!
//! ```text
//! collapse(binary node b):
//!   kids = [b]
//!   while |kids| < WIDTH and some kid is an internal node:
//!     replace the internal kid of largest surface area by its two children (in place)
//!   each kid: a leaf -> a primitive lane (its proxy slot); internal -> a wide node, collapsed next
//! ```
//! The greedy largest-area opening is the one of `WideBvh::build` (Wald, Benthin, Boulos 2008),
//! here applied to an existing binary tree instead of fresh SAH splits: no sorting and no
//! binning, one pass over the nodes (O(n)), so the mirror costs a small fraction of a rebuild.
//! The lane boxes are the binary nodes' boxes: each contains every leaf below it (the dynamic
//! tree's invariant), which is all the traversals need.

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

/// The children of the wide node made from binary node `b`: `b` opened greedily, largest
/// surface area first, until `WIDTH` kids or only leaves are left. A leaf `b` gives itself.
fn open(nodes: &[Node], b: u32) -> ([u32; WIDTH], usize) {
    let mut kids = [b; WIDTH];
    let mut count = 1;
    while count < WIDTH {
        let mut pick: Option<(usize, sepax_shapes::math::Real)> = None;
        for (j, &k) in kids[..count].iter().enumerate() {
            let n: &Node = &nodes[k as usize];
            if n.is_leaf() {
                continue;
            }
            let area = n.aabb.surface_area();
            if pick.is_none_or(|(_, a)| area > a) {
                pick = Some((j, area));
            }
        }
        let Some((j, _)) = pick else { break };
        let n = &nodes[kids[j] as usize];
        // Keep the binary order: child1 in place, child2 right after it.
        kids.copy_within(j + 1..count, j + 2);
        kids[j] = n.child1;
        kids[j + 1] = n.child2;
        count += 1;
    }
    (kids, count)
}
