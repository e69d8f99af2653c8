//! The box–box contact manifold on the contact benchmark's pairs (`benches/data/box_pairs.rs`),
//! in a plain loop, for profilers. Run:
//! `cargo run --release --example contact_profile -- [random|resting] [PASSES] [into]` (`into`:
//! the in-place `contact_manifold_into` into one reused manifold); instructions per
//! call: `valgrind --tool=callgrind --toggle-collect='*contact_manifold*' <binary> random 1`
//! (the data set is built outside the collected function), then divide the collected `Ir` by the
//! 4096 calls of a pass.

// The data module also serves the bench, which uses all of it.
#![allow(dead_code)]

use sepax::narrowphase::contact::box_box::{contact_manifold, contact_manifold_into};
use sepax::narrowphase::contact::{ContactConfig, ContactManifold};
use sepax::prelude::Obb;
use sepax::prelude::Vector3;
use std::hint::black_box;

#[path = "../benches/data/box_pairs.rs"]
mod data;
#[path = "../benches/data/shared.rs"]
mod shared;

/// One call, kept out of line so that `--toggle-collect='*contact_manifold*'` covers all of it
/// (the library function is inlined into its caller).
#[inline(never)]
fn contact_manifold_call(a: &Obb, b: &Obb, config: &ContactConfig) -> Option<ContactManifold> {
    contact_manifold(a, b, config)
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
    contact_manifold_into(a, b, config, out)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("random", String::as_str);
    let passes: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let pairs = data::data_set(name, 4096);
    let config = ContactConfig::default();
    let into = args.get(3).is_some_and(|s| s == "into");
    let mut points = 0usize;
    let mut m = ContactManifold {
        normal: Vector3::zeros(),
        depth: 0.0,
        points: Default::default(),
    };
    let t = std::time::Instant::now();
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
