//! Traversals of the [`WideBvh`]: ray casts (ordered, nearest child first, pruned by the current
//! clip distance) and box queries, each deciding all children of a node with one SIMD test.
//!
//! ```text
//! cast(ray):
//!   node = root
//!   loop:
//!     (mask, t_enter) = slab test of the node's child boxes, lanes entered at t <= clip
//!     node lanes in mask: none; one (the next node); two (the farther pushed); or more:
//!       sorted by t_enter (integer keys), all but the nearest pushed farthest first;
//!       pushed nodes are prefetched
//!     for each primitive lane in mask: exact Aabb::cast_ray, report (may lower clip)
//!     node = the nearest if its t_enter <= clip, else pop until an entry with
//!       t_enter <= clip (end when empty)
//! ```
//! The row loads of the slab test pick the near and far plane of each axis by index
//! (`k + 3 * negative`), computed once per ray, instead of selecting rows per node.
//! The stack is the inline-spilling one of the dynamic tree: nothing is ever dropped, however
//! deep the tree.

use super::{WideBvh, WideNode, PRIM, WIDTH};
use crate::bvh::query::{NodeStack, SpillStack};
use crate::bvh::RayStep;
use crate::{QueryStats, Visit};
use sepax_shapes::math::Real;
use sepax_shapes::{Aabb, Ray};

#[cfg(not(feature = "f64"))]
type L = wide::f32x8;
#[cfg(feature = "f64")]
type L = wide::f64x4;

/// What the ray traversal needs of a vector of [`WIDTH`] `Real`s: each operation is one IEEE
/// operation per lane (never fused), so every implementation gives the same bits. Implemented
/// by `wide`'s portable vector (SSE2 on a default x86-64 build) and by the AVX register of
/// `avx.rs`.
pub(crate) trait RayVec: Copy {
    /// The lanes of a bound row.
    fn load(a: &[Real; WIDTH]) -> Self;
    /// Every lane `x`.
    fn splat(x: Real) -> Self;
    /// `self - b`.
    fn sub(self, b: Self) -> Self;
    /// `self * b`.
    fn mul(self, b: Self) -> Self;
    /// `self` where `self < b`, else `b` (the `minps` rule).
    fn min(self, b: Self) -> Self;
    /// `self` where `self > b`, else `b` (the `maxps` rule).
    fn max(self, b: Self) -> Self;
    /// Bit `j` set where `self[j] <= b[j]` (false for NaN).
    fn le(self, b: Self) -> u32;
    /// The lanes.
    fn to_array(self) -> [Real; WIDTH];
}

impl RayVec for L {
    #[inline(always)]
    fn load(a: &[Real; WIDTH]) -> L {
        L::from(*a)
    }
    #[inline(always)]
    fn splat(x: Real) -> L {
        L::splat(x)
    }
    #[inline(always)]
    fn sub(self, b: L) -> L {
        self - b
    }
    #[inline(always)]
    fn mul(self, b: L) -> L {
        self * b
    }
    #[inline(always)]
    fn min(self, b: L) -> L {
        self.fast_min(b)
    }
    #[inline(always)]
    fn max(self, b: L) -> L {
        self.fast_max(b)
    }
    #[inline(always)]
    fn le(self, b: L) -> u32 {
        self.simd_le(b).to_bitmask()
    }
    #[inline(always)]
    fn to_array(self) -> [Real; WIDTH] {
        L::to_array(self)
    }
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
    /// The origin, for the slab membership test of zero axes.
    origin: [V; 3],
    /// The zero axes (`zero[..zeros]`).
    zero: [usize; 3],
    zeros: usize,
    /// Whether all three axes are regular (`o_near == o_far == origin`, no zero axis): the
    /// common case, traversed by a variant with fewer live vectors.
    pub(crate) regular: bool,
    /// `1 - gamma(4)` and `1 + gamma(4)`.
    shrink: V,
    grow: V,
}

impl<V: RayVec> RayLanes<V> {
    #[inline(always)]
    pub(crate) fn new(ray: &Ray) -> RayLanes<V> {
        let (o, d) = (ray.origin(), ray.direction());
        let mut r = RayLanes {
            neg: [false; 3],
            o_near: [V::splat(Real::INFINITY); 3],
            o_far: [V::splat(Real::NEG_INFINITY); 3],
            inv: [V::splat(1.0); 3],
            origin: [V::splat(o.x), V::splat(o.y), V::splat(o.z)],
            zero: [0; 3],
            zeros: 0,
            regular: true,
            shrink: V::splat(1.0 - sepax_shapes::tolerance::gamma(4)),
            grow: V::splat(1.0 + sepax_shapes::tolerance::gamma(4)),
        };
        for k in 0..3 {
            let inv = 1.0 / d[k];
            if d[k] == 0.0 {
                r.zero[r.zeros] = k;
                r.zeros += 1;
                r.regular = false;
            } else if !inv.is_finite() {
                r.regular = false;
            } else {
                r.neg[k] = d[k] < 0.0;
                r.o_near[k] = V::splat(o[k]);
                r.o_far[k] = V::splat(o[k]);
                r.inv[k] = V::splat(inv);
            }
        }
        r
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
    /// `REGULAR` must be `self.regular`: when true, `o_far` is read as `o_near` (they are equal)
    /// and the zero-axis tests are skipped (there are none).
    #[inline(always)]
    fn test<const REGULAR: bool>(&self, n: &WideNode, clip: V) -> (u32, V) {
        let b = &n.bounds;
        let o_far = if REGULAR { &self.o_near } else { &self.o_far };
        // Row indices `k + 3 * neg[k]` (near) and `k + 3 * !neg[k]` (far): at most 5, so no
        // bounds checks, and loop-invariant, so the compiler keeps them out of the loop.
        let (n0, n1, n2) = (
            self.neg[0] as usize,
            self.neg[1] as usize,
            self.neg[2] as usize,
        );
        let (near0, far0) = (&b[3 * n0], &b[3 - 3 * n0]);
        let (near1, far1) = (&b[1 + 3 * n1], &b[4 - 3 * n1]);
        let (near2, far2) = (&b[2 + 3 * n2], &b[5 - 3 * n2]);
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
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = (node as *const WideNode).cast::<i8>();
        for line in 0..core::mem::size_of::<WideNode>() / 64 {
            // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has (it is in the
            // target's baseline), and it never faults or reads into the program: a prefetch is
            // a hint, valid for any address. The addresses are inside `node` anyway
            // (`wrapping_add` of less than its size).
            #[allow(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(line * 64));
            }
        }
    }
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
            if let Some(token) = super::avx::Avx::detect() {
                return super::avx::cast_ray(token, self, ray, f);
            }
        }
        let lanes = RayLanes::<L>::new(ray);
        if lanes.regular {
            self.cast::<L, true>(ray, &lanes, f)
        } else {
            self.cast::<L, false>(ray, &lanes, f)
        }
    }

    /// The traversal of [`WideBvh::cast_ray`] on a non-empty tree with the lane vector `V`;
    /// `REGULAR == lanes.regular`.
    #[inline(always)]
    pub(crate) fn cast<V: RayVec, const REGULAR: bool>(
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
        let mut node = 0u32;
        'walk: loop {
            let n = &self.nodes[node as usize];
            visited += 1;
            let (mask, t_near) = lanes.test::<REGULAR>(n, clip_v);
            let t_near = t_near.to_array();
            let mut inner = mask & !n.prims;
            let prims = mask & n.prims;
            // Child nodes, nearest first: the nearest is visited next, the others are pushed
            // farthest first, and their nodes are prefetched as they are pushed, so that the
            // cache misses of the later visits overlap with this one's work instead of queueing.
            // Fast paths for one and two children.
            let next = if inner == 0 {
                None
            } else if inner & (inner - 1) == 0 {
                Some(inner.trailing_zeros() as usize)
            } else if at_most_one_bit(inner & (inner - 1)) {
                // Two children.
                let a = inner.trailing_zeros() as usize;
                let b = (inner & (inner - 1)).trailing_zeros() as usize;
                let (near, far) = if t_near[b] < t_near[a] {
                    (b, a)
                } else {
                    (a, b)
                };
                // No clip check (see the case of more children below).
                self.prefetch(n.children[far]);
                stack.push((n.children[far], t_near[far]));
                Some(near)
            } else {
                // Keys: the entry distance's bits (non-negative and never NaN, so ordered like
                // the distances) with the lane in the lowest three bits, which makes ties within
                // a few ulps go to either child: the order only guides the traversal, the
                // pruning uses the exact `t_near`.
                let mut keys = [0u64; WIDTH];
                let mut count = 0;
                while inner != 0 {
                    let j = inner.trailing_zeros();
                    inner &= inner - 1;
                    keys[count] = (key_bits(t_near[j as usize]) & !7) | u64::from(j);
                    count += 1;
                }
                let keys = &mut keys[..count];
                sort_keys(keys);
                // No clip check: every lane in `mask` has `t_near <= clip` (the test's
                // `t_near <= min(t_far, clip)`), and `clip` has not changed since.
                for &k in keys[1..].iter().rev() {
                    let j = (k & 7) as usize;
                    self.prefetch(n.children[j]);
                    stack.push((n.children[j], t_near[j]));
                }
                Some((keys[0] & 7) as usize)
            };
            // Primitives: the exact test, in lane order. The next node is prefetched first, so
            // that its load overlaps with the tests.
            if prims != 0 {
                if let Some(j) = next {
                    self.prefetch(n.children[j]);
                }
            }
            let mut prims = prims;
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
                        // A NaN compares false: no change.
                        if c < clip {
                            clip = c;
                            clip_v = V::splat(clip);
                        }
                    }
                    RayStep::Stop => break 'walk,
                }
            }
            if let Some(j) = next {
                if t_near[j] <= clip {
                    node = n.children[j];
                    continue;
                }
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
        let mut best: Option<(u32, Real)> = None;
        self.cast_ray(ray, |i, t| {
            if best.is_none_or(|(b, bt)| t < bt || (t == bt && i < b)) {
                best = Some((i, t));
            }
            RayStep::Clip(t)
        });
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
        out.sort_unstable_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
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
            let mut hit = L::from(b[0]).simd_le(qhi[0]) & qlo[0].simd_le(L::from(b[3]));
            for k in 1..3 {
                hit = hit & L::from(b[k]).simd_le(qhi[k]) & qlo[k].simd_le(L::from(b[k + 3]));
            }
            let mut mask = hit.to_bitmask() & n.mask;
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
