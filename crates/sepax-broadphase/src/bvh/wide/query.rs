//! Traversals of the [`WideBvh`]: ray casts (ordered, nearest child first, pruned by the current
//! clip distance) and box queries, each deciding all children of a node with one SIMD test.
//!
//! ```text
//! cast(ray):
//!   node = root
//!   loop:
//!     (mask, t_enter) = slab test of the node's child boxes, lanes entered at t <= clip
//!     for each primitive lane in mask: exact Aabb::cast_ray, report (may lower clip)
//!     sort the node lanes in mask by t_enter; push all but the nearest, farthest first
//!     node = the nearest, or pop until an entry with t_enter <= clip (end when empty)
//! ```
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
    /// The lanes of a code row, converted exactly (`Real::from(q[j])`).
    fn bytes(q: &[u8; WIDTH]) -> Self;
    /// `self + b`.
    fn add(self, b: Self) -> Self;
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
    fn bytes(q: &[u8; WIDTH]) -> L {
        let mut a = [0.0 as Real; WIDTH];
        for j in 0..WIDTH {
            a[j] = Real::from(q[j]);
        }
        L::from(a)
    }
    #[inline(always)]
    fn add(self, b: L) -> L {
        self + b
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
/// Per axis `k` the distances to a lane's two planes are `t_lo = (lo - o_lo_k) * inv_k` and
/// `t_hi = (hi - o_hi_k) * inv_k`, with `lo`, `hi` the lane's decoded bounds; the entry
/// distance on the axis is `min(t_lo, t_hi)` and the exit distance `max(t_lo, t_hi)`.
///
/// - **Regular axis** (`1 / d_k` finite and non-zero): `o_lo = o_hi = origin_k`,
///   `inv = 1 / d_k`. The difference of two finite coordinates is finite or infinite, its
///   product with a finite non-zero `inv` is never NaN. As `lo <= hi` and rounding is monotone,
///   `t_lo <= t_hi` when `inv > 0` and `t_lo >= t_hi` when `inv < 0`: the minimum is exactly the
///   near plane's distance and the maximum the far plane's (the sign-picked planes of Williams
///   et al. 2005, without picking).
/// - **Zero axis** (`d_k == 0`): the ray stays in the slab `lo_k <= o_k <= hi_k` or never
///   enters it (the scalar rule of `Aabb::cast_ray`). The distances are made neutral
///   (`o_lo = +inf`, `o_hi = -inf`, `inv = 1`: every finite bound gives `t_lo = -inf`,
///   `t_hi = +inf`) and the slab membership is tested by two comparisons instead.
/// - **Tiny axis** (`d_k != 0` but `1 / d_k` overflows): neutral distances and no slab test,
///   i.e. no constraint from that axis, which can only keep more boxes (the ray may still enter
///   a box outside the slab, at a huge distance).
///
/// A unit direction has a component of at least `1/sqrt(3)`: one axis is always regular.
pub(crate) struct RayLanes<V> {
    o_lo: [V; 3],
    o_hi: [V; 3],
    inv: [V; 3],
    /// The origin, for the slab membership test of zero axes.
    origin: [V; 3],
    /// The zero axes (`zero[..zeros]`).
    zero: [usize; 3],
    zeros: usize,
    /// Whether all three axes are regular (`o_lo == o_hi == origin`, no zero axis): the
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
            o_lo: [V::splat(Real::INFINITY); 3],
            o_hi: [V::splat(Real::NEG_INFINITY); 3],
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
                r.o_lo[k] = V::splat(o[k]);
                r.o_hi[k] = V::splat(o[k]);
                r.inv[k] = V::splat(inv);
            }
        }
        r
    }

    /// The lanes of `n` the ray enters at a distance in `[0, clip]` (bit `j` for lane `j`,
    /// restricted to the node's children), with a lower bound of each lane's entry distance.
    ///
    /// Conservative: whenever `Aabb::cast_ray` reports a hit at `t <= clip` on a box inside
    /// lane `j`'s decoded box (the child's exact box is inside it, see `WideNode`), bit `j` is
    /// set and the bound is at most `t`. Each computed slab distance is within a relative
    /// `gamma(3)` of the exact one (the subtraction, the rounded reciprocal, the product) and of
    /// the scalar test's quotient, with the exact sign; the planes of a containing box give
    /// distances that are no nearer for entry and no farther for exit (rounding is monotone),
    /// so scaling the entry by `1 - gamma(4)` and the exit by `1 + gamma(4)` keeps the test
    /// conservative, for the box itself and all boxes inside it. An entry that overflows to
    /// `+inf` is clamped to `Real::MAX`, so that a ray of infinite length still reaches boxes at
    /// distances beyond `Real::MAX` (which `Aabb::cast_ray` does not report, but whose children
    /// may be nearer). The decoded bounds are finite (see `quantize_lo`), so no NaN arises.
    ///
    /// `REGULAR` must be `self.regular`: when true, `o_hi` is read as `o_lo` (they are equal)
    /// and the zero-axis tests are skipped (there are none).
    #[inline(always)]
    fn test<const REGULAR: bool>(&self, n: &WideNode, clip: V) -> (u32, V) {
        let o_hi = if REGULAR { &self.o_lo } else { &self.o_hi };
        // The decoded bounds: the same operations as `decode_lo` / `decode_hi`.
        let (lo0, lo1, lo2) = (lower::<V>(n, 0), lower::<V>(n, 1), lower::<V>(n, 2));
        let (hi0, hi1, hi2) = (upper::<V>(n, 0), upper::<V>(n, 1), upper::<V>(n, 2));
        let ta0 = lo0.sub(self.o_lo[0]).mul(self.inv[0]);
        let tb0 = hi0.sub(o_hi[0]).mul(self.inv[0]);
        let ta1 = lo1.sub(self.o_lo[1]).mul(self.inv[1]);
        let tb1 = hi1.sub(o_hi[1]).mul(self.inv[1]);
        let ta2 = lo2.sub(self.o_lo[2]).mul(self.inv[2]);
        let tb2 = hi2.sub(o_hi[2]).mul(self.inv[2]);
        // Never NaN (see the type's documentation), so the `minps`/`maxps` forms are exact.
        let t_near = ta0.min(tb0).max(ta1.min(tb1)).max(ta2.min(tb2));
        let t_far = ta0.max(tb0).min(ta1.max(tb1)).min(ta2.max(tb2));
        let t_near = t_near
            .mul(self.shrink)
            .max(V::splat(0.0))
            .min(V::splat(Real::MAX));
        let t_far = t_far.mul(self.grow).min(clip);
        let mut mask = t_near.le(t_far) & n.mask;
        if REGULAR {
            return (mask, t_near);
        }
        let (lo, hi) = ([lo0, lo1, lo2], [hi0, hi1, hi2]);
        for &k in &self.zero[..self.zeros] {
            let o = self.origin[k];
            mask &= lo[k].le(o) & o.le(hi[k]);
        }
        (mask, t_near)
    }
}

/// The decoded lower bounds of `n`'s lanes on axis `k` (`decode_lo` lane by lane).
#[inline(always)]
fn lower<V: RayVec>(n: &WideNode, k: usize) -> V {
    V::splat(n.base[k]).add(V::bytes(&n.q[k]).mul(V::splat(n.step[k])))
}

/// The decoded upper bounds of `n`'s lanes on axis `k` (`decode_hi` lane by lane).
#[inline(always)]
fn upper<V: RayVec>(n: &WideNode, k: usize) -> V {
    V::splat(n.base[k + 3]).sub(V::bytes(&n.q[k + 3]).mul(V::splat(n.step[k])))
}

/// Asks the processor to start loading the two cache lines of `node` (a hint: no effect on
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

/// Sorts up to [`WIDTH`] `(lane, entry)` pairs by entry distance (insertion sort).
#[inline(always)]
fn sort_by_entry(kids: &mut [(usize, Real)]) {
    for i in 1..kids.len() {
        let mut j = i;
        while j > 0 && kids[j].1 < kids[j - 1].1 {
            kids.swap(j, j - 1);
            j -= 1;
        }
    }
}

impl WideBvh {
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
        let mut stats = QueryStats::default();
        let mut clip = ray.max_distance();
        let mut stack = SpillStack::<(u32, Real)>::new();
        let mut node = 0u32;
        'walk: loop {
            let n = &self.nodes[node as usize];
            stats.nodes_visited += 1;
            let (mask, t_near) = lanes.test::<REGULAR>(n, V::splat(clip));
            let t_near = t_near.to_array();
            let mut inner = mask & !n.prims;
            // Start fetching every child node the ray enters now, before the exact tests of the
            // primitives: the nearest is read next, the others when popped, and their cache
            // misses overlap with the tests and with each other instead of queueing.
            let mut ahead = inner;
            while ahead != 0 {
                let j = ahead.trailing_zeros() as usize;
                ahead &= ahead - 1;
                if let Some(c) = self.nodes.get(n.children[j] as usize) {
                    prefetch(c);
                }
            }
            // Primitives: the exact test, in lane order.
            let mut prims = mask & n.prims;
            while prims != 0 {
                let j = prims.trailing_zeros() as usize;
                prims &= prims - 1;
                stats.leaves_tested += 1;
                let slot = (n.children[j] & !PRIM) as usize;
                let Some(t) = self.leaves[slot].cast_ray(ray).map(|h| h.distance) else {
                    continue;
                };
                if t > clip {
                    continue;
                }
                stats.hits += 1;
                match f(self.ids[slot], t) {
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
            // Child nodes, nearest first: the nearest is visited next, the others are pushed
            // farthest first. Fast paths for one and two children.
            let next = match inner.count_ones() {
                0 => None,
                1 => Some(inner.trailing_zeros() as usize),
                2 => {
                    let a = inner.trailing_zeros() as usize;
                    inner &= inner - 1;
                    let b = inner.trailing_zeros() as usize;
                    let (near, far) = if t_near[b] < t_near[a] {
                        (b, a)
                    } else {
                        (a, b)
                    };
                    if t_near[far] <= clip {
                        stack.push((n.children[far], t_near[far]));
                    }
                    Some(near)
                }
                _ => {
                    let mut kids = [(0usize, 0.0 as Real); WIDTH];
                    let mut count = 0;
                    while inner != 0 {
                        let j = inner.trailing_zeros() as usize;
                        inner &= inner - 1;
                        kids[count] = (j, t_near[j]);
                        count += 1;
                    }
                    let kids = &mut kids[..count];
                    sort_by_entry(kids);
                    for &(j, t) in kids[1..].iter().rev() {
                        if t <= clip {
                            stack.push((n.children[j], t));
                        }
                    }
                    Some(kids[0].0)
                }
            };
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
        stats
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
            // The decoded boxes (see `WideNode`), which contain the children's boxes.
            let mut mask = n.mask;
            for k in 0..3 {
                let (lo, hi) = (lower::<L>(n, k), upper::<L>(n, k));
                mask &= RayVec::le(lo, qhi[k]) & RayVec::le(qlo[k], hi);
            }
            while mask != 0 {
                let j = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let c = n.children[j];
                if c & PRIM == 0 {
                    stack.push(c);
                    continue;
                }
                // The exact test of the primitive's own box.
                let slot = (c & !PRIM) as usize;
                stats.leaves_tested += 1;
                let (lo, hi) = (self.leaves[slot].min(), self.leaves[slot].max());
                if !(0..3).all(|k| lo[k] <= aabb.max()[k] && aabb.min()[k] <= hi[k]) {
                    continue;
                }
                stats.hits += 1;
                if f(self.ids[slot]) == Visit::Stop {
                    return stats;
                }
            }
        }
        stats
    }
}
