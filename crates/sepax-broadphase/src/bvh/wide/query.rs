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

use super::{WideBvh, WideNode, PRIM, WIDTH};
use crate::bvh::query::{keep_closest, sort_hits, NodeStack, SpillStack};
use crate::bvh::RayStep;
use crate::lanes::Lane;
use crate::{QueryStats, Visit};
use sepax_shapes::math::Real;
use sepax_shapes::{Aabb, Ray};

/// The portable lane vector (the AVX one is `simd::V256`, in `avx.rs`).
type L = crate::lanes::V;

/// Per axis `k`, the row of [`WideNode::bounds`] holding the near plane (`k + 3 * neg[k]`: the
/// min when the direction is positive, else the max) and the far plane. Computed once per ray,
/// before the loop, so that the traversal keeps them in registers; all at most 5 (the compiler
/// sees it from the arithmetic on booleans and drops the bounds checks).
#[derive(Clone, Copy)]
pub(crate) struct Rows {
    near: [usize; 3],
    far: [usize; 3],
}

/// A ray prepared for slab tests of a node's [`WIDTH`] child boxes at once.
///
/// Per axis `k` the entry and exit distances of a lane are
/// `t_near_k = (near plane - o_near_k) * inv_near_k` and `t_far_k = (far plane - o_far_k) *
/// inv_far_k`, the near plane being the box's min on that axis when the direction is positive
/// and its max otherwise (Williams et al. 2005: with the planes chosen by the sign, no per-lane
/// min/max of the two slab distances is needed).
///
/// - **Regular axis** (`1 / d_k` finite and non-zero): `o = origin_k`, `inv = 1 / d_k`. The
///   difference of two finite coordinates is finite or infinite, its product with a finite
///   non-zero `inv` is never NaN.
/// - **Zero axis** (`d_k == 0`): the ray stays in the slab `lo_k <= o_k <= hi_k` or never
///   enters it (the scalar rule of `Aabb::cast_ray`). The distances are made neutral
///   (`o_near = +inf`, `o_far = -inf`, `inv = 1`: every finite plane gives `t_near_k = -inf`,
///   `t_far_k = +inf`) and the slab membership is tested by two comparisons instead.
/// - **Tiny axis** (`d_k != 0` but `1 / d_k` overflows): neutral distances and no slab test,
///   i.e. no constraint from that axis, which can only keep more boxes (the ray may still enter
///   a box outside the slab, at a huge distance).
///
/// A unit direction has a component of at least `1/sqrt(3)`: one axis is always regular.
pub(crate) struct RayLanes<V> {
    /// Per axis, whether the near plane is the box's max (negative direction).
    neg: [bool; 3],
    o_near: [V; 3],
    o_far: [V; 3],
    inv: [V; 3],
    /// The origin (for the slab membership test of zero axes and the exact test).
    origin: [V; 3],
    /// The direction (regular rays only: the exact test's divisor).
    dir: [V; 3],
    /// The zero axes (`zero[..zeros]`).
    zero: [usize; 3],
    zeros: usize,
    /// `1 - gamma(4)` and `1 + gamma(4)`.
    shrink: V,
    grow: V,
}

impl<V: Lane> RayLanes<V> {
    /// The lanes of a regular ray (all three `1 / d_k` finite and non-zero: `o_near == o_far ==
    /// origin`, no zero axis), or `None`. Built
    /// apart from the general case, so that each traversal gets its own copy, whose unused
    /// fields the compiler drops.
    #[inline(always)]
    pub(crate) fn regular(ray: &Ray) -> Option<RayLanes<V>> {
        let (o, d) = (ray.origin(), ray.direction());
        let inv = [1.0 / d.x, 1.0 / d.y, 1.0 / d.z];
        if !(0..3).all(|k| d[k] != 0.0 && inv[k].is_finite()) {
            return None;
        }
        let origin = [V::splat(o.x), V::splat(o.y), V::splat(o.z)];
        Some(RayLanes {
            neg: [d.x < 0.0, d.y < 0.0, d.z < 0.0],
            o_near: origin,
            o_far: origin,
            inv: [V::splat(inv[0]), V::splat(inv[1]), V::splat(inv[2])],
            dir: [V::splat(d.x), V::splat(d.y), V::splat(d.z)],
            origin,
            zero: [0; 3],
            zeros: 0,
            shrink: V::splat(1.0 - sepax_shapes::tolerance::gamma(4)),
            grow: V::splat(1.0 + sepax_shapes::tolerance::gamma(4)),
        })
    }

    /// The lanes of any ray ([`RayLanes::regular`] is the faster path for regular ones).
    #[inline(always)]
    pub(crate) fn new(ray: &Ray) -> RayLanes<V> {
        if let Some(r) = Self::regular(ray) {
            return r;
        }
        let (o, d) = (ray.origin(), ray.direction());
        let inv = [1.0 / d.x, 1.0 / d.y, 1.0 / d.z];
        let origin = [V::splat(o.x), V::splat(o.y), V::splat(o.z)];
        let shrink = V::splat(1.0 - sepax_shapes::tolerance::gamma(4));
        let grow = V::splat(1.0 + sepax_shapes::tolerance::gamma(4));
        let mut r = RayLanes {
            neg: [false; 3],
            o_near: [V::splat(Real::INFINITY); 3],
            o_far: [V::splat(Real::NEG_INFINITY); 3],
            inv: [V::splat(1.0); 3],
            dir: [V::splat(1.0); 3],
            origin,
            zero: [0; 3],
            zeros: 0,
            shrink,
            grow,
        };
        for k in 0..3 {
            if d[k] == 0.0 {
                r.zero[r.zeros] = k;
                r.zeros += 1;
            } else if inv[k].is_finite() {
                r.neg[k] = d[k] < 0.0;
                r.o_near[k] = V::splat(o[k]);
                r.o_far[k] = V::splat(o[k]);
                r.inv[k] = V::splat(inv[k]);
            }
        }
        r
    }

    /// The bound rows of the near and far planes (see [`Rows`]).
    #[inline(always)]
    pub(crate) fn rows(&self) -> Rows {
        let (n0, n1, n2) = (
            self.neg[0] as usize,
            self.neg[1] as usize,
            self.neg[2] as usize,
        );
        Rows {
            near: [3 * n0, 1 + 3 * n1, 2 + 3 * n2],
            far: [3 - 3 * n0, 4 - 3 * n1, 5 - 3 * n2],
        }
    }

    /// The exact test of the primitive lanes `prims` of `n` for a **regular** ray: the lanes
    /// whose box [`Aabb::cast_ray`] reports a hit at a distance `t <= clip`, and the vector of
    /// those distances (lane `j` is `t` when bit `j` is set; other lanes are unspecified).
    ///
    /// Bit-identical to `Aabb::cast_ray` (its `slab_entry` and `contains_point`), lane by lane,
    /// for a ray whose three direction components `d_k` are non-zero (`regular`):
    ///
    /// - The scalar test forms, per axis, `(lo_k - o_k) / d_k` and `(hi_k - o_k) / d_k` and sorts
    ///   them into `ta_k <= tb_k`. Here `ta_k = (near_k - o_k) / d_k` and `tb_k = (far_k - o_k) /
    ///   d_k` with the planes chosen by the sign of `d_k` (as in the node test): the same IEEE
    ///   subtraction and division per lane, so the same values, and in the same order, since
    ///   `lo_k <= hi_k` and rounding is monotone (equal values can differ only in the sign of a
    ///   zero, which no comparison sees and no reported distance carries). No value is NaN:
    ///   the coordinates are finite, a difference is finite or infinite, `d_k` is finite and
    ///   non-zero.
    /// - The scalar loop keeps `t0 = max(0, ta_k > t0 ...)`, `t1 = min(t_max, tb_k ...)` and
    ///   returns a miss as soon as `t0 > t1`; as `t0` only grows and `t1` only shrinks, that
    ///   happens at some axis iff it holds for the final values. So, with `a = max_k ta_k` and
    ///   `b = min_k tb_k` (never NaN, so `maxps`/`minps` give exact values; a `+0`/`-0` choice
    ///   only matters below where `a > 0` is false), and the origin outside the box, the scalar
    ///   test hits iff `a > 0` (an entry axis exists), `a <= min(b, t_max)` and `a` is finite,
    ///   at distance `a`. With the caller's `t <= clip` and `clip <= t_max` (the clip starts at
    ///   `t_max` and only decreases), that is `a > 0 && a <= min(b, min(clip, MAX))`.
    /// - The origin inside the closed box (the `contains_point` comparisons, done only when
    ///   some primitive lane has `a <= 0`, as every inside lane has: `lo_k - o_k <= 0 <= hi_k -
    ///   o_k`, and the quotients keep those signs) is a hit at `+0` when `0 <= clip`; the
    ///   returned lane is `max(a, +0)`, which is `+0` there (the `maxps` rule returns the second
    ///   operand when `a` is `-0`) and `a` where `a > 0`.
    #[inline(always)]
    fn exact(&self, n: &WideNode, rows: Rows, prims: u32, clip: Real) -> (u32, V) {
        let b = &n.bounds;
        let o = &self.origin;
        let ta0 = V::load(&b[rows.near[0]]).sub(o[0]).div(self.dir[0]);
        let ta1 = V::load(&b[rows.near[1]]).sub(o[1]).div(self.dir[1]);
        let ta2 = V::load(&b[rows.near[2]]).sub(o[2]).div(self.dir[2]);
        let tb0 = V::load(&b[rows.far[0]]).sub(o[0]).div(self.dir[0]);
        let tb1 = V::load(&b[rows.far[1]]).sub(o[1]).div(self.dir[1]);
        let tb2 = V::load(&b[rows.far[2]]).sub(o[2]).div(self.dir[2]);
        let a = ta0.max(ta1).max(ta2);
        let bmin = tb0.min(tb1).min(tb2);
        let zero = V::splat(0.0);
        let entered = zero.lt(a) & prims;
        let mut hit = entered & a.le(bmin.min(V::splat(clip.min(Real::MAX))));
        let maybe_inside = prims & !entered;
        if maybe_inside != 0 && 0.0 <= clip {
            let mut inside = maybe_inside;
            for k in 0..3 {
                inside &= V::load(&b[k]).le(o[k]) & o[k].le(V::load(&b[k + 3]));
            }
            hit |= inside;
        }
        (hit, a.max(zero))
    }

    /// The lanes of `n` the ray enters at a distance in `[0, clip]` (bit `j` for lane `j`,
    /// restricted to the node's children), with a lower bound of each lane's entry distance.
    ///
    /// Conservative: whenever `Aabb::cast_ray` reports a hit at `t <= clip` on a box inside
    /// lane `j`'s box, bit `j` is set and the bound is at most `t`. Each computed slab distance
    /// is within a relative `gamma(3)` of the exact one (the subtraction, the rounded
    /// reciprocal, the product) and of the scalar test's quotient, with the exact sign; the
    /// planes of a containing box give distances that are no nearer for entry and no farther
    /// for exit (rounding is monotone), so scaling the entry by `1 - gamma(4)` and the exit by
    /// `1 + gamma(4)` keeps the test conservative, for the box itself and all boxes inside it.
    /// An entry that overflows to `+inf` is clamped to `Real::MAX`, so that a ray of infinite
    /// length still reaches boxes at distances beyond `Real::MAX` (which `Aabb::cast_ray` does
    /// not report, but whose children may be nearer).
    ///
    /// `REGULAR` must be true only for lanes made by [`RayLanes::regular`]: then `o_far` is
    /// read as `o_near` (they are equal) and the zero-axis tests are skipped (there are none).
    #[inline(always)]
    fn test<const REGULAR: bool>(&self, n: &WideNode, rows: Rows, clip: V) -> (u32, V) {
        let b = &n.bounds;
        let o_far = if REGULAR { &self.o_near } else { &self.o_far };
        let (near0, near1, near2) = (&b[rows.near[0]], &b[rows.near[1]], &b[rows.near[2]]);
        let (far0, far1, far2) = (&b[rows.far[0]], &b[rows.far[1]], &b[rows.far[2]]);
        let tn0 = V::load(near0).sub(self.o_near[0]).mul(self.inv[0]);
        let tn1 = V::load(near1).sub(self.o_near[1]).mul(self.inv[1]);
        let tn2 = V::load(near2).sub(self.o_near[2]).mul(self.inv[2]);
        let tf0 = V::load(far0).sub(o_far[0]).mul(self.inv[0]);
        let tf1 = V::load(far1).sub(o_far[1]).mul(self.inv[1]);
        let tf2 = V::load(far2).sub(o_far[2]).mul(self.inv[2]);
        // Never NaN (see the type's documentation), so the `minps`/`maxps` forms are exact.
        let t_near = tn0.max(tn1).max(tn2);
        let t_far = tf0.min(tf1).min(tf2);
        let t_near = t_near
            .mul(self.shrink)
            .max(V::splat(0.0))
            .min(V::splat(Real::MAX));
        let t_far = t_far.mul(self.grow).min(clip);
        let mut mask = t_near.le(t_far) & n.mask;
        if REGULAR {
            return (mask, t_near);
        }
        for &k in &self.zero[..self.zeros] {
            let o = self.origin[k];
            mask &= V::load(&b[k]).le(o) & o.le(V::load(&b[k + 3]));
        }
        (mask, t_near)
    }
}

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

impl WideBvh {
    /// [`prefetch`] of node `i` (nothing when out of range).
    #[inline(always)]
    fn prefetch(&self, i: u32) {
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
        #[cfg(target_arch = "x86_64")]
        if self.allow_avx {
            if let Some(token) = crate::simd::Avx::detect() {
                return super::avx::cast_ray(token, self, ray, f);
            }
        }
        match RayLanes::<L>::regular(ray) {
            Some(lanes) => self.cast::<L, true>(ray, &lanes, f),
            None => self.cast::<L, false>(ray, &RayLanes::new(ray), f),
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
