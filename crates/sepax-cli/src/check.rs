//! `sepax check SCENE`: which pairs of a scene intersect.
//!
//! Output contract (docs: ARCHITECTURE.md, "Data flow of the main job"): one intersecting pair per
//! line, `idA idB` with the two ids in the order the shapes appear in the file, lines sorted by
//! that order (first shape, then second); `--json` prints `{"pairs": [...], "stats": {...}}`.
//! Ids in text output are printed as [`crate::output::quote`] gives them (quoted with JSON
//! escapes unless made only of safe printable characters).
//!
//! The scene is put on the collision world ([`crate::scene_world`]: every pair tested, layers,
//! masks and listed pairs compiled to the world's filter) and its touching pairs are streamed
//! from `World::for_each_touching`, written as they are found, so memory stays proportional to
//! the scene whatever the number of pairs. The JSON `stats` count as `candidates` the pairs
//! whose world AABBs overlap (or the listed pairs) up to where the output stopped, in a second
//! pass over the world's tree without narrow work (`ms.broad`); `ms.narrow` is the walk over
//! the touching pairs (the world's tree queries and narrow-phase tests). `--threads` is accepted
//! for symmetry with `play` and `demo`; the streaming walk runs on one thread. Exit status: 0 whatever was found, 1 with `--fail-on-hit`
//! when a pair intersects, [`EXIT_MAX_PAIRS`] when `--max-pairs N` stopped the output (the first
//! `N` pairs were written, complete: text lines or a closed JSON document with
//! `"stats": {"stopped_at_max_pairs": true}`), 2 on bad input with one line on stderr and nothing
//! on stdout. A pair whose result cannot be printed (a narrow-phase error, a contact or
//! explanation that is not finite) is an error found while the output streams: what was written
//! ends at a line boundary before that pair, and the exit status is 2.
//!
//! `--contacts` adds, for each intersecting pair, the unit normal from the pair's first shape to
//! the second, the penetration depth (`>= 0`, the minimum translation distance) and the contact
//! manifold's points (midpoints of the two surface points): in text after the ids
//! (`a b normal (x, y, z) depth d points (x, y, z) ...`), in JSON as `"normal"`, `"depth"` and
//! `"points"` in each pair object.

use crate::check_report::{contact_of, explanation_of, JsonPair, PairContact, Witnessed};
use crate::input::{listed_pairs, load_scene, CliError};
use crate::output::{quote, Out, OutputFile};
use crate::scene_world::SceneWorld;
use clap::Args;
use sepax_broadphase::BroadPhase;
use sepax_scene::svg::{render_svg, DrawShape, DrawWitness, SvgOptions};
use sepax_scene::Scene;
use sepax_shapes::math::Real;
use sepax_shapes::{Aabb, Shape};
use sepax_world::{ColliderId, Visit};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Exit status when `--max-pairs N` stopped the output because more than `N` pairs intersect.
pub const EXIT_MAX_PAIRS: u8 = 3;

/// The picture draws the witnesses of at most this many explained pairs (the first ones).
pub const MAX_DRAWN_WITNESSES: usize = 10_000;

/// Arguments of `sepax check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The scene file (JSON, version 1).
    pub scene: PathBuf,
    /// Print JSON (`{"pairs": [{"a": .., "b": ..}, ..], "stats": {..}}`) instead of lines.
    #[arg(long)]
    pub json: bool,
    /// Exit with status 1 when any pair intersects.
    #[arg(long)]
    pub fail_on_hit: bool,
    /// Also explain each box pair (AABB/OBB) in words: every listed pair when the scene lists
    /// `pairs`, otherwise every intersecting pair written.
    #[arg(long)]
    pub explain: bool,
    /// Write an SVG picture to PATH (intersecting shapes highlighted; with --explain, the
    /// witnesses of the first 10,000 explained pairs drawn too). The file is created before the
    /// work starts and removed again if the command fails.
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
    /// For each intersecting pair, also print the contact normal (unit, from the first shape to
    /// the second), the penetration depth (>= 0) and the contact manifold's points.
    #[arg(long)]
    pub contacts: bool,
    /// Write at most N pairs: when more intersect, stop after the first N (in the sorted order,
    /// output complete: lines, or a closed JSON document), say so on stderr and exit with
    /// status 3.
    #[arg(long, value_name = "N")]
    pub max_pairs: Option<u64>,
    /// Threads, 1 to 256, accepted for symmetry with `demo` and `play`: the output is the same
    /// for every number (the streaming walk over the world's touching pairs runs on one).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=crate::exec::MAX_THREADS))]
    pub threads: u64,
}

/// Milliseconds of `secs`, to the microsecond.
fn ms(secs: f64) -> f64 {
    (secs * 1e6).round() / 1e3
}

/// What a walk over the intersecting pairs did.
#[derive(Debug, Clone, Copy, Default)]
struct Walk {
    /// Intersecting pairs handed on (the one that hit `--max-pairs` included).
    hits: usize,
    /// Whether the walk was stopped (by `--max-pairs` or the visitor).
    stopped: bool,
    /// The last pair looked at, when stopped.
    last: Option<(usize, usize)>,
}

/// A scene on the world, ready to be walked (once per output).
struct Job<'a> {
    scene: &'a Scene,
    world: SceneWorld,
    placements: Vec<Shape>,
    listed: Option<Vec<(usize, usize)>>,
    max_pairs: Option<u64>,
}

impl<'a> Job<'a> {
    fn new(scene: &'a Scene, max_pairs: Option<u64>) -> Result<Self, CliError> {
        let listed = scene.pairs.as_ref().map(|l| listed_pairs(l));
        let placements: Vec<Shape> = scene.shapes.iter().map(|s| s.shape).collect();
        let world = SceneWorld::new(scene, &placements, &vec![false; placements.len()])?;
        Ok(Self {
            scene,
            world,
            placements,
            listed,
            max_pairs,
        })
    }

    fn id(&self, i: usize) -> &'a str {
        &self.scene.shapes[i].id
    }

    /// Walks the intersecting pairs in order (the world's touching pairs), at most
    /// `max_pairs` of them, through `f` (which may stop the walk).
    fn hits(
        &self,
        mut f: impl FnMut(usize, usize) -> Result<ControlFlow<()>, CliError>,
    ) -> Result<Walk, CliError> {
        let mut walk = Walk::default();
        let mut failed = None;
        let mut written = 0u64;
        self.world.for_each_touching(|i, j| {
            walk.hits += 1;
            let step = if self.max_pairs.is_some_and(|m| written >= m) {
                Ok(ControlFlow::Break(()))
            } else {
                written += 1;
                f(i, j)
            };
            match step {
                Ok(ControlFlow::Continue(())) => Visit::Continue,
                Ok(ControlFlow::Break(())) => {
                    walk.stopped = true;
                    walk.last = Some((i, j));
                    Visit::Stop
                }
                Err(e) => {
                    failed = Some(e);
                    Visit::Stop
                }
            }
        });
        match failed {
            Some(e) => Err(e),
            None => Ok(walk),
        }
    }

    /// The candidate pairs up to `last` (all when `None`), in the same order: the listed pairs,
    /// or the pairs whose world AABBs overlap (closed sets), found with the world's static tree.
    fn candidates(&self, last: Option<(usize, usize)>) -> usize {
        let upto = |p: (usize, usize)| last.is_none_or(|l| p <= l);
        if let Some(l) = &self.listed {
            return l.iter().filter(|&&p| upto(p)).count();
        }
        let boxes: Vec<Aabb> = self.placements.iter().map(Shape::world_aabb).collect();
        let tree = self.world.world.static_tree();
        let mut count = 0;
        for (i, b) in boxes.iter().enumerate() {
            if last.is_some_and(|l| i > l.0) {
                break;
            }
            tree.query_aabb(b, |p| {
                if let Some(bits) = tree.user(p) {
                    let j = self.world.index(ColliderId::from_bits(bits));
                    if j > i && j < boxes.len() && b.intersects(&boxes[j]) && upto((i, j)) {
                        count += 1;
                    }
                }
                Visit::Continue
            });
        }
        count
    }

    /// Walks the pairs to explain (every listed pair, or the intersecting pairs written) that
    /// are box pairs, with their witnesses checked finite; `f` may stop the walk.
    fn explained(
        &self,
        mut f: impl FnMut(&Witnessed) -> Result<ControlFlow<()>, CliError>,
    ) -> Result<(), CliError> {
        let mut one = |i: usize, j: usize| match explanation_of(self.scene, i, j)? {
            Some(w) => f(&w),
            None => Ok(ControlFlow::Continue(())),
        };
        match &self.listed {
            Some(l) => {
                for &(i, j) in l {
                    if one(i, j)?.is_break() {
                        break;
                    }
                }
                Ok(())
            }
            None => self.hits(one).map(|_| ()),
        }
    }
}

/// Runs `sepax check`.
pub fn run(args: &CheckArgs) -> Result<ExitCode, CliError> {
    let t0 = Instant::now();
    let svg = args.svg.as_deref().map(OutputFile::create).transpose()?;
    let scene = load_scene(&args.scene)?;
    let read_ms = ms(t0.elapsed().as_secs_f64());
    let job = {
        let _span = tracing::info_span!("world", shapes = scene.shapes.len()).entered();
        Job::new(&scene, args.max_pairs)?
    };
    // The picture is finished before anything is printed: if it fails, stdout stays empty.
    if let Some(file) = svg {
        let _span = tracing::info_span!("svg", path = %file.path().display()).entered();
        let title = format!("sepax check {}", args.scene.display());
        file.finish(&picture(&job, args.explain, title)?)?;
    }
    let mut out = Out::stdout();
    let t = Instant::now();
    let visited = {
        let _span = tracing::info_span!("pairs").entered();
        if args.json {
            out.write_str("{\"pairs\":[")?;
        }
        let mut first = true;
        let visited = job.hits(|i, j| {
            // Everything about the pair is computed and checked before any of it is written.
            let contact = args
                .contacts
                .then(|| contact_of(&scene, i, j))
                .transpose()?;
            if args.json {
                out.write_str(if first { "\n" } else { ",\n" })?;
                write_json_pair(&mut out, &job, i, j, contact.as_ref())?;
            } else {
                write_text_pair(&mut out, &job, i, j, contact.as_ref())?;
                out.write_str("\n")?;
            }
            first = false;
            Ok(ControlFlow::Continue(()))
        })?;
        visited
    };
    let pairs_secs = t.elapsed().as_secs_f64();
    let written = visited.hits - usize::from(visited.stopped);
    tracing::info!(
        written,
        stopped = visited.stopped,
        pairs_ms = ms(pairs_secs),
        "pairs written"
    );
    if args.json {
        // The candidates are counted in a second pass of the world's tree, without narrow work.
        let t = Instant::now();
        let candidates = job.candidates(visited.last);
        let broad_secs = t.elapsed().as_secs_f64();
        let stats = serde_json::json!({
            "shapes": scene.shapes.len(),
            "candidates": candidates,
            "pairs": written,
            "stopped_at_max_pairs": visited.stopped,
            "ms": {
                "read": read_ms,
                "broad": ms(broad_secs),
                "narrow": ms(pairs_secs),
                "total": ms(t0.elapsed().as_secs_f64()),
            },
        });
        out.write_str("\n],\"stats\":")?;
        out.json(&stats)?;
        if args.explain {
            out.write_str(",\"explanations\":[")?;
            let mut first = true;
            job.explained(|w| {
                out.write_str(if first { "\n" } else { ",\n" })?;
                first = false;
                out.json(&w.json(&scene))?;
                Ok(ControlFlow::Continue(()))
            })?;
            out.write_str("\n]")?;
        }
        out.write_str("}\n")?;
    } else if args.explain {
        job.explained(|w| {
            out.line(&w.sentence(&scene))?;
            Ok(ControlFlow::Continue(()))
        })?;
    }
    out.flush()?;
    if visited.stopped {
        eprintln_quiet(&format!(
            "sepax: stopped after {written} pairs (--max-pairs {}): more pairs intersect",
            args.max_pairs.unwrap_or(0)
        ));
        return Ok(ExitCode::from(EXIT_MAX_PAIRS));
    }
    Ok(if args.fail_on_hit && written > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// One line on stderr; a closed stderr is not worth a panic.
fn eprintln_quiet(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn write_text_pair(
    out: &mut Out,
    job: &Job<'_>,
    i: usize,
    j: usize,
    contact: Option<&PairContact>,
) -> Result<(), CliError> {
    let mut line = format!("{} {}", quote(job.id(i)), quote(job.id(j)));
    if let Some(c) = contact {
        let triple = |v: &[Real; 3]| format!("({}, {}, {})", v[0], v[1], v[2]);
        line.push_str(&format!(
            " normal {} depth {} points",
            triple(&c.normal),
            c.depth
        ));
        for p in &c.points {
            line.push(' ');
            line.push_str(&triple(p));
        }
    }
    out.write_str(&line)
}

fn write_json_pair(
    out: &mut Out,
    job: &Job<'_>,
    i: usize,
    j: usize,
    contact: Option<&PairContact>,
) -> Result<(), CliError> {
    out.json(&JsonPair {
        a: job.id(i),
        b: job.id(j),
        normal: contact.map(|c| c.normal),
        depth: contact.map(|c| c.depth),
        points: contact.map(|c| c.points.as_slice()),
    })
}

/// The SVG text: every shape, the intersecting ones (those written) highlighted, with
/// `--explain` the witnesses of the first [`MAX_DRAWN_WITNESSES`] explained pairs.
fn picture(job: &Job<'_>, explain: bool, title: String) -> Result<String, CliError> {
    let scene = job.scene;
    let mut hit = vec![false; scene.shapes.len()];
    job.hits(|i, j| {
        hit[i] = true;
        hit[j] = true;
        Ok(ControlFlow::Continue(()))
    })?;
    let mut witnesses = Vec::new();
    if explain {
        job.explained(|w| {
            if witnesses.len() == MAX_DRAWN_WITNESSES {
                return Ok(ControlFlow::Break(()));
            }
            witnesses.push(DrawWitness {
                a: w.a,
                b: w.b,
                witness: w.witness,
            });
            Ok(ControlFlow::Continue(()))
        })?;
    }
    let shapes: Vec<DrawShape<'_>> = scene
        .shapes
        .iter()
        .zip(&hit)
        .map(|(s, &highlighted)| DrawShape {
            id: &s.id,
            shape: &s.shape,
            highlighted,
        })
        .collect();
    let options = SvgOptions {
        title,
        ..SvgOptions::default()
    };
    Ok(render_svg(&shapes, &witnesses, &options))
}
