//! The per-frame update: broad phase -> filter -> tight boxes and the pair cache -> narrow
//! phase in chunks -> chunks merged in order -> sorted events.

use std::sync::Mutex;
use std::time::Instant;

use super::ccd::merge_sorted;
use super::narrow::{ChunkOut, Ctx, Mode, Work, CHUNK};
use super::{Tested, World};
use crate::collider::{grow_saturating, Collider, Kind, Report};
use crate::events::{EventFlags, Events, PairEvent, NO_MANIFOLD};
use crate::executor::Executor;
use crate::filter::PairPolicy;
use crate::id::{ColliderId, PairKey};
use crate::phase::MovingPhase;
use sepax_broadphase::{BroadPhase, ProxyId, Visit};

impl<B: MovingPhase> World<B> {
    /// Runs one frame: finds every touching pair that passes the filter and reports what
    /// changed since the last update (see the event rules on [`World`]). Allocates nothing
    /// once its buffers have grown to the scene (with [`crate::Serial`]).
    pub fn update(&mut self, exec: &impl Executor) -> &Events {
        let _span =
            tracing::debug_span!("sepax_world::update", colliders = self.colliders.len()).entered();
        // The last update's manifolds stay readable (for reuse) while the new ones are built.
        core::mem::swap(&mut self.events.manifolds, &mut self.scratch.manifolds);
        self.events.clear();
        self.removed.sort_unstable_by_key(|r| r.id);

        let t0 = Instant::now();
        self.broad_phase(exec);
        let t1 = Instant::now();
        self.filter_pairs();
        let t2 = Instant::now();
        let chunks = self.narrow_phase(exec);
        let t3 = Instant::now();
        self.merge(chunks);
        self.ccd_sweep(exec);
        self.build_events();
        self.ccd_finish();
        let t4 = Instant::now();

        let stats = &mut self.events.stats;
        stats.time.broad = t1 - t0;
        stats.time.filter = t2 - t1;
        stats.time.narrow = t3 - t2;
        stats.time.events = t4 - t3;
        stats.moving_tree_depth = self.moving.tree_depth().unwrap_or(0);
        stats.static_tree_depth = self.statics.height();
        self.removed.clear();
        self.edited.clear();
        self.edited_removed = 0;
        self.epoch += 1;
        &self.events
    }

    /// Every candidate pair (overlapping broad-phase boxes), sorted by pair key.
    fn broad_phase(&mut self, exec: &impl Executor) {
        let _span = tracing::debug_span!("broad").entered();
        let cands = &mut self.scratch.candidates;
        let pp = &mut self.scratch.proxy_pairs;
        cands.clear();
        let key = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(PairKey::new(
                ColliderId::from_bits(a),
                ColliderId::from_bits(b),
            )),
            _ => None,
        };
        self.moving.update_pairs_on(pp, &|n, job| exec.run(n, job));
        let moving = &self.moving;
        cands.extend(
            pp.iter()
                .filter_map(|&(p, q)| key(moving.user(p), moving.user(q))),
        );
        self.static_candidates();
        let cands = &mut self.scratch.candidates;
        cands.extend_from_slice(&self.static_pairs);
        let pp = &mut self.scratch.proxy_pairs;
        if self.config.policy == PairPolicy::AllPairs || self.forced_static > 0 {
            self.statics.update_pairs(pp);
            let statics = &self.statics;
            cands.extend(
                pp.iter()
                    .filter_map(|&(p, q)| key(statics.user(p), statics.user(q))),
            );
        }
        super::sort::sort_pairs(cands, &mut self.scratch.sort_tmp);
        self.events.stats.candidates = cands.len();
    }

    /// The moving-against-static candidates into `static_pairs`: the last update's pairs of
    /// colliders not edited since (their stored boxes did not change, so neither did their
    /// overlap), plus the pairs of the edited ones, looked for in the other tree. The whole
    /// tree-against-tree walk when every box may have changed (a bulk build) or when most
    /// colliders were edited (one walk is then cheaper than a query per collider).
    fn static_candidates(&mut self) {
        let (moving, statics) = (&self.moving, &self.statics);
        let (colliders, epoch) = (&self.colliders, self.epoch);
        let edits = self.edited.len() - self.edited_removed;
        debug_assert_eq!(
            edits,
            self.edited
                .iter()
                .filter(|id| colliders.contains_key(**id))
                .count()
        );
        if 2 * edits > colliders.len() {
            self.static_pairs_valid = false;
        }
        let out = &mut self.static_pairs;
        let key = |m: Option<u64>, s: Option<u64>| {
            Some(PairKey::new(
                ColliderId::from_bits(m?),
                ColliderId::from_bits(s?),
            ))
        };
        if !self.static_pairs_valid {
            out.clear();
            moving.pairs_with_static(statics, &mut |m: ProxyId, s: ProxyId| {
                out.extend(key(moving.user(m), statics.user(s)));
            });
            out.sort_unstable();
            self.static_pairs_valid = true;
            self.events.stats.static_rechecked = colliders.len();
            return;
        }
        self.events.stats.static_rechecked = edits;
        let edited = |id: ColliderId| colliders.get(id).is_none_or(|c| c.changed >= epoch);
        out.retain(|k| !(edited(k.0) || edited(k.1)));
        let kept = out.len();
        for &id in &self.edited {
            let Some(c) = colliders.get(id) else { continue };
            let Some(p) = c.proxy else { continue };
            let mine = Some(id.to_bits());
            if c.desc.kind == Kind::Static {
                let Some(b) = statics.stored_aabb(p) else {
                    continue;
                };
                BroadPhase::query_aabb(moving, &b, &mut |m| {
                    out.extend(key(moving.user(m), mine));
                    Visit::Continue
                });
            } else {
                let Some(b) = moving.stored_aabb(p) else {
                    continue;
                };
                statics.query_aabb(&b, |s| {
                    out.extend(key(mine, statics.user(s)));
                    Visit::Continue
                });
            }
        }
        if out.len() > kept {
            // Two edited colliders find their pair from both sides.
            out.sort_unstable();
            out.dedup();
        }
    }

    /// The filter, the pair cache and the tight box test: the narrow phase's work list.
    fn filter_pairs(&mut self) {
        let _span = tracing::debug_span!("filter").entered();
        let work = &mut self.scratch.work;
        work.clear();
        let prev = &self.tested;
        let mut cursor = 0;
        let (mut filtered, mut boxed, mut reused) = (0, 0, 0);
        for &pair in &self.scratch.candidates {
            let (a, b) = (&self.colliders[pair.0], &self.colliders[pair.1]);
            if !pair_allowed(self.config.policy, a, b, pair.1) {
                filtered += 1;
                continue;
            }
            while cursor < prev.len() && prev[cursor].pair < pair {
                cursor += 1;
            }
            let mode = pair_mode(a, b);
            let unchanged = a.changed < self.epoch && b.changed < self.epoch;
            if unchanged && cursor < prev.len() && prev[cursor].pair == pair {
                let t = prev[cursor];
                work.push(Work {
                    pair,
                    mode,
                    reuse: Some((t.touching, t.manifold)),
                });
                reused += 1;
                continue;
            }
            let margin = self.config.contact.margin;
            let near = if mode == Mode::Manifold && margin > 0.0 {
                grow_saturating(&a.world_aabb, margin).intersects(&b.world_aabb)
            } else {
                a.world_aabb.intersects(&b.world_aabb)
            };
            if !near {
                boxed += 1;
                continue;
            }
            work.push(Work {
                pair,
                mode,
                reuse: None,
            });
        }
        let stats = &mut self.events.stats;
        stats.filtered = filtered;
        stats.box_rejected = boxed;
        stats.reused = reused;
        stats.pairs_tested = work.len();
    }

    /// Runs the work list in chunks on `exec`; returns the number of chunks.
    fn narrow_phase(&mut self, exec: &impl Executor) -> usize {
        let _span = tracing::debug_span!("narrow", pairs = self.scratch.work.len()).entered();
        let chunks = self.scratch.work.len().div_ceil(CHUNK);
        while self.scratch.chunks.len() < chunks {
            self.scratch.chunks.push(Mutex::new(ChunkOut::default()));
        }
        let ctx = Ctx {
            colliders: &self.colliders,
            work: &self.scratch.work,
            prev: &self.scratch.manifolds,
            config: &self.config.contact,
            chunks: &self.scratch.chunks,
        };
        exec.run(chunks, &|i| ctx.run(i));
        chunks
    }

    /// Joins the chunks in chunk order into the new result list and this update's manifolds.
    fn merge(&mut self, chunks: usize) {
        let _span = tracing::debug_span!("merge").entered();
        let tested = &mut self.scratch.tested;
        tested.clear();
        let manifolds = &mut self.events.manifolds;
        let mut w = self.scratch.work.iter();
        for chunk in &mut self.scratch.chunks[..chunks] {
            let out = chunk.get_mut().unwrap_or_else(|e| e.into_inner());
            // Moved out, not cloned: the chunk is refilled from scratch at the next update.
            for o in &mut out.items {
                let work = w.next().expect("one outcome per work item");
                let mut manifold = NO_MANIFOLD;
                // A manifold of a pair that does not touch is speculative (within the margin).
                if let Some(m) = o.manifold.take() {
                    manifold = manifolds.len() as u32;
                    manifolds.push(m);
                    if !o.touching {
                        self.events.speculative.push((work.pair, manifold));
                    }
                }
                tested.push(Tested {
                    pair: work.pair,
                    touching: o.touching,
                    manifold,
                });
            }
        }
        core::mem::swap(&mut self.tested, &mut self.scratch.tested);
    }

    /// Begin / persist / end: the last update's touching pairs (now in `scratch.tested`)
    /// against this update's (`tested`), both sorted.
    fn build_events(&mut self) {
        let _span = tracing::debug_span!("events").entered();
        // Pairs that touched only during a ccd sweep count as touching for the events (see
        // `ccd`): merged in pair order with the touching ones (the two sets are disjoint).
        let old_touching = self.scratch.tested.iter().filter(|t| t.touching);
        let old = merge_sorted(old_touching.map(|t| t.pair), self.ccd.swept.iter().copied());
        let mut old = old.peekable();
        let new_touching = self.tested.iter().filter(|t| t.touching);
        let new = merge_sorted(
            new_touching.map(|t| (t.pair, t.manifold, false)),
            self.ccd.swept_new.iter().map(|&p| (p, NO_MANIFOLD, true)),
        );
        let mut new = new.peekable();
        let ev = &mut self.events;
        let mut touching = 0;
        loop {
            let (o, n) = (old.peek().copied(), new.peek().map(|t| t.0));
            match (o, n) {
                (None, None) => break,
                (Some(po), pn) if pn.is_none_or(|pn| po < pn) => {
                    old.next();
                    ev.end.push(end_event(
                        &self.colliders,
                        &self.removed,
                        self.config.policy,
                        po,
                    ));
                }
                (po, Some(pn)) => {
                    let (_, manifold, swept) = new.next().expect("peeked");
                    touching += usize::from(!swept);
                    let (a, b) = (&self.colliders[pn.0], &self.colliders[pn.1]);
                    let mut e = live_event(a, b, pn, manifold);
                    if !ev.ccd.is_empty() && ev.ccd_hit(pn).is_some() {
                        e.flags |= EventFlags::CCD;
                    }
                    if swept {
                        e.flags |= EventFlags::SWEPT;
                    }
                    if po == Some(pn) {
                        old.next();
                        if a.desc.report.max(b.desc.report) >= Report::Persist {
                            ev.persist.push(e);
                        }
                    } else {
                        ev.begin.push(e);
                    }
                }
                (Some(_), None) => unreachable!("handled by the guard above"),
            }
        }
        ev.stats.touching = touching;
    }
}

/// The filter rule (see [`World`]).
#[inline]
pub(crate) fn pair_allowed(
    policy: PairPolicy,
    a: &Collider,
    b: &Collider,
    b_id: ColliderId,
) -> bool {
    if !(a.desc.enabled && b.desc.enabled) {
        return false;
    }
    if !a.pairs.is_empty() {
        if let Some(e) = a.pair_entry(b_id) {
            return e;
        }
    }
    if policy == PairPolicy::SkipStaticStatic
        && a.desc.kind == Kind::Static
        && b.desc.kind == Kind::Static
    {
        return false;
    }
    a.desc.filter.passes(&b.desc.filter)
}

fn pair_mode(a: &Collider, b: &Collider) -> Mode {
    let manifolds = a.desc.report.max(b.desc.report) == Report::Manifolds;
    if manifolds && !a.desc.sensor && !b.desc.sensor {
        Mode::Manifold
    } else {
        Mode::Bool
    }
}

fn live_event(a: &Collider, b: &Collider, pair: PairKey, manifold: u32) -> PairEvent {
    let mut flags = EventFlags::NONE;
    if a.desc.sensor || b.desc.sensor {
        flags |= EventFlags::SENSOR;
    }
    PairEvent {
        pair,
        user: [a.desc.user, b.desc.user],
        flags,
        manifold,
    }
}

fn end_event(
    colliders: &slotmap::SlotMap<ColliderId, Collider>,
    removed: &[super::Removed],
    policy: PairPolicy,
    pair: PairKey,
) -> PairEvent {
    let side = |id: ColliderId| match colliders.get(id) {
        Some(c) => (c.desc.user, c.desc.sensor, true),
        None => removed
            .binary_search_by_key(&id, |r| r.id)
            .map_or((0, false, false), |i| {
                (removed[i].user, removed[i].sensor, false)
            }),
    };
    let (ua, sa, la) = side(pair.0);
    let (ub, sb, lb) = side(pair.1);
    let mut flags = EventFlags::NONE;
    if sa || sb {
        flags |= EventFlags::SENSOR;
    }
    if !(la && lb) {
        flags |= EventFlags::REMOVED;
    } else if !pair_allowed(policy, &colliders[pair.0], &colliders[pair.1], pair.1) {
        flags |= EventFlags::FILTERED;
    }
    PairEvent {
        pair,
        user: [ua, ub],
        flags,
        manifold: NO_MANIFOLD,
    }
}
