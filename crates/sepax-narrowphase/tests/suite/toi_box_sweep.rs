//! The closed-form time of impact of translating box pairs (the separating-axis sweep of
//! `toi/box_sweep.rs`) against the exact reference, on randomized linear motions through the
//! adversarial configurations of the box suite (near contact, touching, near-parallel edges,
//! equal rotations, far from the origin, needles and plates, zero extents, nested, AABB mixes):
//!
//! - never late: dense sampling with the certified overlap test, the first sampled contact
//!   confirmed by the exact test, is never before the reported time; and the exact boxes do not
//!   meet just before the reported time (`T (1 − 1e-12)`);
//! - never a miss: a confirmed sampled contact always gets a hit;
//! - not early: at the reported time the exact distance is within the documented allowance;
//! - witness points on the boxes at the reported time, their distance that of the boxes;
//! - the same hit/miss decisions as conservative advancement except within its allowance;
//! - identical results to conservative advancement when the boxes start in contact.

#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;

use common::{p64, pair_scale, AnyBox, Category, Gen, CATEGORIES};
use sepax_exact::{self as ex, ExactShape};
use sepax_narrowphase::intersect::{explain, intersects_shapes};
use sepax_narrowphase::toi::{
    cast_shapes, conservative_advancement, time_of_impact_shapes, CastOptions, Motion, Toi,
    ToiStatus,
};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::tolerance::TOI_DISTANCE_ALLOWANCE;
use sepax_shapes::{Aabb, Obb, Shape};

fn shape(b: &AnyBox) -> Shape {
    match b {
        AnyBox::A(x) => Shape::Aabb(*x),
        AnyBox::O(x) => Shape::Obb(*x),
    }
}

fn translated(b: &AnyBox, d: &Vector3) -> AnyBox {
    match b {
        AnyBox::A(x) => AnyBox::A(Aabb::new_unchecked(x.min() + d, x.max() + d)),
        AnyBox::O(x) => AnyBox::O(x.translate(d).unwrap()),
    }
}

/// The smallest x over a box's eight vertices, in `f64` from its stored centre, axes and
/// half-extents.
fn lowest_x(b: &Obb) -> f64 {
    let (c, h) = (v64(&b.center().coords), v64(&b.half_extents()));
    let ax = [0, 1, 2].map(|k| v64(&b.axis(k)));
    (0..8)
        .map(|v| {
            (0..3).fold(c[0], |x, k| {
                let s = if v >> k & 1 == 0 { -h[k] } else { h[k] };
                x + ax[k][0] * s
            })
        })
        .fold(f64::INFINITY, f64::min)
}

fn v64(v: &Vector3) -> [f64; 3] {
    [v.x as f64, v.y as f64, v.z as f64]
}

/// A pair of the category and a velocity of B (A at rest) that carries B through the generated
/// configuration at a random time in `(0.05, 0.95)`: sometimes along a grazing direction
/// (perpendicular to the pair's witness axis), sometimes with zero components, rarely zero.
fn motion_case(g: &mut Gen, cat: Category, i: usize) -> (AnyBox, AnyBox, Vector3) {
    let (a, b) = g.pair(cat);
    let s = pair_scale(&a, &b) as Real;
    let tc = g.uniform(0.05, 0.95);
    let mut w = g.unit_vector() * (s * g.uniform(0.5, 4.0));
    match i % 10 {
        0 => {
            // Grazing: slide along the witness axis' plane.
            let n = match (&a, &b) {
                (AnyBox::A(x), AnyBox::A(y)) => explain(x, y).direction,
                (AnyBox::A(x), AnyBox::O(y)) => explain(x, y).direction,
                (AnyBox::O(x), AnyBox::A(y)) => explain(x, y).direction,
                (AnyBox::O(x), AnyBox::O(y)) => explain(x, y).direction,
            };
            w -= n * n.dot(&w);
        }
        1 => w[i % 3] = 0.0,
        2 => {
            w[i % 3] = 0.0;
            w[(i + 1) % 3] = 0.0;
        }
        3 if i % 50 == 3 => w = Vector3::zeros(),
        _ => {}
    }
    let b0 = translated(&b, &(-w * tc));
    (a, b0, w)
}

/// What one cast did, for the tallies.
#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    hits: usize,
    confirmed: usize,
    started: usize,
    closed_form: usize,
    ca_disagree_within: usize,
    max_distance_ratio: f64,
    max_distance_ratio_closed_form: f64,
    max_time_gap: f64,
}

/// The allowance of "not early": the exact distance at the reported time, relative to the
/// pair's scale at that time (docs/tolerance.md §8).
fn allowance(a: &AnyBox, b: &AnyBox, w: &Vector3, t: Real) -> f64 {
    let s = pair_scale(a, b) + w.norm() as f64 * t as f64;
    let far = a.center64().iter().map(|x| x.abs()).fold(0.0, f64::max);
    4.0 * TOI_DISTANCE_ALLOWANCE as f64 * (s + far) + 3.0 * (a.axes_error() + b.axes_error()) * s
}

fn check_case(a: &AnyBox, b: &AnyBox, w: &Vector3, label: &str, tally: &mut Tally) {
    let t_max: Real = 1.0;
    let (sa, sb) = (shape(a), shape(b));
    let (ea, eb) = (
        ExactShape::Box(Box::new(a.exact())),
        ExactShape::Box(Box::new(b.exact())),
    );
    let w64 = v64(w);
    let opts = CastOptions::default();
    let hit = cast_shapes(&sa, &Vector3::zeros(), &sb, w, t_max, &opts);
    tally.cases += 1;
    let ctx = || format!("{label}\nA = {a:?}\nB = {b:?}\nw = {w:?}");

    // Dense sampling with the certified test (never reports an overlapping pair as separated),
    // the first sampled contact confirmed exactly at the sampled pose of the exact motion.
    let n = 300;
    let sampled = (0..=n)
        .map(|k| t_max * k as Real / n as Real)
        .find(|&t| intersects_shapes(&sa, &shape(&translated(b, &(w * t)))));
    if let Some(ts) = sampled {
        if ex::shapes_intersect_translated(&ea, &eb, w64, ts as f64) {
            tally.confirmed += 1;
            let h = hit.unwrap_or_else(|| panic!("missed a contact at {ts}\n{}", ctx()));
            assert!(h.time <= ts, "late: {} > {ts}\n{}", h.time, ctx());
        }
    }

    let Some(h) = hit else { return };
    tally.hits += 1;
    assert!(h.time >= 0.0 && h.time <= t_max, "{h:?}\n{}", ctx());
    assert!((h.normal.norm() - 1.0).abs() < 1e-5 || h.status == ToiStatus::StartedInContact);
    if h.status == ToiStatus::StartedInContact {
        tally.started += 1;
        return;
    }
    // The closed form reports no advancement steps (the advancement loop reports 0 steps only
    // for a hit at time 0).
    let closed_form = h.iterations == 0 && h.time > 0.0;
    if closed_form {
        tally.closed_form += 1;
    }
    // Not late: the exact boxes are apart just before the reported time.
    let before = h.time as f64 * (1.0 - 1e-12);
    if h.time > 0.0 {
        assert!(
            !ex::shapes_intersect_translated(&ea, &eb, w64, before),
            "late: the exact boxes meet at {before}\n{h:?}\n{}",
            ctx()
        );
    }
    // Not early: within the allowance of touching.
    let d = ex::shape_distance_translated(&ea, &eb, w64, h.time as f64);
    let tol = allowance(a, b, w, h.time);
    tally.max_distance_ratio = tally.max_distance_ratio.max(d / tol);
    if closed_form {
        // The closed form is accurate to the rounding of the time to `Real` (about u |w| T) and
        // to its own f64 bounds (about 60 u64 (S + |w| t_max), docs/tolerance.md §8): 2% of the
        // allowance (about 5u of the scale) plus 100 u64 (S + |w| t_max).
        let s = pair_scale(a, b) + w.norm() as f64;
        let closed_tol = 0.02 * tol + 100.0 * (f64::EPSILON / 2.0) * s;
        assert!(
            d <= closed_tol,
            "closed form early: distance {d} > {closed_tol} at {}\n{h:?}\n{}",
            h.time,
            ctx()
        );
        tally.max_distance_ratio_closed_form =
            tally.max_distance_ratio_closed_form.max(d / closed_tol);
    }
    assert!(
        d <= tol,
        "early: distance {d} > {tol} at {}\n{h:?}\n{}",
        h.time,
        ctx()
    );
    // Witness points on the boxes at that time, as far apart as the boxes.
    let shift = [0, 1, 2].map(|k| w64[k] * h.time as f64);
    let pa = p64(&h.point_a);
    let pb = p64(&h.point_b);
    let pb0 = [0, 1, 2].map(|k| pb[k] - shift[k]);
    let da = ex::point_box_distance_sq(pa, &a.exact()).sqrt();
    let db = ex::point_box_distance_sq(pb0, &b.exact()).sqrt();
    assert!(
        da <= tol && db <= tol,
        "points off the boxes: {da} {db} > {tol}\n{h:?}\n{}",
        ctx()
    );
    let gap = (h.point_b - h.point_a).norm() as f64;
    assert!(
        gap <= d + tol,
        "points {gap} apart, boxes {d}\n{h:?}\n{}",
        ctx()
    );

    // Conservative advancement: the same decision, both never late.
    let ca = conservative_advancement(
        &sa,
        &Motion::linear(Vector3::zeros()),
        &sb,
        &Motion::linear(*w),
        t_max,
        &opts,
    );
    match ca {
        Some(c) => {
            let gap = (c.time as f64 - h.time as f64).abs();
            tally.max_time_gap = tally.max_time_gap.max(gap);
        }
        None => panic!(
            "advancement misses a pair the sweep hits at distance {d}\n{}",
            ctx()
        ),
    }
}

/// A sweep miss that conservative advancement hits must be a pass within its allowance.
fn check_misses_agree(a: &AnyBox, b: &AnyBox, w: &Vector3, label: &str, tally: &mut Tally) {
    let (sa, sb) = (shape(a), shape(b));
    let opts = CastOptions::default();
    if cast_shapes(&sa, &Vector3::zeros(), &sb, w, 1.0, &opts).is_some() {
        return;
    }
    let ca = conservative_advancement(
        &sa,
        &Motion::linear(Vector3::zeros()),
        &sb,
        &Motion::linear(*w),
        1.0,
        &opts,
    );
    if let Some(c) = ca {
        let (ea, eb) = (
            ExactShape::Box(Box::new(a.exact())),
            ExactShape::Box(Box::new(b.exact())),
        );
        let d = ex::shape_distance_translated(&ea, &eb, v64(w), c.time as f64);
        let tol = allowance(a, b, w, c.time);
        assert!(
            d > 0.0 && d <= tol,
            "{label}: advancement hits at {} (distance {d}), the sweep misses\nA = {a:?}\nB = {b:?}\nw = {w:?}",
            c.time
        );
        tally.ca_disagree_within += 1;
    }
}

#[test]
fn box_sweep_matches_the_exact_reference() {
    let mut g = Gen::new(0x70b_0001);
    for cat in CATEGORIES {
        let mut tally = Tally::default();
        for i in 0..150 {
            let (a, b, w) = motion_case(&mut g, cat, i);
            let label = format!("{cat:?} #{i}");
            check_case(&a, &b, &w, &label, &mut tally);
            check_misses_agree(&a, &b, &w, &label, &mut tally);
            // The reversed roles (B at rest, A moving the other way).
            check_case(&b, &a, &-w, &label, &mut tally);
        }
        println!("{cat:?}: {tally:?}");
        assert!(tally.confirmed >= 20, "{cat:?}: too few contacts to test");
        assert!(tally.closed_form >= 10, "{cat:?}: too few closed-form hits");
    }
}

/// Boxes meeting at time 0 keep the advancement loop's answer, bit for bit.
#[test]
fn started_in_contact_is_the_advancement_answer() {
    let mut g = Gen::new(0x70b_0002);
    let mut started = 0;
    for cat in CATEGORIES {
        for _ in 0..60 {
            let (a, b) = g.pair(cat);
            let w = g.vector(3.0);
            let (sa, sb) = (shape(&a), shape(&b));
            let (ma, mb) = (Motion::linear(Vector3::zeros()), Motion::linear(w));
            let opts = CastOptions::default();
            let h = time_of_impact_shapes(&sa, &ma, &sb, &mb, 1.0, &opts);
            let c = conservative_advancement(&sa, &ma, &sb, &mb, 1.0, &opts);
            if c.is_some_and(|c: Toi| c.status == ToiStatus::StartedInContact) {
                started += 1;
                assert_eq!(h, c, "{cat:?}\n{a:?}\n{b:?}");
            }
        }
    }
    assert!(started > 100, "{started}");
}

/// Moving both boxes is the same as moving B by the difference of the velocities (for the
/// closed form; the advancement loop's allowance depends on the absolute motions, so pairs that
/// start near contact or pass near it may be decided differently).
#[test]
fn both_boxes_moving() {
    let mut g = Gen::new(0x70b_0003);
    let mut hits = 0;
    for i in 0..300 {
        let (a, b, w) = motion_case(&mut g, CATEGORIES[i % 9], i);
        // Velocities with few bits so that va + w is exact.
        let q = |x: Real| (x * 1024.0).round() / 1024.0;
        let w = w.map(q);
        let va = g.vector(2.0).map(|x| x.round());
        let vb = va + w;
        let (sa, sb) = (shape(&a), shape(&b));
        let opts = CastOptions::default();
        let moving = cast_shapes(&sa, &va, &sb, &vb, 1.0, &opts);
        let relative = cast_shapes(&sa, &Vector3::zeros(), &sb, &w, 1.0, &opts);
        let closed = |h: &Toi| h.iterations == 0 && h.time > 0.0;
        if let (Some(m), Some(r)) = (moving, relative) {
            if closed(&m) && closed(&r) {
                hits += 1;
                assert_eq!((m.time, m.normal, m.status), (r.time, r.normal, r.status));
            }
        }
        // A closed-form hit in one is a hit in the other.
        assert!(!moving.is_some_and(|m| closed(&m)) || relative.is_some());
        assert!(!relative.is_some_and(|r| closed(&r)) || moving.is_some());
    }
    assert!(hits > 50);
}

#[test]
fn face_edge_and_vertex_contacts() {
    let unit = Aabb::new(Point3::new(-1.0, -1.0, -1.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
    let a = Shape::Aabb(unit);
    let opts = CastOptions::default();
    // AABB face against AABB face: t = (5 - 1 - 0.5) / 7 = 0.5, points in the overlap.
    let b = Shape::Aabb(
        Aabb::from_center_half_extents(Point3::new(5.0, 0.25, 0.0), Vector3::repeat(0.5)).unwrap(),
    );
    let h = cast_shapes(
        &a,
        &Vector3::zeros(),
        &b,
        &Vector3::new(-7.0, 0.0, 0.0),
        1.0,
        &opts,
    )
    .unwrap();
    assert!(h.time <= 0.5 && h.time > 0.5 - 1e-6, "{h:?}");
    assert_eq!(h.iterations, 0);
    assert!((h.normal - Vector3::x()).norm() < 1e-6, "{h:?}");
    assert!(
        (h.point_a - Point3::new(1.0, 0.25, 0.0)).norm() < 1e-5,
        "{h:?}"
    );
    assert!(
        (h.point_b - Point3::new(1.0, 0.25, 0.0)).norm() < 1e-5,
        "{h:?}"
    );
    // A turned cube (no face or edge parallel to A's) hits A's +x face with a vertex.
    let r = sepax_shapes::math::UnitQuaternion::from_euler_angles(0.3, 0.4, 0.5);
    let cube = Obb::from_rotation(Point3::new(6.0, 0.1, -0.2), r, Vector3::repeat(0.5)).unwrap();
    let b = Shape::Obb(cube);
    let h = cast_shapes(
        &a,
        &Vector3::zeros(),
        &b,
        &Vector3::new(-10.0, 0.0, 0.0),
        1.0,
        &opts,
    )
    .unwrap();
    // The lowest vertex along x reaches x = 1.
    let exact = (lowest_x(&cube) - 1.0) / 10.0;
    assert!(
        h.time as f64 <= exact && h.time as f64 > exact - 1e-6,
        "{h:?} {exact}"
    );
    assert!((h.normal - Vector3::x()).norm() < 1e-6);
    assert!((h.point_b.x - 1.0).abs() < 1e-5 && (h.point_a - h.point_b).norm() < 1e-5);
    // Missing: moving away, passing beside, or arriving after t_max.
    for (v, t_max) in [
        (Vector3::new(10.0, 0.0, 0.0), 1.0),
        (Vector3::new(0.0, 10.0, 0.0), 1.0),
        (Vector3::new(-10.0, 0.0, 0.0), 0.3),
    ] {
        assert!(cast_shapes(&a, &Vector3::zeros(), &b, &v, t_max, &opts).is_none());
    }
    // A target distance takes the advancement loop.
    let h = cast_shapes(
        &a,
        &Vector3::zeros(),
        &b,
        &Vector3::new(-10.0, 0.0, 0.0),
        1.0,
        &CastOptions {
            target_distance: 0.1,
            ..CastOptions::default()
        },
    )
    .unwrap();
    assert!(h.iterations > 0 && (h.time as f64) < exact - 0.009, "{h:?}");
}

/// Tiny and huge magnitudes (squares overflow or underflow in `f32`): the sweep runs in `f64`
/// and the witness points on rescaled numbers, so casts still hit, never late, with the points
/// on the boxes.
#[test]
fn extreme_magnitudes() {
    let r = sepax_shapes::math::UnitQuaternion::from_euler_angles(0.3, 0.4, 0.5);
    for unit in [1e-25 as Real, 1e-12, 1.0, 1e12, 1e25] {
        let a = Shape::Aabb(
            Aabb::from_center_half_extents(Point3::origin(), Vector3::repeat(unit)).unwrap(),
        );
        let cube = Obb::from_rotation(Point3::new(10.0 * unit, 0.0, 0.0), r, Vector3::repeat(unit))
            .unwrap();
        let b = Shape::Obb(cube);
        let vb = Vector3::new(-4.0 * unit, 0.0, 0.0);
        let h = cast_shapes(
            &a,
            &Vector3::zeros(),
            &b,
            &vb,
            10.0,
            &CastOptions::default(),
        )
        .unwrap_or_else(|| panic!("{unit:e}: no hit"));
        // The lowest vertex of B along x reaches x = unit.
        let exact = (lowest_x(&cube) - unit as f64) / (4.0 * unit as f64);
        assert!(
            h.time as f64 <= exact * (1.0 + 1e-5) && h.time as f64 >= exact * (1.0 - 1e-4),
            "{unit:e}: {h:?} vs {exact}"
        );
        assert_eq!(h.iterations, 0, "{unit:e}: {h:?}");
        assert!((h.normal - Vector3::x()).norm() < 1e-4, "{unit:e}: {h:?}");
        let gap = (h.point_b - h.point_a).norm();
        assert!(gap <= 1e-4 * unit, "{unit:e}: {h:?}");
        assert!((h.point_a.x - unit).abs() <= 1e-5 * unit, "{unit:e}: {h:?}");
    }
}
