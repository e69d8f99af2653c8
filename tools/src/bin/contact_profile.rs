//! The box–box contact manifold on the contact benchmark's pairs (`benches/data/box_pairs.rs`),
//! in a plain loop, for profilers. Run:
//! `cargo run --release -p sepax-tools --bin contact_profile -- [random|resting] [PASSES] [pen|into|batch]`;
//! with `pen`, the axis selection alone (`box_box::penetration`) instead of the whole manifold;
//! with `into`, the in-place `box_box::manifold_into` into one reused manifold; with `batch`, the
//! batch `box_box::manifolds_into` over the 4096 pairs into 4096 reused manifolds (one call per
//! pass, time per pair); with `batch-portable`, the batch without the run-time AVX2 build
//! (`box_box::manifolds_into_portable`).
//! Instructions per call: `valgrind --tool=callgrind --toggle-collect='*contact_manifold_call*'
//! <binary> random 1 [into]` (or `--toggle-collect='*penetration_call*' <binary> random 1 pen`;
//! the data set is built outside the collected function), then divide the collected `Ir` by the
//! 4096 calls of a pass (by 8192 with `pen`: that mode also prints a digest of every bit of the
//! results, depth, normal and axis, from one extra pass outside the timing). The batch:
//! `--toggle-collect='*batch_call*' <binary> random 1 batch`, `Ir` divided by 4096.

// The data module also serves the bench, which uses all of it.
#![allow(dead_code)]
// `to_bits() as u64` widens in f32 and is the identity in f64.
#![allow(clippy::unnecessary_cast)]

use sepax::narrowphase::contact::box_box::{self, BoxPenetration};
use sepax::narrowphase::contact::{ContactConfig, ContactManifold};
use sepax::narrowphase::sat::SatAxis;
use sepax::prelude::Obb;
use std::hint::black_box;

use sepax_benches::box_pairs as data;

/// One call, kept out of line so that `--toggle-collect='*contact_manifold_call*'` covers all of
/// it (the library function is inlined into its caller).
#[inline(never)]
fn contact_manifold_call(a: &Obb, b: &Obb, config: &ContactConfig) -> Option<ContactManifold> {
    box_box::manifold(a, b, config)
}

/// One axis selection, out of line for `--toggle-collect='*penetration_call*'`.
#[inline(never)]
fn penetration_call(a: &Obb, b: &Obb) -> BoxPenetration {
    box_box::least_penetration(a, b)
}

/// FNV-1a-like hash of every bit of the results.
fn digest(pairs: &[data::Pair]) -> u64 {
    let mut h = 0xcbf29ce484222325u64;
    let mut add = |v: u64| h = (h ^ v).wrapping_mul(0x100000001b3);
    for p in pairs {
        let r = penetration_call(&p.a, &p.b);
        add(r.depth.to_bits() as u64);
        for k in 0..3 {
            add(r.normal[k].to_bits() as u64);
        }
        add(match r.axis {
            SatAxis::FaceA(i) => i as u64,
            SatAxis::FaceB(j) => 3 + j as u64,
            SatAxis::Edge(i, j) => 6 + 3 * i as u64 + j as u64,
        });
    }
    h
}

/// One in-place call, out of line like [`contact_manifold_call`] (the same collect pattern
/// covers it).
#[inline(never)]
fn contact_manifold_call_into(
    a: &Obb,
    b: &Obb,
    config: &ContactConfig,
    out: &mut ContactManifold,
) -> bool {
    box_box::manifold_into(a, b, config, out)
}

/// One batch call over a pass's pairs, out of line for `--toggle-collect='*batch_call*'`.
#[inline(never)]
fn batch_call(
    pairs: &[(&Obb, &Obb)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
) -> usize {
    box_box::manifolds_into(pairs, config, out)
}

/// [`batch_call`] with the portable batch (`--toggle-collect='*batch_portable_call*'`).
#[inline(never)]
fn batch_portable_call(
    pairs: &[(&Obb, &Obb)],
    config: &ContactConfig,
    out: &mut [ContactManifold],
) -> usize {
    box_box::manifolds_into_portable(pairs, config, out)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("random", String::as_str);
    let passes: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let pen = args.get(3).is_some_and(|s| s == "pen");
    let pairs = data::data_set(name, 4096);
    let config = ContactConfig::default();
    let into = args.get(3).is_some_and(|s| s == "into");
    let mut m = ContactManifold::empty();
    let t = std::time::Instant::now();
    if pen {
        let mut sum = 0.0;
        for _ in 0..passes {
            for p in &pairs {
                sum += penetration_call(black_box(&p.a), black_box(&p.b)).depth;
            }
        }
        let ns = t.elapsed().as_nanos() as f64 / (passes * pairs.len()) as f64;
        let d = digest(&pairs);
        println!("{name} pen: {ns:.1} ns/pair (wall), depth sum {sum}, digest {d:016x}");
        return;
    }
    let mut points = 0usize;
    let portable = args.get(3).is_some_and(|s| s == "batch-portable");
    if portable || args.get(3).is_some_and(|s| s == "batch") {
        let refs: Vec<(&Obb, &Obb)> = pairs.iter().map(|p| (&p.a, &p.b)).collect();
        let mut out = vec![m; refs.len()];
        let t = std::time::Instant::now();
        let mut contacts = 0;
        for _ in 0..passes {
            contacts += if portable {
                batch_portable_call(black_box(&refs), &config, &mut out)
            } else {
                batch_call(black_box(&refs), &config, &mut out)
            };
        }
        let ns = t.elapsed().as_nanos() as f64 / (passes * pairs.len()) as f64;
        // (Counted outside the timing: every pass writes the same manifolds.)
        points = passes * out.iter().map(|m| m.points.len()).sum::<usize>();
        assert_eq!(
            contacts,
            passes * out.iter().filter(|m| !m.points.is_empty()).count()
        );
        let what = if portable { "batch-portable" } else { "batch" };
        println!("{name} {what}: {ns:.1} ns/pair (wall), {points} points");
        return;
    }
    for _ in 0..passes {
        if into {
            for p in &pairs {
                if contact_manifold_call_into(black_box(&p.a), black_box(&p.b), &config, &mut m) {
                    points += m.points.len();
                }
            }
        } else {
            for p in &pairs {
                if let Some(m) = contact_manifold_call(black_box(&p.a), black_box(&p.b), &config) {
                    points += m.points.len();
                }
            }
        }
    }
    let ns = t.elapsed().as_nanos() as f64 / (passes * pairs.len()) as f64;
    println!("{name}: {ns:.1} ns/pair (wall), {points} points");
}
