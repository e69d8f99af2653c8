//! `sepax demo`: a seeded room full of moving shapes, run frame by frame through the collision
//! world (`set_shape` for each moving shape, then `World::update` on `--threads N`), with the
//! begin / persist / end events per frame, the world's statistics and per-phase timings, and a
//! picture of the last frame.
//!
//! The room is a floor and four walls (static colliders). The moving shapes (dynamic colliders
//! reporting persist events) are oriented boxes with random rotations and spins, some
//! axis-aligned boxes, spheres and spinning capsules, all with constant velocities that flip
//! when a shape's world AABB leaves the room. Pairs of static shapes (the walls stand on the
//! floor, so they touch) are not tested: the world's default pair policy. The picture draws the
//! floor and walls plainly, the touching shapes highlighted and those whose contact began in
//! the last frame marked; the output is the same for every thread count (timings aside).

use crate::demo_probe::{ProbeStats, Probes};
use crate::demo_report::{report, Last, Stats};
use crate::exec::Exec;
use crate::input::CliError;
use crate::output::{Out, OutputFile};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_scene::svg::{render_drawing, Style, StyledShape, SvgOptions};
use sepax_shapes::math::{Point3, Quaternion, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, ShapeError, Sphere};
use sepax_world::{ColliderDesc, ColliderId, Kind, Report, World};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `sepax demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Number of moving shapes, 0 to 1,000,000 (the floor and the four walls come on top).
    #[arg(long, value_name = "N", default_value_t = 3000,
          value_parser = clap::value_parser!(u64).range(0..=MAX_SHAPES))]
    pub shapes: u64,
    /// Number of frames to simulate (at 60 frames per simulated second), 1 to 100,000; shapes
    /// (with the 5 static ones) times frames may be at most 1,000,000,000.
    #[arg(long, value_name = "N", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..=MAX_FRAMES))]
    pub frames: u64,
    /// Seed of the random scene (the same seed gives the same run).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Where to write the SVG picture of the last frame (hits highlighted); created before the
    /// run starts and removed again if the run fails.
    #[arg(long, value_name = "PATH", default_value = "demo.svg")]
    pub svg: PathBuf,
    /// Threads of the world's narrow phase, 1 to 256 (the output is the same for every number).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=crate::exec::MAX_THREADS))]
    pub threads: u64,
}

/// Most moving shapes `--shapes` accepts (memory is a few hundred bytes per shape).
pub const MAX_SHAPES: u64 = 1_000_000;
/// Most frames `--frames` accepts.
pub const MAX_FRAMES: u64 = 100_000;
/// Most shape-frames (all shapes, static ones included, times frames) of one run: about a
/// minute or a few at the demo's speed.
pub const MAX_SHAPE_FRAMES: u64 = 1_000_000_000;

/// Time step of a frame, in seconds.
const DT: Real = 1.0 / 60.0;
/// Height of the room's walls.
pub const HEIGHT: Real = 8.0;
/// Thickness of the floor and walls.
const THICKNESS: Real = 1.0;
/// Number of static shapes (floor + 4 walls), which come first.
pub const STATIC: usize = 5;

/// How a moving shape is described between frames.
#[derive(Debug, Clone, Copy)]
enum Body {
    /// An axis-aligned box: it translates but never turns.
    Aabb { half: Vector3 },
    /// An oriented box turning by `spin` every frame.
    Obb {
        half: Vector3,
        rotation: UnitQuaternion,
        spin: UnitQuaternion,
    },
    /// A sphere.
    Sphere { radius: Real },
    /// A capsule whose axis (`half_axis`, from the centre to `p1`) turns by `spin` every frame.
    Capsule {
        half_axis: Vector3,
        radius: Real,
        spin: UnitQuaternion,
    },
}

#[derive(Debug, Clone, Copy)]
pub struct Mover {
    center: Point3,
    velocity: Vector3,
    body: Body,
}

impl Mover {
    /// The shape kind's name (`obb`, `aabb`, `sphere`, `capsule`).
    pub fn kind(&self) -> &'static str {
        kind_name(&self.body)
    }

    fn shape(&self) -> Result<Shape, ShapeError> {
        let c = self.center;
        Ok(match self.body {
            Body::Aabb { half } => Shape::Aabb(Aabb::from_center_half_extents(c, half)?),
            Body::Obb { half, rotation, .. } => Shape::Obb(Obb::from_rotation(c, rotation, half)?),
            Body::Sphere { radius } => Shape::Sphere(Sphere::new(c, radius)?),
            Body::Capsule {
                half_axis, radius, ..
            } => Shape::Capsule(Capsule::new(c - half_axis, c + half_axis, radius)?),
        })
    }

    /// Moves by one frame and turns by one spin step.
    fn advance(&mut self) {
        self.center += self.velocity * DT;
        match &mut self.body {
            Body::Obb { rotation, spin, .. } => {
                *rotation = *spin * *rotation;
                rotation.renormalize_fast();
            }
            Body::Capsule {
                half_axis, spin, ..
            } => *half_axis = *spin * *half_axis,
            Body::Aabb { .. } | Body::Sphere { .. } => {}
        }
    }

    /// Flips the velocity on each axis where the world AABB is out of the room and still moving
    /// out.
    fn bounce(&mut self, bounds: &Aabb, room_half: Real) {
        let lo = [-room_half, 0.0, -room_half];
        let hi = [room_half, HEIGHT, room_half];
        for k in 0..3 {
            if (bounds.min()[k] < lo[k] && self.velocity[k] < 0.0)
                || (bounds.max()[k] > hi[k] && self.velocity[k] > 0.0)
            {
                self.velocity[k] = -self.velocity[k];
            }
        }
    }
}

fn kind_name(body: &Body) -> &'static str {
    match body {
        Body::Aabb { .. } => "aabb",
        Body::Obb { .. } => "obb",
        Body::Sphere { .. } => "sphere",
        Body::Capsule { .. } => "capsule",
    }
}

// The scene is drawn from the seed in `f64` and rounded to `Real` only when a shape is made, so
// that both builds draw the same random numbers and get the same scene (`f32` sampling consumes
// a different stream from the generator than `f64` sampling, and rejection loops then diverge).

/// A point uniformly distributed in the unit ball (rejection sampling), not too near the centre.
fn in_ball(rng: &mut ChaCha8Rng) -> [f64; 3] {
    loop {
        let v: [f64; 3] = std::array::from_fn(|_| rng.random_range(-1.0..=1.0));
        let n2 = v.iter().map(|x| x * x).sum::<f64>();
        if n2 > 1e-2 && n2 <= 1.0 {
            return v;
        }
    }
}

/// A unit vector uniformly distributed over directions.
fn direction(rng: &mut ChaCha8Rng) -> [f64; 3] {
    let v = in_ball(rng);
    let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.map(|x| x / n)
}

fn real3(v: [f64; 3]) -> Vector3 {
    Vector3::new(v[0] as Real, v[1] as Real, v[2] as Real)
}

/// A rotation uniformly distributed over all rotations.
fn random_rotation(rng: &mut ChaCha8Rng) -> UnitQuaternion {
    loop {
        let q: [f64; 4] = std::array::from_fn(|_| rng.random_range(-1.0..=1.0));
        let n2 = q.iter().map(|x| x * x).sum::<f64>();
        if n2 > 1e-2 && n2 <= 1.0 {
            let q = q.map(|x| (x / n2.sqrt()) as Real);
            return UnitQuaternion::new_normalize(Quaternion::new(q[0], q[1], q[2], q[3]));
        }
    }
}

/// A per-frame rotation step: a random axis, up to 3 radians per second.
fn random_spin(rng: &mut ChaCha8Rng) -> UnitQuaternion {
    let axis = direction(rng);
    let rate: f64 = rng.random_range(0.0..3.0);
    UnitQuaternion::from_scaled_axis(real3(axis.map(|x| x * rate * DT as f64)))
}

/// Random half extents, and the length of the half diagonal (a bound of the box's reach).
fn random_half(rng: &mut ChaCha8Rng) -> (Vector3, f64) {
    let h: [f64; 3] = std::array::from_fn(|_| rng.random_range(0.1..0.7));
    (real3(h), h.iter().map(|x| x * x).sum::<f64>().sqrt())
}

/// Half the side of the (square) room: about 10 cubic units of room per moving shape.
fn room_half_side(n: usize) -> f64 {
    let area = (n as f64) * 10.0 / HEIGHT as f64;
    (area.sqrt() / 2.0).max(4.0)
}

fn room(l: Real) -> Result<Vec<Shape>, ShapeError> {
    let (t, h) = (THICKNESS, HEIGHT);
    let b = |min: [Real; 3], max: [Real; 3]| -> Result<Shape, ShapeError> {
        Ok(Shape::Aabb(Aabb::new(
            Point3::from(min),
            Point3::from(max),
        )?))
    };
    Ok(vec![
        b([-l - t, -t, -l - t], [l + t, 0.0, l + t])?,
        b([-l - t, 0.0, -l - t], [-l, h, l + t])?,
        b([l, 0.0, -l - t], [l + t, h, l + t])?,
        b([-l, 0.0, -l - t], [l, h, -l])?,
        b([-l, 0.0, l], [l, h, l + t])?,
    ])
}

fn generate(rng: &mut ChaCha8Rng, n: usize, l: f64) -> Vec<Mover> {
    let h = HEIGHT as f64;
    (0..n)
        .map(|_| {
            let (body, reach) = match rng.random_range(0..10) {
                0..=4 => {
                    let (half, reach) = random_half(rng);
                    let body = Body::Obb {
                        half,
                        rotation: random_rotation(rng),
                        spin: random_spin(rng),
                    };
                    (body, reach)
                }
                5 => {
                    let (half, reach) = random_half(rng);
                    (Body::Aabb { half }, reach)
                }
                6 | 7 => {
                    let radius: f64 = rng.random_range(0.15..0.6);
                    let body = Body::Sphere {
                        radius: radius as Real,
                    };
                    (body, radius)
                }
                _ => {
                    let axis = direction(rng);
                    let len: f64 = rng.random_range(0.2..0.9);
                    let radius: f64 = rng.random_range(0.08..0.3);
                    let body = Body::Capsule {
                        half_axis: real3(axis.map(|x| x * len)),
                        radius: radius as Real,
                        spin: random_spin(rng),
                    };
                    (body, len + radius)
                }
            };
            let speed: f64 = rng.random_range(0.5..3.0);
            let velocity = real3(direction(rng).map(|x| x * speed));
            let r = reach.min(l * 0.5).min(h * 0.5);
            let center = [
                rng.random_range(-l + r..=l - r),
                rng.random_range(r..=h - r),
                rng.random_range(-l + r..=l - r),
            ];
            Mover {
                center: Point3::from(real3(center)),
                velocity,
                body,
            }
        })
        .collect()
}

fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Runs `sepax demo`.
pub fn run(args: &DemoArgs) -> Result<ExitCode, CliError> {
    let _span = tracing::info_span!("demo", shapes = args.shapes, frames = args.frames).entered();
    let shape_frames = (args.shapes + STATIC as u64).saturating_mul(args.frames);
    if shape_frames > MAX_SHAPE_FRAMES {
        return Err(CliError::new(format!(
            "demo: --shapes {} with --frames {} is {shape_frames} shape-frames (the {STATIC} \
             static shapes included); at most {MAX_SHAPE_FRAMES} are allowed",
            args.shapes, args.frames
        )));
    }
    let svg = OutputFile::create(&args.svg)?;
    let demo_err = |e: ShapeError| CliError::new(format!("demo: {e}"));
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    // In range (checked by the argument parser), so it fits in memory and in `usize`.
    let count = args.shapes as usize;
    let l64 = room_half_side(count);
    let mut movers = generate(&mut rng, count, l64);
    let l = l64 as Real;
    let mut shapes = room(l).map_err(demo_err)?;
    shapes.reserve(movers.len());
    for m in &movers {
        shapes.push(m.shape().map_err(demo_err)?);
    }
    let mut ids: Vec<String> = ["floor", "wall-x0", "wall-x1", "wall-z0", "wall-z1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    ids.extend(
        movers
            .iter()
            .enumerate()
            .map(|(k, m)| format!("{}{k}", kind_name(&m.body))),
    );
    tracing::info!(room_half_side = l as f64, "scene generated");

    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(args.frames), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} frames {elapsed_precise} {msg}")
    {
        bar.set_style(style);
    }

    let exec = Exec::new(args.threads)?;
    let mut world = World::new();
    let descs = shapes.iter().enumerate().map(|(k, s)| {
        let d = ColliderDesc::new(*s).report(Report::Persist);
        if k < STATIC {
            d.kind(Kind::Static)
        } else {
            d
        }
    });
    let mut handles = Vec::with_capacity(shapes.len());
    world
        .insert_many(descs, &mut handles)
        .map_err(|e| CliError::new(format!("demo: {e}")))?;
    let mut stats = Stats {
        min_hits: u64::MAX,
        ..Stats::default()
    };
    let mut probes = Probes::default();
    let mut probe_stats = ProbeStats::default();
    let started = Instant::now();
    for frame in 0..args.frames {
        let _frame = tracing::debug_span!("frame", frame).entered();
        let t = Instant::now();
        {
            let _s = tracing::debug_span!("move").entered();
            for (k, m) in movers.iter_mut().enumerate() {
                m.advance();
                let shape = m.shape().map_err(demo_err)?;
                m.bounce(&shape.world_aabb(), l);
                shapes[STATIC + k] = shape;
                world
                    .set_shape(handles[STATIC + k], shape)
                    .map_err(|e| CliError::new(format!("demo: {}: {e}", ids[STATIC + k])))?;
            }
        }
        stats.move_ms += ms_since(t);
        let events = world.update(&exec);
        stats.add(events);
        let h = events.stats.touching as u64;
        let candidates = events.stats.candidates;
        let t = Instant::now();
        probes
            .run(&world, &exec, frame, l, &mut probe_stats)
            .map_err(|e| CliError::new(format!("demo: probe of frame {frame}: {e}")))?;
        probe_stats.ms += ms_since(t);
        tracing::debug!(candidates, touching = h, "frame done");
        bar.inc(1);
        if frame.is_multiple_of(16) {
            bar.set_message(format!("{candidates} candidates, {h} touching"));
        }
    }
    let run_s = started.elapsed().as_secs_f64();
    bar.finish_and_clear();

    // The picture of the last frame.
    let t = Instant::now();
    let index = |id: ColliderId| handles.binary_search(&id).unwrap_or(usize::MAX);
    let mut style = vec![Style::Plain; shapes.len()];
    for p in world.touching() {
        for id in [p.0, p.1] {
            if let Some(s) = style.get_mut(index(id)) {
                *s = Style::Touching;
            }
        }
    }
    for e in &world.events().begin {
        for id in [e.pair.0, e.pair.1] {
            if let Some(s) = style.get_mut(index(id)) {
                *s = Style::Began;
            }
        }
    }
    style[..STATIC].fill(Style::Static);
    let draw: Vec<StyledShape<'_>> = shapes
        .iter()
        .zip(&ids)
        .zip(&style)
        .map(|((shape, id), &style)| StyledShape { id, shape, style })
        .collect();
    let options = SvgOptions {
        title: format!(
            "sepax demo: frame {} of {} shapes, seed {}",
            args.frames,
            shapes.len(),
            args.seed
        ),
        ..SvgOptions::default()
    };
    let rays: Vec<_> = probes.last.iter().map(|p| p.draw()).collect();
    svg.finish(&render_drawing(&draw, &[], &rays, &options))?;
    let svg_ms = ms_since(t);
    let last = Last {
        events: world.events(),
        sah: world.tree_sah_costs(),
        highlighted: style.iter().filter(|&&s| s >= Style::Touching).count(),
        probes: probe_stats,
        svg_ms,
    };

    let mut out = Out::stdout();
    let report = report(args, &movers, &shapes, l, &stats, run_s, &last);
    out.write_str(&report)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
