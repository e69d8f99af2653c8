//! The `[kind][kind]` dispatch table: complete, consistent with the typed `Intersects`
//! implementations for all 25 ordered pairs, and symmetric in its arguments.
//!
//! Shapes are random, of every kind, generated in `Real` (so every value is exactly what the
//! kernels and the exact reference see), with some zero sizes, point capsules and degenerate
//! triangles. Symmetry: reversed entries call the same kernel with the arguments swapped, so the
//! answers must be equal, except for OBB–OBB, whose certified test runs in the first box's frame
//! and may differ between the orders; such a disagreement is legitimate only when one order said
//! `Uncertain`, i.e. when the exact margin is inside the band of docs/tolerance.md §4, which is
//! checked with the exact reference.

// Real -> f64 casts are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;

use common::{band, exact_shapes_intersect, shape_box, AnyBox, Gen};
use sepax_narrowphase::intersect::{
    classify, intersects, intersects_shapes, Classification, Unsupported, INTERSECT_TABLE,
};
use sepax_shapes::math::Point3;
use sepax_shapes::{Shape, ShapeKind};

/// The typed query `intersects(x, y)` for whatever the two shapes hold: the 25 ordered pairs,
/// written out.
fn typed(a: &Shape, b: &Shape) -> bool {
    use Shape::*;
    match (a, b) {
        (Aabb(x), Aabb(y)) => intersects(x, y),
        (Aabb(x), Obb(y)) => intersects(x, y),
        (Aabb(x), Sphere(y)) => intersects(x, y),
        (Aabb(x), Capsule(y)) => intersects(x, y),
        (Aabb(x), Triangle(y)) => intersects(x, y),
        (Obb(x), Aabb(y)) => intersects(x, y),
        (Obb(x), Obb(y)) => intersects(x, y),
        (Obb(x), Sphere(y)) => intersects(x, y),
        (Obb(x), Capsule(y)) => intersects(x, y),
        (Obb(x), Triangle(y)) => intersects(x, y),
        (Sphere(x), Aabb(y)) => intersects(x, y),
        (Sphere(x), Obb(y)) => intersects(x, y),
        (Sphere(x), Sphere(y)) => intersects(x, y),
        (Sphere(x), Capsule(y)) => intersects(x, y),
        (Sphere(x), Triangle(y)) => intersects(x, y),
        (Capsule(x), Aabb(y)) => intersects(x, y),
        (Capsule(x), Obb(y)) => intersects(x, y),
        (Capsule(x), Sphere(y)) => intersects(x, y),
        (Capsule(x), Capsule(y)) => intersects(x, y),
        (Capsule(x), Triangle(y)) => intersects(x, y),
        (Triangle(x), Aabb(y)) => intersects(x, y),
        (Triangle(x), Obb(y)) => intersects(x, y),
        (Triangle(x), Sphere(y)) => intersects(x, y),
        (Triangle(x), Capsule(y)) => intersects(x, y),
        (Triangle(x), Triangle(y)) => intersects(x, y),
    }
}

fn kind_index(k: ShapeKind) -> usize {
    k as usize
}

#[test]
fn table_is_complete() {
    assert_eq!(ShapeKind::ALL.len(), ShapeKind::COUNT);
    assert_eq!(INTERSECT_TABLE.len(), ShapeKind::COUNT);
    let mut gen = Gen::new(0xd15_0000);
    let origin = Point3::origin();
    for (i, ka) in ShapeKind::ALL.into_iter().enumerate() {
        // The discriminants are the table indices, in `ALL` order.
        assert_eq!(kind_index(ka), i, "{ka:?}");
        assert_eq!(INTERSECT_TABLE[i].len(), ShapeKind::COUNT);
        for (j, kb) in ShapeKind::ALL.into_iter().enumerate() {
            let f = INTERSECT_TABLE[i][j]
                .unwrap_or_else(|| panic!("no entry for ({}, {})", ka.name(), kb.name()));
            // The entry takes exactly its pair of kinds...
            let a = gen.shape(ka, &origin, 1.0, 0.0).unwrap();
            let b = gen.shape(kb, &origin, 1.0, 0.0).unwrap();
            assert!(
                f(&a, &b).is_ok(),
                "({}, {}) refused its own kinds",
                ka.name(),
                kb.name()
            );
            // ...and answers `Unsupported` (never a silent `false`) for any other pair.
            for kc in ShapeKind::ALL {
                let c = gen.shape(kc, &origin, 1.0, 0.0).unwrap();
                if kc != kb {
                    assert_eq!(
                        f(&a, &c),
                        Err(Unsupported {
                            query: "intersects",
                            a: ka,
                            b: kc
                        }),
                        "entry ({}, {}) given ({}, {})",
                        ka.name(),
                        kb.name(),
                        ka.name(),
                        kc.name()
                    );
                }
                if kc != ka {
                    assert_eq!(
                        f(&c, &b),
                        Err(Unsupported {
                            query: "intersects",
                            a: kc,
                            b: kb
                        }),
                        "entry ({}, {}) given ({}, {})",
                        ka.name(),
                        kb.name(),
                        kc.name(),
                        kb.name()
                    );
                }
            }
        }
    }
}

#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    hits: usize,
    order_disagreements: usize,
}

/// Checks one ordered pair: table == typed, table(a, b) == table(b, a) (up to the band for
/// OBB–OBB), and that an exact intersection is never reported as a miss.
fn check(a: &Shape, b: &Shape, tally: &mut Tally) {
    let ctx = || format!("{a:?} vs {b:?}");
    let ab = intersects_shapes(a, b).unwrap_or_else(|e| panic!("{e}: {}", ctx()));
    let ba = intersects_shapes(b, a).unwrap_or_else(|e| panic!("{e}: {}", ctx()));
    assert_eq!(ab, typed(a, b), "table vs typed: {}", ctx());
    assert_eq!(ba, typed(b, a), "table vs typed (reversed): {}", ctx());
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
fn table_agrees_with_typed_and_is_symmetric() {
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
/// suite) through the table: symmetric up to the band.
#[test]
fn box_pairs_through_the_table_near_contact() {
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

#[test]
fn unsupported_names_query_and_both_kinds() {
    for ka in ShapeKind::ALL {
        for kb in ShapeKind::ALL {
            let e = Unsupported {
                query: "time_of_impact",
                a: ka,
                b: kb,
            };
            let msg = e.to_string();
            assert_eq!(
                msg,
                format!(
                    "no time_of_impact test for the pair ({}, {})",
                    ka.name(),
                    kb.name()
                )
            );
            // The query and both kinds appear, in argument order.
            let q = msg.find("time_of_impact").unwrap();
            let ia = msg[q..].find(ka.name()).expect("first kind named") + q;
            assert!(
                msg[ia + ka.name().len()..].contains(kb.name()),
                "second kind named after the first: {msg}"
            );
        }
    }
    // `Unsupported` is a std error.
    let e: Box<dyn std::error::Error> = Box::new(Unsupported {
        query: "distance",
        a: ShapeKind::Capsule,
        b: ShapeKind::Obb,
    });
    assert_eq!(
        e.to_string(),
        "no distance test for the pair (capsule, obb)"
    );
}
