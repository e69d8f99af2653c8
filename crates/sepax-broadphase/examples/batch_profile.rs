//! The OBB–OBB batch kernel on the batch benchmark's in-cache data, in a plain loop, for
//! profilers (`valgrind --tool=callgrind`, `perf`). Run:
//! `cargo run --release -p sepax-broadphase --example batch_profile -- [portable|avx2] [ITERATIONS]`

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_broadphase::batch::{Isa, Kernels, ObbSoa};
use sepax_shapes::math::{Point3, Quaternion, Real, UnitQuaternion, Vector3};
use sepax_shapes::Obb;

/// `n` random boxes as in `benches/batch.rs`.
fn obbs(n: usize, seed: u64) -> Vec<Obb> {
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
            Obb::from_rotation(c, UnitQuaternion::new_normalize(q), h).expect("valid box")
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let k = match args.get(1).map(String::as_str) {
        Some("avx2") => Kernels::with_isa(Isa::Avx2).expect("this CPU has no AVX2"),
        _ => Kernels::portable(),
    };
    let iterations: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let boxes = obbs(1024, 1);
    let queries = obbs(64, 2);
    let soa = ObbSoa::from_slice(&boxes);
    let mut mask = Vec::new();
    let mut hits = 0;
    let t = std::time::Instant::now();
    for i in 0..iterations {
        hits += k.obb_query_mask(&queries[i % 64], &soa, &mut mask).hits;
    }
    let ns = t.elapsed().as_nanos() as f64 / (iterations * boxes.len()) as f64;
    println!("{:?}: {ns:.2} ns/pair (wall), {hits} hits", k.isa());
}
