//! The walks of the incremental pair search ([`DynamicBvh::update_pairs_chunked`] when few
//! proxies moved), [`LANES`] moved proxies at a time: one descent tests each node's box
//! against the boxes of all the packet's proxies in lanes and goes on while any lane overlaps,
//! so that proxies near each other (the move buffer is in leaf order) share the node loads of
//! their walks. It finds exactly the pairs of one walk per proxy: the lane test is the six
//! closed-set comparisons of [`Aabb::intersects`], and a lane leaves the descent where its own
//! walk would have (the lane tests in `lanes.rs`).
//!
//! [`DynamicBvh::update_pairs_chunked`]: super::DynamicBvh::update_pairs_chunked

use super::chunks::ChunkBuf;
use super::lanes::{first, overlap_lanes, splat};
use super::node::{Node, Proxy, NULL};
use crate::ProxyId;
use sepax_shapes::math::Real;
use sepax_shapes::Aabb;
use sepax_simd::{Lane256, LaneKernel, LaneMask, LANES};

/// What every packet of one pair search reads.
pub(crate) struct Packets<'a> {
    pub proxies: &'a [Proxy],
    pub nodes: &'a [Node],
    pub root: u32,
    /// Pairs of tight boxes (else of fat boxes).
    pub exact: bool,
}

/// One job of the search: the pairs of the moved slots given, into the buffer's `found`.
pub(crate) struct Walk;

impl<'s, 'a, 'm, 'b> LaneKernel<&'s Packets<'a>, &'m [u32], &'b mut ChunkBuf> for Walk {
    type Output = ();
    #[inline(always)]
    fn run<L: Lane256>(self, ctx: &'s Packets<'a>, moved: &'m [u32], b: &'b mut ChunkBuf, _: ()) {
        let mut packet = [0u32; LANES];
        let mut n = 0;
        // Removed proxies stay in the move buffer until the update; they have no pairs.
        for &slot in moved {
            if ctx.proxies[slot as usize].extra.node != NULL {
                packet[n] = slot;
                n += 1;
                if n == LANES {
                    ctx.walk::<L>(&packet, n, b);
                    n = 0;
                }
            }
        }
        if n > 0 {
            ctx.walk::<L>(&packet, n, b);
        }
    }
}

impl Packets<'_> {
    /// The box a moved proxy's pairs are defined on. Leaves hold fat boxes, which contain the
    /// tight ones: a walk with the tight box reaches every leaf whose tight box it touches.
    #[inline(always)]
    fn query_box(&self, slot: u32) -> &Aabb {
        let p = &self.proxies[slot as usize];
        if self.exact {
            &p.aabb
        } else {
            &p.extra.fat
        }
    }

    /// The pairs of the first `n` slots of `packet` (live proxies): every leaf whose box
    /// overlaps the proxy's, but the proxy itself and the moved ones of smaller slot (their
    /// own walks find those pairs).
    #[inline(always)]
    fn walk<L: Lane256>(&self, packet: &[u32; LANES], n: usize, b: &mut ChunkBuf) {
        // The packet's boxes by coordinate; lanes past `n` hold an empty box (+inf, -inf) and
        // are masked out besides.
        let mut cols = [[Real::INFINITY; LANES]; 6];
        for c in &mut cols[3..] {
            *c = [Real::NEG_INFINITY; LANES];
        }
        for (k, &slot) in packet[..n].iter().enumerate() {
            let q = self.query_box(slot);
            for axis in 0..3 {
                cols[axis][k] = q.min()[axis];
                cols[3 + axis][k] = q.max()[axis];
            }
        }
        let q = cols.map(|c| L::load(&c));
        let all = first(n as u32);
        let stack = &mut b.stack;
        stack.clear();
        if self.root == NULL {
            return;
        }
        stack.push((self.root, all));
        while let Some((i, lanes)) = stack.pop() {
            let node = &self.nodes[i as usize];
            let bits = overlap_lanes(&splat::<L>(&node.aabb), &q) & lanes;
            if bits == 0 {
                continue;
            }
            if node.is_leaf() {
                self.leaf(node.child2, packet, bits, &mut b.found);
            } else {
                stack.push((node.child2, bits));
                stack.push((node.child1, bits));
            }
        }
    }

    /// The pairs of the leaf of proxy `other` with the packet's lanes `bits` that reached it.
    #[inline(always)]
    fn leaf(
        &self,
        other: u32,
        packet: &[u32; LANES],
        mut bits: LaneMask,
        found: &mut Vec<(ProxyId, ProxyId)>,
    ) {
        let q = &self.proxies[other as usize];
        let o = ProxyId {
            index: other,
            generation: q.generation,
        };
        while bits != 0 {
            let slot = packet[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            if other == slot
                || (q.extra.moved && other < slot)
                || (self.exact && !q.aabb.intersects(self.query_box(slot)))
            {
                continue;
            }
            let me = ProxyId {
                index: slot,
                generation: self.proxies[slot as usize].generation,
            };
            found.push((me.min(o), me.max(o)));
        }
    }
}
