//! Traversals of the [`WideBvh`]: ray casts (ordered, nearest child first, pruned by the current
//! clip distance) and box queries, each deciding all children of a node with one SIMD test.
//!
//! ```text
//! cast(ray):
//!   node = root
//!   loop:
//!     (mask, t_enter) = slab test of the node's child boxes, lanes entered at t <= clip
//!     primitive lanes in mask: the exact test of all of them at once (regular rays: the
//!       vectorised equivalent of Aabb::cast_ray, see RayLanes::exact; others: Aabb::cast_ray
//!       per lane); report the hits in lane order (may lower clip); if clip was lowered,
//!       drop the node lanes with t_enter > clip
//!     node lanes left: none (pop until an entry with t_enter <= clip; end when empty);
//!       one (the next node); two (the farther pushed); three (a sorting network of
//!       integer keys) or more (insertion sort): all but the nearest pushed farthest first,
//!       pushed nodes prefetched
//! ```
//! The row loads of the slab test pick the near and far plane of each axis by index
//! (`k + 3 * negative`), computed once per ray before the loop, instead of selecting rows per
//! node. A ray with a zero or tiny direction component takes a second instance of the loop
//! (`REGULAR == false`) with the extra slab-membership tests and the scalar exact test.
//! The stack is the inline-spilling one of the dynamic tree: nothing is ever dropped, however
//! deep the tree.

use super::ray_lanes::RayLanes;
use super::{WideBvh, WideNode, PRIM, WIDTH};
use crate::bvh::query::{keep_closest, sort_hits, NodeStack, SpillStack};
use crate::bvh::RayStep;
use crate::lanes::Lane;
use crate::{QueryStats, Visit};
use sepax_shapes::math::Real;
use sepax_shapes::{Aabb, Ray};

/// The portable lane vector (the AVX one is `simd::V256`, in `avx.rs`).
type L = crate::lanes::V;

/// Asks the processor to start loading the four cache lines of `node` (a hint: no effect on
/// results).
#[inline(always)]
fn prefetch(node: &WideNode) {
    #[cfg(target_arch = "x86_64")]
    crate::simd::prefetch(node);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = node;
}

/// Whether `m` has at most one bit set.
#[inline(always)]
fn at_most_one_bit(m: u32) -> bool {
    m & m.wrapping_sub(1) == 0
}

/// The bits of a non-negative entry distance as an integer that orders like the distance.
#[inline(always)]
fn key_bits(t: Real) -> u64 {
    #[cfg(not(feature = "f64"))]
    return u64::from(t.to_bits());
    #[cfg(feature = "f64")]
    return t.to_bits();
}

/// Sorts up to [`WIDTH`] keys (insertion sort).
#[inline(always)]
fn sort_keys(keys: &mut [u64]) {
    for i in 1..keys.len() {
        let k = keys[i];
        let mut j = i;
        while j > 0 && k < keys[j - 1] {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = k;
    }
}

/// TEMPORARY A/B switch (removed before commit).
pub(crate) fn old_traversal() -> bool {
    static OLD: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *OLD.get_or_init(|| std::env::var("SEPAX_OLD_RAY").is_ok())
}

impl WideBvh {
    /// [`prefetch`] of node `i` (nothing when out of range).
    #[inline(always)]
    pub(crate) fn prefetch(&self, i: u32) {
        if let Some(c) = self.nodes.get(i as usize) {
            prefetch(c);
        }
    }

    /// Casts `ray` against the primitives, nearest subtree first. `f` receives each primitive
    /// (its index in the build list) that the ray enters at distance `t <= clip`, with `t` the
    /// entry distance of [`Aabb::cast_ray`] (0 when the origin is inside the box), where `clip`
    /// starts at the ray's `max_distance` and is lowered by [`RayStep::Clip`]. Subtrees whose
    /// box the ray enters beyond `clip` are skipped. Primitives arrive roughly, not exactly, in
    /// order of distance. The same contract as [`crate::bvh::DynamicBvh::cast_ray`].
    pub fn cast_ray(&self, ray: &Ray, f: impl FnMut(u32, Real) -> RayStep) -> QueryStats {
        if self.nodes.is_empty() {
            return QueryStats::default();
        }
        if old_traversal() {
            #[cfg(target_arch = "x86_64")]
            if self.allow_avx {
                if let Some(token) = crate::simd::Avx::detect() {
                    return super::avx::cast_ray_old(token, self, ray, f);
                }
            }
            return match RayLanes::<L>::regular(ray) {
                Some(lanes) => self.cast::<L, true>(ray, &lanes, f),
                None => self.cast::<L, false>(ray, &RayLanes::new(ray), f),
            };
        }
        self.cast_dispatch::<true>(ray, f)
    }

    /// Casts `ray` for a caller that tests its own exact shapes inside the boxes: `f` receives
    /// every primitive whose box the ray enters at a distance `t <= clip` (and possibly a few
    /// that it passes within rounding), with a lower bound of that distance, nearest bound
    /// first as far as the tree allows; `clip` as in [`WideBvh::cast_ray`]. Cheaper than
    /// `cast_ray` by the exact box entry it skips, for leaf tests that do not need it.
    pub fn cast_ray_candidates(
        &self,
        ray: &Ray,
        f: impl FnMut(u32, Real) -> RayStep,
    ) -> QueryStats {
        if self.nodes.is_empty() {
            return QueryStats::default();
        }
        self.cast_dispatch::<false>(ray, f)
    }

    /// The traversal of `cast_ray` (`EXACT`) or `cast_ray_candidates`, with AVX when allowed
    /// and present, on a non-empty tree.
    #[inline(always)]
    fn cast_dispatch<const EXACT: bool>(
        &self,
        ray: &Ray,
        f: impl FnMut(u32, Real) -> RayStep,
    ) -> QueryStats {
        #[cfg(target_arch = "x86_64")]
        if self.allow_avx {
            if let Some(token) = crate::simd::Avx::detect() {
                return super::avx::cast_ray::<EXACT>(token, self, ray, f);
            }
        }
        match RayLanes::<L>::regular(ray) {
            Some(lanes) => self.cast_ordered::<L, true, EXACT>(ray, &lanes, f),
            None => self.cast_ordered::<L, false, EXACT>(ray, &RayLanes::new(ray), f),
        }
    }

    /// The traversal of [`WideBvh::cast_ray`] on a non-empty tree with the lane vector `V`;
    /// `REGULAR` only when `lanes` came from [`RayLanes::regular`].
    #[inline(always)]
    pub(crate) fn cast<V: Lane, const REGULAR: bool>(
        &self,
        ray: &Ray,
        lanes: &RayLanes<V>,
        mut f: impl FnMut(u32, Real) -> RayStep,
    ) -> QueryStats {
        // Plain counters (not the returned struct, which the compiler keeps in memory).
        let (mut visited, mut tested, mut hits) = (0usize, 0usize, 0usize);
        let mut clip = ray.max_distance();
        let mut clip_v = V::splat(clip);
        let mut stack = SpillStack::<(u32, Real)>::new();
        let rows = lanes.rows();
        let mut node = 0u32;
        'walk: loop {
            let n = &self.nodes[node as usize];
            visited += 1;
            let (mask, t_near_v) = lanes.test::<REGULAR>(n, rows, clip_v);
            let mut inner = mask & !n.prims;
            let mut prims = mask & n.prims;
            // Primitives first, in lane order, so that a hit's clip prunes this node's children
            // before they are pushed.
            if prims != 0 {
                let clip0 = clip;
                if REGULAR {
                    tested += prims.count_ones() as usize;
                    let (hit, t) = lanes.exact(n, rows, prims, clip);
                    prims = hit;
                    if prims != 0 {
                        let t = t.to_array();
                        while prims != 0 {
                            let j = prims.trailing_zeros() as usize;
                            prims &= prims - 1;
                            // `clip` may have been lowered by an earlier lane.
                            if t[j] > clip {
                                continue;
                            }
                            hits += 1;
                            match f(n.children[j] & !PRIM, t[j]) {
                                RayStep::Continue => {}
                                RayStep::Clip(c) => {
                                    // A NaN compares false: no change.
                                    if c < clip {
                                        clip = c;
                                    }
                                }
                                RayStep::Stop => break 'walk,
                            }
                        }
                    }
                } else {
                    while prims != 0 {
                        let j = prims.trailing_zeros() as usize;
                        prims &= prims - 1;
                        tested += 1;
                        let Some(t) = n.lane_box(j).cast_ray(ray).map(|h| h.distance) else {
                            continue;
                        };
                        if t > clip {
                            continue;
                        }
                        hits += 1;
                        match f(n.children[j] & !PRIM, t) {
                            RayStep::Continue => {}
                            RayStep::Clip(c) => {
                                if c < clip {
                                    clip = c;
                                }
                            }
                            RayStep::Stop => break 'walk,
                        }
                    }
                }
                if clip < clip0 {
                    clip_v = V::splat(clip);
                    inner &= t_near_v.le(clip_v);
                }
            }
            // Child nodes, nearest first: the nearest is visited next, the others are pushed
            // farthest first, and their nodes are prefetched as they are pushed, so that the
            // cache misses of the later visits overlap with this one's work instead of queueing.
            // No clip checks: every lane left in `inner` has `t_near <= clip` (the test's
            // `t_near <= min(t_far, clip)`, and the filter above when the clip was lowered), and
            // `clip` does not change before the next visit.
            if inner != 0 {
                let t_near = t_near_v.to_array();
                let rest = inner & (inner - 1);
                if rest == 0 {
                    node = n.children[inner.trailing_zeros() as usize];
                    continue;
                }
                if at_most_one_bit(rest) {
                    let a = inner.trailing_zeros() as usize;
                    let b = rest.trailing_zeros() as usize;
                    let (near, far) = if t_near[b] < t_near[a] {
                        (b, a)
                    } else {
                        (a, b)
                    };
                    self.prefetch(n.children[far]);
                    stack.push((n.children[far], t_near[far]));
                    node = n.children[near];
                    continue;
                }
                // Keys: the entry distance's bits (non-negative and never NaN, so ordered like
                // the distances) with the lane in the lowest three bits, which makes ties within
                // a few ulps go to either child: the order only guides the traversal, the
                // pruning uses the exact `t_near`.
                let key = |j: u32| (key_bits(t_near[j as usize]) & !7) | u64::from(j);
                let a = inner.trailing_zeros();
                let b = rest.trailing_zeros();
                let rest = rest & (rest - 1);
                let c = rest.trailing_zeros();
                let rest = rest & (rest - 1);
                let first = if rest == 0 {
                    // Three children (the most common case of more than two): a sorting
                    // network of three compare-exchanges, branch-free.
                    let (k0, k1, k2) = (key(a), key(b), key(c));
                    let (k0, k1) = (k0.min(k1), k0.max(k1));
                    let (k1, k2) = (k1.min(k2), k1.max(k2));
                    let (k0, k1) = (k0.min(k1), k0.max(k1));
                    for k in [k2, k1] {
                        let j = (k & 7) as usize;
                        self.prefetch(n.children[j]);
                        stack.push((n.children[j], t_near[j]));
                    }
                    k0
                } else {
                    let mut keys = [0u64; WIDTH];
                    let mut count = 0;
                    while inner != 0 {
                        let j = inner.trailing_zeros();
                        inner &= inner - 1;
                        keys[count] = key(j);
                        count += 1;
                    }
                    let keys = &mut keys[..count];
                    sort_keys(keys);
                    for &k in keys[1..].iter().rev() {
                        let j = (k & 7) as usize;
                        self.prefetch(n.children[j]);
                        stack.push((n.children[j], t_near[j]));
                    }
                    keys[0]
                };
                node = n.children[(first & 7) as usize];
                continue;
            }
            loop {
                match stack.pop() {
                    Some((c, t)) if t <= clip => {
                        node = c;
                        continue 'walk;
                    }
                    Some(_) => {}
                    None => break 'walk,
                }
            }
        }
        QueryStats {
            nodes_visited: visited,
            leaves_tested: tested,
            hits,
        }
    }

    /// The nearest primitive the ray enters (least entry distance of [`Aabb::cast_ray`]; ties go
    /// to the smaller index), with that distance.
    pub fn cast_ray_closest(&self, ray: &Ray) -> Option<(u32, Real)> {
        let mut best = None;
        self.cast_ray(ray, |i, t| keep_closest(&mut best, i, t));
        best
    }

    /// Clears `out` and fills it with every primitive the ray enters within its
    /// `max_distance`, with the entry distance, sorted by distance then index.
    pub fn cast_ray_all(&self, ray: &Ray, out: &mut Vec<(u32, Real)>) -> QueryStats {
        out.clear();
        let stats = self.cast_ray(ray, |i, t| {
            out.push((i, t));
            RayStep::Continue
        });
        sort_hits(out);
        stats
    }

    /// Every primitive whose box overlaps `aabb` (closed sets, exact comparisons), through `f`.
    pub fn query_aabb(&self, aabb: &Aabb, mut f: impl FnMut(u32) -> Visit) -> QueryStats {
        let mut stats = QueryStats::default();
        if self.nodes.is_empty() {
            return stats;
        }
        let (qlo, qhi) = (aabb.min(), aabb.max());
        let qlo = [L::splat(qlo.x), L::splat(qlo.y), L::splat(qlo.z)];
        let qhi = [L::splat(qhi.x), L::splat(qhi.y), L::splat(qhi.z)];
        let mut stack = SpillStack::<u32>::new();
        stack.push(0);
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            stats.nodes_visited += 1;
            let b = &n.bounds;
            let mut hit = L::load(&b[0]).le(qhi[0]) & qlo[0].le(L::load(&b[3]));
            for k in 1..3 {
                hit &= L::load(&b[k]).le(qhi[k]) & qlo[k].le(L::load(&b[k + 3]));
            }
            let mut mask = hit & n.mask;
            while mask != 0 {
                let j = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let c = n.children[j];
                if c & PRIM == 0 {
                    stack.push(c);
                    continue;
                }
                stats.leaves_tested += 1;
                stats.hits += 1;
                if f(c & !PRIM) == Visit::Stop {
                    return stats;
                }
            }
        }
        stats
    }
}
