//! Collectors: what a query does with each hit, with early out.
//!
//! Every hit has an order key (`t`: the ray distance, the cast time, the distance; 0 for an
//! overlap) and a collider id. A query keeps a *clip* value, starting at its limit (ray length,
//! maximum time or distance); it hands the collector every hit with `t <= clip`, in an order
//! that depends on the trees, and the collector answers [`Step::Clip`] to lower the clip or
//! [`Step::Stop`] to end the query. The built-in collectors order hits by `(t, id)`, so their
//! results do not depend on the order hits arrive in: the same world gives the same answer
//! whatever its edit history, and so does every thread of a batch.

use sepax_shapes::math::Real;

use crate::id::ColliderId;

/// What a collector tells the query to do next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Step {
    /// Keep going with the current clip.
    Continue,
    /// Report from now on only hits with `t <= clip` (the clip never grows; a NaN is ignored).
    Clip(Real),
    /// End the query now.
    Stop,
}

/// A hit of some query: its collider and order key.
pub trait Hit: Copy {
    /// The collider hit.
    fn id(&self) -> ColliderId;
    /// The order key (distance, time; 0 for an overlap).
    fn t(&self) -> Real;
}

/// `Hit` for a hit record with an `id` field; `|h| key` is its order key.
macro_rules! hit_record {
    ($hit:ty, |$h:ident| $t:expr) => {
        impl $crate::query::collect::Hit for $hit {
            #[inline]
            fn id(&self) -> $crate::id::ColliderId {
                self.id
            }
            #[inline]
            fn t(&self) -> sepax_shapes::math::Real {
                let $h = self;
                $t
            }
        }
    };
}
pub(crate) use hit_record;

/// An overlap hit is the collider's id alone.
impl Hit for ColliderId {
    fn id(&self) -> ColliderId {
        *self
    }
    fn t(&self) -> Real {
        0.0
    }
}

/// What a query does with its hits.
pub trait Collector<H: Hit> {
    /// Takes one hit (its `t` is at most the current clip).
    fn add(&mut self, hit: H) -> Step;
    /// Called once after the last hit (the built-ins sort there).
    fn finish(&mut self) {}
}

/// The `(t, id)` order of every built-in collector.
#[inline]
pub(crate) fn before<H: Hit>(a: &H, b: &H) -> bool {
    a.t() < b.t() || (a.t() == b.t() && a.id() < b.id())
}

fn sort<H: Hit>(hits: &mut [H]) {
    hits.sort_unstable_by(|a, b| a.t().total_cmp(&b.t()).then(a.id().cmp(&b.id())));
}

/// The least hit by `(t, id)`.
#[derive(Debug, Clone, Copy)]
pub struct Closest<H>(pub Option<H>);

impl<H> Default for Closest<H> {
    fn default() -> Self {
        Closest(None)
    }
}

impl<H: Hit> Collector<H> for Closest<H> {
    #[inline]
    fn add(&mut self, hit: H) -> Step {
        if self.0.is_none_or(|b| before(&hit, &b)) {
            self.0 = Some(hit);
        }
        Step::Clip(hit.t())
    }
}

/// Some hit, the first found (which one depends on the trees); ends the query at once.
#[derive(Debug, Clone, Copy)]
pub struct AnyHit<H>(pub Option<H>);

impl<H> Default for AnyHit<H> {
    fn default() -> Self {
        AnyHit(None)
    }
}

impl<H: Hit> Collector<H> for AnyHit<H> {
    fn add(&mut self, hit: H) -> Step {
        self.0 = Some(hit);
        Step::Stop
    }
}

/// Every hit, sorted by `(t, id)` at the end. The vector is not cleared first.
#[derive(Debug)]
pub struct All<'v, H>(pub &'v mut Vec<H>);

impl<H: Hit> Collector<H> for All<'_, H> {
    #[inline]
    fn add(&mut self, hit: H) -> Step {
        self.0.push(hit);
        Step::Continue
    }

    fn finish(&mut self) {
        sort(self.0);
    }
}

/// The `n` least hits by `(t, id)`, sorted.
#[derive(Debug, Clone)]
pub struct FirstN<H> {
    n: usize,
    hits: Vec<H>,
}

impl<H: Hit> FirstN<H> {
    /// Keeps at most `n` hits.
    pub fn new(n: usize) -> Self {
        Self {
            n,
            hits: Vec::with_capacity(n.min(64)),
        }
    }

    /// The hits kept, sorted by `(t, id)` once the query finished.
    pub fn hits(&self) -> &[H] {
        &self.hits
    }

    /// The hits kept.
    pub fn into_hits(self) -> Vec<H> {
        self.hits
    }
}

impl<H: Hit> Collector<H> for FirstN<H> {
    fn add(&mut self, hit: H) -> Step {
        if self.n == 0 {
            return Step::Stop;
        }
        // Kept sorted: n is small, an insertion is a short move.
        let at = self.hits.partition_point(|h| before(h, &hit));
        if at < self.n {
            self.hits.insert(at, hit);
            self.hits.truncate(self.n);
        }
        match self.hits.last() {
            Some(last) if self.hits.len() == self.n => Step::Clip(last.t()),
            _ => Step::Continue,
        }
    }
}

/// A user collector from a closure, which sees the hits in the order the query finds them.
pub struct FnCollector<F>(pub F);

impl<H: Hit, F: FnMut(H) -> Step> Collector<H> for FnCollector<F> {
    fn add(&mut self, hit: H) -> Step {
        (self.0)(hit)
    }
}

/// The clip a query keeps, applied to a collector's answers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Clip {
    pub value: Real,
    pub stopped: bool,
}

impl Clip {
    pub(crate) fn new(limit: Real) -> Self {
        Self {
            value: limit,
            stopped: false,
        }
    }

    /// Hands `hit` to `c` when within the clip; returns whether the query goes on.
    #[inline]
    pub(crate) fn offer<H: Hit>(&mut self, c: &mut impl Collector<H>, hit: H) -> bool {
        if self.stopped {
            return false;
        }
        if hit.t() > self.value {
            return true;
        }
        match c.add(hit) {
            Step::Continue => {}
            Step::Clip(v) => {
                if v < self.value {
                    self.value = v;
                }
            }
            Step::Stop => self.stopped = true,
        }
        !self.stopped
    }
}
