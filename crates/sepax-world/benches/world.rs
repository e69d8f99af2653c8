//! Full-frame benchmarks of the world: `set_poses` for the moving colliders, then `update`
//! (broad phase, filter, narrow phase with every touching pair's manifold, events). Run:
//! `cargo bench -p sepax-world --bench world` (`SEPAX_BENCH_1M=1` adds 1M colliders).
//!
//! Scenes (seeded): N colliders, a third each boxes (OBBs, random rotations), spheres and
//! capsules, half-sizes in [0.1, 0.5] (`uniform`) or [0.1, 1.0] (`spread`: 10x), in a cube of
//! side 2·∛N, each moving by a step of up to 0.05 per axis per frame and bouncing off the
//! walls; `static90` makes 90% of them static (never moved). Before timing, one frame prints
//! the touching count and where the frame's time goes (the stats' phase times).
//!
//! Peers (rapier3d's collision pipeline, parry's `Bvh` with parry's manifolds) are not here yet.

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_shapes::math::{Isometry3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Capsule, Obb, Shape, Sphere};
use sepax_world::{ColliderDesc, ColliderId, Kind, Report, Serial, World};

struct Scene {
    world: World,
    moving: Vec<ColliderId>,
    pos: Vec<Vector3>,
    vel: Vec<Vector3>,
    rot: Vec<UnitQuaternion>,
    half: Real,
    poses: Vec<Isometry3>,
}

fn scene(n: usize, static_share: f64, max_half: Real) -> Scene {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let half = (n as Real).cbrt();
    let mut world = World::new();
    let mut descs = Vec::with_capacity(n);
    let mut movers = Vec::new();
    for i in 0..n {
        let r = rng.random_range(0.1..max_half);
        let shape = match i % 3 {
            0 => Shape::Obb(
                Obb::from_rotation(
                    Point3::origin(),
                    UnitQuaternion::from_euler_angles(
                        rng.random_range(-3.0..3.0),
                        rng.random_range(-3.0..3.0),
                        rng.random_range(-3.0..3.0),
                    ),
                    Vector3::new(
                        r,
                        rng.random_range(0.1..max_half),
                        rng.random_range(0.1..max_half),
                    ),
                )
                .unwrap(),
            ),
            1 => Shape::Sphere(Sphere::new(Point3::origin(), r).unwrap()),
            _ => Shape::Capsule(
                Capsule::new(Point3::new(0.0, -r, 0.0), Point3::new(0.0, r, 0.0), r * 0.5).unwrap(),
            ),
        };
        let p = Vector3::new(
            rng.random_range(-half..half),
            rng.random_range(-half..half),
            rng.random_range(-half..half),
        );
        let is_static = rng.random_bool(static_share);
        let kind = if is_static {
            Kind::Static
        } else {
            Kind::Dynamic
        };
        descs.push(
            ColliderDesc::new(shape)
                .pose(Isometry3::translation(p.x, p.y, p.z))
                .kind(kind)
                .report(Report::Manifolds)
                .user(i as u64),
        );
        if !is_static {
            movers.push((i, p));
        }
    }
    let mut ids = Vec::new();
    world.insert_many(descs, &mut ids).unwrap();
    let moving: Vec<ColliderId> = movers.iter().map(|&(i, _)| ids[i]).collect();
    let pos: Vec<Vector3> = movers.iter().map(|&(_, p)| p).collect();
    let vel = pos
        .iter()
        .map(|_| Vector3::from_fn(|_, _| rng.random_range(-0.05..0.05)))
        .collect();
    let rot = moving
        .iter()
        .map(|&id| world.get(id).unwrap().pose().rotation)
        .collect();
    Scene {
        world,
        poses: Vec::with_capacity(moving.len()),
        moving,
        pos,
        vel,
        rot,
        half,
    }
}

impl Scene {
    fn frame(&mut self) -> usize {
        self.poses.clear();
        for k in 0..self.pos.len() {
            for a in 0..3 {
                let mut c = self.pos[k][a] + self.vel[k][a];
                if c.abs() > self.half {
                    self.vel[k][a] = -self.vel[k][a];
                    c = c.clamp(-self.half, self.half);
                }
                self.pos[k][a] = c;
            }
            self.poses
                .push(Isometry3::from_parts(self.pos[k].into(), self.rot[k]));
        }
        self.world.set_poses(&self.moving, &self.poses).unwrap();
        let ev = self.world.update(&Serial);
        ev.begin.len() + ev.persist.len() + ev.manifolds.len()
    }
}

fn bench(c: &mut Criterion) {
    let mut sizes = vec![10_000, 100_000];
    if std::env::var_os("SEPAX_BENCH_1M").is_some() {
        sizes.push(1_000_000);
    }
    let mut group = c.benchmark_group("frame");
    group.sample_size(10);
    for &n in &sizes {
        for (name, share, max_half) in [
            ("uniform_moving", 0.0, 0.5),
            ("uniform_static90", 0.9, 0.5),
            ("spread_moving", 0.0, 1.0),
        ] {
            let mut s = scene(n, share, max_half);
            s.frame();
            s.frame();
            let st = s.world.events().stats;
            println!(
                "{name}/{n}: touching {}, candidates {}, tested {}, reused {}; broad {:?}, filter {:?}, narrow {:?}, events {:?}",
                st.touching, st.candidates, st.pairs_tested, st.reused,
                st.time.broad, st.time.filter, st.time.narrow, st.time.events
            );
            group.throughput(Throughput::Elements(n as u64));
            group.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| black_box(s.frame()))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
