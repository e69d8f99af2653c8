//! Ray casts equal brute force after every kind of edit, none followed by an update: the
//! per-proxy ray data the casts read (`query/table.rs`) must follow `insert`, `insert_many`,
//! `remove`, `set_pose`, `set_poses`, `set_shape` (box to other shapes and back), `set_kind`
//! (between the static tree and the moving one), `set_enabled` and `shift_origin`. Both the
//! unfiltered path (boxes tested from the table) and a filtered one (through the collider).

use crate::common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::{Obb, Ray, Shape};
use sepax_world::{ColliderId, Kind, KindMask, QueryFilter, RayCastHit, World};

fn random_ray(rng: &mut ChaCha8Rng) -> Ray {
    let o = common::point(rng, 5.0);
    let target = common::point(rng, 2.0);
    let max = if rng.random_bool(0.3) {
        Real::INFINITY
    } else {
        rng.random_range(0.5..15.0)
    };
    Ray::new(o, target - o, max).unwrap()
}

/// A box half the time (the table's fast path), else any shape.
fn shape(rng: &mut ChaCha8Rng) -> Shape {
    if rng.random_bool(0.5) {
        Shape::Obb(
            Obb::from_rotation(
                common::point(rng, 0.3),
                common::rotation(rng),
                Vector3::new(
                    rng.random_range(0.05..0.8),
                    rng.random_range(0.05..0.8),
                    rng.random_range(0.05..0.8),
                ),
            )
            .unwrap(),
        )
    } else {
        common::shape(rng)
    }
}

/// Every hit of every collider the filter sees (enabled, kind in the mask), by `(t, id)`.
fn brute(world: &World, ray: &Ray, kinds: KindMask) -> Vec<RayCastHit> {
    let bit = |k: Kind| 1u8 << k as u8;
    let mut v: Vec<RayCastHit> = world
        .iter()
        .filter(|(_, c)| c.is_enabled() && kinds.0 & bit(c.kind()) != 0)
        .filter_map(|(id, c)| {
            c.world_shape().cast_ray(ray).map(|h| RayCastHit {
                id,
                distance: h.distance,
                point: h.point,
                normal: h.normal,
            })
        })
        .collect();
    v.sort_by(|a, b| a.distance.total_cmp(&b.distance).then(a.id.cmp(&b.id)));
    v
}

fn check(rng: &mut ChaCha8Rng, world: &World, label: &str) {
    for _ in 0..60 {
        let ray = random_ray(rng);
        for kinds in [KindMask::ALL, KindMask::STATIC, KindMask::MOVING] {
            let expect = brute(world, &ray, kinds);
            let q = QueryFilter::new().kinds(kinds);
            assert_eq!(
                world.cast_ray(&ray, &q).unwrap(),
                expect.first().copied(),
                "{label}: closest, {kinds:?}, {ray:?}"
            );
            let mut all = Vec::new();
            world.cast_ray_all(&ray, &q, &mut all).unwrap();
            assert_eq!(all, expect, "{label}: all, {kinds:?}");
            // A predicate that keeps everything takes the path through the collider.
            let keep = |_: ColliderId, _: &sepax_world::Collider| true;
            let q = q.predicate(&keep);
            assert_eq!(
                world.cast_ray(&ray, &q).unwrap(),
                expect.first().copied(),
                "{label}: closest through the collider, {kinds:?}"
            );
        }
    }
}

fn desc(rng: &mut ChaCha8Rng, i: u64) -> sepax_world::ColliderDesc {
    let mut d = common::desc(rng, 3.0, i);
    d.shape = shape(rng);
    d
}

#[test]
fn rays_follow_every_edit() {
    for seed in 0..4 {
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed);
        let mut world = World::new();
        let mut ids = Vec::new();
        world
            .insert_many((0..80).map(|i| desc(&mut rng, i)), &mut ids)
            .unwrap();
        for i in 0..40 {
            ids.push(world.insert(desc(&mut rng, 80 + i)).unwrap());
        }
        check(&mut rng, &world, "inserted");
        for round in 0..3 {
            for &id in &ids {
                if !world.contains(id) {
                    continue;
                }
                match rng.random_range(0..8) {
                    0 => world.set_pose(id, common::pose(&mut rng, 3.0)).unwrap(),
                    1 => world.set_shape(id, shape(&mut rng)).unwrap(),
                    2 => {
                        let k = [Kind::Static, Kind::Kinematic, Kind::Dynamic];
                        world.set_kind(id, k[rng.random_range(0..3)]).unwrap();
                    }
                    3 => {
                        let on = !world.get(id).unwrap().is_enabled();
                        world.set_enabled(id, on).unwrap();
                    }
                    4 if rng.random_bool(0.3) => {
                        world.remove(id).unwrap();
                    }
                    _ => {}
                }
            }
            check(&mut rng, &world, "edited");
            let live: Vec<ColliderId> =
                ids.iter().copied().filter(|&i| world.contains(i)).collect();
            let poses: Vec<_> = live.iter().map(|_| common::pose(&mut rng, 3.0)).collect();
            world.set_poses(&live, &poses).unwrap();
            check(&mut rng, &world, "set_poses");
            // New colliders reuse the freed proxy slots.
            let mut more = Vec::new();
            world
                .insert_many((0..20).map(|i| desc(&mut rng, 1000 + i)), &mut more)
                .unwrap();
            ids.extend(more);
            check(&mut rng, &world, "insert_many");
            let shift = Vector3::new(0.5, -0.25, 0.125) * (round as Real + 1.0);
            world.shift_origin(shift).unwrap();
            check(&mut rng, &world, "shift_origin");
        }
    }
}
