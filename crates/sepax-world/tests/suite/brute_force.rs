//! Randomized worlds against a brute-force model that tests every pair with the narrow phase
//! each frame: every shape kind, every collider kind, sensors, filters, groups, owners, explicit
//! pair entries and both pair policies, under inserts, removes, pose, shape, kind, filter,
//! enable, user and pair-entry changes, with and without a speculative contact margin. The touching set and the begin / persist / end events (pairs,
//! user values, flags, manifolds bit for bit) must be exactly the model's.

use crate::common;

use common::allowed;

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_narrowphase::contact::{contact_manifold_shapes, ContactConfig, ContactManifold};
use sepax_narrowphase::intersect::intersects_shapes;
use sepax_shapes::math::Real;
use sepax_world::{
    ColliderDesc, ColliderId, EventFlags, Kind, PairEvent, PairKey, PairPolicy, Report, Serial,
    Visit, World, WorldConfig,
};

/// What a touching pair looks like in an event: pair, users, flags, manifold.
type Expected = (PairKey, [u64; 2], EventFlags, Option<ContactManifold>);

/// The pairs touching now, and the speculative ones (not touching, manifold within the margin).
type Now = (BTreeMap<PairKey, Expected>, Vec<(PairKey, ContactManifold)>);

struct Model {
    policy: PairPolicy,
    contact: ContactConfig,
    live: BTreeMap<ColliderId, ColliderDesc>,
    entries: BTreeMap<PairKey, bool>,
    /// Removed since the last update: user value and sensor flag.
    removed: BTreeMap<ColliderId, (u64, bool)>,
    /// Touching pairs at the last update.
    touching: BTreeMap<PairKey, Expected>,
}

impl Model {
    fn touching_now(&self) -> Now {
        let mut out = BTreeMap::new();
        let mut speculative = Vec::new();
        let ids: Vec<_> = self.live.keys().copied().collect();
        let placed: Vec<_> = ids
            .iter()
            .map(|id| {
                let d = &self.live[id];
                d.shape.transformed(&d.pose).unwrap()
            })
            .collect();
        for i in 0..ids.len() {
            for j in i + 1..ids.len() {
                let (a, b) = (&self.live[&ids[i]], &self.live[&ids[j]]);
                let key = PairKey(ids[i], ids[j]);
                if !allowed(self.policy, &self.entries, a, b, key) {
                    continue;
                }
                let sensor = a.sensor || b.sensor;
                let wants = a.report.max(b.report) == Report::Manifolds && !sensor;
                let manifold = || {
                    contact_manifold_shapes(&placed[i], &placed[j], &self.contact)
                        .filter(|m| !m.points.is_empty())
                };
                if !intersects_shapes(&placed[i], &placed[j]) {
                    if let (true, Some(m)) = (wants && self.contact.margin > 0.0, manifold()) {
                        speculative.push((key, m));
                    }
                    continue;
                }
                let manifold = if wants { manifold() } else { None };
                let flags = if sensor {
                    EventFlags::SENSOR
                } else {
                    EventFlags::NONE
                };
                out.insert(key, (key, [a.user, b.user], flags, manifold));
            }
        }
        (out, speculative)
    }

    fn side(&self, id: ColliderId) -> (u64, bool, bool) {
        match self.live.get(&id) {
            Some(d) => (d.user, d.sensor, true),
            None => {
                let (u, s) = self.removed[&id];
                (u, s, false)
            }
        }
    }

    /// The expected (begin, persist, end, speculative) of an update, and the new state.
    #[allow(clippy::type_complexity)]
    fn update(
        &mut self,
    ) -> (
        Vec<Expected>,
        Vec<Expected>,
        Vec<Expected>,
        Vec<(PairKey, ContactManifold)>,
    ) {
        let (now, speculative) = self.touching_now();
        let mut begin = Vec::new();
        let mut persist = Vec::new();
        let mut end = Vec::new();
        for (k, e) in &now {
            if self.touching.contains_key(k) {
                let (a, b) = (&self.live[&k.0], &self.live[&k.1]);
                if a.report.max(b.report) >= Report::Persist {
                    persist.push(e.clone());
                }
            } else {
                begin.push(e.clone());
            }
        }
        for k in self.touching.keys() {
            if now.contains_key(k) {
                continue;
            }
            let (ua, sa, la) = self.side(k.0);
            let (ub, sb, lb) = self.side(k.1);
            let mut flags = EventFlags::NONE;
            if sa || sb {
                flags |= EventFlags::SENSOR;
            }
            if !(la && lb) {
                flags |= EventFlags::REMOVED;
            } else if !allowed(
                self.policy,
                &self.entries,
                &self.live[&k.0],
                &self.live[&k.1],
                *k,
            ) {
                flags |= EventFlags::FILTERED;
            }
            end.push((*k, [ua, ub], flags, None));
        }
        self.touching = now;
        self.removed.clear();
        (begin, persist, end, speculative)
    }
}

fn seen(list: &[PairEvent], manifolds: &[ContactManifold]) -> Vec<Expected> {
    list.iter()
        .map(|e| {
            let m = manifolds.get(e.manifold as usize).cloned();
            (e.pair, e.user, e.flags, m)
        })
        .collect()
}

/// The description as the world keeps it: the same but for the rotation, renormalised on
/// insert (checked here to be the only difference, and tiny).
fn stored(world: &World, id: ColliderId, given: ColliderDesc) -> ColliderDesc {
    let kept = world.get(id).unwrap().desc().clone();
    let (q0, q1) = (given.pose.rotation, kept.pose.rotation);
    assert!(
        q0.angle_to(&q1) < 1e-3,
        "rotation changed by more than a renormalisation"
    );
    assert_eq!(
        ColliderDesc {
            pose: given.pose,
            ..kept.clone()
        },
        given
    );
    kept
}

/// One random edit of the world and the model (or a stale-id probe).
fn edit(
    rng: &mut ChaCha8Rng,
    world: &mut World,
    model: &mut Model,
    stale: &mut Vec<ColliderId>,
    next_user: &mut u64,
) {
    let ids: Vec<ColliderId> = model.live.keys().copied().collect();
    let pick = |rng: &mut ChaCha8Rng| ids[rng.random_range(0..ids.len())];
    let region: Real = 2.5;
    // About 24 colliders: inserts below 16, removes above 32.
    let op = match ids.len() {
        0..16 => 0,
        33.. => 3,
        _ => rng.random_range(0..13),
    };
    match op {
        0 | 1 => {
            *next_user += 1;
            let d = common::desc(rng, region, *next_user);
            let id = world.insert(d.clone()).unwrap();
            model.live.insert(id, stored(world, id, d));
        }
        2 => {
            let mut batch = Vec::new();
            for _ in 0..rng.random_range(1..4) {
                *next_user += 1;
                batch.push(common::desc(rng, region, *next_user));
            }
            let mut new = Vec::new();
            world.insert_many(batch.clone(), &mut new).unwrap();
            for (id, d) in new.into_iter().zip(batch) {
                model.live.insert(id, stored(world, id, d));
            }
        }
        3 => {
            let id = pick(rng);
            let c = world.remove(id).unwrap();
            assert_eq!(c.user(), model.live[&id].user);
            let d = model.live.remove(&id).unwrap();
            model.removed.insert(id, (d.user, d.sensor));
            model.entries.retain(|k, _| k.0 != id && k.1 != id);
            stale.push(id);
        }
        4 | 5 => {
            // Small moves mostly (cache reuse, fat boxes), a teleport now and then.
            let id = pick(rng);
            let pose = if rng.random_bool(0.7) {
                let mut p = model.live[&id].pose;
                p.translation.vector += common::point(rng, 0.2).coords;
                p
            } else {
                common::pose(rng, region)
            };
            world.set_pose(id, pose).unwrap();
            model.live.get_mut(&id).unwrap().pose = world.get(id).unwrap().desc().pose;
        }
        6 => {
            let chosen: Vec<ColliderId> = (0..3).map(|_| pick(rng)).collect();
            let mut uniq = chosen.clone();
            uniq.sort();
            uniq.dedup();
            let poses: Vec<_> = uniq.iter().map(|_| common::pose(rng, region)).collect();
            world.set_poses(&uniq, &poses).unwrap();
            for id in &uniq {
                model.live.get_mut(id).unwrap().pose = world.get(*id).unwrap().desc().pose;
            }
        }
        7 => {
            let id = pick(rng);
            let s = common::shape(rng);
            world.set_shape(id, s).unwrap();
            model.live.get_mut(&id).unwrap().shape = s;
        }
        8 => {
            let id = pick(rng);
            let f = common::filter(rng);
            world.set_filter(id, f).unwrap();
            model.live.get_mut(&id).unwrap().filter = f;
        }
        9 => {
            let id = pick(rng);
            let e = !model.live[&id].enabled;
            world.set_enabled(id, e).unwrap();
            model.live.get_mut(&id).unwrap().enabled = e;
        }
        10 => {
            let (a, b) = (pick(rng), pick(rng));
            if a == b {
                assert!(world.allow_pair(a, b, true).is_err());
                return;
            }
            let key = PairKey::new(a, b);
            if rng.random_bool(0.25) {
                world.reset_pair(a, b).unwrap();
                model.entries.remove(&key);
            } else {
                let v = rng.random_bool(0.5);
                world.allow_pair(a, b, v).unwrap();
                model.entries.insert(key, v);
            }
        }
        12 => {
            let id = pick(rng);
            let kind = [Kind::Static, Kind::Kinematic, Kind::Dynamic][rng.random_range(0..3)];
            world.set_kind(id, kind).unwrap();
            model.live.get_mut(&id).unwrap().kind = kind;
        }
        _ => {
            let id = pick(rng);
            *next_user += 1;
            world.set_user(id, *next_user).unwrap();
            model.live.get_mut(&id).unwrap().user = *next_user;
            if let Some(&s) = stale.last() {
                assert_eq!(
                    world.set_pose(s, common::pose(rng, 1.0)).unwrap_err(),
                    sepax_world::WorldError::StaleId(s)
                );
                assert!(world.get(s).is_err() && world.remove(s).is_err());
            }
        }
    }
}

fn run(seed: u64, frames: usize, policy: PairPolicy) {
    run_with(seed, frames, policy, ContactConfig::default());
}

fn run_with(seed: u64, frames: usize, policy: PairPolicy, contact: ContactConfig) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let config = WorldConfig {
        policy,
        contact,
        ..WorldConfig::default()
    };
    let mut world = World::with_config(config).unwrap();
    let mut model = Model {
        policy,
        contact,
        live: BTreeMap::new(),
        entries: BTreeMap::new(),
        removed: BTreeMap::new(),
        touching: BTreeMap::new(),
    };
    let (mut stale, mut next_user) = (Vec::new(), 0);
    // What the run exercised: begin, persist, end, manifolds, REMOVED ends, FILTERED ends,
    // reused results, speculative contacts.
    let mut seen_counts = [0usize; 8];
    for frame in 0..frames {
        for _ in 0..rng.random_range(0..5) {
            edit(&mut rng, &mut world, &mut model, &mut stale, &mut next_user);
        }
        let (begin, persist, end, speculative) = model.update();
        let ev = world.update(&Serial);
        let ctx = format!("seed {seed}, frame {frame}");
        seen_counts[0] += ev.begin.len();
        seen_counts[1] += ev.persist.len();
        seen_counts[2] += ev.end.len();
        seen_counts[3] += ev.manifolds.len();
        seen_counts[4] += ev
            .end
            .iter()
            .filter(|e| e.flags.contains(EventFlags::REMOVED))
            .count();
        seen_counts[5] += ev
            .end
            .iter()
            .filter(|e| e.flags.contains(EventFlags::FILTERED))
            .count();
        seen_counts[6] += ev.stats.reused;
        seen_counts[7] += ev.speculative.len();
        let spec: Vec<(PairKey, ContactManifold)> = ev
            .speculative
            .iter()
            .map(|&(k, i)| (k, ev.manifolds[i as usize].clone()))
            .collect();
        assert_eq!(spec, speculative, "speculative, {ctx}");
        assert!(
            spec.iter()
                .all(|(_, m)| m.points.iter().all(|p| p.depth < 0.0)),
            "speculative points have negative depth, {ctx}"
        );
        assert_eq!(seen(&ev.begin, &ev.manifolds), begin, "begin, {ctx}");
        assert_eq!(seen(&ev.persist, &ev.manifolds), persist, "persist, {ctx}");
        assert_eq!(seen(&ev.end, &ev.manifolds), end, "end, {ctx}");
        let touching: Vec<PairKey> = world.touching().collect();
        let expected: Vec<PairKey> = model.touching.keys().copied().collect();
        assert_eq!(touching, expected, "touching, {ctx}");
        if frame % 16 == 0 {
            let mut streamed = Vec::new();
            world.for_each_touching(|a, b| {
                streamed.push(PairKey(a, b));
                Visit::Continue
            });
            assert_eq!(streamed, expected, "streamed, {ctx}");
        }
        for (k, e) in &model.touching {
            assert_eq!(world.manifold(k.0, k.1), e.3.as_ref(), "manifold, {ctx}");
        }
        for (k, m) in &speculative {
            assert!(
                !world.is_touching(k.0, k.1),
                "speculative is not touching, {ctx}"
            );
            assert_eq!(world.manifold(k.0, k.1), Some(m), "manifold, {ctx}");
        }
    }
    let least_spec = if contact.margin > 0.0 { 50 } else { 0 };
    let least = [50, 50, 50, 50, 20, 5, 100, least_spec];
    assert!(
        seen_counts.iter().zip(least).all(|(&n, l)| n >= l),
        "seed {seed} exercised too little: {seen_counts:?} (at least {least:?})"
    );
}

#[test]
fn random_worlds_match_brute_force_default_policy() {
    for seed in 0..10 {
        run(seed, 500, PairPolicy::SkipStaticStatic);
    }
}

#[test]
fn random_worlds_match_brute_force_all_pairs() {
    for seed in 100..110 {
        run(seed, 500, PairPolicy::AllPairs);
    }
}

/// A speculative margin: pairs that report manifolds and lie within it without touching get
/// the narrow phase's speculative manifold (`Events::speculative`), never an event.
#[test]
fn random_worlds_match_brute_force_speculative_margin() {
    for seed in 200..203 {
        run_with(
            seed,
            500,
            PairPolicy::SkipStaticStatic,
            ContactConfig::with_margin(0.15),
        );
    }
}
