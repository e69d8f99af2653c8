//! Instruction-count driver for the linear box cast: the 1024 `linear` box pairs of
//! `benches/distance.rs` (same generator and seed), cast 20 times each.
//!
//! ```text
//! cargo build --release --example cast_profile
//! valgrind --tool=callgrind --toggle-collect='*cast_shapes*' target/release/examples/cast_profile [parry]
//! valgrind --tool=callgrind --toggle-collect='*conservative_advancement*' target/release/examples/cast_profile ca
//! target/release/examples/cast_profile stats     # outcomes: (iterations, status) counts
//! ```
//! Modes: sepax `cast_shapes` (default), `parry` (parry3d `query::cast_shapes` on the same
//! cuboids), `ca` (sepax's conservative advancement alone), `stats`.
// Real -> f32 casts are identities in the default build and needed in the f64 build.
#![allow(clippy::unnecessary_cast)]
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax::narrowphase::toi::{cast_shapes, conservative_advancement, CastOptions, Motion};
use sepax::prelude::*;
use std::hint::black_box;

fn rot(rng: &mut ChaCha8Rng) -> UnitQuaternion {
    UnitQuaternion::new_normalize(Quaternion::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    ))
}
fn vec(rng: &mut ChaCha8Rng, r: Real) -> Vector3 {
    Vector3::new(
        rng.random_range(-r..r),
        rng.random_range(-r..r),
        rng.random_range(-r..r),
    )
}
fn bx(rng: &mut ChaCha8Rng, c: Point3) -> Obb {
    let h = Vector3::new(
        rng.random_range(0.1..1.0),
        rng.random_range(0.1..1.0),
        rng.random_range(0.1..1.0),
    );
    Obb::from_rotation(c, rot(rng), h).unwrap()
}
fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let cases: Vec<(Shape, Shape, Vector3)> = (0..1024)
        .map(|_| {
            let a = bx(&mut rng, Point3::origin());
            let dir = vec(&mut rng, 1.0).normalize();
            let vb = -dir * 4.0 + vec(&mut rng, 1.5);
            let b = bx(&mut rng, Point3::from(dir * 4.0));
            (Shape::Obb(a), Shape::Obb(b), vb)
        })
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
                let pp = |o: &Obb| {
                    let q = UnitQuaternion::from_matrix(o.axes());
                    let c = o.center();
                    let h = o.half_extents();
                    (
                        parry3d::math::Pose::from_parts(
                            parry3d::math::Vec3::new(c.x as f32, c.y as f32, c.z as f32),
                            parry3d::math::Rot3::from_xyzw(
                                q.i as f32, q.j as f32, q.k as f32, q.w as f32,
                            ),
                        ),
                        parry3d::shape::Cuboid::new(parry3d::math::Vec3::new(
                            h.x as f32, h.y as f32, h.z as f32,
                        )),
                    )
                };
                let ((pa, ca), (pb, cb)) = (pp(oa), pp(ob));
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
