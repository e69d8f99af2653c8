//! Continuous collision in the world: a ccd bullet through a thin wall is never missed (and the
//! same body without ccd misses it), the time of impact matches the analytic value, a rotating
//! bar is caught between frames, begin/end stay balanced, and the output does not depend on the
//! executor.

use crate::common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_shapes::math::{Isometry3, Matrix3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::tolerance::TOI_DISTANCE_ALLOWANCE;
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::{Aabb, Obb, Shape, Sphere};
use sepax_world::{
    ColliderDesc, ColliderId, EventFlags, Events, Executor, Kind, PairKey, RayonExecutor, Report,
    Serial, World,
};

const SPEED: Real = 1.0e4;
const STEP: Real = 1.0 / 60.0;
const THICKNESS: Real = 0.001;
const RADIUS: Real = 0.005;
const CUBE: Real = 0.005;

/// Half the wall's width and height.
const WALL: Real = 200.0;

/// A 1 mm wall (x in [0, 1 mm]), 400 m wide and tall.
fn wall() -> ColliderDesc {
    let wall = Aabb::new(
        Point3::new(0.0, -WALL, -WALL),
        Point3::new(THICKNESS, WALL, WALL),
    )
    .unwrap();
    ColliderDesc::new(wall).kind(Kind::Static).user(1)
}

/// One bullet shot: where it starts, where it is one frame later, its rotation, and the
/// analytic time of first contact (a translating bullet meets the face x = 0 when its lowest x
/// reaches it).
struct Shot {
    p0: Isometry3,
    p1: Isometry3,
    exact: Real,
    /// The cosine between the path and the wall's normal.
    cos: Real,
}

fn shot(rng: &mut ChaCha8Rng, shape: &Shape) -> Shot {
    // Up to ~40 degrees off the wall's normal.
    let (ay, az) = (rng.random_range(-0.5..0.5), rng.random_range(-0.5..0.5));
    let dir = UnitQuaternion::from_euler_angles(0.0, ay, az) * Vector3::x();
    let rot = common::rotation(rng);
    let len = SPEED * STEP;
    // The centre's distance to the wall point it aims at, along the path: the contact falls
    // anywhere in the frame, and the bullet ends well past the wall.
    let before: Real = rng.random_range(0.05..len - 0.5);
    let aim = Vector3::new(
        0.0,
        rng.random_range(-50.0..50.0),
        rng.random_range(-50.0..50.0),
    );
    let c0 = aim - dir * before;
    let c1 = c0 + dir * len;
    let p0 = Isometry3::from_parts(c0.into(), rot);
    let p1 = Isometry3::from_parts(c1.into(), rot);
    // The placed shape's reach below its centre along x.
    let placed = shape.transformed(&p0).unwrap();
    let reach = match placed {
        Shape::Sphere(s) => s.radius(),
        Shape::Obb(b) => {
            let e = b.half_extents();
            let a = b.axes();
            (0..3).map(|k| a[(0, k)].abs() * e[k]).sum()
        }
        _ => unreachable!(),
    };
    let exact = (-c0.x - reach) / (c1.x - c0.x);
    Shot {
        p0,
        p1,
        exact,
        cos: dir.x,
    }
}

/// The time of impact's rounding allowance `e` (see `sepax_narrowphase::toi`) for a pair with
/// the wall over a path of `len`: relative to the distance plus both sizes, and to the
/// coordinates.
fn allowance(len: Real) -> Real {
    let wall_reach = WALL * Real::sqrt(2.0);
    TOI_DISTANCE_ALLOWANCE * (len + 2.0 * wall_reach)
        + 8.0 * UNIT_ROUNDOFF * (2.0 * len + 2.0 * wall_reach)
}

fn bullet_shapes() -> [Shape; 2] {
    let sphere = Sphere::new(Point3::origin(), RADIUS).unwrap();
    let cube = Obb::new(Point3::origin(), Matrix3::identity(), Vector3::repeat(CUBE)).unwrap();
    [Shape::Sphere(sphere), Shape::Obb(cube)]
}

/// Fires one shot; returns the two updates' events (the shot frame and one still frame).
fn fire(shape: &Shape, s: &Shot, ccd: bool) -> (World, ColliderId, ColliderId, Events, Events) {
    let mut world = World::new();
    let wall = world.insert(wall()).unwrap();
    let desc = ColliderDesc::new(*shape).pose(s.p0).ccd(ccd).user(2);
    let bullet = world.insert(desc).unwrap();
    assert!(world.update(&Serial).begin.is_empty());
    world.set_pose(bullet, s.p1).unwrap();
    let hit = world.update(&Serial).clone();
    let after = world.update(&Serial).clone();
    (world, wall, bullet, hit, after)
}

#[test]
fn bullet_through_a_thin_wall_is_never_missed() {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let len = SPEED * STEP;
    let mut worst: Real = 0.0;
    for shape in bullet_shapes() {
        for _ in 0..300 {
            let s = shot(&mut rng, &shape);
            let (world, wall, bullet, hit, after) = fire(&shape, &s, true);
            let pair = PairKey::new(wall, bullet);
            assert_eq!(hit.begin.len(), 1, "{:?}", hit.begin);
            let e = hit.begin[0];
            assert_eq!(e.pair, pair);
            assert_eq!(e.user, [1, 2]);
            assert!(e.flags.contains(EventFlags::CCD | EventFlags::SWEPT));
            assert!(hit.end.is_empty() && hit.persist.is_empty());
            assert!(!world.is_touching(wall, bullet), "past the wall at the end");
            let toi = hit.ccd_hit(pair).expect("a time of impact");
            assert_eq!(hit.ccd.len(), 1);
            // Never later than the exact contact, and close to it (in metres along the path).
            assert!((0.0..=1.0).contains(&toi.time));
            // The narrow phase stops within 2e (plus e of GJK slack) of contact, e its
            // rounding allowance at the pair's scale (distance plus sizes, the wall's reach
            // dominating) and coordinates: at most 3e early along the normal.
            let early = (s.exact - toi.time) * len;
            let e = allowance(len);
            let bound = 3.0 * e / s.cos;
            let late = 1e-2 * bound;
            assert!(
                early >= -late,
                "late by {early} m: {} vs {}",
                toi.time,
                s.exact
            );
            assert!(early <= bound, "early by {early} m, bound {bound} m");
            worst = worst.max(early.abs() / bound);
            // The contact is on the wall's near face, the normal from the wall to the bullet.
            assert!(toi.point.x.abs() < 0.01, "{:?}", toi.point);
            assert!(toi.normal.x < -0.9, "{:?}", toi.normal);
            // The next update ends the pair (it touched only during the sweep).
            assert!(after.begin.is_empty());
            assert_eq!(after.end.len(), 1);
            assert_eq!(after.end[0].pair, pair);
            assert_eq!(after.end[0].flags, EventFlags::NONE);
            assert!(after.ccd.is_empty());

            // The same shot without ccd passes through unseen.
            let (_, _, _, hit, after) = fire(&shape, &s, false);
            assert!(hit.begin.is_empty() && after.end.is_empty());
        }
    }
    eprintln!("largest toi error along the path: {worst} of the bound");
}

#[test]
fn bullet_stopped_by_the_wall_keeps_the_normal_begin_with_its_time() {
    // The bullet ends inside the wall: an ordinary begin (touching at the end) with the toi.
    let shape = &bullet_shapes()[0];
    let p0 = Isometry3::translation(-10.0, 0.0, 0.0);
    let p1 = Isometry3::translation(0.0005, 0.0, 0.0);
    let mut world = World::new();
    let wall = world.insert(wall()).unwrap();
    let bullet = world
        .insert(ColliderDesc::new(*shape).pose(p0).ccd(true))
        .unwrap();
    world.update(&Serial);
    world.set_pose(bullet, p1).unwrap();
    let ev = world.update(&Serial).clone();
    assert_eq!(ev.begin.len(), 1);
    assert!(ev.begin[0].flags.contains(EventFlags::CCD));
    assert!(!ev.begin[0].flags.contains(EventFlags::SWEPT));
    let toi = ev.ccd_hit(PairKey::new(wall, bullet)).unwrap();
    let exact = (10.0 - RADIUS) / 10.0005;
    assert!(
        toi.time <= exact + 1e-6 && toi.time >= exact - 3.0 * allowance(10.0) / 10.0,
        "{}",
        toi.time
    );
    assert!(world.is_touching(wall, bullet));
    // Staying in the wall: persist-free (begin/end report), no new ccd hit, no end.
    let ev = world.update(&Serial);
    assert!(ev.begin.is_empty() && ev.end.is_empty() && ev.ccd.is_empty());
}

#[test]
fn swept_pair_hit_again_is_not_a_new_begin() {
    // The bullet crosses one wall and comes back through it: the second crossing continues the
    // contact (persist with CCD | SWEPT for a Persist pair), and one end follows.
    let shape = &bullet_shapes()[0];
    let a = Isometry3::translation(-1.0, 0.0, 0.0);
    let b = Isometry3::translation(1.0, 0.0, 0.0);
    let mut world = World::new();
    let wall = world.insert(wall()).unwrap();
    let desc = ColliderDesc::new(*shape)
        .pose(a)
        .ccd(true)
        .report(Report::Persist);
    let bullet = world.insert(desc).unwrap();
    world.update(&Serial);
    world.set_pose(bullet, b).unwrap();
    assert_eq!(world.update(&Serial).begin.len(), 1);
    world.set_pose(bullet, a).unwrap();
    let ev = world.update(&Serial);
    assert!(ev.begin.is_empty() && ev.end.is_empty());
    assert_eq!(ev.persist.len(), 1);
    assert!(ev.persist[0]
        .flags
        .contains(EventFlags::CCD | EventFlags::SWEPT));
    let ev = world.update(&Serial);
    assert_eq!(ev.end.len(), 1);
    assert_eq!(ev.end[0].pair, PairKey::new(wall, bullet));
    let ev = world.update(&Serial);
    assert!(ev.end.is_empty() && ev.begin.is_empty());
}

#[test]
fn removed_swept_bullet_ends_with_removed() {
    let shape = &bullet_shapes()[0];
    let mut world = World::new();
    world.insert(wall()).unwrap();
    let bullet = world
        .insert(
            ColliderDesc::new(*shape)
                .pose(Isometry3::translation(-1.0, 0.0, 0.0))
                .ccd(true),
        )
        .unwrap();
    world.update(&Serial);
    world
        .set_pose(bullet, Isometry3::translation(1.0, 0.0, 0.0))
        .unwrap();
    assert_eq!(world.update(&Serial).begin.len(), 1);
    world.remove(bullet).unwrap();
    let ev = world.update(&Serial);
    assert_eq!(ev.end.len(), 1);
    assert!(ev.end[0].flags.contains(EventFlags::REMOVED));
}

/// The first angle (radians, about z from the y axis) at which a bar of half length `h` and
/// half width `w`, centred at x = `-d`, reaches x = 0: `h sin(a) + w cos(a) = d`.
fn bar_contact_angle(h: Real, w: Real, d: Real) -> Real {
    // Increasing on [0, 1.5] (its maximum is at atan(h / w), near pi / 2).
    let (mut lo, mut hi): (Real, Real) = (0.0, 1.5);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if h * mid.sin() + w * mid.cos() >= d {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

#[test]
fn rotating_thin_bar_is_caught_between_frames() {
    // A 4 x 0.02 x 0.02 bar along y, centred 1.5 from a 1 mm wall, turns by 170 degrees about z
    // in one frame: it ends almost along y again (clear of the wall), but swept through it.
    let (h, w, d) = (2.0, 0.01, 1.5);
    let bar = Obb::new(Point3::origin(), Matrix3::identity(), Vector3::new(w, h, w)).unwrap();
    let turn: Real = (170.0 as Real).to_radians();
    for ccd in [true, false] {
        let mut world = World::new();
        let wall = world.insert(wall()).unwrap();
        let p0 = Isometry3::translation(-d, 0.0, 0.0);
        let p1 = Isometry3::from_parts(
            p0.translation,
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), turn),
        );
        let id = world
            .insert(ColliderDesc::new(bar).pose(p0).ccd(ccd))
            .unwrap();
        world.update(&Serial);
        world.set_pose(id, p1).unwrap();
        let ev = world.update(&Serial).clone();
        assert!(!world.is_touching(wall, id));
        if !ccd {
            assert!(ev.begin.is_empty());
            continue;
        }
        assert_eq!(ev.begin.len(), 1);
        assert!(ev.begin[0].flags.contains(EventFlags::SWEPT));
        let toi = ev.ccd_hit(PairKey::new(wall, id)).unwrap();
        let exact = bar_contact_angle(h, w, d) / turn;
        let t = toi.time;
        // Early by at most 3e of distance; the tip covers h * turn per unit of time.
        let early = 3.0 * allowance(d) / (h * turn);
        assert!(
            t <= exact + 1e-6 && t >= exact - early,
            "{t} vs {exact} (-{early})"
        );
    }
}

#[test]
fn turning_along_the_shortest_arc() {
    // A bar from the origin to y = 2, a wall at x = 0.5: turning clockwise (toward +x) sweeps
    // it through the wall, counter-clockwise never.
    let bar = Obb::new(
        Point3::new(0.0, 1.0, 0.0),
        Matrix3::identity(),
        Vector3::new(0.01, 1.0, 0.01),
    )
    .unwrap();
    let wall = Aabb::new(Point3::new(0.5, 0.0, -1.0), Point3::new(0.501, 3.0, 1.0)).unwrap();
    let mut world = World::new();
    world
        .insert(ColliderDesc::new(wall).kind(Kind::Static))
        .unwrap();
    let id = world.insert(ColliderDesc::new(bar).ccd(true)).unwrap();
    world.update(&Serial);
    let about_z = |deg: Real| {
        let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), deg.to_radians());
        Isometry3::from_parts(Vector3::zeros().into(), q)
    };
    // -260 degrees is +100 degrees along the shortest arc (its quaternion has w < 0): away.
    assert!(about_z(-260.0).rotation.quaternion().w < 0.0);
    world.set_pose(id, about_z(-260.0)).unwrap();
    assert!(world.update(&Serial).begin.is_empty());
    world.set_pose(id, Isometry3::identity()).unwrap();
    assert!(world.update(&Serial).begin.is_empty());
    // -100 degrees turns it through the wall (the end pose clears it).
    world.set_pose(id, about_z(-100.0)).unwrap();
    let ev = world.update(&Serial);
    assert_eq!(ev.begin.len(), 1);
    assert!(ev.begin[0].flags.contains(EventFlags::SWEPT));
}

/// Many ccd and plain colliders moving fast through a field of thin walls, for `frames`
/// frames: the digest of every update's events and state.
fn busy_world(exec: &impl Executor, frames: usize, events: &mut Vec<Events>) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut world = World::new();
    for i in 0..40 {
        let x = (i % 8) as Real * 3.0;
        let z = (i / 8) as Real * 3.0;
        let plate =
            Aabb::new(Point3::new(x, -5.0, z), Point3::new(x + 0.01, 5.0, z + 2.5)).unwrap();
        world
            .insert(ColliderDesc::new(plate).kind(Kind::Static).user(i))
            .unwrap();
    }
    let mut movers = Vec::new();
    for i in 0..300u64 {
        let desc = common::desc(&mut rng, 12.0, 100 + i)
            .kind(Kind::Dynamic)
            .ccd(i % 2 == 0);
        movers.push(world.insert(desc).unwrap());
    }
    let vel: Vec<Vector3> = movers
        .iter()
        .map(|_| common::point(&mut rng, 6.0).coords)
        .collect();
    let spin = UnitQuaternion::from_euler_angles(0.4, -0.3, 0.7);
    let mut h = sepax_world::StateHasher::default();
    for frame in 0..frames {
        for (k, &id) in movers.iter().enumerate() {
            let p = *world.get(id).unwrap().pose();
            let sign = if (frame / 3) % 2 == 0 { 1.0 } else { -1.0 };
            let t = p.translation.vector + vel[k] * sign;
            world
                .set_pose(id, Isometry3::from_parts(t.into(), spin * p.rotation))
                .unwrap();
        }
        h.word(world.update(exec).digest());
        h.word(world.state_hash());
        events.push(world.events().clone());
    }
    h.finish()
}

#[test]
fn begin_and_end_stay_balanced() {
    let mut events = Vec::new();
    busy_world(&Serial, 30, &mut events);
    let mut open = std::collections::BTreeSet::new();
    let (mut swept, mut hits) = (0, 0);
    for ev in &events {
        for e in &ev.end {
            assert!(open.remove(&e.pair), "end without begin: {:?}", e.pair);
        }
        for e in &ev.begin {
            assert!(open.insert(e.pair), "begin twice: {:?}", e.pair);
            swept += usize::from(e.flags.contains(EventFlags::SWEPT));
        }
        for e in &ev.persist {
            assert!(open.contains(&e.pair), "persist without begin");
        }
        // Every CCD-flagged event has its hit and every hit its event.
        let flagged = ev
            .begin
            .iter()
            .chain(&ev.persist)
            .filter(|e| e.flags.contains(EventFlags::CCD))
            .count();
        let with_event = ev
            .ccd
            .iter()
            .filter(|h| ev.begin.iter().chain(&ev.persist).any(|e| e.pair == h.pair))
            .count();
        assert_eq!(flagged, with_event);
        hits += ev.ccd.len();
        for w in ev.ccd.windows(2) {
            assert!(w[0].pair < w[1].pair, "sorted");
        }
    }
    assert!(swept > 20, "{swept} swept-only begins");
    assert!(hits > swept, "{hits} hits");
}

#[test]
fn same_output_for_every_executor() {
    let mut ev = Vec::new();
    let serial = busy_world(&Serial, 12, &mut ev);
    for threads in [1, 2, 8] {
        let exec = RayonExecutor::new(threads).unwrap();
        assert_eq!(
            busy_world(&exec, 12, &mut Vec::new()),
            serial,
            "{threads} threads"
        );
    }
}

#[test]
fn ccd_flag_without_motion_changes_nothing() {
    // The same scripted world with and without ccd flags, when nothing moves between updates
    // except by edits that keep the pose: identical events and state hashes.
    let run = |ccd: bool| {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut world = World::new();
        let mut ids = Vec::new();
        for i in 0..200 {
            let d = common::desc(&mut rng, 3.0, i).ccd(ccd && i % 2 == 0);
            ids.push(world.insert(d).unwrap());
        }
        let mut h = sepax_world::StateHasher::default();
        for _ in 0..3 {
            h.word(world.update(&Serial).digest());
            h.word(world.state_hash());
            for &id in &ids {
                world.set_enabled(id, true).unwrap();
            }
        }
        h.finish()
    };
    assert_eq!(run(true), run(false));
}

#[test]
fn set_ccd_and_shift_origin() {
    let shape = &bullet_shapes()[0];
    let mut world = World::new();
    let wall = world.insert(wall()).unwrap();
    let bullet = world
        .insert(ColliderDesc::new(*shape).pose(Isometry3::translation(-1.0, 0.0, 0.0)))
        .unwrap();
    assert!(!world.get(bullet).unwrap().is_ccd());
    world.set_ccd(bullet, true).unwrap();
    assert!(world.get(bullet).unwrap().is_ccd());
    world.update(&Serial);
    // A shift moves the sweep's start with everything else: no phantom sweep across the shift.
    world.shift_origin(Vector3::new(-100.0, 0.0, 0.0)).unwrap();
    let ev = world.update(&Serial);
    assert!(ev.begin.is_empty(), "{:?}", ev.begin);
    let p = *world.get(bullet).unwrap().pose();
    world
        .set_pose(
            bullet,
            Isometry3::translation(p.translation.x + 2.0, 0.0, 0.0),
        )
        .unwrap();
    let ev = world.update(&Serial);
    assert_eq!(ev.begin.len(), 1);
    assert_eq!(ev.begin[0].pair, PairKey::new(wall, bullet));
    world.set_ccd(bullet, false).unwrap();
    world.update(&Serial);
    world
        .set_pose(bullet, Isometry3::translation(p.translation.x, 0.0, 0.0))
        .unwrap();
    assert!(world.update(&Serial).begin.is_empty());
    world.remove(bullet).unwrap();
    assert!(world.set_ccd(bullet, true).is_err());
}

#[test]
fn first_update_sweeps_from_the_insert_pose_and_from_the_pose_at_set_ccd() {
    let shape = &bullet_shapes()[0];
    let (p0, p1) = (
        Isometry3::translation(-1.0, 0.0, 0.0),
        Isometry3::translation(1.0, 0.0, 0.0),
    );
    // Inserted with ccd, moved through the wall before any update: caught at the first one.
    let mut world = World::new();
    let w = world.insert(wall()).unwrap();
    let bullet = world
        .insert(ColliderDesc::new(*shape).pose(p0).ccd(true))
        .unwrap();
    world.set_pose(bullet, p1).unwrap();
    let ev = world.update(&Serial);
    assert_eq!(ev.begin.len(), 1, "{:?}", ev.begin);
    assert_eq!(ev.begin[0].pair, PairKey::new(w, bullet));
    assert!(ev.begin[0].flags.contains(EventFlags::SWEPT));
    let t = ev.ccd_hit(PairKey::new(w, bullet)).unwrap().time;
    assert!((t - (1.0 - RADIUS) / 2.0).abs() < 1e-3, "{t}");
    // The same through insert_many.
    let mut world = World::new();
    let mut ids = Vec::new();
    world
        .insert_many(
            [wall(), ColliderDesc::new(*shape).pose(p0).ccd(true)],
            &mut ids,
        )
        .unwrap();
    world.set_pose(ids[1], p1).unwrap();
    assert_eq!(world.update(&Serial).begin.len(), 1);
    // Switched on after an update, then moved: swept from the pose it had when switched on.
    let mut world = World::new();
    let w = world.insert(wall()).unwrap();
    let bullet = world.insert(ColliderDesc::new(*shape).pose(p0)).unwrap();
    world.update(&Serial);
    world.set_ccd(bullet, true).unwrap();
    world.set_pose(bullet, p1).unwrap();
    let ev = world.update(&Serial);
    assert_eq!(ev.begin.len(), 1, "{:?}", ev.begin);
    assert_eq!(ev.begin[0].pair, PairKey::new(w, bullet));
    // Inserted disabled: nothing to sweep from (it was not in the world), so nothing is caught.
    let mut world = World::new();
    world.insert(wall()).unwrap();
    let bullet = world
        .insert(ColliderDesc::new(*shape).pose(p0).ccd(true).enabled(false))
        .unwrap();
    world.set_enabled(bullet, true).unwrap();
    world.set_pose(bullet, p1).unwrap();
    assert!(world.update(&Serial).begin.is_empty());
}

#[test]
fn teleport_is_not_swept() {
    let shape = &bullet_shapes()[0];
    let (p0, p1, p2) = (
        Isometry3::translation(-1.0, 0.0, 0.0),
        Isometry3::translation(1.0, 0.0, 0.0),
        Isometry3::translation(-1.0, 5.0, 0.0),
    );
    let mut world = World::new();
    let w = world.insert(wall()).unwrap();
    let bullet = world
        .insert(ColliderDesc::new(*shape).pose(p0).ccd(true))
        .unwrap();
    world.update(&Serial);
    // Through the wall by teleport: no sweep, no event.
    world.teleport(bullet, p1).unwrap();
    assert!(world.update(&Serial).begin.is_empty());
    assert_eq!(world.get(bullet).unwrap().pose(), &p1);
    // Teleported, then moved in the same frame: swept from the teleport's pose only.
    world.teleport(bullet, p2).unwrap();
    world
        .set_pose(bullet, Isometry3::translation(1.0, 5.0, 0.0))
        .unwrap();
    let ev = world.update(&Serial);
    assert_eq!(ev.begin.len(), 1, "{:?}", ev.begin);
    assert_eq!(ev.begin[0].pair, PairKey::new(w, bullet));
    // And back by a plain move: swept again.
    world.update(&Serial);
    world.set_pose(bullet, p0).unwrap();
    assert_eq!(world.update(&Serial).ccd.len(), 1);
    assert!(world.teleport(ColliderId::default(), p0).is_err());
}
