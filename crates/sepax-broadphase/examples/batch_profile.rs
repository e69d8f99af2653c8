//! The OBB–OBB batch kernel on the batch benchmark's in-cache data, in a plain loop, for
//! profilers (`valgrind --tool=callgrind`, `perf`). Run:
//! `cargo run --release -p sepax-broadphase --example batch_profile -- [portable|avx2] [ITERATIONS]`

use sepax_broadphase::batch::{Isa, Kernels, ObbSoa};

#[path = "../benches/data/obbs.rs"]
mod data;
use data::obbs;

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
