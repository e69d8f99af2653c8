//! Determinism: a scripted scene (every shape kind, all three collider kinds, sensors, many
//! more pairs than one chunk) gives the same events and manifolds bit for bit with the serial
//! executor and with rayon at 1, 2 and 8 threads, and the digest equals the golden value of
//! the build's precision (so a change of output on any platform shows up in CI).

use crate::common;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sepax_narrowphase::contact::ContactConfig;
use sepax_shapes::math::{Isometry3, UnitQuaternion, Vector3};
use sepax_world::{
    ColliderDesc, ColliderId, Executor, Kind, Report, Serial, StateHasher, World, WorldConfig,
};

/// The scripted scene: 600 colliders in a box of side 7 (over 1,000 touching pairs), 20
/// frames of motion along fixed paths.
fn digest(exec: &impl Executor) -> (u64, u64) {
    digest_with(exec, ContactConfig::default())
}

/// The scripted scene with the contact settings `contact`.
fn digest_with(exec: &impl Executor, contact: ContactConfig) -> (u64, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let config = WorldConfig {
        contact,
        ..WorldConfig::default()
    };
    let mut world = World::with_config(config).unwrap();
    let mut descs = Vec::new();
    for i in 0..600u64 {
        let kind = [Kind::Static, Kind::Kinematic, Kind::Dynamic][(i % 3) as usize];
        let d = ColliderDesc::new(common::shape(&mut rng))
            .pose(common::pose(&mut rng, 3.5))
            .kind(kind)
            .sensor(i % 17 == 0)
            .report(if i % 5 == 0 {
                Report::Persist
            } else {
                Report::Manifolds
            })
            .user(i);
        descs.push(d);
    }
    let mut ids: Vec<ColliderId> = Vec::new();
    world.insert_many(descs, &mut ids).unwrap();
    let vel: Vec<Vector3> = ids
        .iter()
        .map(|_| common::point(&mut rng, 0.3).coords)
        .collect();
    let spin = UnitQuaternion::from_euler_angles(0.05, 0.02, -0.03);
    let mut h = StateHasher::default();
    let mut moved = Vec::new();
    let mut poses = Vec::new();
    for frame in 0..12 {
        moved.clear();
        poses.clear();
        for (k, &id) in ids.iter().enumerate() {
            if k % 3 == 0 {
                continue; // static
            }
            let c = world.get(id).unwrap();
            let p = c.pose();
            let t = p.translation.vector + vel[k] * (if frame % 2 == 0 { 1.0 } else { -0.5 });
            moved.push(id);
            poses.push(Isometry3::from_parts(t.into(), spin * p.rotation));
        }
        world.set_poses(&moved, &poses).unwrap();
        let ev = world.update(exec);
        assert!(
            ev.stats.pairs_tested > 4 * 128,
            "more pairs than a few chunks"
        );
        if frame == 0 {
            assert!(ev.begin.len() > 1000, "{} begin events", ev.begin.len());
            if contact.margin > 0.0 {
                assert!(ev.speculative.len() > 200, "{}", ev.speculative.len());
            }
        }
        h.word(ev.digest());
        h.word(world.state_hash());
    }
    (h.finish(), world.state_hash())
}

#[cfg(not(feature = "f64"))]
const GOLDEN: u64 = 0xda5e_ec4c_4438_9097;
#[cfg(feature = "f64")]
const GOLDEN: u64 = 0x59e3_7399_a9c7_7c29;

#[test]
fn serial_digest_is_golden() {
    let (d, _) = digest(&Serial);
    assert_eq!(d, GOLDEN, "digest {d:#018x}");
}

#[cfg(feature = "parallel")]
#[test]
fn rayon_at_1_2_8_threads_equals_serial() {
    use sepax_world::RayonExecutor;
    let serial = digest(&Serial);
    for threads in [1, 2, 8] {
        let exec = RayonExecutor::new(threads).unwrap();
        assert_eq!(digest(&exec), serial, "{threads} threads");
    }
}

/// A thread-count-free executor that runs the jobs in reverse order: the output must not
/// depend on the order in which chunks finish.
struct Reversed;

impl Executor for Reversed {
    fn run(&self, count: usize, job: &(dyn Fn(usize) + Sync)) {
        for i in (0..count).rev() {
            job(i);
        }
    }
}

#[test]
fn job_order_does_not_matter() {
    assert_eq!(digest(&Reversed), digest(&Serial));
}

#[test]
fn std_threads_executor_equals_serial() {
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
    assert_eq!(digest(&Scoped), digest(&Serial));
}

/// Speculative contacts (a contact margin) are as deterministic as the rest.
#[test]
fn speculative_contacts_are_the_same_for_every_executor() {
    let contact = ContactConfig::with_margin(0.1);
    let serial = digest_with(&Serial, contact);
    assert_ne!(serial, digest(&Serial), "the margin changes the output");
    assert_eq!(digest_with(&Reversed, contact), serial);
    #[cfg(feature = "parallel")]
    for threads in [2, 8] {
        let exec = sepax_world::RayonExecutor::new(threads).unwrap();
        assert_eq!(digest_with(&exec, contact), serial, "{threads} threads");
    }
}
