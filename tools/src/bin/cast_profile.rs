//! Instruction-count driver for the linear box cast: the 1024 `linear` box pairs of
//! `benches/distance.rs` (its data module, `benches/data/cast_cases.rs`), cast 20 times each.
//!
//! ```text
//! cargo build --release -p sepax-tools --bin cast_profile
//! valgrind --tool=callgrind --toggle-collect='*cast_shapes*' target/release/cast_profile [parry]
//! valgrind --tool=callgrind --toggle-collect='*conservative_advancement*' target/release/cast_profile ca
//! target/release/cast_profile stats     # outcomes: (iterations, status) counts
//! ```
//! Modes: sepax `cast_shapes` (default), `parry` (parry3d `query::cast_shapes` on the same
//! cuboids), `ca` (sepax's conservative advancement alone), `stats`.
// Real -> f32 casts are identities in the default build and needed in the f64 build.
#![allow(clippy::unnecessary_cast)]
use sepax::narrowphase::toi::{cast_shapes, conservative_advancement, CastOptions, Motion};
use sepax::prelude::*;
use std::hint::black_box;

use sepax_benches::{cast_cases, shared};

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    // The bench's `linear` data set (B moving, no spin).
    let cases: Vec<(Shape, Shape, Vector3)> = cast_cases::data_set("linear")
        .into_iter()
        .map(|c| (Shape::Obb(c.a), Shape::Obb(c.b), c.vb))
        .collect();
    let opts = CastOptions::default();
    if mode == "stats" {
        let mut it = std::collections::BTreeMap::new();
        for (a, b, v) in &cases {
            let h = cast_shapes(a, &Vector3::zeros(), b, v, 1.0, &opts);
            *it.entry(h.map(|h| (h.iterations, format!("{:?}", h.status))))
                .or_insert(0) += 1;
        }
        println!("{it:?}");
        return;
    }
    let mut hits = 0;
    for _ in 0..20 {
        for (a, b, v) in &cases {
            if mode == "parry" {
                let (Shape::Obb(oa), Shape::Obb(ob)) = (a, b) else {
                    unreachable!()
                };
                let ((pa, ca), (pb, cb)) = (shared::to_parry(oa), shared::to_parry(ob));
                let opts = parry3d::query::ShapeCastOptions::with_max_time_of_impact(1.0);
                let vv = parry3d::math::Vec3::new(v.x as f32, v.y as f32, v.z as f32);
                let h = parry3d::query::cast_shapes(
                    &pa,
                    parry3d::math::Vec3::ZERO,
                    &ca,
                    &pb,
                    vv,
                    &cb,
                    opts,
                )
                .unwrap();
                hits += h.is_some() as usize;
                continue;
            }
            let h = if mode == "ca" {
                conservative_advancement(
                    a,
                    &Motion::linear(Vector3::zeros()),
                    b,
                    &Motion::linear(*v),
                    1.0,
                    &opts,
                )
            } else {
                cast_shapes(black_box(a), &Vector3::zeros(), b, v, 1.0, &opts)
            };
            hits += h.is_some() as usize;
        }
    }
    println!("{hits}");
}
