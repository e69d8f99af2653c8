//! The batch `box_box::manifolds_into` writes exactly what `box_box::manifold_into` writes, bit for
//! bit, pair by pair: on the nine adversarial categories of the box suites (nearly parallel
//! edges, touching, separated, zero extents, identical and nested boxes, far from the origin,
//! ...) as OBB pairs in both orders, on resting pairs (whose two vertical edge axes are nearly
//! parallel in every pair), with AABBs in the pairs (the per-pair fallback), with every batch
//! length 0..=9 (the tail), without and with a speculative margin; the output slots hold stale
//! values before each call, and a slot without a manifold keeps its normal and depth. Every
//! check runs both the public function (AVX2 build where the CPU has it) and the portable one.

// Real -> f64 casts (in `common`) are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_testkit as common;

use common::{manifold_bits as bits, Gen, CATEGORIES};
use sepax_narrowphase::contact::box_box;
use sepax_narrowphase::contact::{ContactConfig, ContactManifold, ContactPoint, FeatureId};
use sepax_narrowphase::intersect::BoxShape;
use sepax_shapes::math::{Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Obb};

/// A slot holding values no call produces (a normal that is not unit, four odd points).
fn stale(k: usize) -> ContactManifold {
    let p = ContactPoint {
        point_a: Point3::new(1e9, -2e9, k as Real),
        point_b: Point3::new(-4e9, 5e9, -6e9),
        depth: -7e9,
        id: FeatureId(u32::MAX - k as u32),
    };
    ContactManifold {
        normal: Vector3::new(9.0, k as Real, 9.0),
        depth: 9.0 + k as Real,
        points: [p; 4].into(),
    }
}

/// Runs the batch (the public function and the portable one) on `pairs` and checks every slot
/// against the single-pair call on the same stale slot; returns the number of pairs with a
/// manifold.
fn check<A: BoxShape + std::fmt::Debug, B: BoxShape + std::fmt::Debug>(
    pairs: &[(&A, &B)],
    cfg: &ContactConfig,
    what: &str,
) -> usize {
    let n = check_one(pairs, cfg, what, box_box::manifolds_into);
    let portable = format!("{what} (portable)");
    assert_eq!(
        check_one(pairs, cfg, &portable, box_box::manifolds_into_portable),
        n
    );
    n
}

/// The batch signature.
type Batch<A, B> = fn(&[(&A, &B)], &ContactConfig, &mut [ContactManifold]) -> usize;

/// [`check`] for one batch function.
fn check_one<A: BoxShape + std::fmt::Debug, B: BoxShape + std::fmt::Debug>(
    pairs: &[(&A, &B)],
    cfg: &ContactConfig,
    what: &str,
    batch: Batch<A, B>,
) -> usize {
    let mut got: Vec<_> = (0..pairs.len()).map(stale).collect();
    let n = batch(pairs, cfg, &mut got);
    let mut count = 0;
    for (k, (&(a, b), g)) in pairs.iter().zip(&got).enumerate() {
        let mut want = stale(k);
        let some = box_box::manifold_into(a, b, cfg, &mut want);
        assert_eq!(
            bits(g),
            bits(&want),
            "{what}: pair {k} of {}: a={a:?} b={b:?}",
            pairs.len()
        );
        assert_eq!(!g.points.is_empty(), some, "{what}: pair {k}");
        count += usize::from(some);
    }
    assert_eq!(n, count, "{what}: count");
    count
}

const CONFIGS: [fn() -> ContactConfig; 2] =
    [ContactConfig::default, || ContactConfig::with_margin(0.05)];

/// OBB pairs of every category, mixed so that each lane group holds several categories.
fn obb_pairs(gen: &mut Gen, per_cat: usize) -> Vec<(Obb, Obb)> {
    let mut v = Vec::new();
    for i in 0..per_cat {
        for (c, cat) in CATEGORIES.iter().enumerate() {
            let (a, b) = gen.pair(*cat);
            let (a, b) = (a.as_obb(), b.as_obb());
            // Alternate the order too.
            v.push(if (i + c) % 2 == 0 { (a, b) } else { (b, a) });
        }
    }
    v
}

#[test]
fn batch_matches_single_on_the_categories() {
    let mut gen = Gen::new(0xba7c_4a11);
    let pairs = obb_pairs(&mut gen, 700);
    for cfg in CONFIGS {
        let cfg = cfg();
        let ab: Vec<_> = pairs.iter().map(|(a, b)| (a, b)).collect();
        let ba: Vec<_> = pairs.iter().map(|(a, b)| (b, a)).collect();
        let n = check(&ab, &cfg, "obb a-b");
        check(&ba, &cfg, "obb b-a");
        // Both outcomes occur.
        assert!(
            n > pairs.len() / 10 && n < pairs.len(),
            "{n} of {}",
            pairs.len()
        );
        // Each category alone (lane groups of one kind: e.g. four nearly parallel pairs).
        for (c, cat) in CATEGORIES.iter().enumerate() {
            let one: Vec<_> = ab
                .iter()
                .skip(c)
                .step_by(CATEGORIES.len())
                .copied()
                .collect();
            check(&one, &cfg, &format!("{cat:?}"));
        }
    }
}

#[test]
fn batch_matches_single_on_resting_pairs() {
    // A floor and cubes resting on it with small jitter: the vertical edges of each pair are
    // nearly parallel (the accurate edge path's candidates), mostly ruled out by the face.
    let mut gen = Gen::new(0x5e57_1e55);
    let floor = Obb::from_rotation(
        Point3::new(0.0, -1.0, 0.0),
        UnitQuaternion::from_euler_angles(0.0, 0.0, 0.0),
        Vector3::new(10.0, 1.0, 10.0),
    )
    .unwrap();
    let tilted_floor = Obb::from_rotation(
        Point3::new(0.0, -1.0, 0.0),
        UnitQuaternion::from_euler_angles(1e-4, 0.7, -2e-4),
        Vector3::new(10.0, 1.0, 10.0),
    )
    .unwrap();
    let mut cubes = Vec::new();
    for _ in 0..2000 {
        let yaw = gen.uniform(-3.2, 3.2) as f64;
        let tilt = gen.uniform(-1e-3, 1e-3) as f64;
        let roll = gen.uniform(-1e-3, 1e-3) as f64;
        let h = gen.uniform(0.2, 1.0);
        let c = Point3::new(
            gen.uniform(-5.0, 5.0),
            h - gen.uniform(-0.01, 0.03),
            gen.uniform(-5.0, 5.0),
        );
        let rot = UnitQuaternion::from_euler_angles(tilt as Real, yaw as Real, roll as Real);
        cubes.push(Obb::from_rotation(c, rot, Vector3::new(h, h, h)).unwrap());
    }
    for cfg in CONFIGS {
        let cfg = cfg();
        for fl in [&floor, &tilted_floor] {
            let ab: Vec<_> = cubes.iter().map(|c| (fl, c)).collect();
            let ba: Vec<_> = cubes.iter().map(|c| (c, fl)).collect();
            assert!(check(&ab, &cfg, "resting floor-cube") > 1000);
            check(&ba, &cfg, "resting cube-floor");
        }
        // Cubes on cubes (same yaw up to jitter: every edge pair of the same direction).
        let stacked: Vec<_> = cubes
            .windows(2)
            .map(|w| {
                let (a, b) = (&w[0], &w[1]);
                let c = a.center()
                    + Vector3::new(0.0, a.half_extents().y + b.half_extents().y - 0.01, 0.0);
                (*a, Obb::new(c, *a.axes(), b.half_extents()).unwrap())
            })
            .collect();
        let st: Vec<_> = stacked.iter().map(|(a, b)| (a, b)).collect();
        check(&st, &cfg, "stacked");
    }
}

#[test]
fn batch_tail_lengths_and_kind_mixes() {
    let mut gen = Gen::new(0x7a11_0009);
    let pairs = obb_pairs(&mut gen, 40);
    let aabbs: Vec<(Aabb, Aabb)> = pairs
        .iter()
        .map(|(a, b)| (a.world_aabb(), b.world_aabb()))
        .collect();
    for cfg in CONFIGS {
        let cfg = cfg();
        for len in 0..=9 {
            for start in (0..pairs.len() - len).step_by(7) {
                let w = &pairs[start..start + len];
                let x = &aabbs[start..start + len];
                let ab: Vec<_> = w.iter().map(|(a, b)| (a, b)).collect();
                check(&ab, &cfg, &format!("len {len}"));
                let m1: Vec<_> = w.iter().zip(x).map(|((_, b), (aa, _))| (aa, b)).collect();
                check(&m1, &cfg, &format!("aabb-obb len {len}"));
                let m2: Vec<_> = w.iter().zip(x).map(|((a, _), (_, ab))| (a, ab)).collect();
                check(&m2, &cfg, &format!("obb-aabb len {len}"));
                let m3: Vec<_> = x.iter().map(|(aa, ab)| (aa, ab)).collect();
                check(&m3, &cfg, &format!("aabb-aabb len {len}"));
            }
        }
    }
}

/// A batch of one pair into two slots.
fn mismatched(batch: Batch<Obb, Obb>) {
    let b = Obb::from_rotation(
        Point3::origin(),
        UnitQuaternion::identity(),
        Vector3::new(1.0, 1.0, 1.0),
    )
    .unwrap();
    let mut out = vec![stale(0); 2];
    let _ = batch(&[(&b, &b)], &ContactConfig::default(), &mut out);
}

#[test]
#[should_panic(expected = "differ in length")]
fn batch_panics_on_length_mismatch() {
    mismatched(box_box::manifolds_into);
}

#[test]
#[should_panic(expected = "differ in length")]
fn portable_batch_panics_on_length_mismatch() {
    mismatched(box_box::manifolds_into_portable);
}

#[test]
fn batch_matches_single_on_symmetric_pairs() {
    // Rotations by multiples of 45 degrees about the axes and offsets on a grid: many axes with
    // exactly equal depths (the tie-break's first minima), zero components (signed zeros), zero
    // gaps (touching), exactly parallel edges.
    let q = std::f64::consts::FRAC_PI_4;
    let mut boxes = Vec::new();
    for (k, (ex, ey, ez)) in [
        (0, 0, 0),
        (0, 0, 1),
        (1, 0, 0),
        (0, 1, 0),
        (1, 1, 0),
        (1, 0, 1),
        (1, 1, 1),
        (0, 2, 1),
        (3, 1, 2),
    ]
    .iter()
    .enumerate()
    {
        let rot = UnitQuaternion::from_euler_angles(
            (*ex as f64 * q) as Real,
            (*ey as f64 * q) as Real,
            (*ez as f64 * q) as Real,
        );
        let h = if k % 3 == 0 {
            Vector3::new(0.5, 0.5, 0.5)
        } else {
            Vector3::new(0.5, 0.25, 0.75)
        };
        boxes.push((rot, h));
    }
    let steps = [-1.5, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0];
    let mut pairs = Vec::new();
    for (ra, ha) in &boxes {
        let a = Obb::from_rotation(Point3::origin(), *ra, *ha).unwrap();
        for (rb, hb) in &boxes {
            for x in steps {
                for y in [0.0, 0.5, 1.0] {
                    for z in [-0.5, 0.0, 0.75] {
                        let c = Point3::new(x as Real, y as Real, z as Real);
                        pairs.push((a, Obb::from_rotation(c, *rb, *hb).unwrap()));
                    }
                }
            }
        }
    }
    for cfg in CONFIGS {
        let cfg = cfg();
        let ab: Vec<_> = pairs.iter().map(|(a, b)| (a, b)).collect();
        let ba: Vec<_> = pairs.iter().map(|(a, b)| (b, a)).collect();
        check(&ab, &cfg, "symmetric a-b");
        check(&ba, &cfg, "symmetric b-a");
    }
}
