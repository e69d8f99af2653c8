//! Warm frames allocate nothing: a counting global allocator watches `set_poses` + `update`
//! (serial executor) on a scene of moving and static colliders of every kind, with begin / end
//! events, persist events and manifolds in every frame, after a warm-up. The motion is periodic,
//! so every measured frame repeats a state the buffers have already grown to.

mod common;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sepax_shapes::math::{Isometry3, Real, Vector3};
use sepax_testkit::alloc::{allocations, Counting};
use sepax_world::{ColliderDesc, ColliderId, Kind, Report, Serial, World};

#[global_allocator]
static GLOBAL: Counting = Counting;

const PERIOD: usize = 16;

#[test]
fn warm_frames_allocate_nothing() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut world = World::new();
    let mut descs = Vec::new();
    for i in 0..600u64 {
        let kind = [Kind::Static, Kind::Kinematic, Kind::Dynamic][(i % 3) as usize];
        let report = [Report::BeginEnd, Report::Persist, Report::Manifolds][(i % 7 % 3) as usize];
        descs.push(
            ColliderDesc::new(common::shape(&mut rng))
                .pose(common::pose(&mut rng, 4.0))
                .kind(kind)
                .report(report)
                .sensor(i % 11 == 0)
                .user(i),
        );
    }
    let mut ids: Vec<ColliderId> = Vec::new();
    world.insert_many(descs, &mut ids).unwrap();
    let moving: Vec<ColliderId> = ids
        .iter()
        .copied()
        .filter(|&id| world.get(id).unwrap().kind() != Kind::Static)
        .collect();
    let base: Vec<Isometry3> = moving
        .iter()
        .map(|&id| *world.get(id).unwrap().pose())
        .collect();
    let dir: Vec<Vector3> = moving
        .iter()
        .map(|_| common::point(&mut rng, 0.15).coords)
        .collect();
    let mut poses = base.clone();
    let frames = 6 * PERIOD;
    let measured = 2 * PERIOD;
    let mut before = 0;
    let mut counts = [0usize; 4];
    for frame in 0..frames {
        if frame == frames - measured {
            before = allocations();
        }
        // A triangle wave: out for half a period, back for the other half.
        let phase = frame % PERIOD;
        let s = phase.min(PERIOD - phase) as Real;
        for ((p, b), d) in poses.iter_mut().zip(&base).zip(&dir) {
            *p = *b;
            p.translation.vector += d * s;
        }
        world.set_poses(&moving, &poses).unwrap();
        let ev = world.update(&Serial);
        if frame >= frames - measured {
            counts[0] += ev.begin.len();
            counts[1] += ev.end.len();
            counts[2] += ev.persist.len();
            counts[3] += ev.manifolds.len();
        }
    }
    let allocations = allocations() - before;
    assert!(before > 0, "the counter counts (the warm-up allocated)");
    assert!(
        counts.iter().all(|&n| n > 0),
        "measured frames had events: {counts:?}"
    );
    assert_eq!(allocations, 0, "allocations in {measured} warm frames");
}
