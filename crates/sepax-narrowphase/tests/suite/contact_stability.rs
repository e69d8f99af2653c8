//! Stability of box manifolds: boxes resting face to face under tiny random jitter (rotations up
//! to `1e-4` rad, translations up to `1e-4` of the size) for 10,000 frames never flip their normal
//! and keep their feature ids, so a solver can warm-start every frame.

// Real -> f64 casts are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_narrowphase::contact::box_box;
use sepax_narrowphase::contact::{ContactConfig, FeatureId};
use sepax_shapes::math::{Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Obb};

fn jitter_rotation(rng: &mut ChaCha8Rng, amp: f64) -> UnitQuaternion {
    let v = Vector3::new(
        rng.random_range(-amp..amp) as Real,
        rng.random_range(-amp..amp) as Real,
        rng.random_range(-amp..amp) as Real,
    );
    UnitQuaternion::from_scaled_axis(v)
}

fn jitter(rng: &mut ChaCha8Rng, amp: f64) -> Vector3 {
    Vector3::new(
        rng.random_range(-amp..amp) as Real,
        rng.random_range(-amp..amp) as Real,
        rng.random_range(-amp..amp) as Real,
    )
}

/// Runs `frames` jittered frames of `lower` (fixed pose plus jitter) and an upper box resting on
/// it, and checks normal and ids against the first frame.
fn run(
    lower_half: Vector3,
    upper_half: Vector3,
    upper_offset: Vector3,
    yaw: Real,
    seed: u64,
    frames: usize,
) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let config = ContactConfig::with_margin(0.01);
    let mut first: Option<(Vector3, Vec<FeatureId>)> = None;
    let penetration = 0.005;
    for frame in 0..frames {
        let amp_r = 1e-4;
        let amp_t = 1e-4 * upper_half.max() as f64;
        let lower = Obb::from_rotation(
            Point3::from(jitter(&mut rng, amp_t)),
            jitter_rotation(&mut rng, amp_r),
            lower_half,
        )
        .unwrap();
        let up_c = Vector3::new(0.0, lower_half.y + upper_half.y - penetration, 0.0)
            + upper_offset
            + jitter(&mut rng, amp_t);
        let upper = Obb::from_rotation(
            Point3::from(up_c),
            UnitQuaternion::from_euler_angles(0.0, yaw, 0.0) * jitter_rotation(&mut rng, amp_r),
            upper_half,
        )
        .unwrap();
        let m = box_box::manifold(&lower, &upper, &config).expect("resting boxes touch");
        assert!(
            m.normal.dot(&Vector3::y()) > 0.999,
            "frame {frame}: normal {:?}",
            m.normal
        );
        let mut ids: Vec<FeatureId> = m.points.iter().map(|p| p.id).collect();
        ids.sort();
        for p in &m.points {
            assert!(
                (p.depth - penetration as Real).abs() < 2e-3,
                "frame {frame}: depth {}",
                p.depth
            );
        }
        match &first {
            None => first = Some((m.normal, ids)),
            Some((n0, ids0)) => {
                assert!(m.normal.dot(n0) > 0.999, "frame {frame}: normal flipped");
                assert_eq!(&ids, ids0, "frame {frame}: feature ids changed");
            }
        }
    }
    first.map_or(0, |f| f.1.len())
}

#[test]
fn equal_cubes_stacked_keep_normal_and_ids() {
    // Identical cubes exactly on top of each other: every incident vertex sits on a side plane
    // of the reference face, the hardest case for id stability.
    let h = Vector3::new(0.5, 0.5, 0.5);
    let n = run(h, h, Vector3::zeros(), 0.0, 1, 10_000);
    assert_eq!(n, 4);
}

#[test]
fn small_box_on_large_box_rotated_keeps_normal_and_ids() {
    let n = run(
        Vector3::new(2.0, 0.5, 2.0),
        Vector3::new(0.4, 0.3, 0.6),
        Vector3::new(0.3, 0.0, -0.2),
        0.7,
        2,
        10_000,
    );
    assert_eq!(n, 4);
}

#[test]
fn overhanging_box_keeps_clipped_ids() {
    // The upper box overhangs the lower one's edge: clip points (incident edge x side plane)
    // must keep their ids too.
    let n = run(
        Vector3::new(0.5, 0.5, 0.5),
        Vector3::new(0.5, 0.5, 0.5),
        Vector3::new(0.6, 0.0, 0.1),
        0.3,
        3,
        10_000,
    );
    assert!(n >= 3);
}

#[test]
fn aabb_pair_resting_is_stable() {
    let floor = Aabb::new(Point3::new(-5.0, -1.0, -5.0), Point3::new(5.0, 0.0, 5.0)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut ids0 = None;
    for _ in 0..10_000 {
        let y = -0.001 + rng.random_range(-1e-4..1e-4) as Real;
        let b = Aabb::new(Point3::new(-0.5, y, -0.5), Point3::new(0.5, y + 1.0, 0.5)).unwrap();
        let m = box_box::manifold(&floor, &b, &ContactConfig::default()).unwrap();
        assert_eq!(m.normal, Vector3::y());
        let ids: Vec<_> = m.points.iter().map(|p| p.id).collect();
        assert_eq!(ids.len(), 4);
        if let Some(i0) = &ids0 {
            assert_eq!(&ids, i0);
        } else {
            ids0 = Some(ids);
        }
    }
}
