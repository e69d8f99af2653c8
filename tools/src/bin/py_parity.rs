//! The work of `examples/python/bench.py`'s sepax calls done from Rust, on the same data: the
//! script writes its arrays (already in the module's precision) as raw little-endian files to a
//! folder, this program reads them, builds the same shapes and worlds the Python layer builds
//! (the same constructors, the same pose rule), runs the same calls and prints items per second
//! and the answers the script checks (counts, sums, the world's state hash). Run through the
//! script (`python examples/python/bench.py`, or `scripts/py_bench.sh`), or by hand:
//! `cargo run --release -p sepax-tools --no-default-features --bin py_parity -- DIR`
//! (`--features f64` for data the f64 module wrote).
//!
//! Output, one line each: `precision f32|f64`, `rate NAME ITEMS_PER_SECOND`, `check NAME VALUE`.
#![allow(clippy::unnecessary_cast)]

use std::collections::HashMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use sepax::math::{Isometry3, Matrix3, Point3, Quaternion, Real, UnitQuaternion};
use sepax::narrowphase::intersect::intersects_shapes;
use sepax::world::{
    ColliderDesc, ColliderId, Filter, Kind, KindMask, QueryFilter, Report, Serial, Sweep,
    TrajectoryOptions, TrajectoryResult, World,
};
use sepax::{Aabb, Obb, Ray, Shape};

/// The data folder the script wrote.
struct Data {
    dir: PathBuf,
    meta: HashMap<String, String>,
}

impl Data {
    fn open(dir: &Path) -> Self {
        let text = std::fs::read_to_string(dir.join("meta.txt")).expect("meta.txt");
        let meta = text
            .lines()
            .filter_map(|l| l.split_once(' '))
            .map(|(k, v)| (k.to_string(), v.trim().to_string()))
            .collect();
        Self {
            dir: dir.to_path_buf(),
            meta,
        }
    }

    fn usize(&self, key: &str) -> usize {
        self.meta[key].parse().expect("an integer")
    }

    /// `NAME.bin`: raw little-endian `Real`s.
    fn reals(&self, name: &str) -> Vec<Real> {
        let bytes = std::fs::read(self.dir.join(format!("{name}.bin"))).expect(name);
        const W: usize = std::mem::size_of::<Real>();
        assert_eq!(
            bytes.len() % W,
            0,
            "{name}.bin is not a whole number of reals"
        );
        bytes
            .chunks_exact(W)
            .map(|c| Real::from_le_bytes(c.try_into().expect("one real")))
            .collect()
    }
}

fn point(d: &[Real], i: usize) -> Point3 {
    Point3::new(d[3 * i], d[3 * i + 1], d[3 * i + 2])
}

fn quaternion(d: &[Real], i: usize) -> Quaternion {
    Quaternion::new(d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3])
}

/// The pose rule of the Python module (`arrays::pose`): a quaternion of squared norm exactly 1
/// keeps its bits, any other is normalised.
fn pose(p: &[Real], r: Option<&[Real]>, i: usize) -> Isometry3 {
    let t = point(p, i).coords;
    let Some(r) = r else {
        return Isometry3::translation(t.x, t.y, t.z);
    };
    let q = quaternion(r, i);
    let rot = if q.norm_squared() == 1.0 {
        UnitQuaternion::new_unchecked(q)
    } else {
        UnitQuaternion::new_normalize(q)
    };
    Isometry3::from_parts(t.into(), rot)
}

/// `ColliderDesc` as the Python layer's `add_*` defaults make it.
fn desc(shape: Shape, pose: Isometry3, kind: Kind) -> ColliderDesc {
    ColliderDesc::new(shape)
        .pose(pose)
        .kind(kind)
        .report(Report::BeginEnd)
        .sensor(false)
        .filter(Filter {
            membership: 1,
            mask: u64::MAX,
            group: 0,
            owner: None,
        })
        .user(0)
}

/// The best of `repeat` timings of `f`, in seconds.
fn best_of<T>(repeat: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..repeat {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    best
}

/// `sepax.boxes(centers, half_extents, rotations)`: `Obb::from_quaternion` per row.
fn boxes(c: &[Real], h: &[Real], q: &[Real]) -> Vec<Shape> {
    (0..c.len() / 3)
        .map(|i| {
            Obb::from_quaternion(point(c, i), quaternion(q, i), point(h, i).coords)
                .map(Shape::Obb)
                .expect("a valid box")
        })
        .collect()
}

fn pairs(d: &Data, repeat: usize) {
    let (ca, ha, qa) = (d.reals("ca"), d.reals("ha"), d.reals("qa"));
    let (cb, hb, qb) = (d.reals("cb"), d.reals("hb"), d.reals("qb"));
    let n = ca.len() / 3;
    let (a, b) = (boxes(&ca, &ha, &qa), boxes(&cb, &hb, &qb));
    let check = |a: &[Shape], b: &[Shape]| -> Vec<bool> {
        let mut out = Vec::with_capacity(a.len());
        for (x, y) in a.iter().zip(b) {
            out.push(intersects_shapes(x, y));
        }
        out
    };
    let hits = check(&a, &b);
    let t = best_of(repeat, || check(&a, &b));
    println!("rate pairs {}", n as f64 / t);
    let t = best_of(repeat, || {
        let (a, b) = (boxes(&ca, &ha, &qa), boxes(&cb, &hb, &qb));
        check(&a, &b)
    });
    println!("rate pairs_build {}", n as f64 / t);
    println!("check pairs_hits {}", hits.iter().filter(|&&h| h).count());
}

fn rays(d: &Data, repeat: usize) {
    let (lo, hi) = (d.reals("ray_lo"), d.reals("ray_hi"));
    let (o, dir) = (d.reals("ray_o"), d.reals("ray_d"));
    let max_t = d.reals("ray_max_t")[0];
    let mut w = World::new();
    let mut ids = Vec::new();
    w.insert_many(
        (0..lo.len() / 3).map(|i| {
            let b = Aabb::new(point(&lo, i), point(&hi, i)).expect("a valid box");
            desc(Shape::Aabb(b), Isometry3::identity(), Kind::Static)
        }),
        &mut ids,
    )
    .expect("insert");
    let n = o.len() / 3;
    let filter = QueryFilter::new().kinds(KindMask::ALL);
    let cast = || {
        let rays: Vec<Ray> = (0..n)
            .map(|i| Ray::new(point(&o, i), point(&dir, i).coords, max_t).expect("a valid ray"))
            .collect();
        let mut out = vec![None; n];
        w.cast_rays(&Serial, &rays, &filter, &mut out)
            .expect("cast");
        out
    };
    let found = cast();
    let t = best_of(repeat, cast);
    println!("rate rays {}", n as f64 / t);
    let hits: Vec<_> = found.iter().flatten().collect();
    // The wrapping sum of the bit patterns of the hits' `t`, as the script computes it.
    let bits = hits
        .iter()
        .fold(0u64, |s, h| s.wrapping_add(h.distance.to_bits() as u64));
    println!("check rays_hits {}", hits.len());
    println!("check rays_tbits {bits}");
}

fn trajectories(d: &Data, repeat: usize) {
    let (lc, la, lh) = (d.reals("link_c"), d.reals("link_axes"), d.reals("link_h"));
    let (ec, eh) = (d.reals("env_c"), d.reals("env_h"));
    let poses = d.reals("traj_poses");
    let (b, steps) = (d.usize("traj_b"), d.usize("traj_steps"));
    let links = lc.len() / 3;
    let mut w = World::new();
    let mut movers = Vec::new();
    // `add_shapes(fitted_links, kind="kinematic")`: the fitted boxes, at the identity pose.
    w.insert_many(
        (0..links).map(|i| {
            let axes = Matrix3::from_row_slice(&la[9 * i..9 * i + 9]);
            let obb = Obb::new_unchecked(point(&lc, i), axes, point(&lh, i).coords);
            desc(Shape::Obb(obb), Isometry3::identity(), Kind::Kinematic)
        }),
        &mut movers,
    )
    .expect("links");
    let mut env = Vec::new();
    // `add_boxes(centers, half_extents, kind="static")`: AABBs at the origin, translated.
    w.insert_many(
        (0..ec.len() / 3).map(|i| {
            let b = Aabb::from_center_half_extents(Point3::origin(), point(&eh, i).coords)
                .expect("a valid box");
            desc(Shape::Aabb(b), pose(&ec, None, i), Kind::Static)
        }),
        &mut env,
    )
    .expect("environment");
    for i in 0..links - 1 {
        w.allow_pair(movers[i], movers[i + 1], false).expect("pair");
    }
    w.allow_pair(movers[0], env[0], false).expect("pair");
    let (rows, rest) = poses.as_chunks::<7>();
    assert!(rest.is_empty() && rows.len() == b * steps * links);
    for (name, sweep) in [("traj", Sweep::Discrete), ("traj_swept", Sweep::Swept)] {
        let options = TrajectoryOptions {
            sweep,
            all_hits: false,
            distance: None,
        };
        let check = || {
            let mut out = vec![TrajectoryResult::default(); b];
            w.check_trajectories_raw(&movers, rows, steps, &options, &Serial, &mut out)
                .expect("trajectories");
            out
        };
        let res = check();
        let t = best_of(repeat, check);
        println!("rate {name} {}", b as f64 / t);
        let first: Vec<i64> = res
            .iter()
            .map(|r| r.first_hit.as_ref().map_or(-1, |h| h.step as i64))
            .collect();
        println!(
            "check {name}_colliding {}",
            first.iter().filter(|&&s| s >= 0).count()
        );
        println!("check {name}_stepsum {}", first.iter().sum::<i64>());
    }
}

fn world_update(d: &Data, frames: usize) {
    let (c, h, q) = (d.reals("world_c"), d.reals("world_h"), d.reals("world_q"));
    let k = c.len() / 3;
    let moved: Vec<Vec<Real>> = (0..4).map(|i| d.reals(&format!("world_m{i}"))).collect();
    let mut w = World::new();
    let mut ids: Vec<ColliderId> = Vec::new();
    // `add_boxes(c, h, q)`: AABBs at the origin placed at (c, q).
    w.insert_many(
        (0..k).map(|i| {
            let b = Aabb::from_center_half_extents(Point3::origin(), point(&h, i).coords)
                .expect("a valid box");
            desc(Shape::Aabb(b), pose(&c, Some(&q), i), Kind::Dynamic)
        }),
        &mut ids,
    )
    .expect("insert");
    w.update(&Serial);
    // The script's frames: positions moved[i % 4] for i = 1, 2, ...; set_poses + update.
    let mut best = f64::INFINITY;
    for f in 1..=frames {
        let t = Instant::now();
        let p = &moved[f % 4];
        let poses: Vec<Isometry3> = (0..k).map(|i| pose(p, Some(&q), i)).collect();
        w.set_poses(&ids, &poses).expect("poses");
        black_box(w.update(&Serial));
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("rate world {}", 1.0 / best);
    println!("check world_touching {}", w.touching().count());
    println!("check world_hash {}", w.state_hash());
}

fn main() {
    let dir = std::env::args().nth(1).expect("usage: py_parity DIR");
    let d = Data::open(Path::new(&dir));
    let precision = if std::mem::size_of::<Real>() == 4 {
        "f32"
    } else {
        "f64"
    };
    println!("precision {precision}");
    assert_eq!(d.meta["precision"], precision, "the data's precision");
    let repeat = d.usize("repeat");
    pairs(&d, repeat);
    rays(&d, repeat);
    trajectories(&d, repeat);
    world_update(&d, d.usize("world_frames"));
}
