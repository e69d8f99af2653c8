//! Distances and closest points against the exact reference (`sepax-exact`): every ordered pair
//! of kinds on random and adversarial shapes (touching, far from the origin, thin, zero sizes),
//! box–box on the adversarial box generators, witness points on both surfaces, symmetry and
//! rigid-motion invariance, and GJK cross-checked with the closed forms.
//!
//! Error bound checked: `|d − d*| <= K u S` with `S` the pair's local scale (centre distance plus
//! sizes) — see `docs/tolerance.md`, "Distances".

#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;

use common::{exact_shape, p64, Category, Gen, CATEGORIES};
use sepax_exact as ex;
use sepax_narrowphase::distance::{
    closest_points_shapes, distance_shapes, point_closest_points, ClosestPoints,
};
use sepax_narrowphase::gjk::{gjk, ConvexCore};
use sepax_shapes::math::{Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::{Aabb, Capsule, Obb, Shape, ShapeKind, Sphere, Triangle};

/// Distance error allowed per unit of the local scale `S`.
const K_DISTANCE: f64 = 64.0;
/// Witness points: on their shape within `K_WITNESS u (S + |coordinates|)`.
const K_WITNESS: f64 = 32.0;

fn u() -> f64 {
    UNIT_ROUNDOFF as f64
}

/// Reference point and size of a shape (for the local scale), in f64 (no underflow of the
/// squares at tiny magnitudes).
fn anchor(s: &Shape) -> ([f64; 3], f64) {
    let a = s.world_aabb();
    let (lo, hi) = (p64(&a.min()), p64(&a.max()));
    let c = [0, 1, 2].map(|k| 0.5 * (lo[k] + hi[k]));
    let h = [0, 1, 2].map(|k| 0.5 * (hi[k] - lo[k]));
    (c, h[0].hypot(h[1]).hypot(h[2]))
}

fn local_scale(a: &Shape, b: &Shape) -> f64 {
    let (ca, sa) = anchor(a);
    let (cb, sb) = anchor(b);
    let d = [0, 1, 2].map(|k| cb[k] - ca[k]);
    d[0].hypot(d[1]).hypot(d[2]) + sa + sb
}

fn magnitude(a: &Shape, b: &Shape) -> f64 {
    let m = |s: &Shape| {
        let x = s.world_aabb();
        x.min().coords.amax().max(x.max().coords.amax()) as f64
    };
    m(a).max(m(b))
}

#[derive(Default, Debug)]
struct Stats {
    cases: usize,
    worst_rel: f64,
    worst_witness: f64,
}

/// Checks one pair against the reference; returns the error in units of `u S`.
fn check_pair(a: &Shape, b: &Shape, stats: &mut Stats) {
    let c = closest_points_shapes(a, b);
    let exact = ex::shape_distance(&exact_shape(a), &exact_shape(b));
    let s = local_scale(a, b);
    let err = (c.distance as f64 - exact).abs();
    let rel = err / (u() * s);
    stats.worst_rel = stats.worst_rel.max(rel);
    stats.cases += 1;
    assert!(
        rel <= K_DISTANCE,
        "distance {} vs exact {exact}: error {err:e} = {rel:.1} u S\n{a:?}\n{b:?}",
        c.distance
    );
    check_witnesses(a, b, &c, stats);
    // Symmetry.
    let r = closest_points_shapes(b, a);
    assert!(
        (r.distance as f64 - c.distance as f64).abs() <= K_DISTANCE * u() * s,
        "asymmetric: {} vs {}",
        r.distance,
        c.distance
    );
}

fn check_witnesses(a: &Shape, b: &Shape, c: &ClosestPoints, stats: &mut Stats) {
    let s = local_scale(a, b);
    let tol = K_WITNESS * u() * (s + magnitude(a, b));
    let on_a = point_closest_points(&c.point_a, a).distance as f64;
    let on_b = point_closest_points(&c.point_b, b).distance as f64;
    stats.worst_witness = stats
        .worst_witness
        .max((on_a.max(on_b)) / (u() * (s + magnitude(a, b))));
    assert!(
        on_a <= tol && on_b <= tol,
        "witness off the surface: {on_a:e} {on_b:e} (tol {tol:e})\n{a:?}\n{b:?}\n{c:?}"
    );
    let (pa, pb) = (p64(&c.point_a), p64(&c.point_b));
    let gap = (pb[0] - pa[0]).hypot(pb[1] - pa[1]).hypot(pb[2] - pa[2]);
    assert!(
        (gap - c.distance as f64).abs() <= 2.0 * tol,
        "|pB - pA| = {gap} but distance {}\n{a:?}\n{b:?}\n{c:?}",
        c.distance
    );
    if c.distance == 0.0 {
        assert_eq!(c.point_a, c.point_b);
    }
}

#[test]
fn every_pair_of_kinds_matches_the_exact_distance() {
    let mut g = Gen::new(0xd157_0001);
    let bases = [
        (Point3::origin(), 1.0 as Real, 0.0),
        (Point3::origin(), 1.0, 0.3),
        (Point3::new(300.0, -2000.0, 50.0), 1.0, 0.1),
        (Point3::new(1e4, 1e4, -1e4), 2.0, 0.1),
        (Point3::origin(), 1e-3, 0.1),
    ];
    for ka in ShapeKind::ALL {
        for kb in ShapeKind::ALL {
            let mut stats = Stats::default();
            for i in 0..120 {
                let (base, unit, p_zero) = bases[i % bases.len()];
                let (Ok(a), Ok(b)) = (
                    g.shape(ka, &base, unit, p_zero),
                    g.shape(kb, &base, unit, p_zero),
                ) else {
                    continue;
                };
                check_pair(&a, &b, &mut stats);
            }
            println!(
                "{:>8} {:>8}: {} cases, worst distance error {:.1} u S, worst witness {:.1} u (S + m)",
                ka.name(),
                kb.name(),
                stats.cases,
                stats.worst_rel,
                stats.worst_witness
            );
            assert!(stats.cases >= 100);
        }
    }
}

#[test]
fn box_box_distance_matches_the_exact_reference_on_adversarial_pairs() {
    let mut g = Gen::new(0xd157_0002);
    for cat in CATEGORIES {
        let mut stats = Stats::default();
        let mut separated = 0;
        for _ in 0..60 {
            let (a, b) = g.pair(cat);
            let to_shape = |x: &common::AnyBox| match x {
                common::AnyBox::A(b) => Shape::Aabb(*b),
                common::AnyBox::O(b) => Shape::Obb(*b),
            };
            let (sa, sb) = (to_shape(&a), to_shape(&b));
            // The box–box reference proper: exact squared distance of the two parallelepipeds.
            let exact = ex::box_box_sq_exact(&a.exact(), &b.exact()).to_f64().sqrt();
            let c = closest_points_shapes(&sa, &sb);
            let s = local_scale(&sa, &sb);
            let rel = (c.distance as f64 - exact).abs() / (u() * s);
            stats.worst_rel = stats.worst_rel.max(rel);
            stats.cases += 1;
            separated += usize::from(exact > 0.0);
            assert!(
                rel <= K_DISTANCE,
                "{cat:?}: distance {} vs exact {exact} ({rel:.1} u S)\n{sa:?}\n{sb:?}",
                c.distance
            );
            check_witnesses(&sa, &sb, &c, &mut stats);
        }
        println!(
            "{cat:?}: {} pairs ({separated} separated), worst error {:.1} u S, witness {:.1}",
            stats.cases, stats.worst_rel, stats.worst_witness
        );
    }
}

/// Tiny, huge and far-out magnitudes (rescaled by a power of two inside): still within the
/// bound of the exact distance, no overflow of squared distances.
#[test]
fn extreme_magnitudes_match_the_exact_distance() {
    let mut g = Gen::new(0xd157_0006);
    let units: [Real; 4] = [1e-30, 1e-12, 1e15, 1e30];
    for unit in units {
        let mut stats = Stats::default();
        for ka in ShapeKind::ALL {
            for kb in ShapeKind::ALL {
                for _ in 0..8 {
                    let base = Point3::new(unit, -2.0 * unit, 0.5 * unit);
                    let (Ok(a), Ok(b)) =
                        (g.shape(ka, &base, unit, 0.1), g.shape(kb, &base, unit, 0.1))
                    else {
                        continue;
                    };
                    check_pair(&a, &b, &mut stats);
                }
            }
        }
        println!(
            "unit {unit:e}: {} cases, worst {:.1} u S",
            stats.cases, stats.worst_rel
        );
        assert!(stats.cases > 100);
    }
}

#[test]
fn touching_and_overlapping_pairs_have_distance_zero() {
    let b = Shape::Aabb(Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)).unwrap());
    let cases = [
        Shape::Aabb(Aabb::new(Point3::new(1.0, 0.2, 0.2), Point3::new(2.0, 2.0, 2.0)).unwrap()),
        Shape::Sphere(Sphere::new(Point3::new(2.0, 0.5, 0.5), 1.0).unwrap()),
        Shape::Capsule(
            Capsule::new(Point3::new(1.5, -1.0, 0.5), Point3::new(1.5, 3.0, 0.5), 0.5).unwrap(),
        ),
        Shape::Triangle(
            Triangle::new(
                Point3::new(1.0, 0.5, 0.5),
                Point3::new(3.0, 0.0, 0.0),
                Point3::new(3.0, 1.0, 0.0),
            )
            .unwrap(),
        ),
        Shape::Obb(Obb::from_aabb(
            &Aabb::new(Point3::new(0.5, 0.5, 0.5), Point3::new(0.6, 0.6, 0.6)).unwrap(),
        )),
    ];
    for c in &cases {
        for (x, y) in [(&b, c), (c, &b)] {
            let r = closest_points_shapes(x, y);
            assert_eq!(r.distance, 0.0, "{x:?} {y:?} -> {r:?}");
            assert!(
                x.distance_to_point(&r.point_a) <= 1e-5 && y.distance_to_point(&r.point_a) <= 1e-5
            );
        }
    }
}

#[test]
fn distances_are_invariant_under_rigid_motions() {
    let mut g = Gen::new(0xd157_0003);
    for ka in [
        ShapeKind::Obb,
        ShapeKind::Sphere,
        ShapeKind::Capsule,
        ShapeKind::Triangle,
    ] {
        for kb in [
            ShapeKind::Obb,
            ShapeKind::Sphere,
            ShapeKind::Capsule,
            ShapeKind::Triangle,
        ] {
            for _ in 0..40 {
                let (Ok(a), Ok(b)) = (
                    g.shape(ka, &Point3::origin(), 1.0, 0.1),
                    g.shape(kb, &Point3::origin(), 1.0, 0.1),
                ) else {
                    continue;
                };
                let q = g.rotation();
                let t = g.vector(50.0);
                let (ma, mb) = (moved(&a, &q, &t), moved(&b, &q, &t));
                let d0 = closest_points_shapes(&a, &b).distance as f64;
                let d1 = closest_points_shapes(&ma, &mb).distance as f64;
                let s = local_scale(&a, &b) + 50.0;
                assert!(
                    (d0 - d1).abs() <= K_DISTANCE * u() * s,
                    "{d0} vs {d1}\n{a:?}\n{b:?}"
                );
            }
        }
    }
}

fn moved(s: &Shape, q: &UnitQuaternion, t: &Vector3) -> Shape {
    let m = |p: Point3| q * p + t;
    match s {
        Shape::Obb(b) => Shape::Obb(
            Obb::from_rotation(
                m(b.center()),
                q * UnitQuaternion::from_matrix(b.axes()),
                b.half_extents(),
            )
            .unwrap(),
        ),
        Shape::Sphere(x) => Shape::Sphere(Sphere::new(m(x.center()), x.radius()).unwrap()),
        Shape::Capsule(c) => {
            Shape::Capsule(Capsule::new(m(c.p0()), m(c.p1()), c.radius()).unwrap())
        }
        Shape::Triangle(x) => Shape::Triangle(Triangle::new(m(x.a()), m(x.b()), m(x.c())).unwrap()),
        Shape::Aabb(_) => unreachable!("AABBs do not rotate"),
    }
}

#[test]
fn gjk_agrees_with_the_closed_forms() {
    let mut g = Gen::new(0xd157_0004);
    let mut worst: f64 = 0.0;
    for i in 0..2000 {
        let pt = |g: &mut Gen| Point3::from(g.vector(3.0));
        let seg = ConvexCore::Segment([pt(&mut g), pt(&mut g)]);
        let point = ConvexCore::Point(pt(&mut g));
        let tri = ConvexCore::Triangle([pt(&mut g), pt(&mut g), pt(&mut g)]);
        let obb = common::mk(pt(&mut g), g.rotation(), g.half_extents(0.0, 1.5));
        let bx = ConvexCore::Box {
            center: obb.center(),
            axes: *obb.axes(),
            half_extents: obb.half_extents(),
        };
        let (x, y) = match i % 6 {
            0 => (seg, bx),
            1 => (point, tri),
            2 => (seg, tri),
            3 => (seg, ConvexCore::Segment([pt(&mut g), pt(&mut g)])),
            4 => (point, bx),
            _ => (point, seg),
        };
        let r = gjk(&x, &y);
        let as_shape = |c: &ConvexCore| -> Shape {
            match c {
                ConvexCore::Point(p) => Shape::Sphere(Sphere::new(*p, 0.0).unwrap()),
                ConvexCore::Segment([p, q]) => Shape::Capsule(Capsule::new(*p, *q, 0.0).unwrap()),
                ConvexCore::Triangle([a, b, c]) => {
                    Shape::Triangle(Triangle::new(*a, *b, *c).unwrap())
                }
                ConvexCore::Box { .. } => Shape::Obb(obb),
                ConvexCore::AlignedBox { .. } => unreachable!(),
            }
        };
        let closed = closest_points_shapes(&as_shape(&x), &as_shape(&y));
        let s = 20.0;
        let err = (r.distance as f64 - closed.distance as f64).abs() / (u() * s);
        worst = worst.max(err);
        assert!(
            err <= K_DISTANCE,
            "gjk {} vs closed form {} ({x:?} {y:?})",
            r.distance,
            closed.distance
        );
    }
    println!("GJK vs closed forms: worst difference {worst:.1} u S");
}

/// The typed query `closest_points(x, y)` for whatever the two shapes hold.
fn typed_closest(a: &Shape, b: &Shape) -> ClosestPoints {
    common::with_shapes!(a, b, |x, y| sepax_narrowphase::distance::closest_points(
        x, y
    ))
}

/// The bits of every number of `c`.
fn cp_bits(c: &ClosestPoints) -> Vec<u64> {
    let mut v = vec![c.distance.to_bits() as u64];
    for x in c
        .point_a
        .iter()
        .chain(c.point_b.iter())
        .chain(c.normal.iter())
    {
        v.push(x.to_bits() as u64);
    }
    v
}

#[test]
fn dispatch_agrees_with_the_typed_calls_for_every_pair() {
    let mut g = Gen::new(0xd157_0005);
    for ka in ShapeKind::ALL {
        for kb in ShapeKind::ALL {
            for _ in 0..20 {
                let a = g.shape(ka, &Point3::origin(), 1.0, 0.1).unwrap();
                let b = g.shape(kb, &Point3::origin(), 1.0, 0.1).unwrap();
                let c = closest_points_shapes(&a, &b);
                assert_eq!(cp_bits(&c), cp_bits(&typed_closest(&a, &b)), "{a:?} {b:?}");
                assert_eq!(
                    cp_bits(&closest_points_shapes(&b, &a)),
                    cp_bits(&typed_closest(&b, &a)),
                    "{b:?} {a:?}"
                );
                assert_eq!(
                    distance_shapes(&a, &b).to_bits(),
                    c.distance.to_bits(),
                    "{a:?} {b:?}"
                );
            }
        }
    }
    let _ = Category::Random;
}
