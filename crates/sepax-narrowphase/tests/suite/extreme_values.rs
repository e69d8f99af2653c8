//! Extreme magnitudes: no panic and no wrong answer on valid shapes with coordinates near
//! `±Real::MAX / 16`, tiny sizes (1e-30 in f32, 1e-200 in f64), subnormal sizes, huge sizes and
//! zero sizes, for every ordered pair of kinds through `intersects_shapes`, and for box pairs
//! through `classify` and `explain`.
//!
//! Checked against the exact (big-integer) reference on every pair:
//! - no pair query misses an exact intersection (docs/tolerance.md §2 and §5);
//! - a certified box verdict (`Separated`, `Overlapping`) is the exact answer;
//! - `Uncertain` only inside the band of §4, except where the f64 build's f64 stage overflows
//!   (inputs beyond ~1e150, documented in `sat/certified.rs`: the pair stays undecided), which
//!   is counted and printed instead;
//! - `explain` returns no NaN, its classification is `classify`'s, and its distance has the
//!   verdict's sign.
//!
//! Documented limits, counted rather than asserted: in the f64 build, box pairs beyond ~1e150
//! (the f64 stage overflows) or of scale below `2^-1022 / u64` (its products are subnormal) stay
//! `Uncertain` outside the band — never wrong. False hits of the non-box pairs far outside
//! their bands at tiny and huge magnitudes are counted (`reported_hits` vs `exact_hits`), not
//! asserted: this file checks that no intersection is missed.
//!
//! Shapes that the checked constructors reject (a reach `centre ± size` that overflows) are
//! skipped and counted; a separate test asserts that such inputs give `Err`, not a panic.

// Real -> f64 casts are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;
use sepax_testkit::with_boxes;

use common::{band, exact_shapes_intersect, pair_scale, shape_box, AnyBox, Gen};
use rand::Rng;
use sepax_narrowphase::intersect::{classify, explain, intersects_shapes, Classification};
use sepax_shapes::math::{Matrix3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, ShapeKind, Sphere, Triangle};

const MAX: Real = Real::MAX;
#[cfg(not(feature = "f64"))]
const TINY: Real = 1e-30;
#[cfg(feature = "f64")]
const TINY: Real = 1e-200;
/// A subnormal size (well inside the subnormal range, with a few significant bits left).
#[cfg(not(feature = "f64"))]
const SUBNORMAL: Real = 1e-42;
#[cfg(feature = "f64")]
const SUBNORMAL: Real = 1e-310;

/// Where the shapes of a scenario sit and how big they are.
#[derive(Debug, Clone, Copy)]
struct Scenario {
    name: &'static str,
    /// Magnitude of the common base point (each component gets a random sign); 0: the origin.
    base: Real,
    /// Scale of the offsets from the base and of the sizes.
    unit: Real,
    /// Probability of each size being zero (and of point capsules, degenerate triangles).
    p_zero: f64,
}

const SCENARIOS: [Scenario; 12] = [
    Scenario {
        name: "tiny at origin",
        base: 0.0,
        unit: TINY,
        p_zero: 0.2,
    },
    Scenario {
        name: "subnormal at origin",
        base: 0.0,
        unit: SUBNORMAL,
        p_zero: 0.2,
    },
    Scenario {
        name: "smallest normal at origin",
        base: 0.0,
        unit: Real::MIN_POSITIVE,
        p_zero: 0.2,
    },
    Scenario {
        name: "zero sizes at origin",
        base: 0.0,
        unit: 1.0,
        p_zero: 1.0,
    },
    Scenario {
        name: "huge at origin",
        base: 0.0,
        unit: MAX / 64.0,
        p_zero: 0.2,
    },
    Scenario {
        name: "huge/16 at origin",
        base: 0.0,
        unit: MAX / 16.0,
        p_zero: 0.2,
    },
    Scenario {
        name: "unit sizes far out",
        base: MAX / 16.0,
        unit: 1.0,
        p_zero: 0.2,
    },
    Scenario {
        name: "tiny sizes far out",
        base: MAX / 16.0,
        unit: TINY,
        p_zero: 0.2,
    },
    // A few ulps of the base apart: neighbouring representable points.
    Scenario {
        name: "ulp-sized far out",
        base: MAX / 16.0,
        unit: ulp_of_max16() * 2.0,
        p_zero: 0.2,
    },
    Scenario {
        name: "huge sizes far out",
        base: MAX / 16.0,
        unit: MAX / 64.0,
        p_zero: 0.2,
    },
    Scenario {
        name: "zero sizes far out",
        base: MAX / 16.0,
        unit: MAX / 64.0,
        p_zero: 1.0,
    },
    // Reaches overflow often: the constructors must say so with `Err`.
    Scenario {
        name: "overflowing",
        base: MAX / 2.0,
        unit: MAX / 3.0,
        p_zero: 0.2,
    },
];

/// The spacing of floats at `MAX / 16` (exponent `MAX_EXP - 5`).
const fn ulp_of_max16() -> Real {
    // MAX / 16 = (2 - 2^-p+1) 2^(MAX_EXP - 5); its ulp is 2^(MAX_EXP - 5 - (MANTISSA_DIGITS - 1)).
    let mut x: Real = 1.0;
    let mut e = Real::MAX_EXP - 5 - (Real::MANTISSA_DIGITS as i32 - 1);
    while e > 0 {
        x *= 2.0;
        e -= 1;
    }
    x
}

#[derive(Default, Debug)]
struct Tally {
    pairs: usize,
    rejected_by_constructor: usize,
    exact_hits: usize,
    reported_hits: usize,
    box_pairs: usize,
    uncertain: usize,
    uncertain_in_band: usize,
    /// `Uncertain` outside the band where the f64 stage overflows (f64 build, beyond ~1e150)
    /// or underflows (f64 build, scale below `2^-1022 / u64`).
    uncertain_overflow: usize,
}

/// The largest magnitude among a shape's coordinates and sizes (through its world AABB).
fn shape_magnitude(s: &Shape) -> Real {
    let w = s.world_aabb();
    w.min().coords.amax().max(w.max().coords.amax())
}

fn check_pair(a: &Shape, b: &Shape, t: &mut Tally) {
    let ctx = || format!("{a:?} vs {b:?}");
    let hit = intersects_shapes(a, b);
    let exact = exact_shapes_intersect(a, b);
    let mag = shape_magnitude(a).max(shape_magnitude(b));
    t.pairs += 1;
    t.exact_hits += exact as usize;
    t.reported_hits += hit as usize;
    assert!(hit || !exact, "missed an exact intersection: {}", ctx());

    let (Some(x), Some(y)) = (shape_box(a), shape_box(b)) else {
        return;
    };
    t.box_pairs += 1;
    let c = with_boxes!(&x, &y, |p, q| classify(p, q));
    let e = sepax_exact::box_box(&x.exact(), &y.exact());
    assert_eq!(e.intersects, exact);
    assert_eq!(hit, c != Classification::Separated, "{}", ctx());
    // Where the f64 stage overflows (f64 build, inputs beyond ~1e150; documented in
    // `sat/certified.rs`) the pair stays undecided, and `explain`'s slacks are not finite.
    let f64_stage_overflows = cfg!(feature = "f64") && (mag as f64) > 1e150;
    match c {
        Classification::Separated => assert!(!e.intersects, "wrongly Separated: {} {e:?}", ctx()),
        Classification::Overlapping => {
            assert!(e.intersects, "wrongly Overlapping: {} {e:?}", ctx())
        }
        Classification::Uncertain => {
            t.uncertain += 1;
            let band = band(&x, &y, e.axis != sepax_exact::ExactAxis::Other);
            if !e.margin_exceeds(band) {
                t.uncertain_in_band += 1;
            } else {
                // Left out (reported): in the f64 build, pairs whose scale is so small that the f64
                // stage's products are subnormal (S < 2^-1022 / u64) round absolutely, so the
                // relative bound cannot certify them; they stay undecided (never wrong).
                let f64_stage_underflows = cfg!(feature = "f64")
                    && pair_scale(&x, &y) < f64::MIN_POSITIVE / (f64::EPSILON / 2.0);
                assert!(
                    f64_stage_overflows || f64_stage_underflows,
                    "Uncertain outside the band ({band:e}): {} {e:?}",
                    ctx()
                );
                t.uncertain_overflow += 1;
            }
        }
    }
    let w = with_boxes!(&x, &y, |p, q| explain(p, q));
    assert_eq!(w.classification, c, "{}", ctx());
    let numbers = [w.distance, w.direction.x, w.direction.y, w.direction.z]
        .into_iter()
        .chain(w.interval_a)
        .chain(w.interval_b);
    for v in numbers {
        assert!(!v.is_nan(), "NaN in {w:?}: {}", ctx());
    }
    match c {
        Classification::Separated => assert!(w.distance >= 0.0, "{w:?}: {}", ctx()),
        Classification::Overlapping => assert!(w.distance <= 0.0, "{w:?}: {}", ctx()),
        Classification::Uncertain => {}
    }
}

fn run(s: &Scenario, per_pair: usize, seed: u64) -> Tally {
    let mut g = Gen::new(seed);
    let mut t = Tally::default();
    for ka in ShapeKind::ALL {
        for kb in ShapeKind::ALL {
            for _ in 0..per_pair {
                let sign = |g: &mut Gen| if g.rng.random_bool(0.5) { 1.0 } else { -1.0 };
                let base = Point3::new(
                    s.base * sign(&mut g),
                    s.base * sign(&mut g),
                    s.base * sign(&mut g),
                );
                let a = g.shape(ka, &base, s.unit, s.p_zero);
                let b = g.shape(kb, &base, s.unit, s.p_zero);
                match (a, b) {
                    (Ok(a), Ok(b)) => check_pair(&a, &b, &mut t),
                    _ => t.rejected_by_constructor += 1,
                }
            }
        }
    }
    t
}

#[test]
fn extreme_magnitudes_every_pair() {
    for (i, s) in SCENARIOS.iter().enumerate() {
        let t = run(s, 24, 0xe47e_0000 + i as u64);
        eprintln!("{} ({}): {t:?}", s.name, std::any::type_name::<Real>());
        if s.name != "overflowing" {
            // The scenario exercises valid shapes, not just rejections.
            assert!(t.pairs > 20 * 25, "{}: {t:?}", s.name);
        } else {
            assert!(t.rejected_by_constructor > 0, "{t:?}");
        }
    }
}

/// Box pairs of the adversarial categories (near contact, near-parallel, flat, ...) scaled by
/// powers of two to extreme magnitudes: scaling by `2^k` is exact, so the same geometry is
/// tested at every scale.
#[test]
fn adversarial_box_pairs_scaled_to_extremes() {
    #[cfg(not(feature = "f64"))]
    let exps = [-140, -126, -100, 60, 100, 118, 122];
    #[cfg(feature = "f64")]
    let exps = [-1060, -1022, -700, 400, 900, 1010, 1018];
    let mut g = Gen::new(0xe47e_1000);
    let mut t = Tally::default();
    for cat in common::CATEGORIES {
        for _ in 0..30 {
            let (a, b) = g.pair(cat);
            for e in exps {
                let f = (2.0 as Real).powi(e);
                let (Some(x), Some(y)) = (scaled(&a, f), scaled(&b, f)) else {
                    t.rejected_by_constructor += 1;
                    continue;
                };
                check_pair(&x, &y, &mut t);
            }
        }
    }
    eprintln!(
        "adversarial boxes scaled ({}): {t:?}",
        std::any::type_name::<Real>()
    );
}

/// The box scaled about the origin by the power of two `f` (exact unless it underflows into
/// subnormals, which only changes which box is tested).
fn scaled(b: &AnyBox, f: Real) -> Option<Shape> {
    match b {
        AnyBox::A(x) => Aabb::new(x.min() * f, x.max() * f).ok().map(Shape::Aabb),
        AnyBox::O(x) => Obb::new(x.center() * f, *x.axes(), x.half_extents() * f)
            .ok()
            .map(Shape::Obb),
    }
}

#[test]
fn constructors_reject_overflowing_reach_with_err() {
    let c = Point3::new(MAX / 2.0, -MAX / 2.0, 0.0);
    let big = Vector3::new(MAX, 1.0, 1.0);
    let q = UnitQuaternion::from_euler_angles(0.3, 0.2, 0.1);
    assert!(Aabb::from_center_half_extents(c, big).is_err());
    assert!(Aabb::new(c, Point3::new(MAX, MAX, MAX) * 2.0).is_err());
    assert!(Obb::new(c, Matrix3::identity(), big).is_err());
    assert!(Obb::from_rotation(c, q, Vector3::repeat(MAX / 2.0)).is_err());
    assert!(Sphere::new(c, MAX).is_err());
    assert!(Capsule::new(c, Point3::origin(), MAX).is_err());
    // A triangle has no reach to check, only finite vertices.
    assert!(Triangle::new(c, c * 4.0, Point3::origin()).is_err());
    let ok_box = Aabb::from_center_half_extents(c, Vector3::repeat(1.0)).unwrap();
    assert!(ok_box.inflate(MAX).is_err());
    assert!(ok_box.translate(&Vector3::new(MAX, 0.0, 0.0)).is_err());
    let ok_obb = Obb::from_rotation(c, q, Vector3::repeat(1.0)).unwrap();
    assert!(ok_obb.translate(&Vector3::new(MAX, 0.0, 0.0)).is_err());
    assert!(ok_obb.inflate(MAX).is_err());
    // Extreme but valid shapes are accepted.
    let far = Point3::new(MAX / 16.0, -MAX / 16.0, MAX / 16.0);
    assert!(Aabb::from_center_half_extents(far, Vector3::repeat(MAX / 16.0)).is_ok());
    assert!(Obb::from_rotation(far, q, Vector3::repeat(MAX / 64.0)).is_ok());
    assert!(Sphere::new(far, SUBNORMAL).is_ok());
    assert!(Capsule::new(far, -far, 0.0).is_ok());
    assert!(Triangle::new(far, -far, Point3::origin()).is_ok());
}
