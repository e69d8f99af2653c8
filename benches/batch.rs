//! Batch kernels: pairs per second for OBB–OBB and AABB–AABB, one-vs-N and N×M, with the data
//! in cache (N = 1024) and streamed from memory (N = 4M, 256 MiB of OBBs in f32, far beyond
//! the last-level cache), for the portable build (SSE2 on x86-64) and runtime-selected AVX2.
//! OBB–OBB runs on both layouts: `obb` on [`ObbSoa`] (16 field arrays), `obb_blocks` on
//! [`ObbBlocks`] (blocks of `LANES` boxes, one stream).
//! `memory/stream_sum` measures the single-core memory bandwidth the streamed figures are
//! bounded by: a vectorised sum over a 512 MiB array of `f32`.
//!
//! Run: `cargo bench -p sepax-benches --bench batch` (add `--features f64` for f64).

// `criterion_group!` generates undocumented items.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sepax_narrowphase::batch::{AabbSoa, Isa, Kernels, ObbBlocks, ObbSoa};
use sepax_shapes::math::Real;
use sepax_shapes::{Aabb, Obb};
use std::hint::black_box;
use std::time::Duration;

const IN_CACHE: usize = 1024;
const STREAMED: usize = 4 << 20;

use data::obbs;
use sepax_benches::broadphase::obbs as data;

use sepax_benches::broadphase::stream;
use stream::stream_sum;

fn kernels() -> Vec<(&'static str, Kernels)> {
    let mut v = vec![("portable", Kernels::portable())];
    if let Some(k) = Kernels::with_isa(Isa::Avx2) {
        v.push(("avx2", k));
    }
    v
}

fn one_vs_n(c: &mut Criterion) {
    eprintln!(
        "batch bench: Real = {}, best instruction set {:?}",
        core::any::type_name::<Real>(),
        Kernels::new().isa()
    );
    for n in [IN_CACHE, STREAMED] {
        let boxes = obbs(n, 1);
        let queries = obbs(64, 2);
        let soa = ObbSoa::from_slice(&boxes);
        let blocks = ObbBlocks::from_slice(&boxes);
        let aabbs: Vec<Aabb> = boxes.iter().map(Obb::world_aabb).collect();
        let asoa = AabbSoa::from_slice(&aabbs);
        let qa: Vec<Aabb> = queries.iter().map(Obb::world_aabb).collect();
        let mut g = c.benchmark_group("batch/one_vs_n");
        g.throughput(Throughput::Elements(n as u64));
        let mut mask = Vec::new();
        for (name, k) in kernels() {
            let stats = k.obb_query_mask(&queries[0], &soa, &mut mask);
            eprintln!("obb one-vs-{n}: {stats:?}");
            assert_eq!(
                k.obb_blocks_query_mask(&queries[0], &blocks, &mut mask),
                stats
            );
            let mut qi = 0;
            g.bench_function(BenchmarkId::new(format!("obb/{name}"), n), |b| {
                b.iter(|| {
                    qi = (qi + 1) % queries.len();
                    black_box(k.obb_query_mask(&queries[qi], &soa, &mut mask))
                })
            });
            g.bench_function(BenchmarkId::new(format!("obb_blocks/{name}"), n), |b| {
                b.iter(|| {
                    qi = (qi + 1) % queries.len();
                    black_box(k.obb_blocks_query_mask(&queries[qi], &blocks, &mut mask))
                })
            });
            g.bench_function(BenchmarkId::new(format!("aabb/{name}"), n), |b| {
                b.iter(|| {
                    qi = (qi + 1) % qa.len();
                    black_box(k.aabb_query_mask(&qa[qi], &asoa, &mut mask))
                })
            });
        }
        g.finish();
    }
}

fn n_by_m(c: &mut Criterion) {
    for (rows, n) in [(32, IN_CACHE), (8, STREAMED)] {
        let boxes = obbs(n, 3);
        let a = obbs(rows, 4);
        let (sa, sb) = (ObbSoa::from_slice(&a), ObbSoa::from_slice(&boxes));
        let (ba, bb) = (ObbBlocks::from_slice(&a), ObbBlocks::from_slice(&boxes));
        let aabb =
            |v: &[Obb]| AabbSoa::from_slice(&v.iter().map(Obb::world_aabb).collect::<Vec<_>>());
        let (aa, ab) = (aabb(&a), aabb(&boxes));
        let mut g = c.benchmark_group("batch/n_x_m");
        g.throughput(Throughput::Elements((rows * n) as u64));
        let mut out = Vec::new();
        for (name, k) in kernels() {
            let id = format!("{rows}x{n}");
            g.bench_function(BenchmarkId::new(format!("obb/{name}"), &id), |b| {
                b.iter(|| black_box(k.obb_pairs(&sa, &sb, &mut out)))
            });
            g.bench_function(BenchmarkId::new(format!("obb_blocks/{name}"), &id), |b| {
                b.iter(|| black_box(k.obb_blocks_pairs(&ba, &bb, &mut out)))
            });
            g.bench_function(BenchmarkId::new(format!("aabb/{name}"), &id), |b| {
                b.iter(|| black_box(k.aabb_pairs(&aa, &ab, &mut out)))
            });
        }
        g.finish();
    }
}

fn memory(c: &mut Criterion) {
    let v: Vec<f32> = (0..(512usize << 20) / 4)
        .map(|i| (i & 1023) as f32)
        .collect();
    let mut g = c.benchmark_group("memory");
    g.throughput(Throughput::Bytes((v.len() * 4) as u64));
    g.bench_function("stream_sum/512MiB", |b| {
        b.iter(|| black_box(stream_sum(black_box(&v))))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = one_vs_n, n_by_m, memory
}
criterion_main!(benches);
