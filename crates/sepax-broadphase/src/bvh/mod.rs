//! Dynamic bounding volume hierarchy over fat AABBs.
//!
//! The tree is an index-based node pool (see `node.rs`): leaves hold *fat* boxes (tight box plus a
//! margin plus the predicted displacement), so that a proxy that moves a little changes nothing
//! in the tree. Leaves are inserted next to the sibling of least surface-area-heuristic cost,
//! found by branch and bound (Bittner, Hapala, Havran 2012, "Fast insertion-based optimization of
//! bounding volume hierarchies"; Catto, Box2D v3 `dynamic_tree`), and the path to the root is
//! then refitted with tree rotations (Kopta et al. 2012, "Fast, effective BVH updates for
//! animated scenes") that keep it shallow. A proxy that leaves its fat box is, by default,
//! enlarged in place ([`UpdateMode::Enlarge`]).
//!
//! Pairs are exact by default (the tight boxes overlap; [`BvhConfig::exact_pairs`]). When few
//! proxies moved, [`BroadPhase::update_pairs`] queries the tree for the moved ones and keeps the
//! other pairs; when many moved ([`BvhConfig::full_rebuild_fraction`]), it rebuilds the tree as
//! a linear BVH (leaves sorted along a Morton curve, Lauterbach et al. 2009; `lbvh.rs`) and finds
//! every pair in one self-traversal that tests subtrees of up to 32 leaves as flat runs
//! (`sweep.rs`, the runs in lanes in `runs.rs`); that layout is kept for a few frames before the next rebuild. When the SAH cost
//! drifts above a configured multiple of its value after the last build, the tree is rebuilt the
//! same fast way; [`DynamicBvh::rebuild`] and [`DynamicBvh::insert_many`] build with binned SAH
//! (Wald 2007, "On fast construction of SAH-based bounding volume hierarchies").
//!
//! One file per concept: `node` (node pool, and the tree's record in the proxy table every broad phase shares), `insert`, `remove`, `refit`, `rotate`,
//! `rebuild` (binned SAH), `lbvh` (the fast rebuild), `query` (boxes, OBBs, spheres, rays),
//! `pairs` (self pairs, tree against tree and the incremental [`BroadPhase::update_pairs`]),
//! `sweep` (the whole-tree pair search), `chunks` (the pair search as deterministic jobs on a
//! caller's threads, [`DynamicBvh::update_pairs_chunked`]) and `validate`.

mod chunks;
mod insert;
mod lanes;
mod lbvh;
mod node;
mod packet;
mod pairs;
mod query;
mod rebuild;
mod refit;
mod remove;
mod rotate;
mod runs;
mod sweep;
mod update;
mod validate;
pub mod wide;

pub use chunks::{serial, Runner};
pub use pairs::MOVED_PER_JOB;
pub use query::{RayStep, Walk};
pub use wide::mirror::RayCaster;
pub use wide::WideBvh;

use crate::proxies::ProxyTable;
use crate::{BroadPhase, ProxyId, QueryStats, Visit};
use node::{fatten, Leaf, Node, NULL};
use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::Aabb;

/// How [`DynamicBvh`] handles a proxy whose new tight box left its fat box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UpdateMode {
    /// Remove the leaf and insert it again with a new fat box (SAH-placed: best query speed
    /// when few proxies move).
    Reinsert,
    /// Replace the leaf's box in place and enlarge its ancestors (cheaper per move; the tree
    /// degrades until the SAH-cost trigger or the next whole-tree rebuild of `update_pairs`
    /// restores it).
    #[default]
    Enlarge,
}

/// Settings of a [`DynamicBvh`]. [`BvhConfig::default`] is safe for scenes in metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BvhConfig {
    /// Absolute margin added on every side of a tight box to make the fat box (`>= 0`, finite).
    pub margin: Real,
    /// Multiplier of the displacement given to `update`: the fat box is stretched by
    /// `displacement * prediction` on the side the proxy moves to (`>= 0`, finite).
    pub prediction: Real,
    /// `update_pairs` rebuilds the tree when its SAH cost ([`DynamicBvh::sah_cost`]) exceeds this
    /// multiple of the cost measured right after the last build (`>= 1`; `Real::INFINITY`
    /// disables automatic rebuilds).
    pub rebuild_ratio: Real,
    /// No automatic rebuild below this many proxies (small trees are cheap whatever their shape).
    pub rebuild_min_proxies: usize,
    /// What `update` does when a proxy leaves its fat box.
    pub update_mode: UpdateMode,
    /// `update_pairs` rebuilds the whole tree with [`DynamicBvh::rebuild_fast`] and searches
    /// every pair in one traversal when at least this fraction of the proxies was updated,
    /// inserted or removed since the last call (`>= 0`; above 1 never: always incremental).
    pub full_rebuild_fraction: Real,
    /// Whether `update_pairs` reports the pairs whose *tight* boxes overlap (the exact pairs:
    /// the default) or those whose fat, stored boxes overlap (a superset the caller filters).
    pub exact_pairs: bool,
}

impl Default for BvhConfig {
    fn default() -> Self {
        Self {
            margin: 0.1,
            prediction: 2.0,
            rebuild_ratio: 1.5,
            rebuild_min_proxies: 32,
            update_mode: UpdateMode::Enlarge,
            full_rebuild_fraction: 0.25,
            exact_pairs: true,
        }
    }
}

/// A [`BvhConfig`] field with a value out of range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BvhConfigError {
    /// The field.
    pub field: &'static str,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl core::fmt::Display for BvhConfigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "BvhConfig.{}: {}", self.field, self.reason)
    }
}

impl std::error::Error for BvhConfigError {}

impl BvhConfig {
    /// Checks every field's range.
    pub fn check(&self) -> Result<(), BvhConfigError> {
        let err = |field, reason| Err(BvhConfigError { field, reason });
        if !(self.margin.is_finite() && self.margin >= 0.0) {
            return err("margin", "must be finite and >= 0");
        }
        if !(self.prediction.is_finite() && self.prediction >= 0.0) {
            return err("prediction", "must be finite and >= 0");
        }
        if self.rebuild_ratio.is_nan() || self.rebuild_ratio < 1.0 {
            return err("rebuild_ratio", "must be >= 1 (infinity disables)");
        }
        if self.full_rebuild_fraction.is_nan() || self.full_rebuild_fraction < 0.0 {
            return err("full_rebuild_fraction", "must be >= 0");
        }
        Ok(())
    }
}

/// Reusable buffers, so that per-frame work allocates nothing once warm.
#[derive(Debug, Clone, Default)]
struct Scratch {
    /// Traversal stack of node indices.
    stack: Vec<u32>,
    /// Pairs found from the move buffer this call.
    found: Vec<(ProxyId, ProxyId)>,
    /// The merged pair set being built.
    merged: Vec<(ProxyId, ProxyId)>,
    /// Leaves and centroids of the rebuild.
    build: Vec<rebuild::Item>,
    /// Ranges still to build in a rebuild.
    tasks: Vec<rebuild::Task>,
    /// Internal nodes in the order the rebuild created them.
    created: Vec<u32>,
    /// The renumbered node pool of a rebuild (swapped with the live one).
    nodes: Vec<Node>,
    /// Buffers of the fast (Morton) rebuild.
    lbvh: lbvh::LbvhScratch,
    /// Buffers of the whole-tree pair search.
    sweep: sweep::SweepScratch,
    /// Slots whose proxy left its fat box in a batch update.
    escaped: Vec<u32>,
    /// The job buffers of the incremental pair search.
    chunks: chunks::ChunkBufs,
}

/// The dynamic AABB tree. See the [module documentation](self).
///
/// ```
/// use sepax_broadphase::bvh::DynamicBvh;
/// use sepax_broadphase::{BroadPhase, Visit};
/// use sepax_shapes::math::{Point3, Real};
/// use sepax_shapes::Aabb;
///
/// let mut bvh = DynamicBvh::default();
/// let unit = |x: Real| Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x + 1.0, 1.0, 1.0)).unwrap();
/// let a = bvh.insert(unit(0.0), 1);
/// let b = bvh.insert(unit(0.5), 2);
/// let _far = bvh.insert(unit(10.0), 3);
/// let mut pairs = Vec::new();
/// bvh.update_pairs(&mut pairs);
/// assert_eq!(pairs, vec![(a, b)]);
/// let mut hits = Vec::new();
/// bvh.query_aabb(&unit(9.5), |id| { hits.push(bvh.user(id)); Visit::Continue });
/// assert_eq!(hits, vec![Some(3)]);
/// assert!(bvh.validate().is_ok());
/// ```
#[derive(Debug, Clone)]
pub struct DynamicBvh {
    config: BvhConfig,
    nodes: Vec<Node>,
    free_node: u32,
    root: u32,
    /// The proxies (tight box, user value, handle) with the tree's record of each.
    proxies: ProxyTable<Leaf>,
    /// Slots whose fat box changed (or that were inserted or removed) since the last
    /// `update_pairs`.
    moved: Vec<u32>,
    /// The pair set reported by the last `update_pairs`, sorted.
    pairs: Vec<(ProxyId, ProxyId)>,
    /// SAH cost right after the last build (`None` before the first).
    built_cost: Option<Real>,
    rebuilds: usize,
    /// Frames since the last fast rebuild while its layout (leaves in curve order after the
    /// internal nodes) still holds; `None` once a leaf was linked or unlinked since.
    fast_layout: Option<u32>,
    /// The summed surface area of the internal nodes, kept by the passes that know it (fast
    /// rebuild, batch refit, enlargement) so that the rebuild trigger needs no walk over the
    /// pool; `None` after a change they do not track.
    area_sum: Option<Real>,
    scratch: Scratch,
    /// Bumped by [`DynamicBvh::changed`] whenever a leaf's stored box or the set of leaves
    /// changes: the freshness key of the query mirror.
    generation: u64,
    /// The wide mirror `cast_ray` and `query_aabb` run through (`wide/mirror.rs`).
    mirror: wide::mirror::Mirror,
}

impl Default for DynamicBvh {
    fn default() -> Self {
        Self::from_checked(BvhConfig::default())
    }
}

impl DynamicBvh {
    /// An empty tree with `config`; errors when a field is out of range.
    pub fn new(config: BvhConfig) -> Result<Self, BvhConfigError> {
        config.check()?;
        Ok(Self::from_checked(config))
    }

    fn from_checked(config: BvhConfig) -> Self {
        Self {
            config,
            nodes: Vec::new(),
            free_node: NULL,
            root: NULL,
            proxies: ProxyTable::default(),
            moved: Vec::new(),
            pairs: Vec::new(),
            built_cost: None,
            rebuilds: 0,
            fast_layout: None,
            area_sum: None,
            scratch: Scratch::default(),
            generation: 0,
            mirror: wide::mirror::Mirror::default(),
        }
    }

    /// The settings.
    pub fn config(&self) -> &BvhConfig {
        &self.config
    }

    /// The tight box last given for a live proxy.
    pub fn tight_aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.proxies.aabb(id)
    }

    /// Height of the tree: 0 for a single leaf, and 0 when empty.
    pub fn height(&self) -> u32 {
        if self.root == NULL {
            0
        } else {
            self.nodes[self.root as usize].height
        }
    }

    /// Nodes in use (leaves and internal nodes).
    pub fn node_count(&self) -> usize {
        if self.root == NULL {
            0
        } else {
            2 * self.proxies.len() - 1
        }
    }

    /// The root's box (`None` when empty).
    pub fn root_aabb(&self) -> Option<Aabb> {
        (self.root != NULL).then(|| self.nodes[self.root as usize].aabb)
    }

    /// Bytes of heap memory the tree holds (capacities of its node pool, proxy table, pair set,
    /// move buffer and scratch buffers), for the memory-per-proxy figure of the benchmarks.
    pub fn memory_bytes(&self) -> usize {
        use core::mem::size_of;
        let sc = &self.scratch;
        self.nodes.capacity() * size_of::<Node>()
            + self.proxies.capacity_bytes()
            + self.moved.capacity() * size_of::<u32>()
            + (self.pairs.capacity() + sc.found.capacity() + sc.merged.capacity())
                * size_of::<(ProxyId, ProxyId)>()
            + sc.stack.capacity() * size_of::<u32>()
            + sc.build.capacity() * size_of::<rebuild::Item>()
            + sc.tasks.capacity() * size_of::<rebuild::Task>()
            + sc.created.capacity() * size_of::<u32>()
            + sc.nodes.capacity() * size_of::<Node>()
            + sc.lbvh.memory_bytes()
            + sc.sweep.memory_bytes()
            + sc.escaped.capacity() * size_of::<u32>()
            + sc.chunks.memory_bytes()
            + self.mirror.memory_bytes()
    }

    /// How many times the tree was rebuilt (automatically or by [`DynamicBvh::rebuild`]).
    pub fn rebuild_count(&self) -> usize {
        self.rebuilds
    }

    /// Every live proxy, in slot order.
    pub fn proxies(&self) -> impl Iterator<Item = ProxyId> + '_ {
        self.proxies.iter().map(|(id, _)| id)
    }

    /// Adds a proxy whose fat box is the tight box plus the margin, stretched by
    /// `displacement * prediction`.
    pub fn insert_moving(&mut self, aabb: Aabb, displacement: Vector3, user: u64) -> ProxyId {
        let (slot, leaf) = self.new_leaf(aabb, displacement, user);
        self.insert_leaf(leaf);
        self.handle(slot)
    }

    /// Adds many proxies at once (tight box, user value), appending their handles to `ids` in
    /// order, then rebuilds the whole tree with binned SAH: much faster than inserting one by
    /// one (no per-leaf sibling search), and a better tree. Use it to load a scene.
    pub fn insert_many(
        &mut self,
        boxes: impl IntoIterator<Item = (Aabb, u64)>,
        ids: &mut Vec<ProxyId>,
    ) {
        for (aabb, user) in boxes {
            let (slot, _) = self.new_leaf(aabb, Vector3::zeros(), user);
            ids.push(self.handle(slot));
        }
        self.rebuild();
    }

    /// A new proxy slot with its detached leaf (box set, not linked into the tree), in the move
    /// buffer.
    fn new_leaf(&mut self, aabb: Aabb, displacement: Vector3, user: u64) -> (u32, u32) {
        let fat = fatten(
            &aabb,
            self.config.margin,
            self.config.prediction,
            &displacement,
        );
        let leaf = self.alloc_node();
        // A reused slot keeps its move flag: it may still be in the move buffer.
        let slot = self
            .proxies
            .insert_with(aabb, user, |old| Leaf {
                fat,
                node: leaf,
                moved: old.is_some_and(|o| o.moved),
            })
            .index;
        let n = &mut self.nodes[leaf as usize];
        n.aabb = fat;
        n.child2 = slot;
        self.mark_moved(slot);
        self.changed();
        (slot, leaf)
    }
}

impl BroadPhase for DynamicBvh {
    fn insert(&mut self, aabb: Aabb, user: u64) -> ProxyId {
        self.insert_moving(aabb, Vector3::zeros(), user)
    }

    fn remove(&mut self, id: ProxyId) -> bool {
        let Some(slot) = self.slot(id) else {
            return false;
        };
        let leaf = self.proxies.slot(slot as u32).extra.node;
        self.remove_leaf(leaf);
        self.free_node(leaf);
        self.mark_moved(slot as u32);
        self.proxies.slot_mut(slot as u32).extra.node = NULL;
        // The table bumps the generation and retires a slot whose generation would wrap, so
        // that no handle of its past can ever alias a future proxy.
        self.proxies.remove(id);
        self.changed();
        true
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb, displacement: Vector3) -> bool {
        let Some(slot) = self.slot(id) else {
            return false;
        };
        let p = self.proxies.slot_mut(slot as u32);
        p.aabb = aabb;
        if p.extra.fat.contains_aabb(&aabb) {
            // Exact pairs depend on the tight box: the pair update must look at this proxy.
            if self.config.exact_pairs {
                self.mark_moved(slot as u32);
            }
            return true;
        }
        let leaf = p.extra.node;
        let fat = fatten(
            &aabb,
            self.config.margin,
            self.config.prediction,
            &displacement,
        );
        self.proxies.slot_mut(slot as u32).extra.fat = fat;
        self.changed();
        match self.config.update_mode {
            UpdateMode::Reinsert => {
                self.remove_leaf(leaf);
                self.nodes[leaf as usize].aabb = fat;
                self.insert_leaf(leaf);
            }
            UpdateMode::Enlarge => {
                self.nodes[leaf as usize].aabb = fat;
                self.enlarge_ancestors(leaf);
            }
        }
        self.mark_moved(slot as u32);
        true
    }

    fn update_many(
        &mut self,
        updates: &mut dyn Iterator<Item = (ProxyId, Aabb, Vector3)>,
    ) -> usize {
        DynamicBvh::update_many(self, updates)
    }

    fn user(&self, id: ProxyId) -> Option<u64> {
        self.proxies.user(id)
    }

    fn stored_aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.proxies
            .get(id)
            .map(|p| self.nodes[p.extra.node as usize].aabb)
    }

    fn len(&self) -> usize {
        self.proxies.len()
    }

    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> Visit) -> QueryStats {
        DynamicBvh::query_aabb(self, aabb, f)
    }

    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        self.update_pairs_impl(out);
    }
}
