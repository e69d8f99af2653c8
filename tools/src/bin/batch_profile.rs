//! The OBB–OBB batch kernel on the batch benchmark's data, in a plain loop, for profilers
//! (`valgrind --tool=callgrind`, `perf`). Run:
//! `cargo run --release -p sepax-tools --bin batch_profile -- [portable|avx2] [ITERATIONS] [soa|blocks|aabb|sphere] [N]`
//! (`aabb` and `sphere`: the AABB–AABB and sphere–AABB kernels on the boxes' world AABBs, the
//! queries' bounding boxes and bounding spheres; defaults: portable, 10000, soa, 1024 boxes as the bench's in-cache case; N = 4194304 is
//! its streamed case). For N above a million it also measures the single-core memory bandwidth
//! just before and after the loop (a sum over an array as large as the boxes, as the bench's
//! `memory/stream_sum`) and prints the time per pair that bandwidth allows for the bytes a box
//! occupies: on a loaded machine the ratio of the two is steadier than either.

use sepax::narrowphase::batch::{AabbSoa, Isa, Kernels, ObbBlocks, ObbSoa};
use sepax_shapes::{Aabb, Sphere};

use data::obbs;
use sepax_benches::broadphase::obbs as data;

use sepax_benches::broadphase::stream;
use stream::stream_sum;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let k = match args.get(1).map(String::as_str) {
        Some("avx2") => Kernels::with_isa(Isa::Avx2).expect("this CPU has no AVX2"),
        _ => Kernels::portable(),
    };
    let iterations: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let kind = args.get(3).map_or("soa", String::as_str);
    let n: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1024);
    let boxes = obbs(n, 1);
    let queries = obbs(64, 2);
    let soa = ObbSoa::from_slice(&boxes);
    let blocks = ObbBlocks::from_slice(&boxes);
    let aabbs = AabbSoa::from_slice(&boxes.iter().map(|b| b.world_aabb()).collect::<Vec<_>>());
    let query_aabbs: Vec<Aabb> = queries.iter().map(|q| q.world_aabb()).collect();
    let query_spheres: Vec<Sphere> = queries
        .iter()
        .map(|q| Sphere::new_unchecked(q.center(), q.half_extents().norm()))
        .collect();
    let streamed = n > 1 << 20;
    let sweep: Vec<f32> = if streamed {
        (0..n * OBB_BYTES / 4).map(|i| (i & 1023) as f32).collect()
    } else {
        Vec::new()
    };
    let bw_before = if streamed { bandwidth(&sweep) } else { 0.0 };
    let mut mask = Vec::new();
    let mut hits = 0;
    let t = std::time::Instant::now();
    for i in 0..iterations {
        let q = &queries[i % 64];
        hits += match kind {
            "blocks" => k.obb_blocks_query_mask(q, &blocks, &mut mask).hits,
            "aabb" => {
                k.aabb_query_mask(&query_aabbs[i % 64], &aabbs, &mut mask)
                    .hits
            }
            "sphere" => {
                k.sphere_aabb_query_mask(&query_spheres[i % 64], &aabbs, &mut mask)
                    .hits
            }
            _ => k.obb_query_mask(q, &soa, &mut mask).hits,
        };
    }
    let ns = t.elapsed().as_nanos() as f64 / (iterations * boxes.len()) as f64;
    let layout = kind;
    println!(
        "{:?} {layout}: {ns:.2} ns/pair (wall), {hits} hits",
        k.isa()
    );
    if streamed {
        let bw = 0.5 * (bw_before + bandwidth(&sweep));
        let bound = OBB_BYTES as f64 / (bw * (1u64 << 30) as f64) * 1e9;
        println!(
            "  bandwidth {bw:.1} GiB/s: {OBB_BYTES} B/box allow {bound:.2} ns/pair; \
             this loop ran at {:.0}% of it",
            100.0 * bound / ns
        );
    }
}

/// Bytes per box in either layout (sixteen `Real`s).
const OBB_BYTES: usize = 16 * core::mem::size_of::<sepax_shapes::math::Real>();

/// GiB/s of one pass summing `v` (best of three).
fn bandwidth(v: &[f32]) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = std::time::Instant::now();
        std::hint::black_box(stream_sum(std::hint::black_box(v)));
        best = best.min(t.elapsed().as_secs_f64());
    }
    (v.len() * 4) as f64 / best / (1u64 << 30) as f64
}
