//! Which colliders a query sees: [`QueryFilter`].

use crate::collider::{Collider, Kind};
use crate::filter::Filter;
use crate::id::ColliderId;

/// A set of collider kinds, as bits (`1 << kind as u8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KindMask(pub u8);

impl KindMask {
    /// Every kind.
    pub const ALL: KindMask = KindMask(0b111);
    /// Static colliders only.
    pub const STATIC: KindMask = KindMask(1 << Kind::Static as u8);
    /// Kinematic and dynamic colliders.
    pub const MOVING: KindMask = KindMask(1 << Kind::Kinematic as u8 | 1 << Kind::Dynamic as u8);

    /// Whether `kind` is in the set.
    #[inline]
    pub fn contains(self, kind: Kind) -> bool {
        self.0 & (1 << kind as u8) != 0
    }
}

impl Default for KindMask {
    fn default() -> Self {
        KindMask::ALL
    }
}

/// A user predicate of a [`QueryFilter`]: `true` keeps the collider.
pub type Predicate<'a> = &'a (dyn Fn(ColliderId, &Collider) -> bool + Sync);

/// Which colliders a query sees. An enabled collider `c` is seen when **all** of these hold, in
/// this order:
/// 1. it is not `exclude` and not `as_collider`;
/// 2. its kind is in `kinds`;
/// 3. when `as_collider` has an explicit pair entry with `c` ([`crate::World::allow_pair`]),
///    the entry alone decides the filter step (`true` seen, `false` never);
/// 4. otherwise the filter rule of [`Filter::passes`] between the query's filter and `c`'s
///    (the query's filter is `filter`, else `as_collider`'s; no filter at all lets every
///    collider pass);
/// 5. and the predicate, if any, returns `true`.
///
/// Disabled colliders are never seen. [`QueryFilter::default`] sees every enabled collider.
#[derive(Clone, Copy, Default)]
pub struct QueryFilter<'a> {
    /// The query's filter data, checked against each collider's by [`Filter::passes`].
    pub filter: Option<Filter>,
    /// The kinds seen.
    pub kinds: KindMask,
    /// A collider never seen (the caster itself).
    pub exclude: Option<ColliderId>,
    /// Query on behalf of this collider: it is excluded, its filter is used when `filter` is
    /// `None`, and its explicit pair entries decide for the colliders they name.
    pub as_collider: Option<ColliderId>,
    /// A last say, called only for colliders that passed the rest.
    pub predicate: Option<Predicate<'a>>,
}

impl core::fmt::Debug for QueryFilter<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("QueryFilter")
            .field("filter", &self.filter)
            .field("kinds", &self.kinds)
            .field("exclude", &self.exclude)
            .field("as_collider", &self.as_collider)
            .field("predicate", &self.predicate.is_some())
            .finish()
    }
}

impl<'a> QueryFilter<'a> {
    /// Sees every enabled collider.
    pub fn new() -> Self {
        Self::default()
    }

    /// Queries on behalf of `id` (see [`QueryFilter::as_collider`]).
    pub fn for_collider(id: ColliderId) -> Self {
        Self {
            as_collider: Some(id),
            ..Self::default()
        }
    }

    /// With the query's own filter data.
    pub fn filter(mut self, filter: Filter) -> Self {
        self.filter = Some(filter);
        self
    }

    /// Only these kinds.
    pub fn kinds(mut self, kinds: KindMask) -> Self {
        self.kinds = kinds;
        self
    }

    /// Never sees `id`.
    pub fn exclude(mut self, id: ColliderId) -> Self {
        self.exclude = Some(id);
        self
    }

    /// With a user predicate.
    pub fn predicate(mut self, p: Predicate<'a>) -> Self {
        self.predicate = Some(p);
        self
    }
}

/// A [`QueryFilter`] resolved against the world once per query.
pub(crate) struct Resolved<'q, 'a> {
    q: &'q QueryFilter<'a>,
    source: Option<&'q Collider>,
    filter: Option<Filter>,
}

impl<'q, 'a> Resolved<'q, 'a> {
    pub(crate) fn new(q: &'q QueryFilter<'a>, source: Option<&'q Collider>) -> Self {
        let filter = q.filter.or(source.map(|s| *s.filter()));
        Self { q, source, filter }
    }

    /// Whether the query sees the enabled collider `c` with id `id`.
    #[inline]
    pub(crate) fn sees(&self, id: ColliderId, c: &Collider) -> bool {
        if Some(id) == self.q.exclude || Some(id) == self.q.as_collider {
            return false;
        }
        if !self.q.kinds.contains(c.kind()) {
            return false;
        }
        let entry = self.source.and_then(|s| s.pair_entry(id));
        let passes = match (entry, &self.filter) {
            (Some(allowed), _) => allowed,
            (None, Some(f)) => f.passes(c.filter()),
            (None, None) => true,
        };
        passes && self.q.predicate.is_none_or(|p| p(id, c))
    }
}

impl Resolved<'_, '_> {
    /// The kinds seen (to skip a tree).
    #[inline]
    pub(crate) fn kinds(&self) -> KindMask {
        self.q.kinds
    }

    /// Whether the query sees every enabled collider whose kind is in `kinds` (no exclusion,
    /// no source collider, no filter data, no predicate): then [`Resolved::sees`] is true for
    /// every collider of a tree that holds only kinds of `kinds`, and need not be asked.
    #[inline]
    pub(crate) fn sees_all_of(&self, kinds: KindMask) -> bool {
        self.q.exclude.is_none()
            && self.q.as_collider.is_none()
            && self.filter.is_none()
            && self.q.predicate.is_none()
            && self.q.kinds.0 & kinds.0 == kinds.0
    }
}
