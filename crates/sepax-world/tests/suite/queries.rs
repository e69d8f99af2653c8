//! World queries against brute force over every collider: rays (closest, any, all, first N),
//! overlaps, linear and rotational shape casts, the closest collider to a point, distances and
//! frustums, with every query shape kind, on randomized worlds with filters, kind masks,
//! excluded ids, predicates and explicit pair entries, after `set_pose` / insert / remove /
//! enable edits before any update (the trees must be fresh) and after an update. Then the batch
//! forms at 1, 2 and 8 threads, `World: Sync`, and adversarial input.

use crate::common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_narrowphase::distance::{closest_points_shapes, point_closest_points};
use sepax_narrowphase::intersect::intersects_shapes;
use sepax_narrowphase::toi::{time_of_impact_shapes, CastOptions, Motion};
use sepax_shapes::math::{Isometry3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{
    Aabb, Capsule, CullMode, Frustum, Obb, Ray, Shape, Sphere, Triangle, Visibility,
};
use sepax_world::{
    frustum_visibility, AnyHit, Collector, Collider, ColliderDesc, ColliderId, FirstN, FnCollector,
    Hit, Kind, KindMask, QueryError, QueryFilter, Serial, ShapeCast, Step, World,
};

/// A query shape of kind `k` (0..5: AABB, OBB, sphere, capsule, triangle).
fn shape_of(rng: &mut ChaCha8Rng, k: usize) -> Shape {
    let s = |rng: &mut ChaCha8Rng| -> Real { rng.random_range(0.05..0.6) };
    let c = common::point(rng, 0.2);
    match k {
        0 => {
            let h = Vector3::new(s(rng), s(rng), s(rng));
            Shape::Aabb(Aabb::new(c - h, c + h).unwrap())
        }
        1 => Shape::Obb(
            Obb::from_rotation(
                c,
                common::rotation(rng),
                Vector3::new(s(rng), s(rng), s(rng)),
            )
            .unwrap(),
        ),
        2 => Shape::Sphere(Sphere::new(c, s(rng)).unwrap()),
        3 => Shape::Capsule(
            Capsule::new(
                common::point(rng, 0.5),
                common::point(rng, 0.5),
                s(rng) * 0.5,
            )
            .unwrap(),
        ),
        _ => Shape::Triangle(
            Triangle::new(
                common::point(rng, 0.7),
                common::point(rng, 0.7),
                common::point(rng, 0.7),
            )
            .unwrap(),
        ),
    }
}

/// The shape placed as the world places a query's (the pose's rotation renormalised unless its
/// squared norm is exactly 1).
fn placed(shape: &Shape, pose: &Isometry3) -> Shape {
    let q = *pose.rotation.quaternion();
    let pose = if q.norm_squared() == 1.0 {
        *pose
    } else {
        Isometry3::from_parts(pose.translation, UnitQuaternion::new_normalize(q))
    };
    shape.transformed(&pose).unwrap()
}

fn every_third(id: ColliderId, _: &Collider) -> bool {
    !id.index().is_multiple_of(3)
}

/// The documented rule of `QueryFilter`, written independently of the world's code.
fn sees(world: &World, q: &QueryFilter<'_>, id: ColliderId, c: &Collider) -> bool {
    if !c.is_enabled() || Some(id) == q.exclude || Some(id) == q.as_collider {
        return false;
    }
    let bit = match c.kind() {
        Kind::Static => 1,
        Kind::Kinematic => 2,
        Kind::Dynamic => 4,
    };
    if q.kinds.0 & bit == 0 {
        return false;
    }
    let source = q.as_collider.map(|s| world.get(s).unwrap());
    let pass = match source.and_then(|s| s.pair_entry(id)) {
        Some(v) => v,
        None => match q.filter.or(source.map(|s| *s.filter())) {
            Some(f) => f.passes(c.filter()),
            None => true,
        },
    };
    pass && q.predicate.is_none_or(|p| p(id, c))
}

/// The colliders a query sees, in id order, with their placed shapes.
fn seen<'w>(world: &'w World, q: &QueryFilter<'_>) -> Vec<(ColliderId, &'w Collider)> {
    world
        .iter()
        .filter(|&(id, c)| sees(world, q, id, c))
        .collect()
}

fn sort_hits<H: Hit>(v: &mut [H]) {
    v.sort_by(|a, b| a.t().total_cmp(&b.t()).then(a.id().cmp(&b.id())));
}

fn random_filter<'a>(rng: &mut ChaCha8Rng, world: &World, ids: &[ColliderId]) -> QueryFilter<'a> {
    let mut q = QueryFilter::new();
    let live: Vec<ColliderId> = ids.iter().copied().filter(|&i| world.contains(i)).collect();
    if rng.random_bool(0.4) {
        q.filter = Some(common::filter(rng));
    }
    if rng.random_bool(0.3) {
        q.kinds = KindMask(rng.random_range(1..8));
    }
    if rng.random_bool(0.3) && !live.is_empty() {
        q.exclude = Some(live[rng.random_range(0..live.len())]);
    }
    if rng.random_bool(0.3) && !live.is_empty() {
        q.as_collider = Some(live[rng.random_range(0..live.len())]);
    }
    if rng.random_bool(0.2) {
        q.predicate = Some(&every_third);
    }
    q
}

fn random_world(rng: &mut ChaCha8Rng, n: usize) -> (World, Vec<ColliderId>) {
    let mut world = World::new();
    let mut ids = Vec::new();
    for i in 0..n {
        ids.push(world.insert(common::desc(rng, 3.0, i as u64)).unwrap());
    }
    // Explicit entries, some true (seen whatever the filters say), some false.
    for _ in 0..n / 2 {
        let a = ids[rng.random_range(0..n)];
        let b = ids[rng.random_range(0..n)];
        if a != b {
            world.allow_pair(a, b, rng.random_bool(0.5)).unwrap();
        }
    }
    (world, ids)
}

/// Edits without an update: moves (static colliders too), inserts, removes, enable flips.
fn edit(rng: &mut ChaCha8Rng, world: &mut World, ids: &mut Vec<ColliderId>) {
    for &id in ids.iter() {
        if world.contains(id) && rng.random_bool(0.3) {
            world.set_pose(id, common::pose(rng, 3.0)).unwrap();
        }
    }
    let moved: Vec<ColliderId> = ids
        .iter()
        .copied()
        .filter(|_| rng.random_bool(0.1))
        .collect();
    let poses: Vec<Isometry3> = moved.iter().map(|_| common::pose(rng, 3.0)).collect();
    let live: Vec<ColliderId> = moved
        .iter()
        .copied()
        .filter(|&i| world.contains(i))
        .collect();
    let live_poses: Vec<Isometry3> = moved
        .iter()
        .zip(&poses)
        .filter(|(i, _)| world.contains(**i))
        .map(|(_, p)| *p)
        .collect();
    world.set_poses(&live, &live_poses).unwrap();
    for _ in 0..10 {
        let k = rng.random_range(0..ids.len());
        if world.contains(ids[k]) && rng.random_bool(0.5) {
            world.remove(ids[k]).unwrap();
        } else if world.contains(ids[k]) {
            let on = !world.get(ids[k]).unwrap().is_enabled();
            world.set_enabled(ids[k], on).unwrap();
        }
        let n = ids.len() as u64;
        ids.push(world.insert(common::desc(rng, 3.0, n)).unwrap());
    }
}

fn random_ray(rng: &mut ChaCha8Rng) -> Ray {
    let o = common::point(rng, 5.0);
    let target = common::point(rng, 2.0);
    let max = match rng.random_range(0..4) {
        0 => Real::INFINITY,
        1 => rng.random_range(0.0..2.0),
        _ => rng.random_range(2.0..15.0),
    };
    Ray::new(o, target - o, max).unwrap()
}

fn check_rays(rng: &mut ChaCha8Rng, world: &World, ids: &[ColliderId]) {
    for _ in 0..60 {
        let q = random_filter(rng, world, ids);
        let ray = random_ray(rng);
        let mut expect: Vec<_> = seen(world, &q)
            .into_iter()
            .filter_map(|(id, c)| c.world_shape().cast_ray(&ray).map(|h| (id, h)))
            .map(|(id, h)| sepax_world::RayCastHit {
                id,
                distance: h.distance,
                point: h.point,
                normal: h.normal,
            })
            .collect();
        sort_hits(&mut expect);
        assert_eq!(world.cast_ray(&ray, &q).unwrap(), expect.first().copied());
        let mut all = Vec::new();
        world.cast_ray_all(&ray, &q, &mut all).unwrap();
        assert_eq!(all, expect);
        match world.cast_ray_any(&ray, &q).unwrap() {
            Some(h) => assert!(expect.contains(&h)),
            None => assert!(expect.is_empty()),
        }
        let mut first = FirstN::new(3);
        world.cast_ray_with(&ray, &q, &mut first).unwrap();
        assert_eq!(first.hits(), &expect[..expect.len().min(3)]);
        // A user collector that clips at 1.0 sees at least every hit within 1.0.
        let mut got = Vec::new();
        let mut user = FnCollector(|h: sepax_world::RayCastHit| {
            got.push(h);
            Step::Clip(1.0)
        });
        world.cast_ray_with(&ray, &q, &mut user).unwrap();
        sort_hits(&mut got);
        let within: Vec<_> = expect
            .iter()
            .filter(|h| h.distance <= 1.0)
            .copied()
            .collect();
        assert!(within.iter().all(|h| got.contains(h)));
        assert!(got.iter().all(|h| expect.contains(h)));
    }
}

fn check_overlaps(rng: &mut ChaCha8Rng, world: &World, ids: &[ColliderId]) {
    for k in 0..5 {
        for _ in 0..12 {
            let q = random_filter(rng, world, ids);
            let (shape, pose) = (shape_of(rng, k), common::pose(rng, 3.0));
            let p = placed(&shape, &pose);
            let expect: Vec<ColliderId> = seen(world, &q)
                .into_iter()
                .filter(|(_, c)| intersects_shapes(&p, c.world_shape()))
                .map(|(id, _)| id)
                .collect();
            let mut got = Vec::new();
            world.overlap(&shape, &pose, &q, &mut got).unwrap();
            assert_eq!(got, expect, "overlap, shape kind {k}");
            let any = world.overlap_any(&shape, &pose, &q).unwrap();
            assert_eq!(any.is_some(), !expect.is_empty());
            assert!(any.is_none_or(|a| expect.contains(&a)));
        }
    }
}

fn check_casts(rng: &mut ChaCha8Rng, world: &World, ids: &[ColliderId]) {
    for k in 0..5 {
        for round in 0..10 {
            let q = random_filter(rng, world, ids);
            let (shape, pose) = (shape_of(rng, k), common::pose(rng, 4.0));
            let p = placed(&shape, &pose);
            let v = common::point(rng, 3.0).coords;
            let rotating = round % 2 == 1;
            let motion = if rotating {
                Motion::new(
                    pose.translation.vector.into(),
                    v,
                    common::point(rng, 4.0).coords,
                )
            } else {
                Motion::linear(v)
            };
            let still = Motion::linear(Vector3::zeros());
            let t_max = rng.random_range(0.0..2.0);
            let mut expect: Vec<_> = seen(world, &q)
                .into_iter()
                .filter_map(|(id, c)| {
                    let toi = time_of_impact_shapes(
                        &p,
                        &motion,
                        c.world_shape(),
                        &still,
                        t_max,
                        &CastOptions::default(),
                    )?;
                    Some((id, toi))
                })
                .map(|(id, toi)| sepax_world::ShapeCastHit {
                    id,
                    time: toi.time,
                    point: toi.point(),
                    normal: -toi.normal,
                    depth: toi.depth,
                    status: toi.status,
                })
                .collect();
            sort_hits(&mut expect);
            let mut all = Vec::new();
            let got = if rotating {
                world
                    .cast_motion_with(
                        &shape,
                        &pose,
                        &motion,
                        t_max,
                        &q,
                        &mut sepax_world::All(&mut all),
                    )
                    .unwrap();
                world
                    .cast_motion(&shape, &pose, &motion, t_max, &q)
                    .unwrap()
            } else {
                world
                    .cast_shape_with(
                        &shape,
                        &pose,
                        &v,
                        t_max,
                        &q,
                        &mut sepax_world::All(&mut all),
                    )
                    .unwrap();
                world.cast_shape(&shape, &pose, &v, t_max, &q).unwrap()
            };
            assert_eq!(all, expect, "all casts, kind {k}, rotating {rotating}");
            let first = expect.first();
            assert_eq!(got.map(|h| (h.id, h.time)), first.map(|h| (h.id, h.time)));
        }
    }
}

fn check_points(rng: &mut ChaCha8Rng, world: &World, ids: &[ColliderId]) {
    for _ in 0..40 {
        let q = random_filter(rng, world, ids);
        let p = common::point(rng, 6.0);
        let max = if rng.random_bool(0.5) {
            Real::INFINITY
        } else {
            rng.random_range(0.0..2.0)
        };
        let mut expect: Vec<_> = seen(world, &q)
            .into_iter()
            .map(|(id, c)| (id, point_closest_points(&p, c.world_shape())))
            .filter(|(_, cp)| cp.distance <= max)
            .map(|(id, cp)| sepax_world::PointHit {
                id,
                distance: cp.distance,
                point: cp.point_b,
            })
            .collect();
        sort_hits(&mut expect);
        assert_eq!(
            world.closest_collider(&p, max, &q).unwrap(),
            expect.first().copied()
        );
        let mut near = Vec::new();
        world.colliders_near(&p, max, &q, &mut near).unwrap();
        assert_eq!(near, expect);
    }
}

fn check_distances(rng: &mut ChaCha8Rng, world: &World, ids: &[ColliderId]) {
    for k in 0..5 {
        for _ in 0..8 {
            let q = random_filter(rng, world, ids);
            let (shape, pose) = (shape_of(rng, k), common::pose(rng, 5.0));
            let p = placed(&shape, &pose);
            let max = if rng.random_bool(0.3) {
                Real::INFINITY
            } else {
                rng.random_range(0.0..1.5)
            };
            let mut expect: Vec<_> = seen(world, &q)
                .into_iter()
                .map(|(id, c)| (id, closest_points_shapes(&p, c.world_shape())))
                .filter(|(_, cp)| cp.distance <= max)
                .map(|(id, cp)| sepax_world::DistanceHit {
                    id,
                    distance: cp.distance,
                    point_query: cp.point_a,
                    point_collider: cp.point_b,
                    normal: cp.normal,
                })
                .collect();
            sort_hits(&mut expect);
            let got = world.closest_to_shape(&shape, &pose, max, &q).unwrap();
            assert_eq!(got, expect.first().copied(), "closest to shape kind {k}");
            let mut within = Vec::new();
            world
                .colliders_within(&shape, &pose, max, &q, &mut within)
                .unwrap();
            assert_eq!(within, expect, "within, shape kind {k}");
        }
    }
}

fn check_frustums(rng: &mut ChaCha8Rng, world: &World, ids: &[ColliderId]) {
    for _ in 0..20 {
        let q = random_filter(rng, world, ids);
        let eye = common::point(rng, 6.0);
        let f = Frustum::from_camera(
            eye,
            common::point(rng, 1.0) - eye,
            Vector3::y() + common::point(rng, 0.3).coords,
            rng.random_range(0.3..1.5),
            rng.random_range(0.5..2.0),
            0.1,
            rng.random_range(2.0..12.0),
        );
        let Ok(f) = f else { continue };
        for mode in [CullMode::Planes, CullMode::Exact] {
            let expect: Vec<_> = seen(world, &q)
                .into_iter()
                .map(|(id, c)| (id, frustum_visibility(&f, c.world_shape(), mode)))
                .filter(|(_, v)| *v != Visibility::Outside)
                .collect();
            let mut got = Vec::new();
            world.frustum_query(&f, mode, &q, &mut got).unwrap();
            let got: Vec<_> = got.iter().map(|h| (h.id, h.visibility)).collect();
            assert_eq!(got, expect, "frustum {mode:?}");
        }
    }
}

fn check_all(rng: &mut ChaCha8Rng, world: &World, ids: &[ColliderId]) {
    check_rays(rng, world, ids);
    check_overlaps(rng, world, ids);
    check_casts(rng, world, ids);
    check_points(rng, world, ids);
    check_distances(rng, world, ids);
    check_frustums(rng, world, ids);
}

#[test]
fn queries_equal_brute_force_before_and_after_updates() {
    for seed in 0..3 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut world, mut ids) = random_world(&mut rng, 120);
        check_all(&mut rng, &world, &ids);
        world.update(&Serial);
        check_all(&mut rng, &world, &ids);
        // Edits, no update: the trees must already hold the new poses.
        edit(&mut rng, &mut world, &mut ids);
        check_all(&mut rng, &world, &ids);
        world.update(&Serial);
        edit(&mut rng, &mut world, &mut ids);
        check_all(&mut rng, &world, &ids);
    }
}

/// A query right after `set_pose` (no update) sees the collider at its new pose, moving and
/// static alike, and sees inserts and removes at once.
#[test]
fn queries_see_edits_before_update() {
    for kind in [Kind::Static, Kind::Kinematic, Kind::Dynamic] {
        let mut world = World::new();
        let ball = Sphere::new(Point3::origin(), 0.5).unwrap();
        let id = world.insert(ColliderDesc::new(ball).kind(kind)).unwrap();
        world.update(&Serial);
        let q = QueryFilter::new();
        let down = |x: Real| Ray::new(Point3::new(x, 10.0, 0.0), -Vector3::y(), 100.0).unwrap();
        assert_eq!(
            world.cast_ray(&down(0.0), &q).unwrap().map(|h| h.id),
            Some(id)
        );
        world
            .set_pose(id, Isometry3::translation(50.0, 0.0, 0.0))
            .unwrap();
        assert_eq!(
            world.cast_ray(&down(0.0), &q).unwrap(),
            None,
            "{kind:?}: old pose"
        );
        let hit = world.cast_ray(&down(50.0), &q).unwrap().unwrap();
        assert_eq!((hit.id, hit.distance), (id, 9.5), "{kind:?}: new pose");
        let probe = Shape::Sphere(Sphere::new(Point3::origin(), 0.1).unwrap());
        let at = |x: Real| Isometry3::translation(x, 0.0, 0.0);
        assert_eq!(world.overlap_any(&probe, &at(50.0), &q).unwrap(), Some(id));
        assert_eq!(world.overlap_any(&probe, &at(0.0), &q).unwrap(), None);
        let pt = world
            .closest_collider(&Point3::new(52.0, 0.0, 0.0), 10.0, &q)
            .unwrap();
        assert_eq!(pt.map(|h| h.id), Some(id));
        // Inserted: seen at once; removed: gone at once.
        let other = world.insert(ColliderDesc::new(ball).kind(kind)).unwrap();
        assert_eq!(
            world.cast_ray(&down(0.0), &q).unwrap().map(|h| h.id),
            Some(other)
        );
        world.remove(other).unwrap();
        assert_eq!(world.cast_ray(&down(0.0), &q).unwrap(), None);
        world.set_enabled(id, false).unwrap();
        assert_eq!(world.cast_ray(&down(50.0), &q).unwrap(), None, "disabled");
    }
}

#[test]
fn world_is_sync_and_queries_from_many_threads_agree() {
    fn assert_sync<T: Sync>() {}
    assert_sync::<World>();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (world, _) = random_world(&mut rng, 200);
    let rays: Vec<Ray> = (0..256).map(|_| random_ray(&mut rng)).collect();
    let q = QueryFilter::new();
    let serial: Vec<_> = rays
        .iter()
        .map(|r| world.cast_ray(r, &q).unwrap())
        .collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    rays.iter()
                        .map(|r| world.cast_ray(r, &q).unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), serial);
        }
    });
}

#[test]
fn batches_equal_single_queries_at_1_2_8_threads() {
    use sepax_world::RayonExecutor;
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let (mut world, mut ids) = random_world(&mut rng, 300);
    world.update(&Serial);
    edit(&mut rng, &mut world, &mut ids);
    let q = random_filter(&mut rng, &world, &ids);
    let rays: Vec<Ray> = (0..500).map(|_| random_ray(&mut rng)).collect();
    let shapes: Vec<(Shape, Isometry3)> = (0..200)
        .map(|i| (shape_of(&mut rng, i % 5), common::pose(&mut rng, 3.0)))
        .collect();
    let casts: Vec<ShapeCast> = (0..150)
        .map(|i| ShapeCast {
            shape: shape_of(&mut rng, i % 5),
            pose: common::pose(&mut rng, 4.0),
            velocity: common::point(&mut rng, 3.0).coords,
            max_time: 1.0,
        })
        .collect();
    let points: Vec<Point3> = (0..300).map(|_| common::point(&mut rng, 5.0)).collect();

    let single_rays: Vec<_> = rays
        .iter()
        .map(|r| world.cast_ray(r, &q).unwrap())
        .collect();
    let single_overlaps: Vec<Vec<ColliderId>> = shapes
        .iter()
        .map(|(s, p)| {
            let mut v = Vec::new();
            world.overlap(s, p, &q, &mut v).unwrap();
            v
        })
        .collect();
    let single_casts: Vec<_> = casts
        .iter()
        .map(|c| {
            world
                .cast_shape(&c.shape, &c.pose, &c.velocity, c.max_time, &q)
                .unwrap()
        })
        .collect();
    let single_points: Vec<_> = points
        .iter()
        .map(|p| world.closest_collider(p, Real::INFINITY, &q).unwrap())
        .collect();
    assert!(single_rays.iter().any(|h| h.is_some()) && single_casts.iter().any(|h| h.is_some()));

    let check = |exec: &RayonExecutor| {
        let mut r = vec![None; rays.len()];
        world.cast_rays(exec, &rays, &q, &mut r).unwrap();
        assert_eq!(r, single_rays, "{} threads: rays", exec.threads());
        let mut o = vec![Vec::new(); shapes.len()];
        world.overlap_batch(exec, &shapes, &q, &mut o).unwrap();
        assert_eq!(o, single_overlaps, "{} threads: overlaps", exec.threads());
        let mut c = vec![None; casts.len()];
        world.cast_shapes_batch(exec, &casts, &q, &mut c).unwrap();
        assert_eq!(c, single_casts, "{} threads: casts", exec.threads());
        let mut p = vec![None; points.len()];
        world
            .closest_colliders(exec, &points, Real::INFINITY, &q, &mut p)
            .unwrap();
        assert_eq!(p, single_points, "{} threads: points", exec.threads());
    };
    for threads in [1, 2, 8] {
        check(&RayonExecutor::new(threads).unwrap());
    }
    let mut r = vec![None; rays.len()];
    world.cast_rays(&Serial, &rays, &q, &mut r).unwrap();
    assert_eq!(r, single_rays);
}

/// A box floor and a few shapes for the adversarial cases.
fn small_world() -> (World, ColliderId) {
    let mut world = World::new();
    let floor = Aabb::new(Point3::new(-5.0, -1.0, -5.0), Point3::new(5.0, 0.0, 5.0)).unwrap();
    let floor = world
        .insert(ColliderDesc::new(floor).kind(Kind::Static))
        .unwrap();
    let ball = Sphere::new(Point3::new(0.0, 2.0, 0.0), 0.5).unwrap();
    world.insert(ColliderDesc::new(ball)).unwrap();
    (world, floor)
}

#[test]
fn adversarial_rays() {
    let (world, floor) = small_world();
    let q = QueryFilter::new();
    // Along the floor's top face (y = 0): the closed box is hit where the ray enters it.
    let along = Ray::new(Point3::new(-10.0, 0.0, 0.0), Vector3::x(), 100.0).unwrap();
    let h = world.cast_ray(&along, &q).unwrap().unwrap();
    assert_eq!((h.id, h.distance), (floor, 5.0));
    // Parallel to the face just above it: no hit.
    let above = Ray::new(Point3::new(-10.0, 0.01, 3.0), Vector3::x(), 100.0).unwrap();
    assert_eq!(world.cast_ray(&above, &q).unwrap(), None);
    // Origin inside: distance 0, zero normal.
    let inside = Ray::new(Point3::new(1.0, -0.5, 1.0), Vector3::y(), 10.0).unwrap();
    let h = world.cast_ray(&inside, &q).unwrap().unwrap();
    assert_eq!((h.id, h.distance, h.normal), (floor, 0.0, Vector3::zeros()));
    // Zero length: only a shape containing the origin.
    let zero = Ray::new(Point3::new(0.0, 0.5, 0.0), -Vector3::y(), 0.0).unwrap();
    assert_eq!(world.cast_ray(&zero, &q).unwrap(), None);
    let zero_in = Ray::new(Point3::new(0.0, -0.5, 0.0), -Vector3::y(), 0.0).unwrap();
    assert_eq!(
        world.cast_ray(&zero_in, &q).unwrap().map(|h| h.id),
        Some(floor)
    );
    // Huge and infinite lengths, far origins.
    for max in [Real::MAX, Real::INFINITY] {
        let down = Ray::new(Point3::new(0.0, 1e30, 0.0), -Vector3::y(), max).unwrap();
        let mut all = Vec::new();
        world.cast_ray_all(&down, &q, &mut all).unwrap();
        assert_eq!(all.len(), 2);
        assert!(all[0].distance <= all[1].distance);
    }
    // Non-finite rays cannot be made.
    assert!(Ray::new(Point3::new(Real::NAN, 0.0, 0.0), Vector3::x(), 1.0).is_err());
    assert!(Ray::new(
        Point3::origin(),
        Vector3::new(Real::INFINITY, 0.0, 0.0),
        1.0
    )
    .is_err());
    assert!(Ray::new(Point3::origin(), Vector3::x(), Real::NAN).is_err());
}

#[test]
fn adversarial_inputs_are_errors_not_panics() {
    let (world, floor) = small_world();
    let q = QueryFilter::new();
    let ball = Shape::Sphere(Sphere::new(Point3::origin(), 0.5).unwrap());
    let nan_pose = Isometry3::translation(Real::NAN, 0.0, 0.0);
    let pose = Isometry3::identity();
    let mut out = Vec::new();
    assert!(matches!(
        world.overlap(&ball, &nan_pose, &q, &mut out),
        Err(QueryError::Input { index: 0, .. })
    ));
    let bad_v = Vector3::new(0.0, Real::NAN, 0.0);
    assert!(matches!(
        world.cast_shape(&ball, &pose, &bad_v, 1.0, &q),
        Err(QueryError::BadNumber {
            field: "velocity",
            ..
        })
    ));
    for t in [Real::INFINITY, -1.0, Real::NAN] {
        assert!(world
            .cast_shape(&ball, &pose, &Vector3::x(), t, &q)
            .is_err());
    }
    let spin = Motion::new(
        Point3::origin(),
        Vector3::zeros(),
        Vector3::new(Real::INFINITY, 0.0, 0.0),
    );
    assert!(world.cast_motion(&ball, &pose, &spin, 1.0, &q).is_err());
    let nan_p = Point3::new(0.0, Real::NAN, 0.0);
    assert!(world.closest_collider(&nan_p, 1.0, &q).is_err());
    assert!(world
        .closest_collider(&Point3::origin(), Real::NAN, &q)
        .is_err());
    assert!(world.closest_collider(&Point3::origin(), -1.0, &q).is_err());
    assert!(world.closest_to_shape(&ball, &pose, Real::NAN, &q).is_err());
    // A shape that its pose moves out of the finite range is refused, not tested.
    let edge = Shape::Sphere(Sphere::new(Point3::new(Real::MAX, 0.0, 0.0), 1.0).unwrap());
    let shove = Isometry3::translation(Real::MAX, 0.0, 0.0);
    assert!(matches!(
        world.overlap(&edge, &shove, &q, &mut out),
        Err(QueryError::Input { index: 0, .. })
    ));
    // Stale filter ids.
    let mut w2 = World::new();
    let gone = w2.insert(ColliderDesc::new(ball)).unwrap();
    w2.remove(gone).unwrap();
    let stale = QueryFilter::for_collider(gone);
    assert_eq!(
        w2.overlap(&ball, &pose, &stale, &mut out),
        Err(QueryError::StaleId(gone))
    );
    // Batches: lengths, and the index of a bad input.
    let rays = [Ray::new(Point3::origin(), Vector3::x(), 1.0).unwrap()];
    let mut none = [];
    assert!(matches!(
        world.cast_rays(&Serial, &rays, &q, &mut none),
        Err(QueryError::LengthMismatch {
            inputs: 1,
            outputs: 0
        })
    ));
    let shapes = [(ball, pose), (ball, nan_pose)];
    let mut o = vec![Vec::new(); 2];
    assert!(matches!(
        world.overlap_batch(&Serial, &shapes, &q, &mut o),
        Err(QueryError::Input { index: 1, .. })
    ));
    // A huge shape and a huge cast are answered.
    let huge = Shape::Sphere(Sphere::new(Point3::origin(), 1e30).unwrap());
    world.overlap(&huge, &pose, &q, &mut out).unwrap();
    assert_eq!(out.len(), 2);
    let far = world
        .cast_shape(
            &ball,
            &Isometry3::translation(0.0, 1e20, 0.0),
            &-Vector3::y(),
            1e25,
            &q,
        )
        .unwrap();
    // 1e20 away the two colliders are within rounding of each other: either may come first.
    assert!(far.is_some_and(|h| world.contains(h.id)));
    let _ = floor;
}

#[test]
fn shape_cast_reports_initial_overlap_with_penetration() {
    let (world, floor) = small_world();
    let q = QueryFilter::new().kinds(KindMask::STATIC);
    let ball = Shape::Sphere(Sphere::new(Point3::origin(), 0.5).unwrap());
    let sunk = Isometry3::translation(0.0, 0.3, 0.0);
    let h = world
        .cast_shape(&ball, &sunk, &Vector3::x(), 1.0, &q)
        .unwrap()
        .unwrap();
    assert_eq!((h.id, h.time), (floor, 0.0));
    assert!((h.depth - 0.2).abs() < 1e-4, "depth {}", h.depth);
    // The normal pushes the ball out of the floor: up.
    assert!(
        (h.normal - Vector3::y()).norm() < 1e-4,
        "normal {:?}",
        h.normal
    );
    // Falling onto it: first contact at height 0.5 above the floor.
    let up = Isometry3::translation(0.0, 3.0, 0.0);
    let h = world
        .cast_shape(&ball, &up, &-Vector3::y(), 10.0, &q)
        .unwrap()
        .unwrap();
    assert!((h.time - 2.5).abs() < 1e-3 && h.depth == 0.0, "{h:?}");
    assert!((h.normal - Vector3::y()).norm() < 1e-3);
}

#[test]
fn collectors_stop_early_and_respect_ties() {
    let mut world = World::new();
    // Two boxes whose faces the ray meets at the same distance: the smaller id wins.
    let b = |z: Real| Aabb::new(Point3::new(1.0, -1.0, z), Point3::new(2.0, 1.0, z + 0.5)).unwrap();
    let a = world.insert(ColliderDesc::new(b(-0.5))).unwrap();
    let c = world.insert(ColliderDesc::new(b(0.0))).unwrap();
    let q = QueryFilter::new();
    let ray = Ray::new(Point3::new(0.0, 0.0, 0.0), Vector3::x(), 10.0).unwrap();
    let h = world.cast_ray(&ray, &q).unwrap().unwrap();
    assert_eq!((h.id, h.distance), (a.min(c), 1.0));
    let mut calls = 0;
    let mut stop = FnCollector(|_h: sepax_world::RayCastHit| {
        calls += 1;
        Step::Stop
    });
    world.cast_ray_with(&ray, &q, &mut stop).unwrap();
    assert_eq!(calls, 1);
    let mut any = AnyHit::default();
    world.cast_ray_with(&ray, &q, &mut any).unwrap();
    assert!(any.0.is_some());
    let mut zero = FirstN::new(0);
    world.cast_ray_with(&ray, &q, &mut zero).unwrap();
    assert!(zero.hits().is_empty());
    let _: &dyn Collector<sepax_world::RayCastHit> = &any;
}

/// A world whose moving colliders live in a sorted grid (the default `MovingPhase::cast_ray`,
/// through `query_aabb`) answers rays, overlaps and casts as the tree world does.
#[test]
fn sorted_grid_world_answers_as_the_tree_world() {
    use sepax_broadphase::sorted_grid::SortedGrid;
    use sepax_world::WorldConfig;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let descs: Vec<ColliderDesc> = (0..150).map(|i| common::desc(&mut rng, 3.0, i)).collect();
    let mut tree = World::new();
    let grid = SortedGrid::new(1.0).unwrap();
    let mut cells = World::with_broad_phase(WorldConfig::default(), grid).unwrap();
    for d in &descs {
        let a = tree.insert(d.clone()).unwrap();
        let b = cells.insert(d.clone()).unwrap();
        assert_eq!(a, b);
    }
    let q = QueryFilter::new();
    for _ in 0..100 {
        let ray = random_ray(&mut rng);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        tree.cast_ray_all(&ray, &q, &mut a).unwrap();
        cells.cast_ray_all(&ray, &q, &mut b).unwrap();
        assert_eq!(a, b);
        assert_eq!(
            tree.cast_ray(&ray, &q).unwrap(),
            cells.cast_ray(&ray, &q).unwrap()
        );
        let k = rng.random_range(0..5);
        let (shape, pose) = (shape_of(&mut rng, k), common::pose(&mut rng, 3.0));
        let (mut x, mut y) = (Vec::new(), Vec::new());
        tree.overlap(&shape, &pose, &q, &mut x).unwrap();
        cells.overlap(&shape, &pose, &q, &mut y).unwrap();
        assert_eq!(x, y);
        let v = common::point(&mut rng, 3.0).coords;
        assert_eq!(
            tree.cast_shape(&shape, &pose, &v, 1.0, &q).unwrap(),
            cells.cast_shape(&shape, &pose, &v, 1.0, &q).unwrap()
        );
    }
}
