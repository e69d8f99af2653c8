//! Fitting: every method's box contains every input point *exactly* (checked with the exact
//! dyadic reference), is deterministic bit for bit, and handles degenerate inputs; the exact
//! method is checked against a brute-force search over hull-edge directions.

// Casts between `Real` and `f64` are needed in the default `f32` build and are no-ops with `f64`.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_exact::{point_in_box, ExactBox};
use sepax_shapes::fit::{
    brute_force_edge_pairs, convex_hull, fit_mesh, fit_obb, min_area_rect, refine, FitError, Method,
};
use sepax_shapes::math::{Point2, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::Obb;

fn exact_box(b: &Obb) -> ExactBox {
    let a = b.axes();
    let c = b.center();
    let h = b.half_extents();
    ExactBox::new(
        [c.x as f64, c.y as f64, c.z as f64],
        [0, 1, 2].map(|k| [a[(0, k)] as f64, a[(1, k)] as f64, a[(2, k)] as f64]),
        [h.x as f64, h.y as f64, h.z as f64],
    )
}

fn assert_contains_all(b: &Obb, pts: &[Point3], what: &str) {
    let e = exact_box(b);
    for (i, p) in pts.iter().enumerate() {
        assert!(
            point_in_box([p.x as f64, p.y as f64, p.z as f64], &e),
            "{what}: point {i} {p:?} outside {b:?}"
        );
    }
}

fn fit_checked(pts: &[Point3], m: Method, what: &str) -> Obb {
    let b = fit_obb(pts, m).unwrap_or_else(|e| panic!("{what} {m:?}: {e}"));
    assert_contains_all(&b, pts, &format!("{what} {m:?}"));
    let again = fit_obb(pts, m).unwrap();
    assert_eq!(
        format!("{:?}", b),
        format!("{:?}", again),
        "{what} {m:?}: not deterministic"
    );
    b
}

/// Random clouds of several kinds: boxes, ellipsoids, needles, plates, at several scales and
/// offsets, rotated.
fn cloud(rng: &mut ChaCha8Rng, kind: usize, n: usize, offset: Real, scale: Real) -> Vec<Point3> {
    let rot = UnitQuaternion::from_euler_angles(
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
    );
    let ext: Vector3 = match kind % 4 {
        0 => Vector3::new(1.0, 0.6, 0.3),
        1 => Vector3::new(1.0, 1.0, 1.0),
        2 => Vector3::new(1.0, 0.01, 0.01), // needle
        _ => Vector3::new(1.0, 0.8, 0.001), // plate
    };
    let base = Point3::new(offset, -0.5 * offset, 0.25 * offset);
    (0..n)
        .map(|_| {
            let mut v = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            if kind % 8 >= 4 {
                v /= v.norm().max(1e-3); // on a sphere (an ellipsoid after scaling)
            }
            base + rot * v.component_mul(&ext) * scale
        })
        .collect()
}

#[test]
fn every_method_contains_every_point_exactly_and_is_deterministic() {
    let mut rng = ChaCha8Rng::seed_from_u64(61);
    let mut count = 0;
    for kind in 0..8 {
        for (offset, scale) in [
            (0.0, 1.0),
            (100.0, 1.0),
            (1e4, 3.0),
            (1e6, 1.0),
            (0.0, 1e-20),
            (1e3, 1e-3),
        ] {
            let pts = cloud(&mut rng, kind, 32, offset, scale);
            for m in Method::ALL {
                fit_checked(
                    &pts,
                    m,
                    &format!("kind {kind} offset {offset} scale {scale}"),
                );
                count += 1;
            }
        }
    }
    assert_eq!(count, 8 * 6 * 5);
}

#[test]
fn empty_and_non_finite_inputs_are_errors() {
    for m in Method::ALL {
        assert_eq!(fit_obb(&[], m), Err(FitError::Empty));
        let pts = [Point3::new(0.0, 1.0, 2.0), Point3::new(1.0, Real::NAN, 0.0)];
        let e = fit_obb(&pts, m).unwrap_err();
        assert!(matches!(
            e,
            FitError::NotFinite {
                index: 1,
                component: 1,
                ..
            }
        ));
        assert!(e.to_string().contains("points[1][1]"), "{e}");
    }
    let e = fit_mesh(&[Point3::origin()], &[[0, 0, 3]], Method::Pca).unwrap_err();
    assert!(
        e.to_string().contains("triangle 0 refers to vertex 3"),
        "{e}"
    );
    assert_eq!(min_area_rect(&[]), Err(FitError::Empty));
}

#[test]
fn one_point_and_duplicates_give_a_point_box() {
    for p in [Point3::new(1.5, -2.25, 3.0), Point3::new(1e6, 1e-3, -7.1)] {
        for pts in [vec![p], vec![p; 17]] {
            for m in Method::ALL {
                let b = fit_checked(&pts, m, "point");
                assert_eq!(b.half_extents(), Vector3::zeros(), "{m:?}");
                assert_eq!(b.center(), p, "{m:?}");
            }
        }
    }
}

#[test]
fn axis_aligned_flat_inputs_give_exactly_zero_extents() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    // Collinear along y, coplanar in z = 2.5.
    let line: Vec<Point3> = (0..30)
        .map(|_| Point3::new(1.0, rng.random_range(-3.0..3.0), -4.0))
        .collect();
    let plane: Vec<Point3> = (0..30)
        .map(|_| {
            Point3::new(
                rng.random_range(-3.0..3.0),
                rng.random_range(-1.0..1.0),
                2.5,
            )
        })
        .collect();
    for m in Method::ALL {
        let b = fit_checked(&line, m, "line");
        let zeros = b.half_extents().iter().filter(|h| **h == 0.0).count();
        assert_eq!(zeros, 2, "{m:?}: {b:?}");
        let b = fit_checked(&plane, m, "plane");
        let zeros = b.half_extents().iter().filter(|h| **h == 0.0).count();
        assert!(zeros >= 1, "{m:?}: {b:?}");
    }
}

#[test]
fn rotated_flat_inputs_give_extents_within_the_rounding_bound() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for trial in 0..20 {
        let offset = [0.0, 1e2, 1e4][trial % 3];
        let rot = UnitQuaternion::from_euler_angles(0.3 + trial as Real, 0.7, -0.2);
        let base = Point3::new(offset, offset, -offset);
        let collinear = trial % 2 == 0;
        let pts: Vec<Point3> = (0..40)
            .map(|_| {
                let y = if collinear {
                    0.0
                } else {
                    rng.random_range(-1.0..1.0)
                };
                base + rot * Vector3::new(rng.random_range(-2.0..2.0), y, 0.0)
            })
            .collect();
        let mag = offset + 2.0;
        // Every method but the world-axis box finds the flat direction.
        for m in [Method::Pca, Method::HullPca, Method::Dito, Method::Exact] {
            let b = fit_checked(&pts, m, "rotated flat");
            let mut h: Vec<Real> = b.half_extents().iter().copied().collect();
            h.sort_by(|a, b| a.total_cmp(b));
            // The points themselves are off the plane by their rounding (~u * mag); allow that
            // plus the padding bound.
            let flat = if collinear { 2 } else { 1 };
            for hk in &h[..flat] {
                assert!(
                    *hk <= 256.0 * UNIT_ROUNDOFF * mag,
                    "{m:?} trial {trial}: extent {hk} for a flat input, {b:?}"
                );
            }
        }
    }
}

#[test]
fn extreme_magnitudes() {
    let big = Real::MAX / 4.0;
    let pts = [
        Point3::new(-big, 0.0, 1.0),
        Point3::new(big, 1.0, -big),
        Point3::new(0.0, big, 3.0),
        Point3::new(1.0, -big, big),
    ];
    let tiny = Real::MIN_POSITIVE * 8.0;
    let small = [
        Point3::new(tiny, 0.0, 0.0),
        Point3::new(0.0, 2.0 * tiny, 0.0),
        Point3::new(0.0, 0.0, 3.0 * tiny),
        Point3::new(tiny, tiny, tiny),
    ];
    for m in Method::ALL {
        match fit_obb(&pts, m) {
            Ok(b) => assert_contains_all(&b, &pts, "huge"),
            Err(e) => assert_eq!(e, FitError::Overflow, "{m:?}"),
        }
        fit_checked(&small, m, "tiny");
    }
}

/// The corners of a known box, and points inside it: every method that can find it should, and
/// the exact method must.
#[test]
fn exact_finds_a_rotated_box() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for trial in 0..30 {
        let rot = UnitQuaternion::from_euler_angles(
            rng.random_range(-3.0..3.0),
            rng.random_range(-3.0..3.0),
            rng.random_range(-3.0..3.0),
        );
        let h = Vector3::new(
            rng.random_range(0.2..3.0),
            rng.random_range(0.2..3.0),
            rng.random_range(0.2..3.0),
        );
        let c = Point3::new(rng.random_range(-50.0..50.0), 1.0, -3.0);
        let truth = Obb::from_rotation(c, rot, h).unwrap();
        let mut pts: Vec<Point3> = truth.corners().to_vec();
        for _ in 0..40 {
            let s = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            pts.push(c + rot * s.component_mul(&h));
        }
        let v = truth.volume() as f64;
        let b = fit_checked(&pts, Method::Exact, "rotated box");
        let ratio = b.volume() as f64 / v;
        assert!(
            (1.0 - 1e-4..1.0 + 2e-4).contains(&ratio),
            "trial {trial}: exact/true volume = {ratio}"
        );
        let d = fit_checked(&pts, Method::Dito, "rotated box");
        assert!(d.volume() as f64 / v >= 1.0 - 1e-4);
    }
}

/// On small random meshes, the exact method is at least as tight as the brute force over every
/// plane spanned by two hull edges (which contains every face-flush box), and never looser than
/// the other methods.
#[test]
fn exact_matches_brute_force_over_hull_edge_pairs() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let mut equal = 0;
    let trials = 40;
    for trial in 0..trials {
        let n = 5 + trial % 16;
        let pts = cloud(&mut rng, trial, n, 10.0 * (trial % 3) as Real, 1.0);
        let exact = fit_checked(&pts, Method::Exact, "small");
        let brute = brute_force_edge_pairs(&pts).unwrap();
        assert_contains_all(&brute, &pts, "brute force");
        let (ve, vb) = (exact.volume() as f64, brute.volume() as f64);
        assert!(
            ve <= vb * (1.0 + 1e-4),
            "trial {trial} (n = {n}): exact {ve} > brute force {vb}"
        );
        if ve >= vb * (1.0 - 1e-4) {
            equal += 1;
        }
        for m in [Method::Aabb, Method::Pca, Method::HullPca, Method::Dito] {
            let vm = fit_obb(&pts, m).unwrap().volume() as f64;
            assert!(
                ve <= vm * (1.0 + 1e-4),
                "trial {trial}: exact {ve} looser than {m:?} {vm}"
            );
        }
    }
    eprintln!("exact equal to brute force (1e-4) on {equal}/{trials}; tighter on the rest");
}

#[test]
fn dito_is_never_looser_than_pca_or_aabb() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for trial in 0..40 {
        let pts = cloud(&mut rng, trial, 200, 0.0, 1.0);
        let d = fit_checked(&pts, Method::Dito, "dito").volume() as f64;
        for m in [Method::Aabb, Method::Pca] {
            let v = fit_obb(&pts, m).unwrap().volume() as f64;
            assert!(d <= v * (1.0 + 1e-5), "trial {trial}: dito {d} > {m:?} {v}");
        }
    }
}

#[test]
fn refine_never_loosens_and_contains() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for trial in 0..20 {
        let pts = cloud(&mut rng, trial, 100, 5.0, 2.0);
        for m in [Method::Aabb, Method::Pca, Method::Dito] {
            let b = fit_obb(&pts, m).unwrap();
            let r = refine(&pts, &b).unwrap();
            assert_contains_all(&r, &pts, "refined");
            assert!(r.volume() <= b.volume() * (1.0 + 1e-5), "{m:?}");
        }
    }
}

#[test]
fn hull_of_a_cube_with_interior_points() {
    let mut pts: Vec<Point3> = (0..8)
        .map(|i| {
            Point3::new(
                (i & 1) as Real,
                ((i >> 1) & 1) as Real,
                ((i >> 2) & 1) as Real,
            )
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for _ in 0..200 {
        pts.push(Point3::new(
            rng.random_range(0.01..0.99),
            rng.random_range(0.01..0.99),
            rng.random_range(0.01..0.99),
        ));
    }
    let h = convex_hull(&pts).unwrap();
    assert_eq!(h.dimension, 3);
    assert_eq!(h.vertices, (0..8).collect::<Vec<_>>());
    assert_eq!(h.faces.len(), 12);
    // Euler: V - E + F = 2 with E = 3F/2.
    assert_eq!(8 - 18 + 12, 2);
    let b = fit_checked(&pts, Method::Exact, "cube");
    assert!((b.volume() - 1.0).abs() < 1e-5, "{b:?}");
}

/// Minimum-area rectangle: against a brute force over every direction between two points (the
/// optimal rectangle has a side flush with a hull edge, i.e. parallel to such a direction).
#[test]
fn min_area_rect_matches_brute_force_and_contains() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    for trial in 0..50 {
        let n = 3 + trial % 20;
        let off = [0.0, 1e3, -1e5][trial % 3];
        let pts: Vec<Point2> = (0..n)
            .map(|_| {
                Point2::new(
                    off + rng.random_range(-2.0..2.0),
                    rng.random_range(-0.5..0.5),
                )
            })
            .collect();
        let r = min_area_rect(&pts).unwrap();
        let a = r.axes();
        let h = r.half_extents();
        let c = r.center();
        let e = ExactBox::new(
            [c.x as f64, c.y as f64, 0.0],
            [
                [a[(0, 0)] as f64, a[(1, 0)] as f64, 0.0],
                [a[(0, 1)] as f64, a[(1, 1)] as f64, 0.0],
                [0.0, 0.0, 1.0],
            ],
            [h.x as f64, h.y as f64, 0.0],
        );
        for p in &pts {
            assert!(
                point_in_box([p.x as f64, p.y as f64, 0.0], &e),
                "{p:?} outside {r:?}"
            );
        }
        let area = 4.0 * h.x as f64 * h.y as f64;
        let mut brute = f64::INFINITY;
        for i in 0..n {
            for j in 0..n {
                let d = [
                    pts[j].x as f64 - pts[i].x as f64,
                    pts[j].y as f64 - pts[i].y as f64,
                ];
                let l = (d[0] * d[0] + d[1] * d[1]).sqrt();
                if l == 0.0 {
                    continue;
                }
                let (u, v) = ([d[0] / l, d[1] / l], [-d[1] / l, d[0] / l]);
                let proj = |w: [f64; 2]| {
                    let q: Vec<f64> = pts
                        .iter()
                        .map(|p| w[0] * p.x as f64 + w[1] * p.y as f64)
                        .collect();
                    q.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
                        - q.iter().cloned().fold(f64::INFINITY, f64::min)
                };
                brute = brute.min(proj(u) * proj(v));
            }
        }
        let slack = 1e-4 * (1.0 + off.abs() as f64) * 4.0;
        assert!(
            area <= brute * (1.0 + 1e-4) + slack,
            "trial {trial}: calipers {area} vs brute force {brute}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any finite cloud: every method's box contains every point exactly.
    #[test]
    fn prop_containment(
        pts in prop::collection::vec(
            (-1e3f32..1e3, -1e3f32..1e3, -1e3f32..1e3)
                .prop_map(|(x, y, z)| Point3::new(x as Real, y as Real, z as Real)),
            1..40,
        ),
        snap in 0u32..4,
    ) {
        // Snap some coordinates to a grid to create duplicates and coplanar subsets.
        let pts: Vec<Point3> = pts
            .iter()
            .map(|p| if snap == 0 { p.map(|v| v.round()) } else { *p })
            .collect();
        for m in Method::ALL {
            let b = fit_obb(&pts, m).unwrap();
            assert_contains_all(&b, &pts, "prop");
        }
    }
}

/// An independent check of the exact method's global optimality: 400 random orientations, each
/// refined by rotations about its axes, never find a box smaller than the exact method's by more
/// than 1e-4 (relative).
#[test]
fn exact_is_not_beaten_by_refined_random_orientations() {
    // 8 in CI; 200 trials of 1,500 orientations were run once in release (largest excess 1.8e-6).
    const TRIALS: usize = 8;
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let mut worst: f64 = 0.0;
    for trial in 0..TRIALS {
        let n = 6 + trial % 10;
        // Solid kinds only: for plates the padding of f32 rounding (which varies with the stored
        // axes' defect) is itself ~1e-4 of the thickness.
        let kind = [0, 1, 4, 5][trial % 4];
        let pts = cloud(&mut rng, kind, n, 0.0, 1.0);
        let exact = fit_obb(&pts, Method::Exact).unwrap().volume() as f64;
        let mut best = f64::INFINITY;
        for _ in 0..400 {
            let rot = UnitQuaternion::from_euler_angles(
                rng.random_range(-3.2..3.2),
                rng.random_range(-3.2..3.2),
                rng.random_range(-3.2..3.2),
            );
            let start = Obb::from_rotation(Point3::origin(), rot, Vector3::zeros()).unwrap();
            let r = refine(&pts, &start).unwrap();
            best = best.min(r.volume() as f64);
        }
        worst = worst.max(exact / best - 1.0);
        assert!(
            exact <= best * (1.0 + 1e-4),
            "trial {trial} (n = {n}): exact {exact} vs sampled {best}"
        );
    }
    eprintln!("largest excess of exact over sampled+refined: {worst:e}");
}
