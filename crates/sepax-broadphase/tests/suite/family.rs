//! The benchmark family of scenes (`benches/data/scene.rs`: uniform, sizes log-uniform over 10x
//! and 100x, clustered, dense, huge slabs among small boxes; moving and 90% static), played
//! through the dynamic tree in its pair-update regimes: every frame's pairs equal brute force
//! over the tight boxes (exact pairs) or the stored ones (fat pairs), and the tree validates.
#![allow(clippy::unnecessary_cast)]

use sepax_broadphase::bvh::{BvhConfig, DynamicBvh, UpdateMode};
use sepax_broadphase::{BroadPhase, ProxyId};
use sepax_shapes::math::Real;
use sepax_shapes::Aabb;

use scene::{Kind, Scene};
use sepax_testkit::scene;

fn overlaps(a: &Aabb, b: &Aabb) -> bool {
    (0..3).all(|k| a.min()[k] <= b.max()[k] && b.min()[k] <= a.max()[k])
}

/// All overlapping pairs of `boxes`, sorted: a sweep on x (exact, and fast enough for the
/// test's sizes in a debug build).
fn brute(boxes: &[(ProxyId, Aabb)]) -> Vec<(ProxyId, ProxyId)> {
    let mut by_x: Vec<&(ProxyId, Aabb)> = boxes.iter().collect();
    by_x.sort_by(|a, b| a.1.min().x.total_cmp(&b.1.min().x));
    let mut out = Vec::new();
    for (i, (a, ba)) in by_x.iter().enumerate() {
        for (b, bb) in &by_x[i + 1..] {
            if bb.min().x > ba.max().x {
                break;
            }
            if overlaps(ba, bb) {
                out.push((*a.min(b), *a.max(b)));
            }
        }
    }
    out.sort_unstable();
    out
}

fn configs() -> Vec<(&'static str, BvhConfig)> {
    let d = BvhConfig::default();
    vec![
        ("default", d),
        (
            "always whole",
            BvhConfig {
                full_rebuild_fraction: 0.0,
                ..d
            },
        ),
        (
            "never whole, reinsert",
            BvhConfig {
                full_rebuild_fraction: Real::INFINITY,
                update_mode: UpdateMode::Reinsert,
                ..d
            },
        ),
        (
            "fat pairs",
            BvhConfig {
                exact_pairs: false,
                ..d
            },
        ),
    ]
}

#[test]
fn family_pairs_match_brute_force() {
    for (kind, label) in Kind::ALL {
        for static_fraction in [0.0, 0.9] {
            for (cname, config) in configs() {
                let mut scene = Scene::of_kind(kind, 1500, static_fraction, 5);
                let mut bvh = DynamicBvh::new(config).unwrap();
                let mut ids = Vec::new();
                bvh.insert_many(
                    (0..scene.center.len()).map(|i| (scene.aabb(i), i as u64)),
                    &mut ids,
                );
                let mut out = Vec::new();
                let mut total = 0;
                for frame in 0..6 {
                    if frame > 0 {
                        scene.step();
                        for &i in &scene.moving {
                            assert!(bvh.update(ids[i], scene.aabb(i), scene.velocity(i)));
                        }
                    }
                    bvh.update_pairs(&mut out);
                    let on: Vec<(ProxyId, Aabb)> = ids
                        .iter()
                        .map(|&id| {
                            let b = if config.exact_pairs {
                                bvh.tight_aabb(id)
                            } else {
                                bvh.stored_aabb(id)
                            };
                            (id, b.unwrap())
                        })
                        .collect();
                    assert_eq!(
                        out,
                        brute(&on),
                        "{label}, static {static_fraction}, {cname}, frame {frame}"
                    );
                    bvh.validate()
                        .unwrap_or_else(|e| panic!("{label} {cname} frame {frame}: {e}"));
                    total += out.len();
                }
                assert!(total > 0, "{label}: the scene has overlapping pairs");
            }
        }
    }
}

/// The dense kind has about ten times the pairs per box of the uniform one, and the huge kind's
/// slabs each overlap many boxes: the family spans the densities the issue asks for.
#[test]
fn family_densities() {
    let pairs = |kind| {
        let scene = Scene::of_kind(kind, 4000, 0.0, 5);
        let boxes: Vec<(ProxyId, Aabb)> = (0..scene.center.len())
            .map(|i| {
                (
                    ProxyId {
                        index: i as u32,
                        generation: 0,
                    },
                    scene.aabb(i),
                )
            })
            .collect();
        brute(&boxes).len() as f64 / boxes.len() as f64
    };
    let (uniform, dense) = (pairs(Kind::Uniform), pairs(Kind::Dense));
    assert!(
        (0.05..0.3).contains(&uniform),
        "uniform: {uniform} pairs per box"
    );
    assert!((0.6..2.0).contains(&dense), "dense: {dense} pairs per box");
    assert!(pairs(Kind::Huge) > uniform + 0.03, "huge slabs add pairs");
}
