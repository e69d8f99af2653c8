//! The world: colliders in a slotmap, two broad-phase structures, the pair cache and the
//! events of the last update. Edits live in `edit`, the update in `update` and `narrow`, the
//! stateless touching-pair stream in `stream`, the state hash in `hash`.

mod ccd;
mod edit;
mod hash;
mod narrow;
mod poses;
mod sort;
mod stream;
mod update;

pub use hash::StateHasher;
pub(crate) use update::pair_allowed;

use std::sync::Mutex;

use slotmap::SlotMap;

use crate::collider::Collider;
use crate::events::Events;
use crate::filter::PairPolicy;
use crate::id::{ColliderId, PairKey};
use crate::phase::MovingPhase;
use sepax_broadphase::bvh::{BvhConfig, BvhConfigError, DynamicBvh};
use sepax_broadphase::ProxyId;
use sepax_narrowphase::contact::{ContactConfig, ContactManifold};
use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::Aabb;

pub(crate) use narrow::{ChunkOut, Work};

/// Settings of a [`World`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldConfig {
    /// Which kind pairs are considered (default: all but static–static).
    pub policy: PairPolicy,
    /// The dynamic tree of kinematic and dynamic colliders (fat boxes).
    pub moving_tree: BvhConfig,
    /// The static tree (no margin by default: statics rarely move).
    pub static_tree: BvhConfig,
    /// Contact manifold settings (speculative margin).
    pub contact: ContactConfig,
}

impl Default for WorldConfig {
    fn default() -> Self {
        Self {
            policy: PairPolicy::default(),
            moving_tree: BvhConfig::default(),
            static_tree: BvhConfig {
                margin: 0.0,
                prediction: 0.0,
                ..BvhConfig::default()
            },
            contact: ContactConfig::default(),
        }
    }
}

/// A pair that reached the narrow phase in the last update: its result, kept for the next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Tested {
    pub pair: PairKey,
    pub touching: bool,
    /// Index into the last update's `Events::manifolds`, or `NO_MANIFOLD`.
    pub manifold: u32,
}

/// A collider removed since the last update: what its end events need.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Removed {
    pub id: ColliderId,
    pub user: u64,
    pub sensor: bool,
}

/// Reused buffers of the update.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub proxy_pairs: Vec<(ProxyId, ProxyId)>,
    pub candidates: Vec<PairKey>,
    /// The radix sort's second buffer for `candidates`.
    pub sort_tmp: Vec<PairKey>,
    pub work: Vec<Work>,
    pub chunks: Vec<Mutex<ChunkOut>>,
    pub tested: Vec<Tested>,
    pub manifolds: Vec<ContactManifold>,
}

/// A collision world: colliders, one filter, and a per-frame [`World::update`] that reports
/// sorted begin / persist / end events and contact manifolds.
///
/// # The filter rule
/// A pair of colliders `a`, `b` is tested when **all** of these hold:
/// 1. both are enabled;
/// 2. if there is an explicit entry for the pair ([`World::allow_pair`]), it decides alone:
///    `true` the pair is tested, `false` it never is (an allowed-collision matrix; note that
///    here `true` means "may collide", the opposite of MoveIt's "collision allowed = ignored");
/// 3. otherwise the [`PairPolicy`] admits the kinds (default: not both [`crate::Kind::Static`]);
/// 4. and the [`crate::Filter`]s pass: different owners (or none), then a shared non-zero group
///    decides (negative never, positive always), else each membership meets the other's mask.
///
/// # The event rules
/// - Touching is exactly what [`sepax_narrowphase::intersect::intersects_shapes`] says for the
///   two placed shapes ([`crate::Collider::world_shape`]), closed sets; the broad-phase boxes are
///   grown by the narrow phase's rounding band so that no such pair is dropped.
/// - After an update, `begin` holds the pairs touching now and not at the last update, `end`
///   those touching at the last update and not now, `persist` those touching at both whose
///   pair reports [`crate::Report::Persist`] or more; each sorted by [`PairKey`].
/// - Removing a collider, disabling it or changing a filter so that a touching pair no longer
///   passes gives that pair's `end` at the next update (flags `REMOVED` or `FILTERED`); a pair
///   that starts passing the filter while overlapping gives `begin`.
/// - Edits between updates are not events: only the state at each update counts.
/// - With a contact margin ([`WorldConfig::contact`]), a manifold pair within the margin that
///   does not touch gets a speculative manifold (negative depths), listed in
///   [`Events::speculative`]; it is not touching and has no event.
/// - A pair whose two colliders did not change since the last update keeps its result and its
///   manifold without a new test.
/// - A ccd collider ([`crate::ColliderDesc::ccd`]) is swept from its pose at the last update:
///   a pair touched only during the sweep gets `begin` flagged `CCD | SWEPT` with its time in
///   [`Events::ccd`], and counts as touching for the next update's events (which end it).
/// - The output is the same bit for bit whatever the [`crate::Executor`] and thread count.
pub struct World<B: MovingPhase = DynamicBvh> {
    pub(crate) config: WorldConfig,
    pub(crate) colliders: SlotMap<ColliderId, Collider>,
    pub(crate) moving: B,
    pub(crate) statics: DynamicBvh,
    /// Number of completed updates.
    pub(crate) epoch: u64,
    /// Explicit `true` entries between two static colliders (the static tree's own pairs are
    /// needed while there are any, even under the default policy).
    pub(crate) forced_static: usize,
    pub(crate) removed: Vec<Removed>,
    /// The colliders edited since the last update (`changed == epoch`), each once, in edit
    /// order; removed ones stay listed (and are skipped).
    pub(crate) edited: Vec<ColliderId>,
    /// How many colliders of `edited` have been removed since (so that the live ones are
    /// counted without a lookup each).
    pub(crate) edited_removed: usize,
    /// The moving-against-static candidates of the last update (overlapping stored boxes),
    /// sorted; only the pairs of colliders edited since are looked for again.
    pub(crate) static_pairs: Vec<PairKey>,
    /// Whether `static_pairs` may be reused (false after a tree rebuild of every box).
    pub(crate) static_pairs_valid: bool,
    pub(crate) events: Events,
    /// The last update's narrow-phase results, sorted by pair.
    pub(crate) tested: Vec<Tested>,
    pub(crate) scratch: Scratch,
    /// Checked placements of `set_poses`, one buffer per job, applied once all are valid.
    pub(crate) scratch_placed: Vec<Mutex<poses::PlaceChunk>>,
    /// The moving proxies' updates of `set_poses`, applied in one batch.
    pub(crate) scratch_moves: Vec<(ProxyId, Aabb, Vector3)>,
    /// Continuous collision: the ccd colliders, their poses at the last update, the sweep.
    pub(crate) ccd: ccd::CcdState,
    /// Per proxy, what a ray cast needs of its collider (kept by the edits).
    pub(crate) rays: crate::query::RayTables,
}

impl World<DynamicBvh> {
    /// An empty world with the default settings.
    pub fn new() -> Self {
        Self::with_config(WorldConfig::default()).expect("the default tree settings are valid")
    }

    /// An empty world; errors when a tree setting is out of range.
    pub fn with_config(config: WorldConfig) -> Result<Self, BvhConfigError> {
        let moving = DynamicBvh::new(config.moving_tree)?;
        Self::with_broad_phase(config, moving)
    }
}

impl Default for World<DynamicBvh> {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: MovingPhase> World<B> {
    /// An empty world whose moving colliders live in `moving` (which must be empty), e.g. a
    /// [`sepax_broadphase::sorted_grid::SortedGrid`] when most colliders move every frame.
    pub fn with_broad_phase(config: WorldConfig, moving: B) -> Result<Self, BvhConfigError> {
        Ok(Self {
            config,
            colliders: SlotMap::with_key(),
            moving,
            statics: DynamicBvh::new(config.static_tree)?,
            epoch: 0,
            forced_static: 0,
            removed: Vec::new(),
            edited: Vec::new(),
            edited_removed: 0,
            static_pairs: Vec::new(),
            static_pairs_valid: false,
            events: Events::default(),
            tested: Vec::new(),
            scratch: Scratch::default(),
            scratch_placed: Vec::new(),
            scratch_moves: Vec::new(),
            ccd: ccd::CcdState::default(),
            rays: Default::default(),
        })
    }

    /// The settings.
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// Sets the pair policy; takes effect at the next update.
    pub fn set_policy(&mut self, policy: PairPolicy) {
        self.config.policy = policy;
    }

    /// A live collider.
    pub fn get(&self, id: ColliderId) -> Result<&Collider, WorldError> {
        self.colliders.get(id).ok_or(WorldError::StaleId(id))
    }

    /// Whether `id` is a live collider.
    pub fn contains(&self, id: ColliderId) -> bool {
        self.colliders.contains_key(id)
    }

    /// Number of colliders.
    pub fn len(&self) -> usize {
        self.colliders.len()
    }

    /// Whether there are no colliders.
    pub fn is_empty(&self) -> bool {
        self.colliders.is_empty()
    }

    /// Every collider, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (ColliderId, &Collider)> {
        self.colliders.iter()
    }

    /// The events of the last update.
    pub fn events(&self) -> &Events {
        &self.events
    }

    /// Number of completed updates.
    pub fn update_count(&self) -> u64 {
        self.epoch
    }

    /// The pairs touching at the last update, in pair-key order.
    pub fn touching(&self) -> impl Iterator<Item = PairKey> + '_ {
        self.tested.iter().filter(|t| t.touching).map(|t| t.pair)
    }

    /// Whether `a` and `b` were touching at the last update.
    pub fn is_touching(&self, a: ColliderId, b: ColliderId) -> bool {
        self.find_tested(PairKey::new(a, b))
            .is_some_and(|t| t.touching)
    }

    /// The manifold of `a` and `b` at the last update (normal from the smaller id toward the
    /// larger), if the pair reports manifolds and has contact points: touching, or
    /// speculative (not touching, within the contact margin; see [`Events::speculative`]).
    pub fn manifold(&self, a: ColliderId, b: ColliderId) -> Option<&ContactManifold> {
        let t = self.find_tested(PairKey::new(a, b))?;
        self.events.manifolds.get(t.manifold as usize)
    }

    /// The touching pairs of the last update that have a manifold, with it, in pair-key order
    /// (what a solver iterates; speculative pairs are in [`Events::speculative`]).
    pub fn contacts(&self) -> impl Iterator<Item = (PairKey, &ContactManifold)> + '_ {
        self.tested
            .iter()
            .filter(|t| t.touching)
            .filter_map(|t| Some((t.pair, self.events.manifolds.get(t.manifold as usize)?)))
    }

    fn find_tested(&self, key: PairKey) -> Option<&Tested> {
        self.tested
            .binary_search_by(|t| t.pair.cmp(&key))
            .ok()
            .map(|i| &self.tested[i])
    }

    /// The moving colliders' broad phase.
    pub fn moving_broad_phase(&self) -> &B {
        &self.moving
    }

    /// The static tree.
    pub fn static_tree(&self) -> &DynamicBvh {
        &self.statics
    }

    /// The SAH costs of the moving broad phase (`None` when it is not a tree) and of the static
    /// tree. Each walks every node, so it is asked for here rather than measured every update.
    pub fn tree_sah_costs(&self) -> (Option<Real>, Real) {
        (self.moving.tree_sah(), self.statics.sah_cost())
    }
}

use crate::error::WorldError;
