//! Overlapping pairs: within one tree, between two trees, and the incremental pair set of
//! [`crate::BroadPhase::update_pairs`].

use super::chunks::{lock, serial, Runner};
use super::lanes::Lanes;
use super::node::{Node, NULL};
use super::packet::{Packets, Walk};
use super::query::{NodeStack, SpillStack};
use super::DynamicBvh;
use crate::{ProxyId, QueryStats, Visit};
use sepax_shapes::math::Real;

/// Moved proxies per job of the incremental pair search.
pub const MOVED_PER_JOB: usize = 128;

/// Frames a fast rebuild's layout serves the whole-tree pair search before the next rebuild.
const FAST_LAYOUT_FRAMES: u32 = 16;

/// Simultaneous depth-first descent of two subtrees (Gottschalk, Lin, Manocha 1996, "OBBTree",
/// §4; Bullet `btDbvt::collideTT`). With `same` set the two trees are one, and an entry `(a, a)`
/// stands for "all pairs inside subtree `a`":
///
/// ```text
/// pop (a, b):
///   a == b (same tree): leaf -> nothing; else push (a1, a1), (a2, a2), (a1, a2)
///   boxes disjoint -> nothing
///   both leaves -> report
///   otherwise split the internal one of larger area (or the only internal one) and push
///   its two children against the other
/// ```
/// Each unordered pair of distinct leaves is reached through exactly one entry.
fn pair_walk(
    a_nodes: &[Node],
    b_nodes: &[Node],
    start: (u32, u32),
    same: bool,
    mut report: impl FnMut(u32, u32) -> Visit,
) -> QueryStats {
    let mut stats = QueryStats::default();
    let mut stack = SpillStack::<(u32, u32)>::new();
    stack.push(start);
    while let Some((a, b)) = stack.pop() {
        let (na, nb) = (&a_nodes[a as usize], &b_nodes[b as usize]);
        if same && a == b {
            if !na.is_leaf() {
                stats.nodes_visited += 1;
                stack.push((na.child1, na.child2));
                stack.push((na.child2, na.child2));
                stack.push((na.child1, na.child1));
            }
            continue;
        }
        let (la, lb) = (na.is_leaf(), nb.is_leaf());
        if la && lb {
            stats.leaves_tested += 1;
        } else {
            stats.nodes_visited += 1;
        }
        if !na.aabb.intersects(&nb.aabb) {
            continue;
        }
        if la && lb {
            stats.hits += 1;
            if report(na.child2, nb.child2) == Visit::Stop {
                break;
            }
        } else if lb || (!la && na.aabb.surface_area() >= nb.aabb.surface_area()) {
            stack.push((na.child2, b));
            stack.push((na.child1, b));
        } else {
            stack.push((a, nb.child2));
            stack.push((a, nb.child1));
        }
    }
    stats
}

impl DynamicBvh {
    /// Every pair of proxies of this tree whose stored boxes overlap, each once, as
    /// `(smaller handle, larger handle)`, in traversal order (not sorted).
    pub fn self_pairs(&self, mut f: impl FnMut(ProxyId, ProxyId) -> Visit) -> QueryStats {
        if self.root == NULL {
            return QueryStats::default();
        }
        pair_walk(
            &self.nodes,
            &self.nodes,
            (self.root, self.root),
            true,
            |a, b| {
                let (a, b) = (self.handle(a), self.handle(b));
                f(a.min(b), a.max(b))
            },
        )
    }

    /// Every pair (proxy of `self`, proxy of `other`) whose stored boxes overlap, each once, in
    /// traversal order. The two trees may have different settings; handles of the two trees are
    /// unrelated numbers.
    pub fn pairs_with(
        &self,
        other: &DynamicBvh,
        mut f: impl FnMut(ProxyId, ProxyId) -> Visit,
    ) -> QueryStats {
        if self.root == NULL || other.root == NULL {
            return QueryStats::default();
        }
        pair_walk(
            &self.nodes,
            &other.nodes,
            (self.root, other.root),
            false,
            |a, b| f(self.handle(a), other.handle(b)),
        )
    }

    /// The incremental pair update.
    ///
    /// ```text
    /// maybe rebuild (leaf boxes do not change, so neither do the pairs)
    /// found = for each live proxy m in the move buffer, for each leaf o overlapping m's fat box:
    ///           skip o == m; skip when o also moved and o < m (o's own query finds the pair)
    ///           (min(m, o), max(m, o))
    /// kept  = the previous pair set minus every pair with a side in the move buffer
    ///         (neither fat box changed and both proxies are alive, so these still overlap, and
    ///          no other pair of unmoved proxies can have started to)
    /// pairs = merge(kept, sort(found))   -- disjoint: found pairs have a moved side
    /// ```
    /// Removed proxies stay flagged in the move buffer until this call, so their pairs drop out.
    /// All buffers are reused: nothing is allocated once their capacities suffice.
    pub(crate) fn update_pairs_impl(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        self.update_pairs_chunked(out, &serial);
    }

    /// [`crate::BroadPhase::update_pairs`] with the pair search run as jobs on `run` (see
    /// [`Runner`]): the same pairs, in the same order, and the same tree whatever the runner
    /// and however many threads it uses. The jobs are fixed by the tree and the move buffer
    /// alone: chunks of [`MOVED_PER_JOB`] moved proxies when few moved, and about 256 subtree
    /// pairs of the whole-tree search when many did; rebuilds and refits stay on the calling
    /// thread. Allocates nothing once warm.
    pub fn update_pairs_chunked(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, run: Runner<'_>) {
        let moved = self.moved.len() as Real;
        let count = self.proxies.len();
        if count >= 2 && moved >= self.config.full_rebuild_fraction * count as Real {
            self.full_update_pairs(out, run);
            return;
        }
        self.maybe_rebuild();
        let mut found = core::mem::take(&mut self.scratch.found);
        let mut merged = core::mem::take(&mut self.scratch.merged);
        let mut chunks = core::mem::take(&mut self.scratch.chunks);
        found.clear();
        merged.clear();
        // Query in leaf order: after a rebuild, nearby leaves have nearby indices, so the
        // proxies of one packet (`packet.rs`) and successive packets walk mostly the same,
        // cached, nodes. (The order of `found` does not matter: it
        // is sorted below.)
        let proxies = self.proxies.slots();
        self.moved
            .sort_unstable_by_key(|&s| (proxies[s as usize].extra.node, s));
        let jobs = self.moved.len().div_ceil(MOVED_PER_JOB);
        let bufs = chunks.prepare(jobs);
        let (moved, nodes, root) = (&self.moved, &self.nodes[..], self.root);
        let ctx = Packets {
            proxies,
            nodes,
            root,
            exact: self.config.exact_pairs,
        };
        let lanes = Lanes::detect();
        run(jobs, &|j| {
            let mut guard = lock(&bufs[j]);
            let end = moved.len().min((j + 1) * MOVED_PER_JOB);
            lanes.run(Walk, &ctx, &moved[j * MOVED_PER_JOB..end], &mut *guard);
        });
        for j in 0..jobs {
            found.extend_from_slice(&chunks.get_mut(j).found);
        }
        self.scratch.chunks = chunks;
        found.sort_unstable();
        let proxies = self.proxies.slots();
        let unmoved = |&(a, b): &(ProxyId, ProxyId)| {
            !proxies[a.index as usize].extra.moved && !proxies[b.index as usize].extra.moved
        };
        let mut kept = self.pairs.iter().filter(|p| unmoved(p)).peekable();
        let mut new = found.iter().peekable();
        loop {
            let next = match (kept.peek(), new.peek()) {
                (Some(&&k), Some(&&n)) => {
                    if k < n {
                        kept.next();
                        k
                    } else {
                        new.next();
                        n
                    }
                }
                (Some(&&k), None) => {
                    kept.next();
                    k
                }
                (None, Some(&&n)) => {
                    new.next();
                    n
                }
                (None, None) => break,
            };
            merged.push(next);
        }
        core::mem::swap(&mut self.pairs, &mut merged);
        for &slot in &self.moved {
            self.proxies.slot_mut(slot).extra.moved = false;
        }
        self.moved.clear();
        self.scratch.found = found;
        self.scratch.merged = merged;
        out.clear();
        out.extend_from_slice(&self.pairs);
    }

    /// The pair update when many proxies moved: a fast rebuild of the whole tree, then every
    /// pair in one traversal (`sweep.rs`). The move buffer empties; the pair set is replaced.
    fn full_update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, run: Runner<'_>) {
        // Motion is coherent: the curve order of a few frames ago is still a good one, so the
        // rebuild (sort, split, refit of the pool) runs one frame in `FAST_LAYOUT_FRAMES`.
        // The SAH trigger still applies: a layout whose leaves were scattered far is rebuilt.
        let ratio = self.config.rebuild_ratio;
        let keep = match self.fast_layout {
            Some(k) if k + 1 < FAST_LAYOUT_FRAMES => {
                ratio == Real::INFINITY
                    || self
                        .built_cost
                        .is_none_or(|b| self.current_cost() <= ratio * b)
            }
            _ => false,
        };
        if keep {
            self.keep_fast_layout();
        } else {
            self.rebuild_fast_inner(true);
            self.rebuilds += 1;
            self.built_cost = Some(self.current_cost());
        }
        let mut pairs = core::mem::take(&mut self.pairs);
        self.sweep_pairs(&mut pairs, run);
        self.pairs = pairs;
        self.moved.clear();
        out.clear();
        super::sweep::grow_with_headroom(out, self.pairs.len());
        out.extend_from_slice(&self.pairs);
    }
}
