//! The box pairs of the contact benchmark (`benches/contact.rs`), its profile
//! (`tools/src/bin/contact_profile.rs`) and the manifold digest CI compares
//! (`tools/src/bin/manifold_digest.rs`): 4096-pair data sets `random` and `resting`, seeded.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_narrowphase::intersect::intersects;
use sepax_shapes::math::{Point3, Quaternion, UnitQuaternion, Vector3};
use sepax_shapes::Obb;

/// A uniformly random rotation (normalised random quaternion).
pub fn random_rotation(rng: &mut ChaCha8Rng) -> UnitQuaternion {
    let q = Quaternion::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    );
    UnitQuaternion::new_normalize(q)
}

/// Two boxes.
pub struct Pair {
    /// The first box.
    pub a: Obb,
    /// The second box.
    pub b: Obb,
}

fn half(rng: &mut ChaCha8Rng) -> Vector3 {
    Vector3::new(
        rng.random_range(0.1..1.0),
        rng.random_range(0.1..1.0),
        rng.random_range(0.1..1.0),
    )
}

/// `n` intersecting pairs of the data set `name` (`"random"` or `"resting"`; see the bench docs).
pub fn data_set(name: &str, n: usize) -> Vec<Pair> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let pair = if name == "random" {
            let mut c = || {
                Point3::new(
                    rng.random_range(-0.8..0.8),
                    rng.random_range(-0.8..0.8),
                    rng.random_range(-0.8..0.8),
                )
            };
            let (ca, cb) = (c(), c());
            let a = Obb::from_rotation(ca, random_rotation(&mut rng), half(&mut rng)).unwrap();
            let b = Obb::from_rotation(cb, random_rotation(&mut rng), half(&mut rng)).unwrap();
            Pair { a, b }
        } else {
            let ha = half(&mut rng) + Vector3::new(0.5, 0.0, 0.5);
            let a = Obb::from_rotation(Point3::origin(), UnitQuaternion::identity(), ha).unwrap();
            let hb = half(&mut rng);
            let tilt = UnitQuaternion::from_euler_angles(
                rng.random_range(-0.01..0.01),
                rng.random_range(-3.1..3.1),
                rng.random_range(-0.01..0.01),
            );
            let sink = rng.random_range(0.0..0.02) * hb.y;
            let c = Point3::new(
                rng.random_range(-0.3..0.3),
                ha.y + hb.y - sink,
                rng.random_range(-0.3..0.3),
            );
            let b = Obb::from_rotation(c, tilt, hb).unwrap();
            Pair { a, b }
        };
        if intersects(&pair.a, &pair.b) {
            out.push(pair);
        }
    }
    out
}
