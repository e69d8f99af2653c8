//! Distances and pair predicates of spheres, capsules, triangles and boxes: hand-made exact
//! cases, and cross-checks between independent routes.

use crate::common;

use std::cmp::Ordering;

use common::{FBox, Rng};
use sepax_exact::*;

const I3: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// Minimum of a convex function on [0, 1] by ternary search (float reference).
fn ternary_min(f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..80 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(0.0).min(f(1.0)).min(f(0.5 * (lo + hi)))
}

fn lerp(a: [f64; 3], b: [f64; 3], t: f64) -> [f64; 3] {
    [0, 1, 2].map(|k| a[k] + t * (b[k] - a[k]))
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn point_and_segment_distances_by_hand() {
    assert_eq!(
        point_segment_distance_sq([0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
        1.0
    );
    assert_eq!(
        point_segment_distance_sq([3.0, 4.0, 0.0], [0.0; 3], [0.0; 3]),
        25.0
    );
    assert_eq!(
        point_segment_distance_sq([2.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
        2.0
    );
    // Crossing, parallel overlapping, collinear disjoint, skew, degenerate.
    let x = |a: f64| [a, 0.0, 0.0];
    assert_eq!(
        segment_segment_distance_sq(x(-1.0), x(1.0), [0.0, -1.0, 0.0], [0.0, 1.0, 0.0]),
        0.0
    );
    assert_eq!(
        segment_segment_distance_sq(x(-1.0), x(1.0), [0.0, 1.0, 0.0], [3.0, 1.0, 0.0]),
        1.0
    );
    assert_eq!(
        segment_segment_distance_sq(x(-1.0), x(1.0), x(1.5), x(4.0)),
        0.25
    );
    assert_eq!(
        segment_segment_distance_sq(x(-1.0), x(1.0), [0.0, -1.0, 2.0], [0.0, 1.0, 2.0]),
        4.0
    );
    assert_eq!(
        segment_segment_distance_sq(x(0.0), x(0.0), x(3.0), x(3.0)),
        9.0
    );
    // The closest point lies at the non-dyadic parameter 1/3; the distance is still exact.
    let d = point_segment_sq_exact([1.0, 1.0, 0.0], x(0.0), x(3.0));
    assert_eq!(d.cmp_radius(1.0), Ordering::Equal);
    let d = point_segment_sq_exact([1.0, 1.0, 0.0], x(0.0), [3.0, 3.0, 3.0]);
    assert_eq!(d.to_rational(), num_rational_third());
}

#[test]
fn triangle_distances_by_hand() {
    let t = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]];
    assert_eq!(point_triangle_distance_sq([0.5, 0.5, 3.0], t), 9.0);
    assert_eq!(point_triangle_distance_sq([2.0, 2.0, 0.0], t), 2.0);
    assert_eq!(point_triangle_distance_sq([-1.0, -1.0, 1.0], t), 3.0);
    assert_eq!(point_triangle_distance_sq([1.0, 1.0, 0.0], t), 0.0);
    // Degenerate triangles: a segment and a point.
    let seg = [[0.0; 3], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]];
    assert_eq!(point_triangle_distance_sq([1.0, 1.0, 0.0], seg), 1.0);
    let pt = [[1.0; 3]; 3];
    assert_eq!(point_triangle_distance_sq([1.0, 1.0, 3.0], pt), 4.0);
    // Segment through the triangle, touching it, parallel above it.
    assert_eq!(
        segment_triangle_distance_sq([0.5, 0.5, -1.0], [0.5, 0.5, 1.0], t),
        0.0
    );
    assert_eq!(
        segment_triangle_distance_sq([1.0, 1.0, 0.0], [1.0, 1.0, 1.0], t),
        0.0
    );
    assert_eq!(
        segment_triangle_distance_sq([0.2, 0.2, 1.0], [0.5, 0.2, 1.0], t),
        1.0
    );
    assert_eq!(
        segment_triangle_distance_sq([3.0, -1.0, 0.0], [3.0, 1.0, 0.0], t),
        1.0
    );
    assert!(sphere_triangle([0.5, 0.5, 1.0], 1.0, t));
    assert!(!sphere_triangle([0.5, 0.5, 1.0], 1.0f64.next_down(), t));
    assert!(capsule_triangle([0.2, 0.2, 1.0], [0.5, 0.2, 1.0], 1.0, t));
    assert!(!capsule_triangle(
        [0.2, 0.2, 1.0],
        [0.5, 0.2, 1.0],
        0.999,
        t
    ));
}

#[test]
fn box_distances_by_hand() {
    let b = ExactBox::from_aabb([0.0; 3], [1.0; 3]);
    assert_eq!(point_box_distance_sq([0.5, 0.5, 0.5], &b), 0.0);
    assert_eq!(point_box_distance_sq([2.0, 0.5, 0.5], &b), 1.0);
    assert_eq!(point_box_distance_sq([2.0, 2.0, 2.0], &b), 3.0);
    assert_eq!(point_box_distance_sq([-1.0, 0.5, 3.0], &b), 5.0);
    assert_eq!(
        segment_box_distance_sq([-1.0, 0.5, 0.5], [2.0, 0.5, 0.5], &b),
        0.0
    );
    assert_eq!(
        segment_box_distance_sq([2.0, -1.0, 0.5], [2.0, 2.0, 0.5], &b),
        1.0
    );
    assert_eq!(
        segment_box_distance_sq([2.0, 3.0, 0.5], [3.0, 2.0, 0.5], &b),
        4.5
    );
    assert!(sphere_box([2.0, 0.5, 0.5], 1.0, &b));
    assert!(!sphere_box([2.0, 0.5, 0.5], 1.0f64.next_down(), &b));
    assert!(capsule_box([2.0, -1.0, 0.5], [2.0, 2.0, 0.5], 1.0, &b));
    // Flat box: a unit square in z = 0.
    let flat = ExactBox::new([0.0; 3], I3, [1.0, 1.0, 0.0]);
    assert_eq!(point_box_distance_sq([0.5, 0.5, 2.0], &flat), 4.0);
    assert_eq!(
        segment_box_distance_sq([0.0, 0.0, 1.0], [0.0, 0.0, -1.0], &flat),
        0.0
    );
}

#[test]
fn round_shapes_reduce_to_each_other() {
    let mut rng = Rng(17);
    for i in 0..1500 {
        let c0 = rng.vec(-2.0, 2.0);
        let c1 = rng.vec(-2.0, 2.0);
        let r0 = rng.range(0.0, 1.5);
        let r1 = rng.range(0.0, 1.5);
        let s = sphere_sphere(c0, r0, c1, r1);
        assert_eq!(s, capsule_capsule(c0, c0, r0, c1, c1, r1));
        assert_eq!(s, sphere_capsule(c0, r0, c1, c1, r1));
        let bx = FBox {
            c: rng.vec(-1.0, 1.0),
            u: rng.rotation(i % 2 == 0),
            h: rng.vec(0.0, 1.0),
        };
        let e = bx.exact();
        // Radius 0 against containment; a point box against sphere_box.
        let p = if i % 2 == 0 {
            bx.corner([1.0, rng.range(-1.0, 1.0), -1.0])
        } else {
            c0
        };
        assert_eq!(sphere_box(p, 0.0, &e), point_in_box(p, &e));
        assert_eq!(point_box_sq_exact(p, &e).is_zero(), point_in_box(p, &e));
        let pbox = ExactBox::new(c0, I3, [0.0; 3]);
        assert_eq!(sphere_box(c0, 0.0, &e), box_box(&pbox, &e).intersects);
        assert_eq!(capsule_box(c0, c0, r0, &e), sphere_box(c0, r0, &e));
        // A degenerate triangle at a point is that point.
        assert_eq!(
            sphere_triangle(c0, r0, [c1; 3]),
            sphere_sphere(c0, r0, c1, 0.0)
        );
    }
}

#[test]
fn distances_match_one_dimensional_minimisation() {
    let mut rng = Rng(23);
    for i in 0..120 {
        let (p0, p1) = (rng.vec(-2.0, 2.0), rng.vec(-2.0, 2.0));
        let (q0, q1) = (rng.vec(-2.0, 2.0), rng.vec(-2.0, 2.0));
        let ss = segment_segment_distance_sq(p0, p1, q0, q1);
        let reference = ternary_min(|t| point_segment_distance_sq(lerp(p0, p1, t), q0, q1));
        assert!(close(ss, reference, 1e-9), "seg-seg {ss} {reference}");
        let t = [rng.vec(-2.0, 2.0), rng.vec(-2.0, 2.0), rng.vec(-2.0, 2.0)];
        let st = segment_triangle_distance_sq(p0, p1, t);
        let reference = ternary_min(|s| point_triangle_distance_sq(lerp(p0, p1, s), t));
        assert!(close(st, reference, 1e-9), "seg-tri {st} {reference}");
        let bx = FBox {
            c: rng.vec(-1.0, 1.0),
            u: rng.rotation(i % 2 == 0),
            h: rng.vec(0.0, 1.0),
        };
        let e = bx.exact();
        let sb = segment_box_distance_sq(p0, p1, &e);
        let reference = ternary_min(|s| point_box_distance_sq(lerp(p0, p1, s), &e));
        assert!(close(sb, reference, 1e-9), "seg-box {sb} {reference}");
    }
}

#[test]
fn point_distances_match_naive_float_formulas() {
    let mut rng = Rng(29);
    for i in 0..3000 {
        let p = rng.vec(-3.0, 3.0);
        // Box: clamp in the (nearly orthonormal) local frame.
        let bx = FBox {
            c: rng.vec(-1.0, 1.0),
            u: rng.rotation(i % 2 == 0),
            h: rng.vec(0.0, 1.0),
        };
        let w = [p[0] - bx.c[0], p[1] - bx.c[1], p[2] - bx.c[2]];
        let naive: f64 = (0..3)
            .map(|k| {
                let t = common::dot(w, bx.u[k]);
                let d = t.abs() - bx.h[k];
                if d > 0.0 {
                    d * d
                } else {
                    0.0
                }
            })
            .sum();
        let exact = point_box_distance_sq(p, &bx.exact());
        assert!(
            (exact - naive).abs() < 1e-6 * (1.0 + naive),
            "{exact} {naive}"
        );
        // Segment: parameter clamp.
        let (a, b) = (rng.vec(-2.0, 2.0), rng.vec(-2.0, 2.0));
        let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let t = (common::dot([p[0] - a[0], p[1] - a[1], p[2] - a[2]], d) / common::dot(d, d))
            .clamp(0.0, 1.0);
        let q = lerp(a, b, t);
        let naive = common::dot(
            [p[0] - q[0], p[1] - q[1], p[2] - q[2]],
            [p[0] - q[0], p[1] - q[1], p[2] - q[2]],
        );
        assert!(close(point_segment_distance_sq(p, a, b), naive, 1e-12));
    }
}

/// Random triangle with small integer vertices (many coplanar, touching, degenerate cases).
fn grid_triangle(rng: &mut Rng) -> [[f64; 3]; 3] {
    [0; 3].map(|_| [0; 3].map(|_| rng.int(-2, 2) as f64))
}

#[test]
fn triangle_predicates_agree_with_the_edge_criterion_on_a_grid() {
    // Two convex sets in space meet iff an edge of one meets the other (or one contains the
    // other, which also puts its edges inside). Distances route through a different algorithm
    // (closest points) than the separating-axis predicates, so agreement on a grid full of exact
    // contacts is a strong check of both.
    let mut rng = Rng(31);
    let (mut tt_hits, mut tb_hits) = (0, 0);
    for _ in 0..2500 {
        let t0 = grid_triangle(&mut rng);
        let t1 = grid_triangle(&mut rng);
        let edges = |t: [[f64; 3]; 3]| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])];
        let by_edges = edges(t0)
            .iter()
            .any(|&(p, q)| segment_triangle_sq_exact(p, q, t1).is_zero())
            || edges(t1)
                .iter()
                .any(|&(p, q)| segment_triangle_sq_exact(p, q, t0).is_zero());
        let sat = triangle_triangle(t0, t1);
        assert_eq!(sat, by_edges, "{t0:?} {t1:?}");
        assert_eq!(sat, triangle_triangle(t1, t0));
        tt_hits += usize::from(sat);

        let u = [0; 3].map(|_| [0; 3].map(|_| rng.int(-1, 1) as f64));
        let bx = FBox {
            c: [0; 3].map(|_| rng.int(-2, 2) as f64 * 0.5),
            u,
            h: [0; 3].map(|_| rng.int(0, 2) as f64 * 0.5),
        };
        let e = bx.exact();
        let by_edges = edges(t0)
            .iter()
            .any(|&(p, q)| segment_box_sq_exact(p, q, &e).is_zero())
            || bx
                .edges()
                .iter()
                .any(|&(p, q)| segment_triangle_sq_exact(p, q, t0).is_zero());
        let sat = triangle_box(t0, &e);
        assert_eq!(sat, by_edges, "{t0:?} {bx:?}");
        tb_hits += usize::from(sat);
        // Capsules with radius 0 are segments.
        let (a, b) = (t1[0], t1[1]);
        assert_eq!(
            capsule_triangle(a, b, 0.0, t0),
            segment_triangle_sq_exact(a, b, t0).is_zero()
        );
        assert_eq!(
            capsule_box(a, b, 0.0, &e),
            segment_box_sq_exact(a, b, &e).is_zero()
        );
    }
    assert!(tt_hits > 200 && tb_hits > 200, "{tt_hits} {tb_hits}");
}

#[test]
fn exact_squared_distances_are_exact_at_the_threshold() {
    // Sphere touching a rotated (f32-valued) box face: the exact distance decides.
    let mut rng = Rng(37);
    for _ in 0..200 {
        let bx = FBox {
            c: rng.vec(-1.0, 1.0),
            u: rng.rotation(true),
            h: rng.vec(0.1, 1.0),
        };
        let e = bx.exact();
        let p = rng.vec(-3.0, 3.0);
        let d = point_box_sq_exact(p, &e);
        let r = d.to_f64().sqrt();
        // `sphere_box` agrees with the exact comparison at the float radius nearest the distance.
        assert_eq!(sphere_box(p, r, &e), d.cmp_radius(r) != Ordering::Greater);
        assert_eq!(
            sphere_box(p, r.next_up(), &e),
            d.cmp_radius(r.next_up()) != Ordering::Greater
        );
        assert!(sphere_box(p, r.next_up().next_up(), &e));
        assert!(d.is_zero() || !sphere_box(p, r.next_down().next_down(), &e));
        let via_strings = num_traits_free_ratio(&d);
        assert!(!via_strings.is_finite() || close(d.to_f64(), via_strings, 1e-15));
    }
}

/// f64 value of the exact rational through its numerator and denominator.
fn num_traits_free_ratio(d: &SqDistance) -> f64 {
    let q = d.to_rational();
    let n: f64 = q.numer().to_string().parse().unwrap();
    let m: f64 = q.denom().to_string().parse().unwrap();
    n / m
}

/// 2/3: squared distance from (1,1,0) to the line through 0 and (1,1,1).
fn num_rational_third() -> num_rational::BigRational {
    num_rational::BigRational::new(2.into(), 3.into())
}
