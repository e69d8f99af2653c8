//! Box–box: hand-made exact cases, cross-checks between independent routes, random differential
//! tests against a naive float SAT far from the boundary, and a timing report.

use crate::common;

use common::{naive_sat, FBox, Rng};
use sepax_exact::{
    aabb_aabb, box_box, box_box_unfiltered, point_in_box, segment_box_sq_exact, BoxBoxExact,
    ExactAxis, ExactBox,
};

const I3: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

fn fb(c: [f64; 3], u: [[f64; 3]; 3], h: [f64; 3]) -> FBox {
    FBox { c, u, h }
}

/// Both routes must agree exactly (decision, axis, exact margin).
fn checked(a: &ExactBox, b: &ExactBox) -> BoxBoxExact {
    let r = box_box(a, b);
    let u = box_box_unfiltered(a, b);
    assert_eq!(
        r.intersects, u.intersects,
        "filtered vs unfiltered: {a:?} {b:?}"
    );
    assert_eq!(r.axis, u.axis, "axis: {a:?} {b:?}");
    assert_eq!(
        r.margin_sq_signed(),
        u.margin_sq_signed(),
        "margin: {a:?} {b:?}"
    );
    r
}

#[test]
fn touching_faces_count_as_intersecting() {
    let a = ExactBox::from_aabb([0.0; 3], [1.0; 3]);
    let b = ExactBox::from_aabb([1.0, 0.0, 0.0], [2.0, 1.0, 1.0]);
    let r = checked(&a, &b);
    assert!(r.intersects);
    assert_eq!(r.margin, 0.0);
    assert_eq!(r.axis, ExactAxis::FaceA(0));
    assert_eq!(r.normal, [1.0, 0.0, 0.0]);
    assert!(!r.margin_exceeds(0.0));
    // One ulp of gap separates.
    let gap = 1.0f64.next_up() - 1.0;
    let b = ExactBox::from_aabb([1.0f64.next_up(), 0.0, 0.0], [2.0, 1.0, 1.0]);
    let r = checked(&a, &b);
    assert!(!r.intersects);
    assert_eq!(r.margin, gap);
    assert!(r.margin_exceeds(gap / 2.0));
    assert!(!r.margin_exceeds(gap));
    assert!(!aabb_aabb(
        [0.0; 3],
        [1.0; 3],
        [1.0f64.next_up(), 0.0, 0.0],
        [2.0, 1.0, 1.0]
    ));
}

#[test]
fn identical_and_nested_boxes_report_the_penetration_depth() {
    let a = ExactBox::new([0.5, -2.0, 3.0], I3, [1.0, 2.0, 3.0]);
    let r = checked(&a, &a.clone());
    assert!(r.intersects);
    // p = 0: depth is the thinnest width, 2·1, along A's x face.
    assert_eq!(r.margin, -2.0);
    assert_eq!(r.axis, ExactAxis::FaceA(0));
    let inner = ExactBox::new([0.5, -2.0, 3.25], I3, [0.25, 0.25, 0.25]);
    let r = checked(&a, &inner);
    assert!(r.intersects);
    // Distance from p = (0,0,0.25) to the boundary of the Minkowski sum: x-depth 1.25.
    assert_eq!(r.margin, -1.25);
    assert!(r.margin_exceeds(1.2) && !r.margin_exceeds(1.25));
}

#[test]
fn flat_needle_and_point_boxes() {
    let cube = ExactBox::new([0.0; 3], I3, [1.0; 3]);
    let point_on_corner = ExactBox::new([1.0, 1.0, 1.0], I3, [0.0; 3]);
    let r = checked(&cube, &point_on_corner);
    assert!(r.intersects);
    assert_eq!(r.margin, 0.0);
    let point_out = ExactBox::new([1.0, 1.0, 1.0 + 2f64.powi(-52)], I3, [0.0; 3]);
    let r = checked(&cube, &point_out);
    assert!(!r.intersects);
    assert_eq!(r.margin, 2f64.powi(-52));
    assert_eq!(r.axis, ExactAxis::FaceA(2));
    assert_eq!(r.normal, [0.0, 0.0, 1.0]);
    // Two points: rank 0.
    let q = ExactBox::new([1.0, 1.0, 5.0], I3, [0.0; 3]);
    let r = checked(&point_on_corner, &q);
    assert!(!r.intersects);
    assert_eq!(r.margin, 4.0);
    assert_eq!(r.axis, ExactAxis::Other);
    assert_eq!(r.normal, [0.0, 0.0, 1.0]);
    assert!(checked(&q, &q.clone()).intersects);
    // A needle through a flat plate.
    let plate = ExactBox::new([0.0; 3], I3, [1.0, 1.0, 0.0]);
    let needle = ExactBox::new([0.3, 0.3, 0.0], I3, [0.0, 0.0, 5.0]);
    let r = checked(&plate, &needle);
    // Together they span space (rank 3): the plate can slide 1 − 0.3 sideways to get free.
    assert!(r.intersects);
    assert!((r.margin + 0.7).abs() < 1e-15, "{}", r.margin);
    // Faces of flat boxes vanish; x and y edge crosses tie at 0.7 and the first wins.
    assert_eq!(r.axis, ExactAxis::Edge(0, 2));
}

#[test]
fn coplanar_plates_and_parallel_needles_use_the_lower_rank_tests() {
    let a = ExactBox::new([0.0; 3], I3, [1.0, 1.0, 0.0]);
    let b = ExactBox::new([1.5, 1.5, 0.0], I3, [0.5, 0.5, 0.0]);
    let r = checked(&a, &b);
    assert!(r.intersects, "coplanar plates sharing a corner");
    assert_eq!((r.margin, r.axis), (0.0, ExactAxis::Other));
    let b_far = ExactBox::new([3.0, 0.0, 0.0], I3, [0.5, 0.5, 0.0]);
    let r = checked(&a, &b_far);
    assert!(!r.intersects);
    assert_eq!(r.margin, 1.5);
    assert_eq!(r.normal, [1.0, 0.0, 0.0]);
    let b_lift = ExactBox::new([0.0, 0.0, 1e-300], I3, [0.5, 0.5, 0.0]);
    let r = checked(&a, &b_lift);
    assert!(!r.intersects);
    assert!((r.margin - 1e-300).abs() <= 1e-315);
    assert_eq!(r.normal, [0.0, 0.0, 1.0]);
    // Collinear needles: touching, separated along, offset sideways.
    let n1 = ExactBox::new([0.0; 3], I3, [1.0, 0.0, 0.0]);
    let n2 = ExactBox::new([2.0, 0.0, 0.0], I3, [1.0, 0.0, 0.0]);
    assert!(checked(&n1, &n2).intersects);
    let n3 = ExactBox::new([2.5, 0.0, 0.0], I3, [1.0, 0.0, 0.0]);
    let r = checked(&n1, &n3);
    assert!(!r.intersects);
    assert_eq!(r.margin, 0.5);
    let n4 = ExactBox::new([0.0, 3.0, 4.0], I3, [1.0, 0.0, 0.0]);
    let r = checked(&n1, &n4);
    assert!(!r.intersects);
    assert_eq!(r.margin, 5.0);
    assert_eq!(r.normal, [0.0, 0.6, 0.8]);
    // Crossing needles (rank 2): touching exactly at one point.
    let n5 = ExactBox::new([0.5, 0.0, 0.0], I3, [0.0, 1.0, 0.0]);
    assert!(checked(&n1, &n5).intersects);
}

#[test]
fn rotated_boxes_separated_only_by_an_edge_edge_axis() {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    // A: unit cube rotated 45° about x (an edge along x on top, at height √2).
    let ua = [[1.0, 0.0, 0.0], [0.0, s, s], [0.0, -s, s]];
    // B: unit cube rotated 45° about y (an edge along y at the bottom).
    let ub = [[s, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, s]];
    for &delta in &[1e-3, 0.25] {
        let fa = fb([0.0; 3], ua, [1.0; 3]);
        let fb_ = fb(
            [0.0, 0.0, 2.0 * std::f64::consts::SQRT_2 + delta],
            ub,
            [1.0; 3],
        );
        let r = checked(&fa.exact(), &fb_.exact());
        assert!(!r.intersects);
        assert!(matches!(r.axis, ExactAxis::Edge(0, 1)), "{:?}", r.axis);
        assert!((r.margin - delta).abs() < 1e-12, "{}", r.margin);
        assert!(r.normal[2] > 0.999_999);
        let (naive, idx) = naive_sat(&fa, &fb_);
        assert!((naive - r.margin).abs() < 1e-12 && idx == 7);
    }
}

#[test]
fn huge_and_tiny_magnitudes_scale_exactly() {
    let mut rng = Rng(7);
    for _ in 0..200 {
        let a = fb(rng.vec(-1.0, 1.0), rng.rotation(true), rng.vec(0.0, 1.0));
        let b = fb(rng.vec(-1.0, 1.0), rng.rotation(true), rng.vec(0.0, 1.0));
        let r = checked(&a.exact(), &b.exact());
        // Powers of two scale exactly: same decision and axis, margin scaled.
        for k in [-100, -700, 100, 600] {
            let f = 2f64.powi(k);
            let sc = |x: FBox| fb(x.c.map(|v| v * f), x.u, x.h.map(|v| v * f));
            let rs = checked(&sc(a).exact(), &sc(b).exact());
            assert_eq!(rs.intersects, r.intersects);
            assert_eq!(rs.axis, r.axis);
            assert!((rs.margin - r.margin * f).abs() <= 1e-14 * (r.margin * f).abs());
        }
    }
}

#[test]
fn point_boxes_agree_with_point_in_box() {
    let mut rng = Rng(11);
    for i in 0..2000 {
        let b = fb(
            rng.vec(-1.0, 1.0),
            rng.rotation(i % 2 == 0),
            rng.vec(0.0, 1.0),
        );
        // Points near the surface: a corner, a face point, or random.
        let p = match i % 3 {
            0 => b.corner([1.0, -1.0, 1.0]),
            1 => b.corner([rng.range(-1.0, 1.0), 1.0, rng.range(-1.0, 1.0)]),
            _ => rng.vec(-2.0, 2.0),
        };
        let pb = ExactBox::new(p, I3, [0.0; 3]);
        let bb = b.exact();
        assert_eq!(checked(&bb, &pb).intersects, point_in_box(p, &bb));
        assert_eq!(checked(&pb, &bb).intersects, point_in_box(p, &bb));
    }
}

#[test]
fn aabbs_agree_with_interval_overlap_on_a_touching_grid() {
    let mut rng = Rng(3);
    let mut hits = 0;
    for _ in 0..3000 {
        let mut mm = || {
            let lo = rng.vec(0.0, 1.0).map(|_| rng.int(-4, 4) as f64 * 0.5);
            let hi = lo.map(|l| l + rng.int(0, 3) as f64 * 0.5);
            (lo, hi)
        };
        let (la, ha) = mm();
        let (lb, hb) = mm();
        let expect = aabb_aabb(la, ha, lb, hb);
        let r = checked(&ExactBox::from_aabb(la, ha), &ExactBox::from_aabb(lb, hb));
        assert_eq!(r.intersects, expect, "{la:?} {ha:?} {lb:?} {hb:?}");
        hits += usize::from(expect);
    }
    assert!(hits > 100 && hits < 2900, "{hits}");
}

#[test]
fn integer_sheared_boxes_agree_with_the_edge_criterion() {
    // Two convex polytopes meet iff an edge of one meets the other. Small integer axes and
    // half-integer centres give many exactly touching and degenerate (flat, dependent) cases,
    // with corners exact in f64.
    let mut rng = Rng(5);
    let (mut hits, mut touching) = (0, 0);
    for _ in 0..1500 {
        let mut gen = || {
            let u = [0; 3].map(|_| [0; 3].map(|_| rng.int(-1, 1) as f64));
            let h = [0; 3].map(|_| rng.int(0, 2) as f64 * 0.5);
            let c = [0; 3].map(|_| rng.int(-3, 3) as f64 * 0.5);
            fb(c, u, h)
        };
        let (a, b) = (gen(), gen());
        let (ea, eb) = (a.exact(), b.exact());
        let r = checked(&ea, &eb);
        let by_edges = a
            .edges()
            .iter()
            .any(|&(p, q)| segment_box_sq_exact(p, q, &eb).is_zero())
            || b.edges()
                .iter()
                .any(|&(p, q)| segment_box_sq_exact(p, q, &ea).is_zero());
        assert_eq!(r.intersects, by_edges, "{a:?} {b:?}");
        hits += usize::from(r.intersects);
        touching += usize::from(r.intersects && r.margin == 0.0);
    }
    assert!(hits > 100 && touching > 20, "{hits} {touching}");
}

#[test]
fn random_rotated_boxes_match_a_naive_float_sat_far_from_the_boundary() {
    let mut rng = Rng(42);
    let mut compared = 0;
    for i in 0..4000 {
        let a = fb(
            rng.vec(-2.0, 2.0),
            rng.rotation(i % 2 == 0),
            rng.vec(0.05, 1.0),
        );
        let b = fb(
            rng.vec(-2.0, 2.0),
            rng.rotation(i % 3 == 0),
            rng.vec(0.05, 1.0),
        );
        let r = checked(&a.exact(), &b.exact());
        let (naive, _) = naive_sat(&a, &b);
        if r.margin.abs() > 1e-6 {
            compared += 1;
            assert_eq!(r.intersects, naive < 0.0);
            assert!((r.margin - naive).abs() < 1e-9, "{} {}", r.margin, naive);
            // The normal points from A to B along the reported axis.
            let pd = common::dot(
                r.normal,
                [b.c[0] - a.c[0], b.c[1] - a.c[1], b.c[2] - a.c[2]],
            );
            assert!(pd >= -1e-12);
            let n_len = common::dot(r.normal, r.normal);
            assert!((n_len - 1.0).abs() < 1e-12);
        }
    }
    assert!(compared > 3900);
}

#[test]
fn timing_random_rotated_f32_boxes() {
    let mut rng = Rng(99);
    let boxes: Vec<(ExactBox, ExactBox)> = (0..20_000)
        .map(|_| {
            let mut g = || {
                let c = rng.vec(-3.0, 3.0).map(|v| f64::from(v as f32));
                let h = rng.vec(0.1, 1.5).map(|v| f64::from(v as f32));
                ExactBox::new(c, rng.rotation(true), h)
            };
            (g(), g())
        })
        .collect();
    let t = std::time::Instant::now();
    let hits = boxes
        .iter()
        .filter(|(a, b)| box_box(a, b).intersects)
        .count();
    let us = t.elapsed().as_secs_f64() * 1e6 / boxes.len() as f64;
    let t = std::time::Instant::now();
    let hits_u = boxes[..2000]
        .iter()
        .filter(|(a, b)| box_box_unfiltered(a, b).intersects)
        .count();
    let us_u = t.elapsed().as_secs_f64() * 1e6 / 2000.0;
    eprintln!("box_box: {us:.2} µs/pair ({hits} hits / 20000); unfiltered: {us_u:.2} µs/pair ({hits_u}/2000)");
    assert!(hits > 0);
}

#[test]
fn half_extents_below_the_float_range_stay_exact() {
    // (max − min)/2 = 2^-1075 is not an f64; the box is still exact.
    let tiny = 5e-324;
    let a = ExactBox::from_aabb([0.0; 3], [tiny, 1.0, 1.0]);
    let on_face = ExactBox::new([tiny, 0.5, 0.5], I3, [0.0; 3]);
    assert!(checked(&a, &on_face).intersects);
    let beyond = ExactBox::new([2.0 * tiny, 0.5, 0.5], I3, [0.0; 3]);
    let r = checked(&a, &beyond);
    assert!(!r.intersects);
    assert!(r.margin_exceeds(0.0) && !r.margin_exceeds(tiny));
    assert!(point_in_box([tiny, 1.0, 0.0], &a));
}
