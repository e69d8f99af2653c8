//! The dispatch of `intersects_shapes` on the pair of kinds: consistent with the typed
//! `Intersects` implementations for all 25 ordered pairs, and symmetric in its arguments.
//!
//! Shapes are random, of every kind, generated in `Real` (so every value is exactly what the
//! kernels and the exact reference see), with some zero sizes, point capsules and degenerate
//! triangles. Symmetry: reversed pairs call the same kernel with the arguments swapped, so the
//! answers must be equal, except for OBB–OBB, whose certified test runs in the first box's frame
//! and may differ between the orders; such a disagreement is legitimate only when one order said
//! `Uncertain`, i.e. when the exact margin is inside the band of docs/tolerance.md §4, which is
//! checked with the exact reference.

// Real -> f64 casts are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;

use common::{band, exact_shapes_intersect, shape_box, AnyBox, Gen};
use sepax_narrowphase::intersect::{classify, intersects, intersects_shapes, Classification};
use sepax_shapes::math::Point3;
use sepax_shapes::{Shape, ShapeKind};

/// The typed query `intersects(x, y)` for whatever the two shapes hold.
fn typed(a: &Shape, b: &Shape) -> bool {
    common::with_shapes!(a, b, |x, y| intersects(x, y))
}

#[test]
fn every_pair_is_dispatched_to_its_kinds() {
    assert_eq!(ShapeKind::ALL.len(), ShapeKind::COUNT);
    let mut gen = Gen::new(0xd15_0000);
    let origin = Point3::origin();
    for (i, ka) in ShapeKind::ALL.into_iter().enumerate() {
        // The discriminants are the kinds' positions in `ALL`.
        assert_eq!(ka as usize, i, "{ka:?}");
        for kb in ShapeKind::ALL {
            let a = gen.shape(ka, &origin, 1.0, 0.0).unwrap();
            let b = gen.shape(kb, &origin, 1.0, 0.0).unwrap();
            assert_eq!(
                intersects_shapes(&a, &b),
                typed(&a, &b),
                "({}, {})",
                ka.name(),
                kb.name()
            );
        }
    }
}

#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    hits: usize,
    order_disagreements: usize,
}

/// Checks one ordered pair: dispatch == typed, dispatch(a, b) == dispatch(b, a) (up to the band for
/// OBB–OBB), and that an exact intersection is never reported as a miss.
fn check(a: &Shape, b: &Shape, tally: &mut Tally) {
    let ctx = || format!("{a:?} vs {b:?}");
    let ab = intersects_shapes(a, b);
    let ba = intersects_shapes(b, a);
    assert_eq!(ab, typed(a, b), "dispatch vs typed: {}", ctx());
    assert_eq!(ba, typed(b, a), "dispatch vs typed (reversed): {}", ctx());
    tally.cases += 1;
    tally.hits += ab as usize;
    if ab != ba {
        tally.order_disagreements += 1;
        // Only the OBB-OBB kernel depends on the order of its arguments.
        let (Shape::Obb(x), Shape::Obb(y)) = (a, b) else {
            panic!(
                "argument order changed the answer ({ab} vs {ba}): {}",
                ctx()
            );
        };
        let (c_ab, c_ba) = (classify(x, y), classify(y, x));
        assert!(
            c_ab == Classification::Uncertain || c_ba == Classification::Uncertain,
            "orders disagree with two certified answers ({c_ab:?}, {c_ba:?}): {}",
            ctx()
        );
        let (ea, eb) = (shape_box(a).unwrap(), shape_box(b).unwrap());
        let exact = sepax_exact::box_box(&ea.exact(), &eb.exact());
        let band = band(&ea, &eb, exact.axis != sepax_exact::ExactAxis::Other);
        assert!(
            !exact.margin_exceeds(band),
            "orders disagree outside the band ({band:e}); exact {exact:?}: {}",
            ctx()
        );
    }
    if exact_shapes_intersect(a, b) {
        assert!(ab && ba, "missed an exact intersection: {}", ctx());
    }
}

#[test]
fn dispatch_agrees_with_typed_and_is_symmetric() {
    const PER_PAIR: usize = 600;
    let mut gen = Gen::new(0xd15_0001);
    let origin = Point3::origin();
    let mut total = Tally::default();
    for ka in ShapeKind::ALL {
        for kb in ShapeKind::ALL {
            let mut t = Tally::default();
            for _ in 0..PER_PAIR {
                let a = gen.shape(ka, &origin, 1.0, 0.1).unwrap();
                let b = gen.shape(kb, &origin, 1.0, 0.1).unwrap();
                check(&a, &b, &mut t);
            }
            // Both answers occur, so the comparison means something for every pair.
            assert!(
                t.hits > PER_PAIR / 20 && t.hits < PER_PAIR - PER_PAIR / 20,
                "({}, {}): {} hits of {}",
                ka.name(),
                kb.name(),
                t.hits,
                t.cases
            );
            total.cases += t.cases;
            total.hits += t.hits;
            total.order_disagreements += t.order_disagreements;
        }
    }
    eprintln!(
        "dispatch ({}): {total:?}",
        std::any::type_name::<sepax_shapes::math::Real>()
    );
    assert_eq!(total.cases, 25 * PER_PAIR);
}

/// Box pairs near contact, near-parallel, flat, ... (the adversarial categories of the box
/// suite) through the dispatch: symmetric up to the band.
#[test]
fn box_pairs_through_the_dispatch_near_contact() {
    let mut gen = Gen::new(0xd15_0002);
    let mut t = Tally::default();
    for cat in common::CATEGORIES {
        for _ in 0..150 {
            let (a, b) = gen.pair(cat);
            let to_shape = |x: &AnyBox| match x {
                AnyBox::A(b) => Shape::Aabb(*b),
                AnyBox::O(b) => Shape::Obb(*b),
            };
            check(&to_shape(&a), &to_shape(&b), &mut t);
        }
    }
    eprintln!("dispatch, adversarial box pairs: {t:?}");
}
