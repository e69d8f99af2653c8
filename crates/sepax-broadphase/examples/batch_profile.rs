//! The OBB–OBB batch kernel on the batch benchmark's data, in a plain loop, for profilers
//! (`valgrind --tool=callgrind`, `perf`). Run:
//! `cargo run --release -p sepax-broadphase --example batch_profile -- [portable|avx2] [ITERATIONS] [soa|blocks] [N]`
//! (defaults: portable, 10000, soa, 1024 boxes as the bench's in-cache case; N = 4194304 is
//! its streamed case).

use sepax_broadphase::batch::{Isa, Kernels, ObbBlocks, ObbSoa};

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
    let blocked = args.get(3).map(String::as_str) == Some("blocks");
    let n: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1024);
    let boxes = obbs(n, 1);
    let queries = obbs(64, 2);
    let soa = ObbSoa::from_slice(&boxes);
    let blocks = ObbBlocks::from_slice(&boxes);
    let mut mask = Vec::new();
    let mut hits = 0;
    let t = std::time::Instant::now();
    for i in 0..iterations {
        let q = &queries[i % 64];
        hits += if blocked {
            k.obb_blocks_query_mask(q, &blocks, &mut mask).hits
        } else {
            k.obb_query_mask(q, &soa, &mut mask).hits
        };
    }
    let ns = t.elapsed().as_nanos() as f64 / (iterations * boxes.len()) as f64;
    let layout = if blocked { "blocks" } else { "soa" };
    println!(
        "{:?} {layout}: {ns:.2} ns/pair (wall), {hits} hits",
        k.isa()
    );
}
