//! What an update reports: sorted pair events, this update's manifolds and statistics.

use core::time::Duration;

use crate::id::PairKey;
use sepax_narrowphase::contact::ContactManifold;
use sepax_shapes::math::{Point3, Real, Vector3};

/// Flags of a pair event (bit set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct EventFlags(pub u8);

impl EventFlags {
    /// No flag.
    pub const NONE: EventFlags = EventFlags(0);
    /// One of the two colliders is a sensor.
    pub const SENSOR: EventFlags = EventFlags(1);
    /// `end` only: one of the two colliders was removed since the last update (its id is
    /// stale now; the event still carries its user value).
    pub const REMOVED: EventFlags = EventFlags(2);
    /// `end` only: both colliders are alive but the pair no longer passes the filter (filter,
    /// explicit pair entry or enabled flag changed).
    pub const FILTERED: EventFlags = EventFlags(4);
    /// `begin` or `persist`: the continuous sweep of a ccd collider found the pair's first
    /// contact during this update's motion; [`Events::ccd_hit`] gives its time of impact.
    pub const CCD: EventFlags = EventFlags(8);
    /// `begin` or `persist` (with `CCD`): the pair touched only during the sweep, not at the
    /// end of the frame. It counts as touching for the next update's events (which report its
    /// `end` unless it touches again), not for [`crate::World::is_touching`].
    pub const SWEPT: EventFlags = EventFlags(16);

    /// Whether every flag of `other` is set.
    #[inline]
    pub fn contains(self, other: EventFlags) -> bool {
        self.0 & other.0 == other.0
    }
}

impl core::ops::BitOr for EventFlags {
    type Output = EventFlags;
    fn bitor(self, rhs: EventFlags) -> EventFlags {
        EventFlags(self.0 | rhs.0)
    }
}

impl core::ops::BitOrAssign for EventFlags {
    fn bitor_assign(&mut self, rhs: EventFlags) {
        self.0 |= rhs.0;
    }
}

/// "No manifold" in [`PairEvent::manifold`].
pub const NO_MANIFOLD: u32 = u32::MAX;

/// One pair event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PairEvent {
    /// The pair (smaller id first).
    pub pair: PairKey,
    /// The user values of `pair.0` and `pair.1`.
    pub user: [u64; 2],
    /// Flags.
    pub flags: EventFlags,
    /// Index into [`Events::manifolds`] for a begin or persist event of a pair that reports
    /// manifolds and has contact points; [`NO_MANIFOLD`] otherwise (always for `end`).
    pub manifold: u32,
}

impl PairEvent {
    /// This update's manifold of the pair, if it has one.
    pub fn manifold<'e>(&self, events: &'e Events) -> Option<&'e ContactManifold> {
        events.manifolds.get(self.manifold as usize)
    }
}

/// The first contact of a pair during one update's continuous sweep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CcdHit {
    /// The pair (smaller id first).
    pub pair: PairKey,
    /// Time of impact as a fraction of the frame's motion, in `[0, 1]` (0: the pose at the
    /// last update, 1: the pose now); never later than the exact first contact.
    pub time: Real,
    /// The contact point at that time (halfway between the two closest points).
    pub point: Point3,
    /// Unit normal from `pair.0` toward `pair.1` at that time.
    pub normal: Vector3,
}

/// Time spent in each phase of one update.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PhaseTimes {
    /// Broad phase: tree pair updates and candidate collection.
    pub broad: Duration,
    /// Filter, tight box test and cache lookup.
    pub filter: Duration,
    /// Narrow phase (intersection tests and manifolds), across all threads.
    pub narrow: Duration,
    /// Merging the chunks and building the events.
    pub events: Duration,
}

/// Statistics of one update.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct UpdateStats {
    /// Candidate pairs from the broad phase.
    pub candidates: usize,
    /// Candidates rejected by the filter (or pair policy).
    pub filtered: usize,
    /// Candidates whose tight boxes are disjoint.
    pub box_rejected: usize,
    /// Pairs that reached the narrow phase (tested or reused).
    pub pairs_tested: usize,
    /// Of those, pairs whose result was reused from the last update (neither collider
    /// changed).
    pub reused: usize,
    /// Touching pairs after the update.
    pub touching: usize,
    /// Colliders whose moving-against-static pairs were looked for again (edited since the
    /// last update); the others' pairs were kept. All colliders when the whole trees were
    /// walked (after a bulk build, or when most colliders were edited).
    pub static_rechecked: usize,
    /// Ccd colliders swept in this update (enabled, moved since the last update).
    pub ccd_swept: usize,
    /// Pairs whose time of impact was computed for the sweep.
    pub ccd_pairs: usize,
    /// Height of the moving colliders' tree (0 for a broad phase that is not a tree).
    pub moving_tree_depth: u32,
    /// Height of the static tree. (The trees' SAH costs walk every node, so they are not
    /// measured per update: ask [`crate::World::tree_sah_costs`].)
    pub static_tree_depth: u32,
    /// Time per phase (not part of any hash: it varies from run to run).
    pub time: PhaseTimes,
}

/// The output of one [`crate::World::update`]: events sorted by pair key, and the manifolds
/// they index.
#[derive(Debug, Clone, Default)]
pub struct Events {
    /// Pairs that started touching (or started passing the filter while touching).
    pub begin: Vec<PairEvent>,
    /// Pairs still touching whose pair reports [`crate::Report::Persist`] or more.
    pub persist: Vec<PairEvent>,
    /// Pairs that stopped touching, were removed, disabled or filtered out.
    pub end: Vec<PairEvent>,
    /// This update's manifolds, in pair-key order of the pairs that have one: the touching
    /// pairs, and the speculative ones (see [`Events::speculative`]).
    pub manifolds: Vec<ContactManifold>,
    /// Speculative contacts: pairs that report manifolds, pass the filter and do not touch,
    /// but whose gap is within `WorldConfig::contact.margin` (a manifold with negative
    /// depths, as [`sepax_narrowphase::contact::ContactConfig::margin`] defines). They are not
    /// touching (no begin, persist or end event); each entry is the pair and the index of its
    /// manifold in [`Events::manifolds`], sorted by pair key. Empty when the margin is 0.
    pub speculative: Vec<(PairKey, u32)>,
    /// Times of impact of this update's ccd sweeps, sorted by pair key: one for every begin or
    /// persist event flagged [`EventFlags::CCD`]. Empty without ccd colliders.
    pub ccd: Vec<CcdHit>,
    /// Statistics.
    pub stats: UpdateStats,
}

impl Events {
    pub(crate) fn clear(&mut self) {
        self.begin.clear();
        self.persist.clear();
        self.end.clear();
        self.manifolds.clear();
        self.speculative.clear();
        self.ccd.clear();
        self.stats = UpdateStats::default();
    }

    /// The time of impact of `pair` found by this update's sweep, if any.
    pub fn ccd_hit(&self, pair: PairKey) -> Option<&CcdHit> {
        self.ccd
            .binary_search_by(|h| h.pair.cmp(&pair))
            .ok()
            .map(|i| &self.ccd[i])
    }
}
