//! Box–box distance and time of impact: sepax next to parry3d 0.31 (`query::distance`,
//! `query::cast_shapes`, `query::cast_shapes_nonlinear`) on the same boxes in the same run.
//! Run: `cargo bench -p sepax-benches --bench distance -- --warm-up-time 1 --measurement-time 3`.
//!
//! Data sets (1024 pairs each, seeded):
//! - `distance`: random rotations, half-extents in [0.1, 1], centres spread so that most pairs
//!   are separated;
//! - `linear`: B starts about 4 away and moves towards A (with a random sideways part) over
//!   `t in [0, 1]`, about half of the motions making contact;
//! - `nonlinear`: the same with B also spinning at 5..50 rad/s about its centre.
//!
//! Before timing, each cast is checked against dense sampling (2000 poses along the motion,
//! each tested with sepax's certified `intersects`, which never misses an overlap): a method
//! "misses" a pair when sampling finds a contact at time `t_s` and the method reports no hit or
//! a time after `t_s`. The counts are printed next to the timings.

// Real -> f32 casts are identities in the default build and needed in the f64 build.
#![allow(clippy::unnecessary_cast)]
// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parry3d::math::{Pose, Vec3};
use parry3d::query::{NonlinearRigidMotion, ShapeCastOptions};
use parry3d::shape::Cuboid;
use sepax::narrowphase::toi::{cast_shapes, time_of_impact_shapes, CastOptions, Motion};
use sepax::prelude::*;
use std::hint::black_box;

const T_MAX: Real = 1.0;
const SAMPLES: usize = 2000;

use sepax_benches::shared;
use shared::to_parry;

use cast_cases::{data_set, Case, N};
use sepax_benches::cast_cases;

fn v3(v: &Vector3) -> Vec3 {
    Vec3::new(v.x as f32, v.y as f32, v.z as f32)
}

/// B at time `t` under its motion (spin about its centre, then translate).
fn b_at(c: &Case, t: Real) -> Obb {
    let q = UnitQuaternion::from_scaled_axis(c.wb * t);
    Obb::new_unchecked(
        c.b.center() + c.vb * t,
        q.to_rotation_matrix().into_inner() * c.b.axes(),
        c.b.half_extents(),
    )
}

/// The first sampled time at which the certified test finds contact.
fn first_sampled_contact(c: &Case) -> Option<Real> {
    (0..=SAMPLES)
        .map(|i| T_MAX * i as Real / SAMPLES as Real)
        .find(|&t| intersects(&c.a, &b_at(c, t)))
}

fn sepax_toi(c: &Case) -> Option<sepax::Toi> {
    let (a, b) = (Shape::Obb(c.a), Shape::Obb(c.b));
    let opts = CastOptions::default();
    if c.wb == Vector3::zeros() {
        cast_shapes(&a, &Vector3::zeros(), &b, &c.vb, T_MAX, &opts)
    } else {
        let mb = Motion::new(c.b.center(), c.vb, c.wb);
        time_of_impact_shapes(&a, &Motion::linear(Vector3::zeros()), &b, &mb, T_MAX, &opts)
    }
}

fn sepax_cast(c: &Case) -> Option<Real> {
    sepax_toi(c).map(|h| h.time)
}

struct ParryCase {
    pa: Pose,
    ca: Cuboid,
    pb: Pose,
    cb: Cuboid,
    vb: Vec3,
    wb: Vec3,
}

fn parry_case(c: &Case) -> ParryCase {
    let (pa, ca) = to_parry(&c.a);
    let (pb, cb) = to_parry(&c.b);
    ParryCase {
        pa,
        ca,
        pb,
        cb,
        vb: v3(&c.vb),
        wb: v3(&c.wb),
    }
}

fn parry_cast(p: &ParryCase) -> Option<f32> {
    if p.wb == Vec3::ZERO {
        let opts = ShapeCastOptions::with_max_time_of_impact(T_MAX as f32);
        parry3d::query::cast_shapes(&p.pa, Vec3::ZERO, &p.ca, &p.pb, p.vb, &p.cb, opts)
            .unwrap()
            .map(|h| h.time_of_impact)
    } else {
        let ma = NonlinearRigidMotion::constant_position(p.pa);
        let mb = NonlinearRigidMotion::new(p.pb, Vec3::ZERO, p.vb, p.wb);
        parry3d::query::cast_shapes_nonlinear(&ma, &p.ca, &mb, &p.cb, 0.0, T_MAX as f32, true)
            .unwrap()
            .map(|h| h.time_of_impact)
    }
}

fn report_misses(name: &str, cases: &[Case], parry: &[ParryCase]) {
    let (mut contacts, mut miss_sepax, mut miss_parry) = (0, 0, 0);
    let (mut none_sepax, mut none_parry) = (0, 0);
    for (c, p) in cases.iter().zip(parry) {
        let Some(ts) = first_sampled_contact(c) else {
            continue;
        };
        contacts += 1;
        match sepax_cast(c) {
            None => {
                miss_sepax += 1;
                none_sepax += 1;
            }
            Some(t) if t > ts => miss_sepax += 1,
            _ => {}
        }
        match parry_cast(p) {
            None => {
                miss_parry += 1;
                none_parry += 1;
            }
            Some(t) if t as f64 > ts as f64 => miss_parry += 1,
            _ => {}
        }
    }
    let steps: Vec<u32> = cases
        .iter()
        .filter_map(|c| sepax_toi(c).map(|h| h.iterations))
        .collect();
    let mean = steps.iter().map(|&i| i as f64).sum::<f64>() / steps.len().max(1) as f64;
    let max = steps.iter().copied().max().unwrap_or(0);
    eprintln!(
        "{name}: {N} motions, {contacts} with a sampled contact; missed (no hit or later than \
         the first sampled contact): sepax {miss_sepax} ({none_sepax} no hit), parry3d \
         {miss_parry} ({none_parry} no hit); sepax advancement steps per hit: mean {mean:.1}, \
         max {max}"
    );
}

fn bench(c: &mut Criterion) {
    // Distance.
    {
        let cases = data_set("distance");
        let parry: Vec<_> = cases.iter().map(parry_case).collect();
        let mut worst: f64 = 0.0;
        for (c, p) in cases.iter().zip(&parry) {
            let ds = sepax::narrowphase::distance::distance(&c.a, &c.b) as f64;
            let dp = parry3d::query::distance(&p.pa, &p.ca, &p.pb, &p.cb)
                .unwrap()
                .distance as f64;
            worst = worst.max((ds - dp).abs());
        }
        eprintln!("distance: {N} pairs, largest |sepax - parry3d| = {worst:e}");
        let mut group = c.benchmark_group("box_box_distance");
        group.throughput(Throughput::Elements(N as u64));
        group.bench_with_input(BenchmarkId::new("sepax", "random"), &cases, |bch, cases| {
            bch.iter(|| {
                let mut s = 0.0;
                for c in cases {
                    s += sepax::narrowphase::distance::distance(black_box(&c.a), black_box(&c.b));
                }
                s
            })
        });
        group.bench_with_input(
            BenchmarkId::new("parry3d", "random"),
            &parry,
            |bch, parry| {
                bch.iter(|| {
                    let mut s = 0.0;
                    for p in parry {
                        s += parry3d::query::distance(
                            black_box(&p.pa),
                            black_box(&p.ca),
                            black_box(&p.pb),
                            black_box(&p.cb),
                        )
                        .unwrap()
                        .distance;
                    }
                    s
                })
            },
        );
        group.finish();
    }
    // Casts.
    for name in ["linear", "nonlinear"] {
        let cases = data_set(name);
        let parry: Vec<_> = cases.iter().map(parry_case).collect();
        report_misses(name, &cases, &parry);
        let mut group = c.benchmark_group(format!("box_box_cast_{name}"));
        group.throughput(Throughput::Elements(N as u64));
        group.bench_with_input(BenchmarkId::new("sepax", name), &cases, |bch, cases| {
            bch.iter(|| {
                let mut hits = 0usize;
                for c in cases {
                    hits += sepax_cast(black_box(c)).is_some() as usize;
                }
                hits
            })
        });
        group.bench_with_input(BenchmarkId::new("parry3d", name), &parry, |bch, parry| {
            bch.iter(|| {
                let mut hits = 0usize;
                for p in parry {
                    hits += parry_cast(black_box(p)).is_some() as usize;
                }
                hits
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
