//! `box_box::manifold_into` (the manifold written in place) gives exactly what
//! `box_box::manifold` returns, bit for bit, whatever the reused manifold held before: on the nine
//! adversarial categories of the box suites, both orders, without and with a speculative margin;
//! and when there is no manifold it answers `false`, empties the points and leaves the normal and
//! depth as they were.

// Real -> f64 casts (here and in `common`) are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;
use sepax_testkit::with_boxes;

use common::{manifold_bits as bits, Gen, CATEGORIES};
use sepax_narrowphase::contact::box_box;
use sepax_narrowphase::contact::{ContactConfig, ContactManifold, ContactPoint};
use sepax_shapes::math::{Point3, Vector3};

#[test]
fn in_place_matches_the_returned_manifold() {
    let mut gen = Gen::new(0x1a7e_90c5);
    // Stale contents: four points and a normal that no call produces.
    let stale = ContactPoint {
        point_a: Point3::new(1e9, -2e9, 3e9),
        point_b: Point3::new(-4e9, 5e9, -6e9),
        depth: -7e9,
        id: sepax_narrowphase::contact::FeatureId(u32::MAX),
    };
    let mut out = ContactManifold {
        normal: Vector3::new(9.0, 9.0, 9.0),
        depth: 9.0,
        points: [stale; 4].into(),
    };
    let configs = [ContactConfig::default(), ContactConfig::with_margin(0.05)];
    let (mut some, mut none) = (0, 0);
    for cat in CATEGORIES {
        for i in 0..600 {
            let (a, b) = gen.pair(cat);
            for (x, y) in [(&a, &b), (&b, &a)] {
                for cfg in &configs {
                    let expected = with_boxes!(x, y, |p, q| box_box::manifold(p, q, cfg));
                    let before = (out.normal, out.depth);
                    let got = with_boxes!(x, y, |p, q| box_box::manifold_into(p, q, cfg, &mut out));
                    match expected {
                        Some(m) => {
                            assert!(got, "{cat:?} #{i}: in place answered false");
                            assert_eq!(bits(&out), bits(&m), "{cat:?} #{i}: x={x:?} y={y:?}");
                            some += 1;
                        }
                        None => {
                            assert!(!got, "{cat:?} #{i}: in place answered true");
                            assert!(out.points.is_empty(), "{cat:?} #{i}");
                            assert_eq!(
                                (out.normal, out.depth),
                                before,
                                "{cat:?} #{i}: normal or depth written"
                            );
                            none += 1;
                        }
                    }
                    // Refill with stale points for the next call.
                    out.points = [stale; 4].into();
                }
            }
        }
    }
    assert!(
        some > 5_000 && none > 1_000,
        "{some} manifolds, {none} without"
    );
}
