//! The box motions of the distance and time-of-impact benchmark (`benches/distance.rs`) and its
//! cast profile (`tools/src/bin/cast_profile.rs`): 1024 cases per data set, seeded.
#![allow(dead_code)]
// Real -> f32 casts are identities in the default build and needed in the f64 build.
#![allow(clippy::unnecessary_cast)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax::prelude::*;

use crate::shared::random_rotation;

/// Cases per data set.
pub const N: usize = 1024;

/// Box `a` at rest and box `b` moving by `vb` per unit time while spinning at `wb` (rad per
/// unit time, about its centre).
pub struct Case {
    pub a: Obb,
    pub b: Obb,
    pub vb: Vector3,
    pub wb: Vector3,
}

/// A vector with components in `[-r, r)`.
fn vec(rng: &mut ChaCha8Rng, r: Real) -> Vector3 {
    Vector3::new(
        rng.random_range(-r..r),
        rng.random_range(-r..r),
        rng.random_range(-r..r),
    )
}

/// A random box centred at `c` (half-extents in [0.1, 1]).
fn random_box(rng: &mut ChaCha8Rng, c: Point3) -> Obb {
    let h = Vector3::new(
        rng.random_range(0.1..1.0),
        rng.random_range(0.1..1.0),
        rng.random_range(0.1..1.0),
    );
    Obb::from_rotation(c, random_rotation(rng), h).expect("valid box")
}

/// The data set `distance`, `linear` or `nonlinear` (see the bench's docs).
pub fn data_set(name: &str) -> Vec<Case> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    (0..N)
        .map(|_| {
            let a = random_box(&mut rng, Point3::origin());
            match name {
                "distance" => {
                    let c = Point3::from(vec(&mut rng, 4.0));
                    Case {
                        a,
                        b: random_box(&mut rng, c),
                        vb: Vector3::zeros(),
                        wb: Vector3::zeros(),
                    }
                }
                _ => {
                    let dir = vec(&mut rng, 1.0).normalize();
                    let c = Point3::from(dir * 4.0);
                    let vb = -dir * 4.0 + vec(&mut rng, 1.5);
                    let wb = if name == "nonlinear" {
                        vec(&mut rng, 1.0).normalize() * rng.random_range(5.0..50.0)
                    } else {
                        Vector3::zeros()
                    };
                    Case {
                        a,
                        b: random_box(&mut rng, c),
                        vb,
                        wb,
                    }
                }
            }
        })
        .collect()
}
