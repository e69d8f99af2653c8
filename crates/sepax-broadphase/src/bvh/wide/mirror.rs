//! The dynamic tree's query mirror: a [`WideBvh`] collapsed from its binary nodes
//! (`collapse.rs`), through which `DynamicBvh::cast_ray` and `query_aabb` run.
//!
//! Freshness: the mirror records the key `(generation, rebuild count)` of the tree it was made
//! from. Every change of a leaf's stored box or of the set of leaves (insert, remove, an update
//! that replaces a fat box) goes through `DynamicBvh::changed`, which bumps the generation; a
//! rebuild bumps the rebuild count. A query whose key differs never reads the mirror, so every
//! query sees every mutation before it. Mutations that only reshape the tree or shrink internal
//! boxes (rotations, `refit`) leave the key alone: the mirror's boxes still contain the same
//! leaves, so its answers stay exact.
//!
//! Cost and when it is paid: a refresh is one pass over the binary nodes (see
//! `docs/benchmarks.md` for ms per 100k). Mutations only bump a counter; the refresh happens
//! inside a query, never in `update` or `update_pairs`. A stale mirror is not refreshed by the
//! first query: queries walk the binary tree until [`refresh_after`] of them have run against
//! the current key (the ski-rental rule: the binary walks paid before a refresh are bounded by
//! about the refresh's cost), so a frame that runs a handful of queries after moving everything
//! never pays for a refresh it would not recover. [`crate::bvh::DynamicBvh::prepare_queries`]
//! refreshes at once.
//!
//! Concurrency: the mirror sits in an `RwLock`, so queries stay on `&self` and the tree stays
//! `Sync`. Queries only ever *try* to lock: when the lock is busy (another thread is
//! refreshing), the query walks the binary tree instead. No query waits, so a query made from
//! inside another query's callback cannot deadlock.

use super::collapse::{collapse, CollapseScratch};
use super::{WideBvh, PRIM};
use crate::bvh::{DynamicBvh, RayStep};
use crate::QueryStats;
use sepax_shapes::math::Real;
use sepax_shapes::Ray;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard, TryLockError};

/// What a mirror was made from: the tree's generation and rebuild count.
type Key = (u64, usize);

/// The mirror and the buffers of its build.
#[derive(Debug, Default)]
pub(crate) struct Built {
    key: Option<Key>,
    pub(crate) tree: WideBvh,
    scratch: CollapseScratch,
}

/// The query mirror of a `DynamicBvh` (see the module documentation).
#[derive(Debug, Default)]
pub(crate) struct Mirror {
    built: RwLock<Built>,
    /// Queries run against a stale mirror since the last change or refresh.
    stale_queries: AtomicUsize,
    refreshes: AtomicUsize,
}

/// A clone starts with no mirror (it is rebuilt on demand).
impl Clone for Mirror {
    fn clone(&self) -> Self {
        Mirror::default()
    }
}

/// Queries against a stale mirror before one refreshes it, for a tree of `len` leaves: about
/// the number of binary-tree ray casts that cost as much as a refresh (at 100k leaves a refresh
/// took 3.4-3.7 ms and a binary closest-hit cast about 1 us, `docs/benchmarks.md`). The refresh
/// grows linearly with the tree and a cast about logarithmically, so a share of `len` keeps the
/// rule on the safe side for smaller trees.
fn refresh_after(len: usize) -> usize {
    len / 32 + 1
}

fn try_write(lock: &RwLock<Built>) -> Option<RwLockWriteGuard<'_, Built>> {
    match lock.try_write() {
        Ok(g) => Some(g),
        // A panic during a refresh leaves `key` at `None` (set only after the build): the
        // contents are never trusted, so the poison can be cleared.
        Err(TryLockError::Poisoned(p)) => Some(p.into_inner()),
        Err(TryLockError::WouldBlock) => None,
    }
}

fn try_read(lock: &RwLock<Built>) -> Option<RwLockReadGuard<'_, Built>> {
    match lock.try_read() {
        Ok(g) => Some(g),
        Err(TryLockError::Poisoned(p)) => Some(p.into_inner()),
        Err(TryLockError::WouldBlock) => None,
    }
}

impl Mirror {
    pub(crate) fn memory_bytes(&self) -> usize {
        try_read(&self.built).map_or(0, |b| b.tree.memory_bytes() + b.scratch.memory_bytes())
    }
}

impl DynamicBvh {
    /// Records a change of the leaves (a stored box, or the set of leaves): the one place that
    /// makes the query mirror stale.
    #[inline]
    pub(crate) fn changed(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        *self.mirror.stale_queries.get_mut() = 0;
    }

    fn mirror_key(&self) -> Key {
        (self.generation, self.rebuilds)
    }

    /// The mirror when it is fresh, after refreshing it if the rule of [`refresh_after`] says
    /// so; `None` when the query should walk the binary tree.
    pub(crate) fn fresh_mirror(&self) -> Option<RwLockReadGuard<'_, Built>> {
        self.fresh_mirror_for(1)
    }

    /// [`DynamicBvh::fresh_mirror`] for `queries` queries about to run through one guard
    /// (they count towards [`refresh_after`] together).
    fn fresh_mirror_for(&self, queries: usize) -> Option<RwLockReadGuard<'_, Built>> {
        let key = self.mirror_key();
        if let Some(g) = try_read(&self.mirror.built) {
            if g.key == Some(key) {
                return Some(g);
            }
        }
        let seen = self
            .mirror
            .stale_queries
            .fetch_add(queries, Ordering::Relaxed);
        if seen.saturating_add(queries) < refresh_after(self.proxies.len()) || !self.refresh(key) {
            return None;
        }
        // Fresh now: the key cannot change while `&self` is borrowed.
        try_read(&self.mirror.built).filter(|g| g.key == Some(key))
    }

    /// Rebuilds the mirror for `key` unless it is already fresh; false when the lock is busy or
    /// the tree has too many slots for the wide nodes' 31-bit primitive tags.
    fn refresh(&self, key: Key) -> bool {
        if self.proxies.slots().len() >= PRIM as usize {
            return false;
        }
        let Some(mut g) = try_write(&self.mirror.built) else {
            return false;
        };
        if g.key != Some(key) {
            g.key = None;
            let b = &mut *g;
            collapse(
                &self.nodes,
                self.root,
                self.proxies.len(),
                &mut b.tree,
                &mut b.scratch,
            );
            g.key = Some(key);
            self.mirror.refreshes.fetch_add(1, Ordering::Relaxed);
            // The count starts again for the next key (a rebuild changes the key without
            // passing through `changed`).
            self.mirror.stale_queries.store(0, Ordering::Relaxed);
        }
        true
    }

    /// Brings the wide query mirror up to date now, instead of after the first few queries
    /// (see [`DynamicBvh::cast_ray`]): for a caller about to run many queries on a tree that
    /// just changed. Returns whether the mirror is fresh (false when another thread is
    /// refreshing it at this moment; queries are exact either way).
    pub fn prepare_queries(&self) -> bool {
        self.refresh(self.mirror_key())
    }

    /// [`WideBvh::cast_ray_candidates`] through the tree's stored boxes: every proxy whose
    /// stored box the ray enters at `t <= clip` (possibly a few more, passed within rounding),
    /// with a lower bound of `t`, named by its slot ([`ProxyId::index`]) rather than its
    /// handle, which saves reading each candidate's generation (a scattered load). For
    /// callers that test their own exact shapes inside the boxes and keep per-slot data (a
    /// world's closest-hit ray). Through the binary tree while the mirror is stale.
    ///
    /// [`ProxyId::index`]: crate::ProxyId::index
    pub fn cast_ray_candidates(
        &self,
        ray: &Ray,
        mut f: impl FnMut(u32, Real) -> RayStep,
    ) -> QueryStats {
        if let Some(m) = self.fresh_mirror() {
            return m.tree.cast_ray_candidates(ray, f);
        }
        self.cast_ray_binary(ray, |p, t| f(p.index, t))
    }

    /// A caster for `rays` ray casts in a row (a batch): it decides once whether they go
    /// through the wide query mirror (refreshing it when the casts together pass the rule of
    /// [`DynamicBvh::cast_ray`]) and holds the mirror's read lock meanwhile, instead of taking
    /// it per cast. The answers are those of the tree's own casts.
    pub fn ray_caster(&self, rays: usize) -> RayCaster<'_> {
        RayCaster {
            tree: self,
            mirror: if self.root == crate::bvh::node::NULL {
                None
            } else {
                self.fresh_mirror_for(rays.max(1))
            },
        }
    }

    /// How many times the wide query mirror was rebuilt (for tests and benchmarks: mutations
    /// never rebuild it, queries do when the tree changed).
    pub fn query_mirror_refreshes(&self) -> usize {
        self.mirror.refreshes.load(Ordering::Relaxed)
    }
}

/// Ray casts against one [`DynamicBvh`] through one decision about its query mirror (see
/// [`DynamicBvh::ray_caster`]). While it lives, the tree cannot change (it borrows it) and
/// other threads' queries that would refresh the mirror walk the binary tree instead.
pub struct RayCaster<'a> {
    tree: &'a DynamicBvh,
    mirror: Option<RwLockReadGuard<'a, Built>>,
}

impl std::fmt::Debug for RayCaster<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RayCaster")
            .field("mirror", &self.mirror.is_some())
            .finish()
    }
}

impl RayCaster<'_> {
    /// [`DynamicBvh::cast_ray_candidates`].
    #[inline]
    pub fn cast_ray_candidates(
        &self,
        ray: &Ray,
        mut f: impl FnMut(u32, Real) -> RayStep,
    ) -> QueryStats {
        match &self.mirror {
            Some(m) => m.tree.cast_ray_candidates(ray, f),
            None => self.tree.cast_ray_binary(ray, |p, t| f(p.index, t)),
        }
    }
}
