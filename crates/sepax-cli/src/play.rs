//! `sepax play SCENE`: runs a scene's `frames` through the collision world and prints the
//! begin and end events of every frame.
//!
//! Frame 0 is the scene as written, frame `k >= 1` applies the file's `frames[k - 1]`
//! (docs/scene-format.md). The events of frame `k` are exactly the difference between the pairs
//! touching at frame `k - 1` and at frame `k` (at frame 0, every touching pair begins), where
//! touching is what `sepax check` answers on that frame's placements: the same world, the same
//! pair filter (listed `pairs`, layers and masks), the same narrow-phase test.
//!
//! Text output: one line per event, `frame K begin A B` or `frame K end A B`, the two ids in
//! file order and quoted as `check` quotes them; a frame's begin lines come before its end
//! lines, each sorted by pair (file order of the first shape, then of the second); then one
//! line `summary: F frames, B begin, E end, T touching at the last frame`. With `--json`:
//! `{"frames": [{"frame": 0, "begin": [["a", "b"], ...], "end": [...], "touching": 7}, ...],
//! "summary": {"frames": F, "begin": B, "end": E, "touching": T}}` (`touching`: pairs touching
//! after that frame; in the summary, after the last frame).
//!
//! With `--trajectory` the frames are one robot trajectory instead (`trajectory.rs`): one
//! answer, the first frame with a touching pair that involves a moving shape (`--swept`: or a
//! contact during the motion into that frame, with its fraction `t`).
//!
//! Output streams frame by frame. Bad input (the scene, its frames) exits 2 before anything is
//! written; write errors and a closed pipe end the command as the other subcommands do.

use crate::exec::Exec;
use crate::input::{load_scene, CliError};
use crate::output::{quote, Out};
use crate::scene_world::{world_error, SceneWorld};
use clap::Args;
use sepax_scene::Scene;
use sepax_shapes::Shape;
use sepax_world::PairEvent;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `sepax play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The scene file (JSON, version 1, with a `frames` list; without one it has one frame).
    pub scene: PathBuf,
    /// Print one JSON document (`{"frames": [...], "summary": {...}}`) instead of lines.
    #[arg(long)]
    pub json: bool,
    /// Threads of the world's update, 1 to 256 (the output is the same for every number).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=crate::exec::MAX_THREADS))]
    pub threads: u64,
    /// Treat the frames as a robot trajectory (the shapes that move are the links): print the
    /// first frame with a touching pair and that pair (`--json`: `{"first_hit": ...}`).
    #[arg(long)]
    pub trajectory: bool,
    /// With --trajectory, also check the motion from each frame to the next (centres on a
    /// straight line, orientations along the shortest arc) and report the fraction `t` of it
    /// at first contact.
    #[arg(long, requires = "trajectory")]
    pub swept: bool,
    /// With --trajectory, exit with status 1 when a pair touches.
    #[arg(long, requires = "trajectory")]
    pub fail_on_hit: bool,
}

/// One frame's events as shape indices, each list sorted by pair.
#[derive(Debug, Default)]
struct FrameEvents {
    begin: Vec<(usize, usize)>,
    end: Vec<(usize, usize)>,
    touching: usize,
}

/// Runs the scene frame by frame through the world, handing each frame's events to `f`.
fn run_frames(
    scene: &Scene,
    threads: u64,
    mut f: impl FnMut(usize, &FrameEvents) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let exec = Exec::new(threads)?;
    let mut moving = vec![false; scene.shapes.len()];
    for frame in &scene.frames {
        for &(i, _) in &frame.poses {
            if let Some(m) = moving.get_mut(i) {
                *m = true;
            }
        }
    }
    let placements: Vec<Shape> = scene.shapes.iter().map(|s| s.shape).collect();
    let SceneWorld { mut world, ids } = SceneWorld::new(scene, &placements, &moving)?;
    let index = |id| ids.binary_search(&id).unwrap_or(usize::MAX);
    let mut out = FrameEvents::default();
    for k in 0..scene.frame_count() {
        let _span = tracing::debug_span!("frame", k).entered();
        if k > 0 {
            for &(i, shape) in &scene.frames[k - 1].poses {
                world
                    .set_shape(ids[i], shape)
                    .map_err(|e| world_error(scene, Some(k), &e))?;
            }
        }
        let events = world.update(&exec);
        let pairs = |list: &[PairEvent]| -> Vec<(usize, usize)> {
            list.iter()
                .map(|e| (index(e.pair.0), index(e.pair.1)))
                .collect()
        };
        out.begin = pairs(&events.begin);
        out.end = pairs(&events.end);
        out.touching = events.stats.touching;
        f(k, &out)?;
    }
    Ok(())
}

/// One frame of the JSON document (fields in this order).
#[derive(serde::Serialize)]
struct JsonFrame<'a> {
    frame: usize,
    begin: Vec<[&'a str; 2]>,
    end: Vec<[&'a str; 2]>,
    touching: usize,
}

/// The summary of the JSON document.
#[derive(serde::Serialize)]
struct JsonSummary {
    frames: usize,
    begin: u64,
    end: u64,
    touching: usize,
}

/// Runs `sepax play`.
pub fn run(args: &PlayArgs) -> Result<ExitCode, CliError> {
    let scene = load_scene(&args.scene)?;
    if args.trajectory {
        return crate::trajectory::run(
            &scene,
            args.json,
            args.swept,
            args.fail_on_hit,
            args.threads,
        );
    }
    let _span = tracing::info_span!("play", frames = scene.frame_count()).entered();
    let mut out = Out::stdout();
    let (mut begins, mut ends, mut touching) = (0u64, 0u64, 0usize);
    let id = |i: usize| scene.shapes[i].id.as_str();
    if args.json {
        out.write_str("{\"frames\":[")?;
    }
    run_frames(&scene, args.threads, |k, ev| {
        begins += ev.begin.len() as u64;
        ends += ev.end.len() as u64;
        touching = ev.touching;
        if args.json {
            let names =
                |l: &[(usize, usize)]| l.iter().map(|&(i, j)| [id(i), id(j)]).collect::<Vec<_>>();
            out.write_str(if k == 0 { "\n" } else { ",\n" })?;
            out.json(&JsonFrame {
                frame: k,
                begin: names(&ev.begin),
                end: names(&ev.end),
                touching: ev.touching,
            })
        } else {
            for (what, list) in [("begin", &ev.begin), ("end", &ev.end)] {
                for &(i, j) in list {
                    out.line(&format!(
                        "frame {k} {what} {} {}",
                        quote(id(i)),
                        quote(id(j))
                    ))?;
                }
            }
            Ok(())
        }
    })?;
    let frames = scene.frame_count();
    if args.json {
        out.write_str("\n],\"summary\":")?;
        out.json(&JsonSummary {
            frames,
            begin: begins,
            end: ends,
            touching,
        })?;
        out.write_str("}\n")?;
    } else {
        out.line(&format!(
            "summary: {frames} frames, {begins} begin, {ends} end, {touching} touching at the last frame"
        ))?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
