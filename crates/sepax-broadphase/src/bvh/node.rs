//! The node pool (a plain `Vec` indexed by `u32` with an intrusive free list, so that inserting
//! and removing allocates nothing once it has grown) and the tree's record in the shared proxy
//! table.

use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::Aabb;

/// The null index (no parent, no child, end of a free list).
pub(crate) const NULL: u32 = u32::MAX;

/// The `height` of a node that sits in the free list.
pub(crate) const FREE: u32 = u32::MAX;

/// One tree node. A leaf has `child1 == NULL` and stores its proxy slot in `child2`; an internal
/// node has two children. A free node has `height == FREE` and links the free list through
/// `parent`.
///
/// Bytes (f32 / f64): `aabb` 24 / 48, four `u32` fields 16: 40 / 64 in all, so that a node never
/// spans more than one 64-byte cache line when the pool is line-aligned.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    /// The node's box: the fat box for a leaf, a box containing both children otherwise.
    pub aabb: Aabb,
    /// Parent index (`NULL` at the root), or the next free node when the node is free.
    pub parent: u32,
    /// First child, or `NULL` for a leaf.
    pub child1: u32,
    /// Second child, or the proxy slot for a leaf.
    pub child2: u32,
    /// 0 for a leaf, `1 + max(children)` otherwise, `FREE` in the free list.
    pub height: u32,
}

// The size noted above; a larger node would cost a second cache line per visit.
const _: () = assert!(core::mem::size_of::<Node>() <= 64);

impl Node {
    /// Whether the node is a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.child1 == NULL
    }
}

/// The tree's record of a proxy in the shared proxy table ([`crate::proxies::ProxyTable`],
/// whose stored box is the proxy's tight box). A slot is 64 bytes in `f32`: the fields every
/// frame reads, with the user values in the table's separate, cold column.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Leaf {
    /// The fat box (a copy of the leaf's box, read by `update` in slot order instead of the
    /// scattered leaf).
    pub fat: Aabb,
    /// The leaf node, or `NULL` when the slot is free.
    pub node: u32,
    /// Whether the slot is in the move buffer (its fat box changed, or it was inserted or
    /// removed, since the last `update_pairs`). Kept while the slot is free.
    pub moved: bool,
}

/// One slot of the tree's proxy table.
pub(crate) type Proxy = crate::proxies::Proxy<Leaf>;

// The size noted above (f32): one cache line per slot.
#[cfg(not(feature = "f64"))]
const _: () = assert!(core::mem::size_of::<Proxy>() <= 64);

/// A point box at the origin: the placeholder of fresh nodes.
pub(crate) fn empty_aabb() -> Aabb {
    Aabb::new_unchecked(Point3::origin(), Point3::origin())
}

/// Clamps a coordinate to the finite range (fattening a box near `Real::MAX` must not overflow).
#[inline]
fn finite(x: Real) -> Real {
    x.clamp(-Real::MAX, Real::MAX)
}

/// The fat box of a tight box: grown by `margin` on every side, then stretched along the
/// predicted displacement `d * prediction` (only on the side it points to). Non-finite
/// displacement components are ignored; the result is clamped to finite coordinates, so it always
/// contains `tight`.
pub(crate) fn fatten(tight: &Aabb, margin: Real, prediction: Real, d: &Vector3) -> Aabb {
    let (mut lo, mut hi) = (tight.min(), tight.max());
    for k in 0..3 {
        let p = d[k] * prediction;
        let p = if p.is_finite() { p } else { 0.0 };
        lo[k] = finite(lo[k] - margin + p.min(0.0));
        hi[k] = finite(hi[k] + margin + p.max(0.0));
    }
    Aabb::new_unchecked(lo, hi)
}

impl super::DynamicBvh {
    /// Takes a node from the free list (or grows the pool) and initialises it as a lone leaf.
    pub(crate) fn alloc_node(&mut self) -> u32 {
        let node = Node {
            aabb: empty_aabb(),
            parent: NULL,
            child1: NULL,
            child2: NULL,
            height: 0,
        };
        if self.free_node != NULL {
            let i = self.free_node;
            self.free_node = self.nodes[i as usize].parent;
            self.nodes[i as usize] = node;
            i
        } else {
            let i = u32::try_from(self.nodes.len())
                .ok()
                .filter(|&i| i < NULL)
                .expect("DynamicBvh: more than 2^32 - 1 nodes");
            self.nodes.push(node);
            i
        }
    }

    /// Returns a node to the free list.
    pub(crate) fn free_node(&mut self, i: u32) {
        let n = &mut self.nodes[i as usize];
        n.height = FREE;
        n.child1 = NULL;
        n.child2 = NULL;
        n.parent = self.free_node;
        self.free_node = i;
    }

    /// The slot index of a live handle, or `None` for a stale or unknown one.
    #[inline]
    pub(crate) fn slot(&self, id: crate::ProxyId) -> Option<usize> {
        self.proxies.index_of(id).map(|s| s as usize)
    }

    /// The handle of a live slot.
    #[inline]
    pub(crate) fn handle(&self, slot: u32) -> crate::ProxyId {
        self.proxies.id_at(slot)
    }

    /// Puts a slot into the move buffer (once).
    #[inline]
    pub(crate) fn mark_moved(&mut self, slot: u32) {
        let p = &mut self.proxies.slot_mut(slot).extra;
        if !p.moved {
            p.moved = true;
            self.moved.push(slot);
        }
    }
}
