//! Time of impact against the exact reference: swept AABBs, linear casts for every ordered pair
//! of kinds, and rotating motions. Each is checked by dense sampling of the motion (the exact
//! overlap test of `sepax-exact` for swept AABBs, the certified overlap test elsewhere: it never
//! reports an intersecting pair as separated) — the reported time is never later than the first
//! sampled contact — and by the exact reference at the reported time (the shapes are within the
//! tolerance there, so the time is not early either). Tunnelling cases (a bullet through a thin
//! plate, a long thin box spinning at 50 rad/s through a thin wall) are always caught.

#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;

use common::{exact_shape, p64, Gen};
use sepax_exact::{self as ex, ExactShape};
use sepax_narrowphase::intersect::{intersects, intersects_shapes};
use sepax_narrowphase::toi::{
    cast_shapes, sweep_aabb_aabb, time_of_impact_shapes, CastOptions, Motion, ToiStatus,
};
use sepax_shapes::math::{Matrix3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::tolerance::TOI_DISTANCE_ALLOWANCE;
use sepax_shapes::{Aabb, Capsule, Obb, Shape, ShapeKind, Sphere, Triangle};

fn v64(v: &Vector3) -> [f64; 3] {
    [v.x as f64, v.y as f64, v.z as f64]
}

/// The first of `n + 1` evenly spaced times in `[0, t_max]` at which the exact shapes overlap.
fn first_sampled_contact(
    a: &ExactShape,
    b: &ExactShape,
    vb: &Vector3,
    t_max: f64,
    n: usize,
) -> Option<f64> {
    (0..=n)
        .map(|i| t_max * i as f64 / n as f64)
        .find(|&t| ex::shapes_intersect_translated(a, b, v64(vb), t))
}

#[test]
fn swept_aabbs_are_never_late() {
    let mut g = Gen::new(0x701_0001);
    let (mut hits, mut sampled) = (0, 0);
    for i in 0..1000 {
        let c = Point3::from(g.vector(3.0));
        let a = Aabb::from_center_half_extents(c, g.half_extents(0.0, 1.0)).unwrap();
        let cb = Point3::from(g.vector(6.0));
        let b = Aabb::from_center_half_extents(cb, g.half_extents(0.0, 1.0)).unwrap();
        // Aim roughly at A, sometimes with an axis-aligned velocity (zero components).
        let mut vb = (c - cb) + g.vector(1.5);
        if i % 4 == 0 {
            vb[i % 3] = 0.0;
        }
        let t_max: Real = 2.0;
        let hit = sweep_aabb_aabb(&a, &Vector3::zeros(), &b, &vb, t_max);
        let (ea, eb) = (
            ExactShape::Box(Box::new(ex::ExactBox::from_aabb(
                p64(&a.min()),
                p64(&a.max()),
            ))),
            ExactShape::Box(Box::new(ex::ExactBox::from_aabb(
                p64(&b.min()),
                p64(&b.max()),
            ))),
        );
        if let Some(t) = first_sampled_contact(&ea, &eb, &vb, t_max as f64, 200) {
            sampled += 1;
            let h = hit.expect("a sampled contact was missed");
            assert!(h.time as f64 <= t, "late: {} > {t}", h.time);
        }
        if let Some(h) = hit {
            hits += 1;
            // Not early: at the reported time the exact boxes are within rounding of touching.
            let d = ex::shape_distance_translated(&ea, &eb, v64(&vb), h.time as f64);
            let tol = 16.0 * (Real::EPSILON as f64) * (vb.norm() as f64 * h.time as f64 + 10.0);
            assert!(d <= tol, "early: distance {d} at {}", h.time);
            assert_eq!(h.normal.norm(), 1.0);
        }
    }
    println!("swept AABB: {hits} hits, {sampled} with a sampled contact");
    assert!(sampled > 250);
}

/// Linear casts for every ordered pair of kinds: A at rest, B moving towards it.
#[test]
fn linear_casts_are_never_late_for_every_pair() {
    let mut g = Gen::new(0x701_0002);
    let opts = CastOptions::default();
    for ka in ShapeKind::ALL {
        for kb in ShapeKind::ALL {
            let (mut sampled, mut iterations, mut cases) = (0, 0u32, 0);
            for i in 0..40 {
                let base = if i % 4 == 3 {
                    Point3::new(200.0, -150.0, 75.0)
                } else {
                    Point3::origin()
                };
                let (Ok(a), Ok(b)) = (
                    g.shape(ka, &base, 1.0, 0.05),
                    g.shape(kb, &(base + Vector3::new(8.0, 0.0, 0.0)), 1.0, 0.05),
                ) else {
                    continue;
                };
                cases += 1;
                let vb = Vector3::new(-8.0, 0.0, 0.0) + g.vector(2.0);
                let t_max: Real = 1.5;
                let hit = cast_shapes(&a, &Vector3::zeros(), &b, &vb, t_max, &opts);
                let (ea, eb) = (exact_shape(&a), exact_shape(&b));
                // Dense sampling with the certified overlap test (an intersecting pair is never
                // reported as separated, so a sampled contact is never later than the exact
                // one); the exact reference checks the distance at the reported time below.
                let n = 400;
                let sampled_contact = (0..=n)
                    .map(|i| t_max * i as Real / n as Real)
                    .find(|&t| intersects_shapes(&a, &translated(&b, &(vb * t))));
                if let Some(t) = sampled_contact {
                    let t = t as f64;
                    sampled += 1;
                    let h = hit.expect("a sampled contact was missed");
                    assert!(
                        h.time as f64 <= t,
                        "{ka:?} {kb:?}: late {} > {t}\n{a:?}\n{b:?}\n{vb:?}",
                        h.time
                    );
                }
                if let Some(h) = hit {
                    iterations = iterations.max(h.iterations);
                    assert_ne!(h.status, ToiStatus::MaxIterations);
                    let d = ex::shape_distance_translated(&ea, &eb, v64(&vb), h.time as f64);
                    let scale = 30.0 + (base.coords.norm() as f64);
                    let tol = 4.0 * TOI_DISTANCE_ALLOWANCE as f64 * scale;
                    assert!(
                        d <= tol,
                        "{ka:?} {kb:?}: early, distance {d} > {tol} at {}",
                        h.time
                    );
                }
            }
            println!("{:>8} {:>8}: {cases} casts, {sampled} with a sampled contact, max {iterations} steps", ka.name(), kb.name());
            assert!(sampled >= 5, "too few contacts to test {ka:?} {kb:?}");
        }
    }
}

/// `s` moved by `d` (rounded once per coordinate, as the cast moves it).
fn translated(s: &Shape, d: &Vector3) -> Shape {
    match s {
        Shape::Aabb(b) => Shape::Aabb(Aabb::new_unchecked(b.min() + d, b.max() + d)),
        Shape::Obb(b) => Shape::Obb(b.translate(d).unwrap()),
        Shape::Sphere(x) => Shape::Sphere(Sphere::new_unchecked(x.center() + d, x.radius())),
        Shape::Capsule(c) => {
            Shape::Capsule(Capsule::new_unchecked(c.p0() + d, c.p1() + d, c.radius()))
        }
        Shape::Triangle(t) => {
            Shape::Triangle(Triangle::new_unchecked(t.a() + d, t.b() + d, t.c() + d))
        }
    }
}

#[test]
fn a_bullet_does_not_tunnel_through_a_thin_plate() {
    let plate =
        Shape::Aabb(Aabb::new(Point3::new(0.0, -1.0, -1.0), Point3::new(0.001, 1.0, 1.0)).unwrap());
    for (k, speed) in [1e2, 1e3, 1e4, 1e5].into_iter().enumerate() {
        let bullet =
            Shape::Sphere(Sphere::new(Point3::new(-10.0, 0.1 * k as Real, 0.0), 0.005).unwrap());
        let v = Vector3::new(speed, 0.0, 0.0);
        let hit = cast_shapes(
            &bullet,
            &v,
            &plate,
            &Vector3::zeros(),
            1.0,
            &CastOptions::default(),
        )
        .expect("the bullet hits the plate");
        // Exact contact: the sphere's front (x = -10 + 0.005 + speed t) reaches x = 0.
        let exact = (10.0 - 0.005) / speed as f64;
        assert!(
            hit.time as f64 <= exact && hit.time as f64 >= exact * (1.0 - 1e-4),
            "{speed}: {} vs {exact}",
            hit.time
        );
        assert!((hit.normal - Vector3::x()).norm() < 1e-3);
        // A box bullet too (the box–box path).
        let cube = Shape::Obb(Obb::from_aabb(
            &Aabb::from_center_half_extents(Point3::new(-10.0, 0.0, 0.0), Vector3::repeat(0.005))
                .unwrap(),
        ));
        let hit = cast_shapes(
            &cube,
            &v,
            &plate,
            &Vector3::zeros(),
            1.0,
            &CastOptions::default(),
        )
        .expect("the cube hits");
        assert!(hit.time as f64 <= exact && hit.time as f64 >= exact * (1.0 - 1e-4));
    }
}

/// A long thin box (4 x 0.02 x 0.02) spinning at 50 rad/s, drifting towards a 1 cm wall.
#[test]
fn a_thin_box_spinning_at_50_rad_per_s_is_always_caught() {
    let mut g = Gen::new(0x701_0003);
    let wall = Aabb::new(
        Point3::new(0.0, -10.0, -10.0),
        Point3::new(0.01, 10.0, 10.0),
    )
    .unwrap();
    let (mut caught, mut sampled) = (0, 0);
    for _ in 0..150 {
        let center = Point3::new(
            -2.5 + g.uniform(-0.3, 0.3),
            g.uniform(-1.0, 1.0),
            g.uniform(-1.0, 1.0),
        );
        let rod = Obb::from_rotation(center, g.rotation(), Vector3::new(2.0, 0.01, 0.01)).unwrap();
        let omega = g.unit_vector() * 50.0;
        let v = Vector3::new(g.uniform(1.0, 4.0), g.uniform(-0.5, 0.5), 0.0);
        let shape = Shape::Obb(rod);
        let m = Motion::about_center(&shape, v, omega);
        let t_max: Real = 0.5;
        let hit = time_of_impact_shapes(
            &shape,
            &m,
            &Shape::Aabb(wall),
            &Motion::linear(Vector3::zeros()),
            t_max,
            &CastOptions::default(),
        );
        // The rod's pose at time t, as the motion defines it.
        let pose = |t: Real| {
            let q = UnitQuaternion::from_scaled_axis(omega * t);
            let axes: Matrix3 = q.to_rotation_matrix().into_inner() * rod.axes();
            ex::ExactBox::new(
                p64(&(center + v * t)),
                [0, 1, 2].map(|k| v64(&axes.column(k).into_owned())),
                v64(&rod.half_extents()),
            )
        };
        // Dense sampling with the certified overlap test (it never reports an overlapping pair
        // as separated, so the first sampled contact is never later than the exact one at
        // those poses); the exact reference then checks the reported time below.
        let pose_obb = |t: Real| {
            let q = UnitQuaternion::from_scaled_axis(omega * t);
            Obb::new_unchecked(
                center + v * t,
                q.to_rotation_matrix().into_inner() * rod.axes(),
                rod.half_extents(),
            )
        };
        let n = 4000;
        let first = (0..=n)
            .map(|i| t_max * i as Real / n as Real)
            .find(|&t| intersects(&pose_obb(t), &wall));
        if let Some(t) = first {
            sampled += 1;
            let h = hit.expect("the spinning rod tunnelled through the wall");
            assert!(h.time <= t, "late: {} > {t}", h.time);
        }
        if let Some(h) = hit {
            caught += 1;
            // Not early: at the reported time the rod meets the wall grown by 1e-3 on every
            // side (exactly, in dyadics), so it is within sqrt(3) 1e-3 of the wall itself.
            let grow = ex::Dyadic::from_f64(1e-3);
            let c = ex::ExactBox::from_aabb(p64(&wall.min()), p64(&wall.max()));
            let grown = ex::ExactBox::from_exact(
                c.center().clone(),
                *c.axes(),
                c.half_extents().clone().map(|x| x + grow.clone()),
            );
            assert!(
                ex::shapes_intersect(
                    &ExactShape::Box(Box::new(pose(h.time))),
                    &ExactShape::Box(Box::new(grown))
                ),
                "early: the rod is farther than 1e-3 from the wall at {}",
                h.time
            );
        }
    }
    println!("spinning rod: {caught} hits, {sampled} with a sampled contact");
    assert!(sampled > 50);
}

#[test]
fn starting_in_contact_reports_time_zero() {
    let a = Shape::Sphere(Sphere::new(Point3::origin(), 1.0).unwrap());
    let b =
        Shape::Aabb(Aabb::new(Point3::new(0.5, -1.0, -1.0), Point3::new(2.0, 1.0, 1.0)).unwrap());
    let h = cast_shapes(
        &a,
        &Vector3::x(),
        &b,
        &Vector3::zeros(),
        1.0,
        &CastOptions::default(),
    )
    .unwrap();
    assert_eq!((h.time, h.status), (0.0, ToiStatus::StartedInContact));
    // The minimum translation: the sphere reaches 0.5 into the box along +x.
    assert!(
        (h.normal - Vector3::x()).norm() < 1e-5 && (h.depth - 0.5).abs() < 1e-5,
        "{h:?}"
    );
    // Moving apart from a separated start: no hit.
    let c = Shape::Sphere(Sphere::new(Point3::new(-3.0, 0.0, 0.0), 1.0).unwrap());
    assert!(cast_shapes(
        &c,
        &-Vector3::x(),
        &b,
        &Vector3::zeros(),
        10.0,
        &CastOptions::default()
    )
    .is_none());
    // Non-finite input: no answer rather than a panic.
    assert!(cast_shapes(
        &c,
        &Vector3::new(Real::NAN, 0.0, 0.0),
        &b,
        &Vector3::zeros(),
        1.0,
        &CastOptions::default()
    )
    .is_none());
}

/// Huge and tiny magnitudes (squares would overflow or underflow in `f32`): the distance kernels
/// rescale by a power of two, so casts still hit, never late.
#[test]
fn extreme_magnitudes_are_caught() {
    for unit in [1e-25 as Real, 1e-12, 1e12, 1e25] {
        let a = Shape::Obb(Obb::from_aabb(
            &Aabb::from_center_half_extents(Point3::origin(), Vector3::repeat(unit)).unwrap(),
        ));
        let b =
            Shape::Sphere(Sphere::new(Point3::new(10.0 * unit, 0.5 * unit, 0.0), unit).unwrap());
        let vb = Vector3::new(-4.0 * unit, 0.0, 0.0);
        let hit = cast_shapes(
            &a,
            &Vector3::zeros(),
            &b,
            &vb,
            10.0,
            &CastOptions::default(),
        )
        .unwrap_or_else(|| panic!("{unit:e}: the sphere does not reach the box"));
        // Contact when the sphere's front (10 - 1 - 4t) reaches the face x = 1: t = 2.
        assert!(
            hit.time <= 2.0 && hit.time >= 2.0 * (1.0 - 1e-4),
            "{unit:e}: {hit:?}"
        );
        assert!(
            (hit.normal - Vector3::x()).norm() < 1e-3,
            "{unit:e}: {hit:?}"
        );
    }
}
