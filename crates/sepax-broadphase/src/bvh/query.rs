//! Queries: boxes, OBBs, spheres, rays, and a general walk with pruning.
//!
//! Traversals are depth-first over an explicit stack that never drops a subtree: queries on
//! `&self` use [`SpillStack`] (inline for trees up to 64 deep, then a heap vector), and work on
//! `&mut self` reuses the tree's scratch vector.

use super::node::{Node, NULL};
use super::DynamicBvh;
use crate::{ProxyId, QueryStats, Visit};
use core::mem::MaybeUninit;
use sepax_shapes::math::Real;
use sepax_shapes::{Aabb, Ray, Sphere};

/// What a [`DynamicBvh::walk`] callback tells the traversal to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    /// Descend into this node's children (no effect on a leaf).
    Continue,
    /// Skip this node's subtree.
    Prune,
    /// End the whole traversal.
    Stop,
}

/// What a ray-cast callback tells the traversal to do.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RayStep {
    /// Keep the current clip distance.
    Continue,
    /// Lower the clip distance to this value: from now on only leaves whose box the ray enters
    /// at `t <= clip` are reported. The clip never grows (the minimum is kept); a closest-hit
    /// query returns the entry distance it was given.
    Clip(Real),
    /// End the cast now.
    Stop,
}

/// The closest-hit rule shared by both trees' `cast_ray_closest`: keeps the hit `(id, t)` in
/// `best` when it is nearer, or as near with a smaller id, and clips the ray at `t`.
#[inline(always)]
pub(crate) fn keep_closest<I: Ord + Copy>(best: &mut Option<(I, Real)>, id: I, t: Real) -> RayStep {
    if best.is_none_or(|(b, bt)| t < bt || (t == bt && id < b)) {
        *best = Some((id, t));
    }
    RayStep::Clip(t)
}

/// The order of both trees' `cast_ray_all`: by distance, then id.
pub(crate) fn sort_hits<I: Ord>(hits: &mut [(I, Real)]) {
    hits.sort_unstable_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
}

/// Inline capacity of [`SpillStack`]: rotations keep trees far shallower than this.
const INLINE: usize = 64;

/// A stack of node indices: inline up to [`INLINE`] entries, then spilling to a `Vec`, so that
/// `&self` queries allocate nothing for ordinary trees and still never lose a subtree on
/// degenerate ones.
///
/// The inline array starts uninitialised: zeroing it cost about 50 instructions (a `memset`
/// call) per query, a sixth of a short ray cast's fixed cost.
pub(crate) struct SpillStack<T = u32> {
    /// Entries `inline[..len]` are initialised (the invariant `pop` relies on).
    inline: [MaybeUninit<T>; INLINE],
    len: usize,
    spill: Vec<T>,
}

/// A stack of node indices (inline-spilling or a reused vector).
pub(crate) trait NodeStack<T = u32> {
    /// Pushes an entry.
    fn push(&mut self, i: T);
    /// Pops the last entry pushed.
    fn pop(&mut self) -> Option<T>;
}

impl<T: Copy> SpillStack<T> {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self {
            inline: [const { MaybeUninit::uninit() }; INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }
}

impl<T: Copy> NodeStack<T> for SpillStack<T> {
    #[inline]
    fn push(&mut self, i: T) {
        if self.len < INLINE {
            self.inline[self.len] = MaybeUninit::new(i);
            self.len += 1;
        } else {
            self.spill.push(i);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        if let Some(i) = self.spill.pop() {
            return Some(i);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: `inline[..len]` is initialised: `len` starts at 0, `push` writes
        // `inline[len]` before incrementing `len`, and only this line reads, below the old
        // `len` (the index is checked: an out-of-range one panics). `T: Copy`, so reading it
        // out leaves nothing to drop twice.
        #[allow(unsafe_code)]
        Some(unsafe { self.inline[self.len].assume_init() })
    }
}

impl<T> NodeStack<T> for Vec<T> {
    #[inline]
    fn push(&mut self, i: T) {
        Vec::push(self, i);
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        Vec::pop(self)
    }
}

/// Depth-first traversal of the subtree at `root`: `test` decides for every node (internal or
/// leaf) whether its box qualifies; qualifying leaves go to `leaf` with their proxy slot.
pub(crate) fn overlap_walk(
    nodes: &[Node],
    root: u32,
    stack: &mut impl NodeStack,
    mut test: impl FnMut(&Aabb) -> bool,
    mut leaf: impl FnMut(u32) -> Visit,
) -> QueryStats {
    let mut stats = QueryStats::default();
    if root == NULL {
        return stats;
    }
    stack.push(root);
    while let Some(i) = stack.pop() {
        let n = &nodes[i as usize];
        if n.is_leaf() {
            stats.leaves_tested += 1;
            if test(&n.aabb) {
                stats.hits += 1;
                if leaf(n.child2) == Visit::Stop {
                    while stack.pop().is_some() {}
                    break;
                }
            }
        } else {
            stats.nodes_visited += 1;
            if test(&n.aabb) {
                stack.push(n.child2);
                stack.push(n.child1);
            }
        }
    }
    stats
}

/// Whether a sphere (centre, squared radius) touches a closed box: the squared distance from the
/// centre to the box's closest point is at most `r²`. Monotone under box containment (clamps,
/// subtractions, squares and sums all round monotonically), so no leaf is pruned by an ancestor.
#[inline]
pub(crate) fn sphere_touches(aabb: &Aabb, s: &Sphere) -> bool {
    aabb.distance_squared_to_point(&s.center()) <= s.radius() * s.radius()
}

impl DynamicBvh {
    /// Every proxy whose stored (fat) box overlaps `aabb`, closed sets, exact comparisons.
    ///
    /// Runs through the wide query mirror when it is fresh (see [`DynamicBvh::cast_ray`]),
    /// else through the binary tree: the same proxies either way, in an unspecified order.
    pub fn query_aabb(&self, aabb: &Aabb, mut f: impl FnMut(ProxyId) -> Visit) -> QueryStats {
        if let Some(m) = self.fresh_mirror() {
            return m.tree.query_aabb(aabb, |slot| f(self.handle(slot)));
        }
        overlap_walk(
            &self.nodes,
            self.root,
            &mut SpillStack::<u32>::new(),
            |b| b.intersects(aabb),
            |slot| f(self.handle(slot)),
        )
    }

    /// Every proxy whose stored box passes `meets`, a test of a box against the query shape
    /// that is true for every box containing one that passes (a convex query shape and an
    /// overlap test have this property): the test prunes the tree's boxes and decides the
    /// stored ones. An oriented box `obb` is queried with the narrow phase's certified test,
    /// `|b| classify(b, obb) != Classification::Separated` (`sepax_narrowphase::intersect`;
    /// a box that intersects `obb` is always reported, one reported may miss it by at most the
    /// band of docs/tolerance.md).
    pub fn query_by(
        &self,
        meets: impl FnMut(&Aabb) -> bool,
        mut f: impl FnMut(ProxyId) -> Visit,
    ) -> QueryStats {
        overlap_walk(
            &self.nodes,
            self.root,
            &mut SpillStack::<u32>::new(),
            meets,
            |slot| f(self.handle(slot)),
        )
    }

    /// Every proxy whose stored box touches `sphere` (closed sets): the squared distance from the
    /// centre to the box is at most the squared radius.
    pub fn query_sphere(&self, sphere: &Sphere, mut f: impl FnMut(ProxyId) -> Visit) -> QueryStats {
        overlap_walk(
            &self.nodes,
            self.root,
            &mut SpillStack::<u32>::new(),
            |b| sphere_touches(b, sphere),
            |slot| f(self.handle(slot)),
        )
    }

    /// A general depth-first walk: `f` sees every node reached, with the proxy for a leaf (`None`
    /// for an internal node) and the node's box, and decides to descend, prune or stop.
    /// `hits` in the returned stats counts the leaves seen.
    pub fn walk(&self, mut f: impl FnMut(Option<ProxyId>, &Aabb) -> Walk) -> QueryStats {
        let mut stats = QueryStats::default();
        if self.root == NULL {
            return stats;
        }
        let mut stack = SpillStack::<u32>::new();
        stack.push(self.root);
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if n.is_leaf() {
                stats.leaves_tested += 1;
                stats.hits += 1;
                if f(Some(self.handle(n.child2)), &n.aabb) == Walk::Stop {
                    break;
                }
            } else {
                stats.nodes_visited += 1;
                match f(None, &n.aabb) {
                    Walk::Continue => {
                        stack.push(n.child2);
                        stack.push(n.child1);
                    }
                    Walk::Prune => {}
                    Walk::Stop => break,
                }
            }
        }
        stats
    }

    /// Casts `ray` against the stored boxes, nearest subtree first. `f` receives each proxy whose
    /// box the ray enters at distance `t <= clip` (the entry distance of
    /// [`Aabb::cast_ray`]: 0 when the origin is inside the box), where `clip` starts at the ray's
    /// `max_distance` and is lowered by [`RayStep::Clip`]. Subtrees whose box the ray enters
    /// beyond `clip` are skipped. Leaves arrive roughly, not exactly, in order of distance.
    ///
    /// The cast runs through a wide mirror of the tree (4 or 8 children per node, one SIMD slab
    /// test for all of them, `bvh/wide/mirror.rs`) when it is fresh; after a change of the
    /// tree, the first queries walk the binary tree and one of them refreshes the mirror (a
    /// pass over the nodes; [`DynamicBvh::prepare_queries`] does it at once). Both report
    /// the same proxies at the same distances, and every mutation is seen by the next query.
    pub fn cast_ray(&self, ray: &Ray, mut f: impl FnMut(ProxyId, Real) -> RayStep) -> QueryStats {
        if let Some(m) = self.fresh_mirror() {
            return m.tree.cast_ray(ray, |slot, t| f(self.handle(slot), t));
        }
        self.cast_ray_binary(ray, f)
    }

    /// [`DynamicBvh::cast_ray`] through the binary nodes.
    pub(crate) fn cast_ray_binary(
        &self,
        ray: &Ray,
        mut f: impl FnMut(ProxyId, Real) -> RayStep,
    ) -> QueryStats {
        let mut stats = QueryStats::default();
        if self.root == NULL {
            return stats;
        }
        let mut clip = ray.max_distance();
        let exact = |b: &Aabb| b.cast_ray(ray).map(|h| h.distance);
        // Internal nodes are pruned with a conservative slab bound (never above the exact entry
        // distance); leaves report the exact entry of `Aabb::cast_ray`.
        let bound = match RaySlab::new(ray) {
            Some(s) => Bound::Slab(s),
            None => Bound::Exact(ray),
        };
        let mut stack = SpillStack::<(u32, Real)>::new();
        if let Some(t) = bound.entry(&self.nodes[self.root as usize].aabb) {
            stack.push((self.root, t));
        }
        while let Some((i, t_node)) = stack.pop() {
            if t_node > clip {
                continue;
            }
            let n = &self.nodes[i as usize];
            if n.is_leaf() {
                stats.leaves_tested += 1;
                let Some(t) = exact(&n.aabb).filter(|&t| t <= clip) else {
                    continue;
                };
                stats.hits += 1;
                match f(self.handle(n.child2), t) {
                    RayStep::Continue => {}
                    RayStep::Clip(c) => {
                        // A NaN compares false: no change.
                        if c < clip {
                            clip = c;
                        }
                    }
                    RayStep::Stop => break,
                }
            } else {
                stats.nodes_visited += 1;
                // Push the farther child first so that the nearer one is explored first.
                let (c1, c2) = (n.child1, n.child2);
                let t1 = bound
                    .entry(&self.nodes[c1 as usize].aabb)
                    .filter(|&t| t <= clip);
                let t2 = bound
                    .entry(&self.nodes[c2 as usize].aabb)
                    .filter(|&t| t <= clip);
                match (t1, t2) {
                    (Some(a), Some(b)) if a <= b => {
                        stack.push((c2, b));
                        stack.push((c1, a));
                    }
                    (Some(a), Some(b)) => {
                        stack.push((c1, a));
                        stack.push((c2, b));
                    }
                    (Some(a), None) => stack.push((c1, a)),
                    (None, Some(b)) => stack.push((c2, b)),
                    (None, None) => {}
                }
            }
        }
        stats
    }

    /// The nearest proxy the ray enters (least entry distance; ties go to the smaller handle),
    /// with that distance.
    pub fn cast_ray_closest(&self, ray: &Ray) -> Option<(ProxyId, Real)> {
        let mut best = None;
        self.cast_ray(ray, |id, t| keep_closest(&mut best, id, t));
        best
    }

    /// Clears `out` and fills it with every proxy the ray enters within its `max_distance`, with
    /// the entry distance, sorted by distance then handle.
    pub fn cast_ray_all(&self, ray: &Ray, out: &mut Vec<(ProxyId, Real)>) -> QueryStats {
        out.clear();
        let stats = self.cast_ray(ray, |id, t| {
            out.push((id, t));
            RayStep::Continue
        });
        sort_hits(out);
        stats
    }
}

/// The pruning bound of a ray cast: the slab bound, or the exact cast when a direction
/// component is zero. A method marked `inline(always)` (a closure over the two cases was left as
/// a call per node by LLVM, half of the cast's time).
enum Bound<'a> {
    Slab(RaySlab),
    Exact(&'a Ray),
}

impl Bound<'_> {
    #[inline(always)]
    fn entry(&self, b: &Aabb) -> Option<Real> {
        match self {
            Bound::Slab(s) => s.entry_lower_bound(b),
            Bound::Exact(ray) => b.cast_ray(ray).map(|h| h.distance),
        }
    }
}

/// A ray prepared for slab tests against many boxes (Williams et al. 2005): origin and
/// reciprocal direction. `None` when a direction component is zero (the `0 * inf` case); the
/// traversal then uses the exact `Aabb::cast_ray` everywhere.
struct RaySlab {
    origin: [Real; 3],
    inv: [Real; 3],
    max: Real,
    /// `gamma(4)`.
    gamma: Real,
}

impl RaySlab {
    fn new(ray: &Ray) -> Option<RaySlab> {
        let (o, d) = (ray.origin(), ray.direction());
        if d.iter().any(|c| *c == 0.0) {
            return None;
        }
        Some(RaySlab {
            origin: [o.x, o.y, o.z],
            inv: [1.0 / d.x, 1.0 / d.y, 1.0 / d.z],
            max: ray.max_distance(),
            gamma: sepax_shapes::tolerance::gamma(4),
        })
    }

    /// A lower bound of the distance at which the ray enters `b` (0 if it starts inside), or
    /// `None` when it certainly misses `b` within its length. Conservative: each slab distance
    /// `(plane - origin) * inv` carries a relative error below `gamma(3)` (subtraction, the
    /// rounded reciprocal, the product), so the interval is widened by `gamma(4)` of its ends
    /// before deciding; a ray that `Aabb::cast_ray` reports as hitting is never pruned. The
    /// widening `x - g|x|` (and `x + g|x|`) is increasing in `x`, so widening the maximum of the
    /// entry distances equals the maximum of the widened ones: it is applied once, at the end.
    #[inline(always)]
    fn entry_lower_bound(&self, b: &Aabb) -> Option<Real> {
        let (lo, hi) = (b.min(), b.max());
        let mut t_near: Real = Real::NEG_INFINITY;
        let mut t_far: Real = Real::INFINITY;
        // Plain comparisons (`minss`/`maxss`), not `Real::min`/`max` with their NaN rules: the
        // distances are never NaN (finite planes and origin, finite non-zero reciprocals).
        let min = |a: Real, b: Real| if a < b { a } else { b };
        let max = |a: Real, b: Real| if a > b { a } else { b };
        let (lo, hi) = ([lo.x, lo.y, lo.z], [hi.x, hi.y, hi.z]);
        for k in 0..3 {
            let ta = (lo[k] - self.origin[k]) * self.inv[k];
            let tb = (hi[k] - self.origin[k]) * self.inv[k];
            t_near = max(t_near, min(ta, tb));
            t_far = min(t_far, max(ta, tb));
        }
        let g = self.gamma;
        let t_near = max(t_near - g * t_near.abs(), 0.0);
        let t_far = min(t_far + g * t_far.abs(), self.max);
        (t_near <= t_far).then_some(t_near)
    }
}
