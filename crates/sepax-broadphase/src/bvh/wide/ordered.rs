//! The ray traversal of the [`WideBvh`]: every lane a node's slab test keeps, primitive or
//! node, is taken nearest first, so that a primitive is handed to the caller only once every
//! nearer subtree was searched.
//!
//! ```text
//! cast(ray):
//!   node = root
//!   loop:
//!     (mask, t) = slab test of the node's child boxes: lanes entered at t <= clip, with a
//!                 lower bound t of each one's entry
//!     EXACT: primitive lanes in mask get the exact entry of Aabb::cast_ray (regular rays: all
//!            at once, RayLanes::exact; others: per lane), misses dropped
//!     lanes left, sorted by t (keys: t's bits with the lane in the low three):
//!       the leading primitives are reported in order (each may lower clip);
//!       the first node, if within clip, is visited next, and the lanes after it within clip
//!       are pushed farthest first (nodes prefetched)
//!     nothing to visit: pop entries until one within clip: a node is visited, a primitive
//!       reported
//! ```
//! A closest-hit caller lowers the clip to each hit; taking primitives in the order of their
//! entry bound means a far primitive of a shallow node is only tested when no nearer
//! subtree holds a nearer hit, which skips most of such tests. One lane alone skips the sort.
//! The stack is the inline-spilling one of the dynamic tree: nothing is ever dropped, however
//! deep the tree.

use super::ray_lanes::RayLanes;
use super::{WideBvh, PRIM, WIDTH};
use crate::bvh::query::{NodeStack, SpillStack};
use crate::bvh::RayStep;
use crate::QueryStats;
use sepax_shapes::math::Real;
use sepax_shapes::Ray;
use sepax_simd::Lane256;

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

/// Hands primitive `c` (tagged with [`PRIM`]) at distance `t` to `f`, applying its answer to
/// `clip`; false when the query stops.
#[inline(always)]
fn report(f: &mut impl FnMut(u32, Real) -> RayStep, c: u32, t: Real, clip: &mut Real) -> bool {
    match f(c & !PRIM, t) {
        RayStep::Continue => true,
        RayStep::Clip(v) => {
            // A NaN compares false: no change.
            if v < *clip {
                *clip = v;
            }
            true
        }
        RayStep::Stop => false,
    }
}

impl WideBvh {
    /// The traversal of the ray casts on a non-empty tree with the lane vector `V`; `REGULAR`
    /// only when `lanes` came from [`RayLanes::regular`]. `EXACT`: primitives are reported with
    /// the exact entry distance of [`sepax_shapes::Aabb::cast_ray`] and only when it hits;
    /// otherwise with the slab test's lower bound, whenever the conservative slab test keeps
    /// them.
    #[inline(always)]
    pub(crate) fn cast_ordered<V: Lane256, const REGULAR: bool, const EXACT: bool>(
        &self,
        ray: &Ray,
        lanes: &RayLanes<V>,
        mut f: impl FnMut(u32, Real) -> RayStep,
    ) -> QueryStats {
        // Plain counters (not the returned struct, which the compiler keeps in memory).
        let (mut visited, mut tested, mut hits) = (0usize, 0usize, 0usize);
        let mut clip = ray.max_distance();
        let mut stack = SpillStack::<(u32, Real)>::new();
        let rows = lanes.rows();
        let mut node = 0u32;
        'walk: loop {
            let n = &self.nodes[node as usize];
            visited += 1;
            let (mask, t_near) = lanes.test::<REGULAR>(n, rows, V::splat(clip));
            let mut t = t_near.to_array();
            let mut live = mask;
            let prims = mask & n.prims;
            if prims != 0 {
                tested += prims.count_ones() as usize;
                if EXACT && REGULAR {
                    let (hit, exact) = lanes.exact(n, rows, prims, clip);
                    live = (mask & !n.prims) | hit;
                    let exact = exact.to_array();
                    let mut m = hit;
                    while m != 0 {
                        let j = m.trailing_zeros() as usize;
                        m &= m - 1;
                        t[j] = exact[j];
                    }
                } else if EXACT {
                    let mut m = prims;
                    while m != 0 {
                        let j = m.trailing_zeros() as usize;
                        m &= m - 1;
                        match n.lane_box(j).cast_ray(ray).map(|h| h.distance) {
                            Some(d) if d <= clip => t[j] = d,
                            _ => live &= !(1 << j),
                        }
                    }
                }
            }
            if live != 0 {
                if live & (live - 1) == 0 {
                    // One lane: within clip by the slab test (or the exact one).
                    let j = live.trailing_zeros() as usize;
                    let c = n.children[j];
                    if c & PRIM == 0 {
                        node = c;
                        continue 'walk;
                    }
                    hits += 1;
                    if !report(&mut f, c, t[j], &mut clip) {
                        break 'walk;
                    }
                } else {
                    // Keys: the entry bound's bits (non-negative and never NaN, so ordered
                    // like the bounds) with the lane in the lowest three bits, which makes ties
                    // within a few ulps go to either lane: the order only guides the
                    // traversal, the pruning uses the exact `t`.
                    let mut keys = [0u64; WIDTH];
                    let mut count = 0;
                    let mut m = live;
                    while m != 0 {
                        let j = m.trailing_zeros();
                        m &= m - 1;
                        keys[count] = (key_bits(t[j as usize]) & !7) | u64::from(j);
                        count += 1;
                    }
                    let keys = &mut keys[..count];
                    sort_keys(keys);
                    let mut i = 0;
                    while i < count {
                        let j = (keys[i] & 7) as usize;
                        let c = n.children[j];
                        if c & PRIM == 0 {
                            break;
                        }
                        if t[j] <= clip {
                            hits += 1;
                            if !report(&mut f, c, t[j], &mut clip) {
                                break 'walk;
                            }
                        }
                        i += 1;
                    }
                    if i < count {
                        // The first node, and after it (farthest first on the stack) every lane
                        // still within clip: the keys round the bounds, so a later lane may be
                        // a few ulps nearer than this node and within clip when it is not.
                        for &k in keys[i + 1..].iter().rev() {
                            let l = (k & 7) as usize;
                            if t[l] <= clip {
                                let c = n.children[l];
                                if c & PRIM == 0 {
                                    self.prefetch(c);
                                }
                                stack.push((c, t[l]));
                            }
                        }
                        let j = (keys[i] & 7) as usize;
                        if t[j] <= clip {
                            node = n.children[j];
                            continue 'walk;
                        }
                    }
                }
            }
            loop {
                match stack.pop() {
                    Some((c, tc)) if tc <= clip => {
                        if c & PRIM == 0 {
                            node = c;
                            continue 'walk;
                        }
                        hits += 1;
                        if !report(&mut f, c, tc, &mut clip) {
                            break 'walk;
                        }
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
}
