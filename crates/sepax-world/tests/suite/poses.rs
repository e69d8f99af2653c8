//! `World::set_poses_with`: the checks and placements run in chunks on an executor, and the
//! world afterwards is the one `set_poses` gives, bit for bit (placed shapes, boxes, events,
//! manifolds); on error the first failing collider in `ids` order is named, whichever chunk it
//! is in, and nothing moves.

use crate::common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_shapes::math::{Isometry3, Real, UnitQuaternion, Vector3};
use sepax_world::{
    ColliderDesc, ColliderId, Executor, Kind, Report, Serial, StateHasher, Subject, World,
    WorldError,
};

/// Runs the jobs in reverse order (a result that depended on the order would show).
struct Reversed;

impl Executor for Reversed {
    fn run(&self, count: usize, job: &(dyn Fn(usize) + Sync)) {
        for i in (0..count).rev() {
            job(i);
        }
    }
}

/// Jobs spread over 3 scoped threads, interleaved.
struct Scoped;

impl Executor for Scoped {
    fn run(&self, count: usize, job: &(dyn Fn(usize) + Sync)) {
        std::thread::scope(|s| {
            for t in 0..3 {
                s.spawn(move || {
                    let mut i = t;
                    while i < count {
                        job(i);
                        i += 3;
                    }
                });
            }
        });
    }
}

/// 3,000 colliders (several placement chunks), two thirds moving.
fn scene() -> (World, Vec<ColliderId>, Vec<ColliderId>) {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut world = World::new();
    let descs = (0..3000u64).map(|i| {
        let kind = [Kind::Static, Kind::Kinematic, Kind::Dynamic][(i % 3) as usize];
        ColliderDesc::new(common::shape(&mut rng))
            .pose(common::pose(&mut rng, 9.0))
            .kind(kind)
            .report(Report::Manifolds)
            .user(i)
    });
    let mut ids = Vec::new();
    world.insert_many(descs, &mut ids).unwrap();
    let moving = ids
        .iter()
        .copied()
        .filter(|&id| world.get(id).unwrap().kind() != Kind::Static)
        .collect();
    (world, ids, moving)
}

/// Four frames of motion set by `set`: each frame's event digest and state hash, and every
/// collider's placed shape and box as printed (`{:?}` tells every float apart, `-0.0` too).
fn run(set: impl Fn(&mut World, &[ColliderId], &[Isometry3])) -> (u64, Vec<String>) {
    let (mut world, ids, moving) = scene();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let spin = UnitQuaternion::from_euler_angles(0.04, -0.02, 0.03);
    let mut h = StateHasher::default();
    let mut placed = Vec::new();
    for _ in 0..4 {
        let poses: Vec<Isometry3> = moving
            .iter()
            .map(|&id| {
                let p = *world.get(id).unwrap().pose();
                let d = common::point(&mut rng, 0.2).coords;
                // Some rotations drift off unit length: `check_pose` renormalises them.
                let q = if rng.random_bool(0.2) {
                    UnitQuaternion::new_unchecked(p.rotation.into_inner() * (1.0 + 1e-3))
                } else {
                    spin * p.rotation
                };
                Isometry3::from_parts((p.translation.vector + d).into(), q)
            })
            .collect();
        set(&mut world, &moving, &poses);
        let ev = world.update(&Serial);
        h.word(ev.digest());
        h.word(world.state_hash());
        for &id in &ids {
            let c = world.get(id).unwrap();
            placed.push(format!("{:?} {:?}", c.world_shape(), c.world_aabb()));
        }
    }
    (h.finish(), placed)
}

/// [`run`] with `set_poses_with` on `exec`.
fn with<E: Executor>(exec: &E) -> (u64, Vec<String>) {
    run(|w, i, p| w.set_poses_with(exec, i, p).unwrap())
}

#[test]
fn every_executor_places_as_set_poses_does() {
    let serial = run(|w, ids, poses| w.set_poses(ids, poses).unwrap());
    let one_by_one = run(|w, ids, poses| {
        for (&id, p) in ids.iter().zip(poses) {
            w.set_pose(id, *p).unwrap();
        }
    });
    assert!(serial == one_by_one, "set_poses equals set_pose one by one");
    assert!(with(&Serial) == serial, "Serial");
    assert!(with(&Reversed) == serial, "reversed jobs");
    assert!(with(&Scoped) == serial, "scoped threads");
    #[cfg(feature = "parallel")]
    for threads in [1, 2, 8] {
        let exec = sepax_world::RayonExecutor::new(threads).unwrap();
        assert!(with(&exec) == serial, "{threads} threads");
    }
}

#[test]
fn the_first_error_in_ids_order_is_reported_and_nothing_moves() {
    let (mut world, ids, moving) = scene();
    let poses: Vec<Isometry3> = moving
        .iter()
        .map(|&id| {
            let mut p = *world.get(id).unwrap().pose();
            p.translation.vector += Vector3::new(0.5, 0.0, 0.0);
            p
        })
        .collect();
    let before = world.state_hash();
    let bad_at = |k: usize, value: Real, poses: &[Isometry3]| {
        let mut p = poses.to_vec();
        p[k].translation.vector.y = value;
        p
    };
    // Errors in the second and the last chunk: the earlier one is named, by every executor.
    let (first, later) = (1500, moving.len() - 3);
    let mut bad = bad_at(first, Real::NAN, &poses);
    bad[later].translation.vector.z = Real::INFINITY;
    let check = |e: WorldError| {
        assert!(
            matches!(
                e,
                WorldError::NotFinite {
                    collider: Subject::Id(id),
                    field: "pose.translation",
                    component: 1,
                    ..
                } if id == moving[first]
            ),
            "{e}"
        );
    };
    check(world.set_poses(&moving, &bad).unwrap_err());
    check(world.set_poses_with(&Reversed, &moving, &bad).unwrap_err());
    check(world.set_poses_with(&Scoped, &moving, &bad).unwrap_err());
    assert_eq!(world.state_hash(), before, "nothing moved");

    // A stale id in a later chunk, after valid ones: named, nothing moves.
    let stale = ids[0];
    let removed = world.remove(stale).unwrap();
    assert_eq!(removed.kind(), Kind::Static);
    let before = world.state_hash();
    let mut with_stale = moving.clone();
    with_stale[1900] = stale;
    assert_eq!(
        world
            .set_poses_with(&Scoped, &with_stale, &poses)
            .unwrap_err(),
        WorldError::StaleId(stale)
    );
    assert_eq!(world.state_hash(), before, "nothing moved");
    assert_eq!(
        world
            .set_poses_with(&Serial, &moving[..2], &poses[..1])
            .unwrap_err(),
        WorldError::LengthMismatch { ids: 2, poses: 1 }
    );

    // And the valid batch then moves everything (rotations off unit norm renormalised, so
    // the translations are compared).
    world.set_poses_with(&Scoped, &moving, &poses).unwrap();
    for (&id, p) in moving.iter().zip(&poses) {
        let t = world.get(id).unwrap().pose().translation.vector;
        assert_eq!(t, p.translation.vector);
    }
}
