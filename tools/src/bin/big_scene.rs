//! Scale check: writes a scene of 1,000,000 shapes (all five types, with pairs) to a temporary
//! folder, then loads it with `read_scene_file` in a fresh process and prints the file size, the
//! load time and the peak memory of the loading process (VmHWM from /proc/self/status, Linux).
//!
//! ```sh
//! cargo run --release -p sepax-tools --bin big_scene            # 1,000,000 shapes
//! cargo run --release -p sepax-tools --bin big_scene -- 200000  # another count
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_scene::{read_scene_file, write_scene, Scene, SceneShape};
use sepax_shapes::math::{Point3, Quaternion, Real, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, Sphere, Triangle};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, path] = args.as_slice() {
        if flag == "--load" {
            return load(Path::new(path));
        }
    }
    let count: usize = match args.get(1) {
        Some(n) => n.parse()?,
        None => 1_000_000,
    };

    let dir = std::env::temp_dir().join(format!("sepax-big-scene-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path: PathBuf = dir.join("big_scene.json");
    let start = Instant::now();
    let text = write_scene(&generate(count)?);
    std::fs::write(&path, &text)?;
    println!(
        "wrote {count} shapes ({} pairs) to {} in {:.2} s",
        count / 10,
        path.display(),
        start.elapsed().as_secs_f64()
    );
    drop(text);

    // Load in a fresh process so that its peak memory is the loader's alone.
    let status = Command::new(std::env::current_exe()?)
        .arg("--load")
        .arg(&path)
        .status()?;
    std::fs::remove_dir_all(&dir)?;
    if !status.success() {
        return Err("loading failed".into());
    }
    Ok(())
}

fn load(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let size = std::fs::metadata(path)?.len();
    let before = peak_kib();
    let start = Instant::now();
    let scene = read_scene_file(path)?;
    let seconds = start.elapsed().as_secs_f64();
    let peak = peak_kib();
    let pairs = scene.pairs.as_ref().map_or(0, Vec::len);
    println!(
        "read {} shapes and {pairs} pairs ({} build) from {:.1} MB in {seconds:.2} s",
        scene.shapes.len(),
        std::any::type_name::<Real>(),
        size as f64 / 1e6,
    );
    match (before, peak) {
        (Some(before), Some(peak)) => println!(
            "peak memory (VmHWM) {:.1} MB: {:.2} x the file size (before loading: {:.1} MB)",
            peak as f64 / 1024.0,
            peak as f64 * 1024.0 / size as f64,
            before as f64 / 1024.0
        ),
        _ => println!("peak memory: /proc/self/status has no VmHWM on this system"),
    }
    Ok(())
}

/// VmHWM (peak resident set size) in KiB.
fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `count` shapes cycling through the five types, ids "s0", "s1", ..., and `count / 10` pairs.
fn generate(count: usize) -> Result<Scene, sepax_shapes::ShapeError> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut shapes = Vec::with_capacity(count);
    for i in 0..count {
        let c = Point3::new(
            rng.random_range(-1000.0..1000.0),
            rng.random_range(-1000.0..1000.0),
            rng.random_range(-1000.0..1000.0),
        );
        let h = Vector3::new(
            rng.random_range(0.0..2.0),
            rng.random_range(0.0..2.0),
            rng.random_range(0.0..2.0),
        );
        let r: Real = rng.random_range(0.0..1.0);
        let shape =
            match i % 5 {
                0 => Shape::Aabb(Aabb::new(c - h, c + h)?),
                1 => {
                    let q = Quaternion::new(
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                    );
                    let q = q / q.norm().max(1e-3);
                    Shape::Obb(Obb::from_quaternion(c, q, h).or_else(|_| {
                        Obb::from_quaternion(c, Quaternion::new(1.0, 0.0, 0.0, 0.0), h)
                    })?)
                }
                2 => Shape::Sphere(Sphere::new(c, r)?),
                3 => Shape::Capsule(Capsule::new(c, c + h, r)?),
                _ => Shape::Triangle(Triangle::new(c, c + h, c + Vector3::new(h.y, 0.0, h.x))?),
            };
        shapes.push(SceneShape {
            id: format!("s{i}"),
            shape,
            layer: (i % 7 == 0).then_some(1 << (i % 32)),
            mask: (i % 11 == 0).then_some(u32::MAX),
            collider: None,
        });
    }
    let pairs = (0..count / 10)
        .map(|_| {
            (
                rng.random_range(0..count / 2) * 2,
                1 + rng.random_range(0..count / 2) * 2,
            )
        })
        .collect::<Vec<_>>();
    // Random pairs may repeat, which the format forbids: keep the first of each.
    let mut seen = std::collections::HashSet::new();
    let pairs = pairs
        .into_iter()
        .filter(|&(a, b)| a < count && b < count && seen.insert((a.min(b), a.max(b))))
        .collect();
    Ok(Scene {
        shapes,
        pairs: Some(pairs),
        frames: Vec::new(),
        ..Scene::default()
    })
}
