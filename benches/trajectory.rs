//! Trajectory checks per second: the 7-link arm of `examples/support/arm.rs` (boxes and
//! capsules, adjacent links off in the allowed-collision matrix) among 10,000 static colliders
//! (boxes, spheres and capsules of 2 to 6 cm scattered around it, none within its reach, so
//! that every step is checked in full), in batches of trajectories of 20 waypoints, discrete
//! and swept, serial and on a 2-thread rayon pool. One "check" is one arm state (7 links
//! against the world and each other), the unit MoveIt's published FCL numbers count.
//! Run: `cargo bench -p sepax-benches --bench trajectory`.

// Casts to `Real` are needed in the default f32 build and identities in the f64 build.
#![allow(clippy::unnecessary_cast)]
// criterion's macros generate undocumented items.
#![allow(missing_docs)]

#[path = "../examples/support/arm.rs"]
mod arm;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_shapes::math::{Isometry3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Capsule, Obb, Shape, Sphere};
use sepax_world::{
    ColliderDesc, ColliderId, Executor, Kind, RayonExecutor, Serial, Sweep, TrajectoryOptions,
    World,
};

const STATICS: usize = 10_000;
const STEPS: usize = 20;
const BATCH: usize = 64;

fn clutter(rng: &mut ChaCha8Rng) -> Shape {
    let c = loop {
        let p = Point3::new(
            rng.random_range(-3.0..3.0),
            rng.random_range(-3.0..3.0),
            rng.random_range(0.0..2.5),
        );
        // The arm reaches at most 1.33 m from its shoulder (0, 0, 0.3).
        if (p - Point3::new(0.0, 0.0, 0.3)).norm() > 1.45 {
            break p;
        }
    };
    let s: Real = rng.random_range(0.02..0.06);
    match rng.random_range(0..3) {
        0 => Shape::Obb(
            Obb::from_rotation(
                c,
                UnitQuaternion::from_euler_angles(rng.random(), rng.random(), rng.random()),
                Vector3::new(s, s * 0.7, s * 0.5),
            )
            .unwrap(),
        ),
        1 => Shape::Sphere(Sphere::new(c, s).unwrap()),
        _ => Shape::Capsule(Capsule::new(c, c + Vector3::new(s, 0.0, s), s * 0.5).unwrap()),
    }
}

struct Setup {
    world: World,
    links: Vec<ColliderId>,
    poses: Vec<Isometry3>,
}

fn setup() -> Setup {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let mut world = World::new();
    let links = arm::insert_arm(&mut world);
    arm::insert_table(&mut world, links[0]);
    let descs: Vec<ColliderDesc> = (0..STATICS)
        .map(|_| ColliderDesc::new(clutter(&mut rng)).kind(Kind::Static))
        .collect();
    let mut ids = Vec::new();
    world.insert_many(descs, &mut ids).unwrap();
    world.update(&Serial);
    let mut poses = Vec::new();
    // Upright-ish random motions that stay above the table and away from the arm itself.
    let mut q = || -> arm::Config {
        [
            rng.random_range(-3.0..3.0),
            rng.random_range(-0.6..0.6),
            rng.random_range(-0.8..0.8),
            rng.random_range(-3.0..3.0),
            rng.random_range(-0.8..0.8),
            rng.random_range(-0.8..0.8),
            rng.random_range(-3.0..3.0),
        ]
    };
    for _ in 0..BATCH {
        let (a, b) = (q(), q());
        arm::waypoints(&a, &b, STEPS, &mut poses);
    }
    Setup {
        world,
        links,
        poses,
    }
}

fn bench(c: &mut Criterion) {
    let s = setup();
    let pool = RayonExecutor::new(2).unwrap();
    let mut group = c.benchmark_group("trajectory_7link_10k_static");
    group.throughput(Throughput::Elements((BATCH * STEPS) as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    for sweep in [Sweep::Discrete, Sweep::Swept] {
        let options = TrajectoryOptions {
            sweep,
            all_hits: true,
            ..TrajectoryOptions::default()
        };
        let report = s
            .world
            .check_trajectories(&s.links, &s.poses, STEPS, &options, &Serial)
            .unwrap();
        let hits: usize = report.trajectories.iter().map(|r| r.hits.len()).sum();
        println!("{sweep:?}: {hits} contacts over {BATCH} trajectories of {STEPS} steps");
        let name = format!("{sweep:?}").to_lowercase();
        group.bench_function(format!("{name}/serial"), |b| {
            b.iter(|| check(&s, &options, &Serial))
        });
        group.bench_function(format!("{name}/rayon2"), |b| {
            b.iter(|| check(&s, &options, &pool))
        });
    }
    group.finish();
}

fn check(s: &Setup, options: &TrajectoryOptions, exec: &impl Executor) -> usize {
    let r = s
        .world
        .check_trajectories(&s.links, black_box(&s.poses), STEPS, options, exec)
        .unwrap();
    r.trajectories.len()
}

criterion_group!(benches, bench);
criterion_main!(benches);
