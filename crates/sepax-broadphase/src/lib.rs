//! # sepax-broadphase
//!
//! Candidate pairs for the narrow phase. Every implementation answers the same
//! [`BroadPhase`] trait, so a user can pick per scene and the tests can compare them all with
//! the brute-force reference:
//!
//! - [`bvh::DynamicBvh`]: dynamic AABB tree with fat leaves, surface-area-heuristic insertion,
//!   tree rotations, binned-SAH and fast Morton-order rebuilds, exact pairs (the default);
//! - [`sap::SweepAndPrune`]: box pruning (sort on one axis, test the other two);
//! - [`grid::UniformGrid`]: a uniform grid (spatial hash, incremental) for many similar-size
//!   objects in an unbounded world;
//! - [`sorted_grid::SortedGrid`]: a uniform grid whose entries stay sorted by cell across
//!   frames (only changed keys are re-sorted), searched by merge cursors four lanes at a time;
//!   the fastest choice when most of many similar-size boxes move every frame;
//! - [`brute::BruteForce`]: all pairs, the reference.
//!
//! Overlap is closed-set (touching boxes overlap) and exact (AABB comparisons only,
//! [`Aabb::intersects`]), so no implementation ever drops a pair that the fat boxes share. Every
//! phase keeps its proxies in one shared proxy table (handles, user values, stored boxes, and
//! the phase's own record per proxy: the tree's leaf and fat box, the grid's cell range).
//!
//! **Which one.** The world (`sepax-world`) keeps its colliders in [`bvh::DynamicBvh`]s by
//! default, static and moving alike: the tree needs no setting (no cell size to match to the
//! boxes; a box of any size costs the same), its work per frame follows what moved, and the same
//! structure answers the world's other questions (ray casts, the walk of the moving tree against
//! the static one, bulk loads, debug drawing; a grid answers a ray by a box query around its
//! segment, every box for an infinite ray). The [`sorted_grid::SortedGrid`] (handed to
//! `World::with_broad_phase`) is the faster choice when many boxes of similar size move every
//! frame and the cell size is near the largest typical box: in `docs/benchmarks.md`, 100k
//! uniform moving boxes take 10.2 ms per frame (update and pairs) against the tree's 30.2 ms and
//! parry3d's 33.8 ms in one run under load, and 4.3–4.7 ms against parry3d's 15.0–17.2 ms
//! (3.2–3.7x) on a quiet machine; with 90% of them still, 6.1 ms against the tree's 17.6 ms.
//! Boxes wider than a cell go to a list tested against every proxy, so scenes with many such
//! boxes (huge slabs, sizes spread over 100x: not measured yet) are where the tree is the safer
//! choice.

// Casts between `Real` and `f64` are needed in the default `f32` build and are no-ops with `f64`.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

pub mod brute;
pub mod bvh;
pub mod grid;
mod proxies;
pub mod sap;
pub mod sorted_grid;

pub use proxies::ProxyId;

use sepax_shapes::math::Vector3;
use sepax_shapes::Aabb;

/// What a query callback tells the traversal to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visit {
    /// Keep going.
    Continue,
    /// Stop the whole query now.
    Stop,
}

/// Diagnostics returned by queries: how much of the structure was visited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QueryStats {
    /// Internal nodes (or cells, or sorted entries) visited.
    pub nodes_visited: usize,
    /// Leaf boxes tested.
    pub leaves_tested: usize,
    /// Results reported to the callback.
    pub hits: usize,
}

/// A broad phase over axis-aligned boxes. Proxies carry a user value (`u64`), typically the
/// index or handle of a collider.
///
/// Pair finding is incremental: [`BroadPhase::update_pairs`] reports every overlapping pair of
/// proxies (by their *fat* boxes where the implementation fattens and does not say it reports
/// exact pairs, as [`bvh::DynamicBvh`] does by default), each once as
/// `(min id, max id)`, sorted, so that the output does not depend on insertion history.
pub trait BroadPhase {
    /// Adds a proxy with its tight box; returns its handle.
    fn insert(&mut self, aabb: Aabb, user: u64) -> ProxyId;
    /// Removes a proxy. Returns false (and changes nothing) for a stale or unknown handle.
    fn remove(&mut self, id: ProxyId) -> bool;
    /// Moves a proxy to a new tight box; `displacement` (the motion over the next step) lets a
    /// fattening implementation predict. Returns false for a stale or unknown handle.
    fn update(&mut self, id: ProxyId, aabb: Aabb, displacement: Vector3) -> bool;
    /// Moves many proxies: [`BroadPhase::update`] on each `(handle, tight box, displacement)` in
    /// turn; returns how many handles were live. An implementation may repair its structure
    /// once for the whole batch instead of once per proxy (the dynamic tree does).
    fn update_many(
        &mut self,
        updates: &mut dyn Iterator<Item = (ProxyId, Aabb, Vector3)>,
    ) -> usize {
        updates
            .map(|(id, aabb, d)| usize::from(self.update(id, aabb, d)))
            .sum()
    }
    /// The user value of a live proxy.
    fn user(&self, id: ProxyId) -> Option<u64>;
    /// The box the structure stores for a proxy (fat where the implementation fattens).
    fn stored_aabb(&self, id: ProxyId) -> Option<Aabb>;
    /// Number of live proxies.
    fn len(&self) -> usize;
    /// Whether there are no proxies.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Every proxy whose stored box overlaps `aabb` (closed sets), through `f`.
    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> Visit) -> QueryStats;
    /// Clears `out` and fills it with every pair of proxies whose stored boxes overlap, each
    /// once as `(a, b)` with `a < b`, sorted ascending. Implementations may use what moved
    /// since the last call to do less work, but the result is always the complete set.
    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>);
}
