//! Seeded random oriented boxes shared by `benches/batch.rs` and `tools/src/bin/batch_profile.rs`
//! (this crate's lib), so that the profile runs on exactly the bench's data.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_shapes::math::{Point3, Quaternion, Real, UnitQuaternion, Vector3};
use sepax_shapes::Obb;

/// `n` random boxes (half-extents 0.05..0.5, random rotations) in a cube sized so that a
/// query meets about 1% of them.
pub fn obbs(n: usize, seed: u64) -> Vec<Obb> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let side = (n as f64 * 30.0).cbrt();
    (0..n)
        .map(|_| {
            let c = Point3::new(
                rng.random_range(0.0..side) as Real,
                rng.random_range(0.0..side) as Real,
                rng.random_range(0.0..side) as Real,
            );
            let q = Quaternion::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            let h = Vector3::new(
                rng.random_range(0.05..0.5),
                rng.random_range(0.05..0.5),
                rng.random_range(0.05..0.5),
            );
            Obb::from_rotation(c, UnitQuaternion::new_normalize(q), h).unwrap()
        })
        .collect()
}
