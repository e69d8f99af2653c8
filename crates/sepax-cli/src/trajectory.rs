//! `sepax play SCENE --trajectory`: the frames as a robot trajectory. The shapes named in
//! some frame are the robot's links, the others its environment; each frame is one step of
//! one trajectory, checked by [`sepax_world::World::check_trajectories`]: every link against
//! the environment and against the other links, through the scene's filter (listed `pairs`,
//! layers and masks). A link's placement at frame `k` is its frame-0 shape moved by the rigid
//! motion to that frame's placement (centre and orientation, see `rigid.rs`), so contacts are
//! those of `check` on the frame up to the rounding of that move. Contacts among the
//! environment's own shapes are not the trajectory's and are not reported.
//!
//! With `--swept` the motion from frame `k - 1` to frame `k` is checked too (centres on a
//! straight line, orientations along the shortest arc, sizes fixed), and a contact during it
//! is reported at frame `k` with `t`, the fraction of the motion at first contact.
//!
//! Text: `first hit: frame K A B` (swept, `K >= 1`: `first hit: frame K t T A B`), or
//! `no hit in F frames`. JSON: `{"first_hit": {"frame": K, "t": T, "a": A, "b": B}}` (`t` only
//! when swept and `K >= 1`) or `{"first_hit": null}`. `A` and `B` in file order.

use crate::exec::Exec;
use crate::input::CliError;
use crate::output::{quote, Out};
use crate::rigid;
use crate::scene_world::SceneWorld;
use sepax_scene::Scene;
use sepax_shapes::math::{Isometry3, Real};
use sepax_shapes::Shape;
use sepax_world::{Sweep, TrajectoryError, TrajectoryOptions};
use std::process::ExitCode;

/// The first contact: frame, `t` (swept, frame >= 1), the two shape indices in file order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FirstHit {
    /// The frame.
    pub frame: usize,
    /// The fraction of the motion from the frame before.
    pub t: Option<Real>,
    /// The shapes, `a < b` in file order.
    pub a: usize,
    /// The second shape.
    pub b: usize,
}

/// Finds the first hit of the scene's frames as a trajectory.
pub fn first_hit(scene: &Scene, swept: bool, threads: u64) -> Result<Option<FirstHit>, CliError> {
    let exec = Exec::new(threads)?;
    let frame0: Vec<Shape> = scene.shapes.iter().map(|s| s.shape).collect();
    let mut moving = vec![false; scene.shapes.len()];
    for frame in &scene.frames {
        for &(i, _) in &frame.poses {
            if let Some(m) = moving.get_mut(i) {
                *m = true;
            }
        }
    }
    let links: Vec<usize> = (0..moving.len()).filter(|&i| moving[i]).collect();
    if links.is_empty() {
        return Ok(None);
    }
    let sw = SceneWorld::new(scene, &frame0, &moving)?;
    let movers: Vec<_> = links.iter().map(|&i| sw.ids[i]).collect();
    let mut poses: Vec<Isometry3> = Vec::with_capacity(scene.frame_count() * links.len());
    let mut current = frame0.clone();
    for k in 0..scene.frame_count() {
        if k > 0 {
            for &(i, shape) in &scene.frames[k - 1].poses {
                current[i] = shape;
            }
        }
        poses.extend(
            links
                .iter()
                .map(|&i| rigid::motion(&frame0[i], &current[i])),
        );
    }
    let options = TrajectoryOptions {
        sweep: if swept { Sweep::Swept } else { Sweep::Discrete },
        ..TrajectoryOptions::default()
    };
    let report = sw
        .world
        .check_trajectories(&movers, &poses, scene.frame_count(), &options, &exec)
        .map_err(|e| match e {
            TrajectoryError::Pose {
                step,
                mover,
                source,
                ..
            } => CliError::new(format!(
                "frame {step}: shape {:?}: {source}",
                scene.shapes[links[mover]].id
            )),
            e => CliError::new(e.to_string()),
        })?;
    Ok(report
        .trajectories
        .first()
        .and_then(|r| r.first_hit)
        .map(|h| FirstHit {
            frame: h.step,
            t: h.t,
            a: sw.index(h.pair.0),
            b: sw.index(h.pair.1),
        }))
}

#[derive(serde::Serialize)]
struct JsonHit<'a> {
    frame: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    t: Option<Real>,
    a: &'a str,
    b: &'a str,
}

#[derive(serde::Serialize)]
struct JsonDoc<'a> {
    first_hit: Option<JsonHit<'a>>,
}

/// Runs the trajectory mode and writes its one answer.
pub fn run(
    scene: &Scene,
    json: bool,
    swept: bool,
    fail_on_hit: bool,
    threads: u64,
) -> Result<ExitCode, CliError> {
    let _span = tracing::info_span!("trajectory", frames = scene.frame_count(), swept).entered();
    let hit = first_hit(scene, swept, threads)?;
    let id = |i: usize| scene.shapes[i].id.as_str();
    let mut out = Out::stdout();
    if json {
        out.json(&JsonDoc {
            first_hit: hit.map(|h| JsonHit {
                frame: h.frame,
                t: h.t,
                a: id(h.a),
                b: id(h.b),
            }),
        })?;
        out.write_str("\n")?;
    } else {
        match hit {
            Some(h) => {
                let t = h.t.map(|t| format!(" t {t}")).unwrap_or_default();
                out.line(&format!(
                    "first hit: frame {}{t} {} {}",
                    h.frame,
                    quote(id(h.a)),
                    quote(id(h.b))
                ))?;
            }
            None => out.line(&format!("no hit in {} frames", scene.frame_count()))?,
        }
    }
    out.flush()?;
    Ok(if fail_on_hit && hit.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
