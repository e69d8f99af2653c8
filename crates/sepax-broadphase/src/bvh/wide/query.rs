//! The ray casts and box queries of the [`WideBvh`]: the entry points, their AVX dispatch and
//! the box query. The ray traversal itself is in `ordered.rs`; the ray's lanes, their slab test
//! and the exact box test of primitive lanes in `ray_lanes.rs`. The row loads of the slab test
//! pick the near and far plane of each axis by index (`k + 3 * negative`), computed once per
//! ray; a ray with a zero or tiny direction component takes a second instance of the traversal
//! (`REGULAR == false`) with the extra slab-membership tests and the scalar exact test.

use super::ray_lanes::RayLanes;
use super::{WideBvh, WideNode, PRIM};
use crate::bvh::query::{keep_closest, sort_hits, NodeStack, SpillStack};
use crate::bvh::RayStep;
use crate::{QueryStats, Visit};
use sepax_shapes::math::Real;
use sepax_shapes::{Aabb, Ray};
use sepax_simd::Lane;

/// The portable lane vector (the AVX one is the floor's, reached in `avx.rs`).
type L = sepax_simd::V;

/// Asks the processor to start loading the four cache lines of `node` (a hint: no effect on
/// results).
#[inline(always)]
fn prefetch(node: &WideNode) {
    sepax_simd::prefetch(node);
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
            if let Some(token) = sepax_simd::Avx::detect() {
                return super::avx::cast_ray::<EXACT>(token, self, ray, f);
            }
        }
        match RayLanes::<L>::regular(ray) {
            Some(lanes) => self.cast_ordered::<L, true, EXACT>(ray, &lanes, f),
            None => self.cast_ordered::<L, false, EXACT>(ray, &RayLanes::new(ray), f),
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
            let mut hit = L::load(&b[0]).le_mask(qhi[0]) & qlo[0].le_mask(L::load(&b[3]));
            for k in 1..3 {
                hit &= L::load(&b[k]).le_mask(qhi[k]) & qlo[k].le_mask(L::load(&b[k + 3]));
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
