//! Trajectory checks against brute force: every mover at every step against every other
//! collider and every other mover with the narrow phase (discrete), the time of impact
//! (swept) or the distance, the filter rule written out independently; the swept case the
//! discrete check misses; the same report at 1, 2 and 8 threads; refused input.

// Trajectory `b` indexes the report and the brute force alike.
#![allow(clippy::needless_range_loop)]

use crate::common;

use common::allowed;

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_narrowphase::distance::distance_shapes;
use sepax_narrowphase::intersect::intersects_shapes;
use sepax_narrowphase::toi::{time_of_impact_shapes, CastOptions, Motion};
use sepax_shapes::math::{Isometry3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Obb, Shape};
use sepax_world::{
    ColliderDesc, ColliderId, Kind, PairKey, PairPolicy, RayonExecutor, Serial, Sweep,
    TrajectoryError, TrajectoryHit, TrajectoryOptions, TrajectoryResult, World, WorldConfig,
};

/// The pose as the world takes it: a rotation whose squared norm is not exactly 1 is
/// renormalised.
fn normalised(p: &Isometry3) -> Isometry3 {
    let q = *p.rotation.quaternion();
    if q.norm_squared() == 1.0 {
        *p
    } else {
        Isometry3::from_parts(p.translation, UnitQuaternion::new_normalize(q))
    }
}

/// A collider a mover is tested with: its id, its shape at the step, and (swept) its shape at
/// the step before with its motion.
type Partner = (ColliderId, Shape, Option<(Shape, Motion)>);

struct Case {
    world: World,
    policy: PairPolicy,
    descs: BTreeMap<ColliderId, ColliderDesc>,
    entries: BTreeMap<PairKey, bool>,
    movers: Vec<ColliderId>,
    poses: Vec<Isometry3>,
    steps: usize,
}

impl Case {
    fn random(seed: u64, colliders: usize, mover_count: usize, batch: usize, steps: usize) -> Case {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let policy = if rng.random_bool(0.5) {
            PairPolicy::SkipStaticStatic
        } else {
            PairPolicy::AllPairs
        };
        let config = WorldConfig {
            policy,
            ..WorldConfig::default()
        };
        let mut world = World::with_config(config).unwrap();
        let mut descs = BTreeMap::new();
        for u in 0..colliders as u64 {
            let d = common::desc(&mut rng, 3.0, u);
            let id = world.insert(d.clone()).unwrap();
            descs.insert(id, world.get(id).unwrap().desc().clone());
        }
        let ids: Vec<ColliderId> = descs.keys().copied().collect();
        let mut entries = BTreeMap::new();
        for _ in 0..colliders / 2 {
            let (a, b) = (
                ids[rng.random_range(0..ids.len())],
                ids[rng.random_range(0..ids.len())],
            );
            if a != b {
                let v = rng.random_bool(0.5);
                world.allow_pair(a, b, v).unwrap();
                entries.insert(PairKey::new(a, b), v);
            }
        }
        let mut movers = ids.clone();
        for i in 0..movers.len() {
            let j = rng.random_range(i..movers.len());
            movers.swap(i, j);
        }
        movers.truncate(mover_count);
        let poses = (0..batch * steps * mover_count)
            .map(|_| common::pose(&mut rng, 3.0))
            .collect();
        Case {
            world,
            policy,
            descs,
            entries,
            movers,
            poses,
            steps,
        }
    }

    fn allowed(&self, a: ColliderId, b: ColliderId) -> bool {
        let key = PairKey::new(a, b);
        allowed(
            self.policy,
            &self.entries,
            &self.descs[&a],
            &self.descs[&b],
            key,
        )
    }

    fn placed(&self, b: usize, k: usize, i: usize) -> Shape {
        let m = self.movers.len();
        let pose = normalised(&self.poses[(b * self.steps + k) * m + i]);
        self.descs[&self.movers[i]]
            .shape
            .transformed(&pose)
            .unwrap()
    }

    fn pose(&self, b: usize, k: usize, i: usize) -> Isometry3 {
        let m = self.movers.len();
        normalised(&self.poses[(b * self.steps + k) * m + i])
    }

    fn others(&self) -> impl Iterator<Item = (ColliderId, Shape)> + '_ {
        self.descs
            .keys()
            .filter(|id| !self.movers.contains(id))
            .map(|&id| (id, *self.world.get(id).unwrap().world_shape()))
    }

    /// Every contact of trajectory `b`, sorted by step then pair: at the poses (discrete) or
    /// over the motion from the step before (swept, steps >= 1), every pair tested.
    fn brute_hits(&self, b: usize, sweep: Sweep) -> Vec<TrajectoryHit> {
        let m = self.movers.len();
        let mut hits = Vec::new();
        for k in 0..self.steps {
            let mut step = Vec::new();
            for i in 0..m {
                let me = self.movers[i];
                let shape = self.placed(b, k, i);
                let mut pairs: Vec<Partner> = self
                    .others()
                    .map(|(id, s)| (id, s, Some((s, Motion::linear(Vector3::zeros())))))
                    .collect();
                for j in i + 1..m {
                    let s = self.placed(b, k, j);
                    let motion = (k > 0).then(|| self.motion(b, k, j));
                    pairs.push((self.movers[j], s, motion));
                }
                for (other, s, other_motion) in pairs {
                    if !self.allowed(me, other) {
                        continue;
                    }
                    let t = if sweep == Sweep::Swept && k > 0 {
                        let (prev_other, mo) = match other_motion {
                            Some((_, mo)) if self.movers.contains(&other) => {
                                let j = self.movers.iter().position(|&x| x == other).unwrap();
                                (self.placed(b, k - 1, j), mo)
                            }
                            Some((s0, mo)) => (s0, mo),
                            None => unreachable!(),
                        };
                        let (prev_me, mm) = self.motion(b, k, i);
                        let toi = time_of_impact_shapes(
                            &prev_me,
                            &mm,
                            &prev_other,
                            &mo,
                            1.0,
                            &CastOptions::default(),
                        );
                        match toi {
                            Some(t) => Some(Some(t.time.clamp(0.0, 1.0))),
                            None => intersects_shapes(&shape, &s).then_some(Some(1.0)),
                        }
                    } else {
                        intersects_shapes(&shape, &s).then_some(None)
                    };
                    if let Some(t) = t {
                        step.push(TrajectoryHit {
                            step: k,
                            pair: PairKey::new(me, other),
                            t,
                        });
                    }
                }
            }
            step.sort_by_key(|h| h.pair);
            hits.extend(step);
        }
        hits
    }

    /// Mover `i`'s shape at step `k - 1` and its motion to step `k`: centre on the line,
    /// rotation along the shortest arc.
    fn motion(&self, b: usize, k: usize, i: usize) -> (Shape, Motion) {
        let (s0, s1) = (self.placed(b, k - 1, i), self.placed(b, k, i));
        let centre = |s: &Shape| Motion::about_center(s, Vector3::zeros(), Vector3::zeros()).pivot;
        let (q0, q1) = (self.pose(b, k - 1, i).rotation, self.pose(b, k, i).rotation);
        let mut d = (q1 * q0.inverse()).into_inner();
        if d.w < 0.0 {
            d = -d;
        }
        let angular = UnitQuaternion::new_unchecked(d).scaled_axis();
        (
            s0,
            Motion::about_center(&s0, centre(&s1) - centre(&s0), angular),
        )
    }

    /// The smallest distance within `max` of trajectory `b` over steps `0..=last`.
    fn brute_distance(&self, b: usize, max: Real, last: usize) -> Option<(Real, usize, PairKey)> {
        let m = self.movers.len();
        let mut best: Option<(Real, usize, PairKey)> = None;
        for k in 0..=last {
            for i in 0..m {
                let me = self.movers[i];
                let shape = self.placed(b, k, i);
                let mut others: Vec<(ColliderId, Shape)> = self.others().collect();
                for j in i + 1..m {
                    others.push((self.movers[j], self.placed(b, k, j)));
                }
                for (other, s) in others {
                    if !self.allowed(me, other) {
                        continue;
                    }
                    let d = distance_shapes(&shape, &s);
                    let cand = (d, k, PairKey::new(me, other));
                    if d <= max && best.is_none_or(|x| cand < x) {
                        best = Some(cand);
                    }
                }
            }
        }
        best
    }

    fn check(&self, options: &TrajectoryOptions) -> Vec<TrajectoryResult> {
        self.world
            .check_trajectories(&self.movers, &self.poses, self.steps, options, &Serial)
            .unwrap()
            .trajectories
    }
}

fn first_of(hits: &[TrajectoryHit]) -> Option<TrajectoryHit> {
    let step = hits.first()?.step;
    hits.iter()
        .filter(|h| h.step == step)
        .copied()
        .min_by(|x, y| {
            let (a, b) = (x.t.unwrap_or(0.0), y.t.unwrap_or(0.0));
            a.total_cmp(&b).then(x.pair.cmp(&y.pair))
        })
}

#[test]
fn discrete_equals_brute_force() {
    let mut hits_seen = 0;
    for seed in 0..12 {
        let case = Case::random(seed, 40, 1 + seed as usize % 6, 4, 5);
        let all = case.check(&TrajectoryOptions {
            all_hits: true,
            ..TrajectoryOptions::default()
        });
        let first = case.check(&TrajectoryOptions::default());
        for b in 0..4 {
            let expected = case.brute_hits(b, Sweep::Discrete);
            hits_seen += expected.len();
            assert_eq!(all[b].hits, expected, "seed {seed} trajectory {b}");
            assert_eq!(
                all[b].first_hit,
                first_of(&expected),
                "seed {seed} trajectory {b}"
            );
            assert_eq!(first[b].first_hit, all[b].first_hit);
            assert!(first[b].hits.is_empty());
        }
    }
    assert!(hits_seen > 100, "the random worlds collide: {hits_seen}");
}

#[test]
fn swept_equals_brute_force_and_contains_discrete() {
    let mut swept_only = 0;
    for seed in 100..106 {
        let case = Case::random(seed, 30, 1 + seed as usize % 5, 3, 4);
        let opts = TrajectoryOptions {
            sweep: Sweep::Swept,
            all_hits: true,
            ..TrajectoryOptions::default()
        };
        let swept = case.check(&opts);
        for b in 0..3 {
            let expected = case.brute_hits(b, Sweep::Swept);
            assert_eq!(swept[b].hits, expected, "seed {seed} trajectory {b}");
            assert_eq!(swept[b].first_hit, first_of(&expected));
            let discrete = case.brute_hits(b, Sweep::Discrete);
            for h in &discrete {
                assert!(
                    expected
                        .iter()
                        .any(|x| x.step == h.step && x.pair == h.pair),
                    "seed {seed}: a contact at the poses of step {} is a contact of the motion",
                    h.step
                );
            }
            swept_only += expected.len() - discrete.len();
        }
    }
    assert!(swept_only > 0, "some contacts happen only between steps");
}

#[test]
fn min_distance_equals_brute_force() {
    for seed in 200..208 {
        let case = Case::random(seed, 30, 1 + seed as usize % 4, 3, 4);
        for all_hits in [false, true] {
            let got = case.check(&TrajectoryOptions {
                all_hits,
                distance: Some(0.4),
                ..TrajectoryOptions::default()
            });
            for (b, r) in got.iter().enumerate() {
                let last = match (all_hits, r.first_hit) {
                    (false, Some(h)) => h.step,
                    _ => case.steps - 1,
                };
                let expected = case.brute_distance(b, 0.4, last);
                let found = r.min_distance.map(|d| (d.distance, d.step, d.pair));
                assert_eq!(found, expected, "seed {seed} trajectory {b}");
            }
        }
    }
}

#[test]
fn same_report_at_1_2_and_8_threads() {
    let case = Case::random(7, 120, 7, 16, 6);
    for sweep in [Sweep::Discrete, Sweep::Swept] {
        let opts = TrajectoryOptions {
            sweep,
            all_hits: true,
            distance: Some(0.2),
        };
        let serial = case.check(&opts);
        for threads in [1, 2, 8] {
            let exec = RayonExecutor::new(threads).unwrap();
            let r = case
                .world
                .check_trajectories(&case.movers, &case.poses, case.steps, &opts, &exec)
                .unwrap();
            assert_eq!(r.trajectories, serial, "{threads} threads");
        }
    }
}

fn unit_box(x: Real) -> Shape {
    Shape::Aabb(
        Aabb::new(
            Point3::new(x - 0.5, -0.5, -0.5),
            Point3::new(x + 0.5, 0.5, 0.5),
        )
        .unwrap(),
    )
}

/// A 1 m box jumping from x = -3 to x = +3 between two steps, a 1 cm wall at x = 0.
fn wall_and_box() -> (World, ColliderId, ColliderId) {
    let mut world = World::new();
    let wall = Aabb::new(
        Point3::new(-0.005, -5.0, -5.0),
        Point3::new(0.005, 5.0, 5.0),
    )
    .unwrap();
    let wall = world
        .insert(ColliderDesc::new(wall).kind(Kind::Static))
        .unwrap();
    let body = world
        .insert(ColliderDesc::new(unit_box(0.0)).kind(Kind::Kinematic))
        .unwrap();
    (world, wall, body)
}

#[test]
fn swept_catches_the_jump_the_discrete_check_misses() {
    let (world, wall, body) = wall_and_box();
    let poses = [
        Isometry3::translation(-3.0, 0.0, 0.0),
        Isometry3::translation(3.0, 0.0, 0.0),
    ];
    let discrete = world
        .check_trajectories(&[body], &poses, 2, &TrajectoryOptions::default(), &Serial)
        .unwrap();
    assert_eq!(discrete.trajectories[0].first_hit, None);
    assert!(!discrete.any_hit());
    let opts = TrajectoryOptions {
        sweep: Sweep::Swept,
        ..TrajectoryOptions::default()
    };
    let swept = world
        .check_trajectories(&[body], &poses, 2, &opts, &Serial)
        .unwrap();
    let hit = swept.trajectories[0].first_hit.unwrap();
    assert_eq!((hit.step, hit.pair), (1, PairKey::new(wall, body)));
    // Contact when the box's face reaches the wall: x = -0.505, at t = 2.495 / 6.
    let t = hit.t.unwrap();
    assert!(t <= 2.495 / 6.0 && t > 2.495 / 6.0 - 1e-4, "{t}");
}

#[test]
fn swept_catches_a_turn_through_the_wall() {
    // A 4 m rod turning half a turn about its centre 1.5 m from the wall: both ends clear it.
    let mut world = World::new();
    let wall = Aabb::new(Point3::new(0.0, -5.0, -5.0), Point3::new(0.01, 5.0, 5.0)).unwrap();
    let wall = world
        .insert(ColliderDesc::new(wall).kind(Kind::Static))
        .unwrap();
    let rod = Obb::new(
        Point3::origin(),
        sepax_shapes::math::Matrix3::identity(),
        Vector3::new(0.02, 2.0, 0.02),
    )
    .unwrap();
    let rod = world
        .insert(ColliderDesc::new(rod).kind(Kind::Kinematic))
        .unwrap();
    let at = |angle: Real| {
        Isometry3::from_parts(
            Vector3::new(-1.5, 0.0, 0.0).into(),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), angle),
        )
    };
    let poses = [at(0.0), at(3.0)];
    let discrete = world
        .check_trajectories(&[rod], &poses, 2, &TrajectoryOptions::default(), &Serial)
        .unwrap();
    assert!(!discrete.any_hit());
    let opts = TrajectoryOptions {
        sweep: Sweep::Swept,
        ..TrajectoryOptions::default()
    };
    let swept = world
        .check_trajectories(&[rod], &poses, 2, &opts, &Serial)
        .unwrap();
    let hit = swept.trajectories[0].first_hit.unwrap();
    assert_eq!(hit.pair, PairKey::new(wall, rod));
    assert!(hit.t.unwrap() > 0.0 && hit.t.unwrap() < 0.5, "{hit:?}");
}

#[test]
fn the_movers_own_poses_are_ignored_and_self_pairs_follow_the_matrix() {
    let (mut world, wall, body) = wall_and_box();
    let other = world
        .insert(ColliderDesc::new(unit_box(0.0)).kind(Kind::Kinematic))
        .unwrap();
    // At their world poses all three overlap; along the trajectory only the two movers do.
    let poses = [
        Isometry3::translation(3.0, 0.0, 0.0),
        Isometry3::translation(3.5, 0.0, 0.0),
    ];
    let opts = TrajectoryOptions {
        all_hits: true,
        ..TrajectoryOptions::default()
    };
    let r = world
        .check_trajectories(&[body, other], &poses, 1, &opts, &Serial)
        .unwrap();
    assert_eq!(r.trajectories[0].hits.len(), 1);
    assert_eq!(r.trajectories[0].hits[0].pair, PairKey::new(body, other));
    world.allow_pair(body, other, false).unwrap();
    let r = world
        .check_trajectories(&[body, other], &poses, 1, &opts, &Serial)
        .unwrap();
    assert!(!r.any_hit());
    let _ = wall;
}

#[test]
fn bad_input_is_refused_with_its_index() {
    let (mut world, wall, body) = wall_and_box();
    let ok = TrajectoryOptions::default();
    let one = [Isometry3::identity()];
    let check = |world: &World, movers: &[ColliderId], poses: &[Isometry3], steps, o| {
        world
            .check_trajectories(movers, poses, steps, o, &Serial)
            .unwrap_err()
    };
    assert_eq!(check(&world, &[], &one, 1, &ok), TrajectoryError::NoMovers);
    assert_eq!(
        check(&world, &[body], &one, 0, &ok),
        TrajectoryError::NoSteps
    );
    assert_eq!(
        check(
            &world,
            &[body, wall, body],
            &[Isometry3::identity(); 3],
            1,
            &ok
        ),
        TrajectoryError::DuplicateMover { index: 2, first: 0 }
    );
    assert_eq!(
        check(&world, &[body], &[Isometry3::identity(); 3], 2, &ok),
        TrajectoryError::PoseCount {
            poses: 3,
            per_trajectory: 2
        }
    );
    let huge = usize::MAX / 2 + 1;
    assert!(matches!(
        check(&world, &[body, wall], &one, huge, &ok),
        TrajectoryError::PoseCount { .. }
    ));
    let nan = TrajectoryOptions {
        distance: Some(Real::NAN),
        ..ok
    };
    assert!(matches!(
        check(&world, &[body], &one, 1, &nan),
        TrajectoryError::Distance(_)
    ));
    let mut poses = vec![Isometry3::identity(); 6];
    poses[4] = Isometry3::translation(0.0, Real::INFINITY, 0.0);
    match check(&world, &[body, wall], &poses, 1, &ok) {
        TrajectoryError::Pose {
            index: 4,
            trajectory: 2,
            step: 0,
            mover: 0,
            ..
        } => {}
        e => panic!("{e:?}"),
    }
    // A placed shape out of the finite range: a box of half-size MAX / 4 moved to x = MAX.
    let h = Real::MAX / 4.0;
    let big = Aabb::new(Point3::new(-h, -h, -h), Point3::new(h, h, h)).unwrap();
    let big = world.insert(ColliderDesc::new(big)).unwrap();
    let mut poses = vec![Isometry3::identity(); 6];
    poses[5] = Isometry3::translation(Real::MAX, 0.0, 0.0);
    match check(&world, &[body, big], &poses, 1, &ok) {
        TrajectoryError::Pose {
            index: 5,
            trajectory: 2,
            mover: 1,
            source: sepax_world::WorldError::Shape { .. },
            ..
        } => {}
        e => panic!("{e:?}"),
    }
    // The raw form: a quaternion off unit length, and an output slice of the wrong length.
    let mut raw = vec![[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]; 4];
    raw[3][3] = 2.0;
    let mut out = vec![TrajectoryResult::default(); 2];
    let e = world
        .check_trajectories_raw(&[body, wall], &raw, 1, &ok, &Serial, &mut out)
        .unwrap_err();
    assert!(
        matches!(
            e,
            TrajectoryError::Pose {
                index: 3,
                trajectory: 1,
                mover: 1,
                ..
            }
        ),
        "{e:?}"
    );
    let e = world
        .check_trajectories_raw(&[body], &raw[..1], 1, &ok, &Serial, &mut out)
        .unwrap_err();
    assert_eq!(
        e,
        TrajectoryError::OutputLength {
            expected: 1,
            found: 2
        }
    );
    world.remove(body).unwrap();
    assert_eq!(
        check(&world, &[wall, body], &[Isometry3::identity(); 2], 1, &ok),
        TrajectoryError::StaleMover { index: 1, id: body }
    );
}

#[test]
fn raw_form_equals_the_typed_form() {
    let case = Case::random(3, 40, 4, 5, 4);
    let opts = TrajectoryOptions {
        sweep: Sweep::Swept,
        all_hits: true,
        distance: Some(0.3),
    };
    let typed = case.check(&opts);
    let raw: Vec<[Real; 7]> = case
        .poses
        .iter()
        .map(|p| {
            let (t, q) = (p.translation.vector, p.rotation.quaternion());
            [t.x, t.y, t.z, q.w, q.i, q.j, q.k]
        })
        .collect();
    let mut out = vec![TrajectoryResult::default(); 5];
    case.world
        .check_trajectories_raw(&case.movers, &raw, case.steps, &opts, &Serial, &mut out)
        .unwrap();
    assert_eq!(out, typed);
}
