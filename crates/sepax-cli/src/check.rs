//! `sepax check SCENE`: which pairs of a scene intersect.
//!
//! Output contract (docs: ARCHITECTURE.md, "Data flow of the main job"): one intersecting pair per
//! line, `idA idB` with the two ids in the order the shapes appear in the file, lines sorted by
//! that order (first shape, then second); `--json` prints `{"pairs": [...], "stats": {...}}`.
//! Exit 0 whatever was found, 1 with `--fail-on-hit` when a pair intersects, 2 on bad input with
//! one line on stderr and nothing on stdout.
//!
//! `--contacts` adds, for each intersecting pair, the unit normal from the pair's first shape to
//! the second, the penetration depth (`>= 0`, the minimum translation distance) and the contact
//! manifold's points (midpoints of the two surface points): in text after the ids
//! (`a b normal (x, y, z) depth d points (x, y, z) ...`), in JSON as `"normal"`, `"depth"` and
//! `"points"` in each pair object.

use crate::explain::{axis_words, box_witness, verdict_word, witness_sentence};
use crate::input::{layers_allow, listed_pairs, load_scene, CliError};
use crate::sweep::SweepAndPrune;
use clap::Args;
use sepax_narrowphase::contact::{contact_manifold, ContactConfig};
use sepax_narrowphase::intersect::{intersects_shapes, BoxWitness};
use sepax_scene::svg::{render_svg, DrawShape, DrawWitness, SvgOptions};
use sepax_scene::Scene;
use sepax_shapes::math::Real;
use sepax_shapes::{Aabb, Shape};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

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
    /// `pairs`, otherwise every intersecting pair.
    #[arg(long)]
    pub explain: bool,
    /// Write an SVG picture to PATH (intersecting shapes highlighted; with --explain, the
    /// witnesses of the explained pairs drawn too).
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
    /// For each intersecting pair, also print the contact normal (unit, from the first shape to
    /// the second), the penetration depth (>= 0) and the contact manifold's points.
    #[arg(long)]
    pub contacts: bool,
}

#[derive(Serialize)]
struct JsonPair<'a> {
    a: &'a str,
    b: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    normal: Option<[Real; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<Real>,
    #[serde(skip_serializing_if = "Option::is_none")]
    points: Option<Vec<[Real; 3]>>,
}

/// The contact of an intersecting pair as printed: normal, depth and points.
pub struct PairContact {
    /// Unit normal from the first shape to the second.
    pub normal: [Real; 3],
    /// Penetration depth, `>= 0`.
    pub depth: Real,
    /// Manifold points (midpoints of the two surface points).
    pub points: Vec<[Real; 3]>,
}

/// The contact of a pair that the overlap test reported intersecting. A touching pair may come
/// out a rounding error apart, so the manifold is asked with a speculative margin of `1e-4` of
/// the pair's size and the depth is clamped at 0.
pub fn pair_contact(a: &Shape, b: &Shape) -> Result<PairContact, String> {
    let size = a.world_aabb().merge(&b.world_aabb()).extents().max();
    let margin = if size.is_finite() { 1e-4 * size } else { 0.0 };
    let m = contact_manifold(a, b, &ContactConfig::with_margin(margin))
        .map_err(|e| e.to_string())?
        .ok_or_else(|| "no contact found for an intersecting pair".to_string())?;
    let v = |p: &sepax_shapes::math::Vector3| [p.x + 0.0, p.y + 0.0, p.z + 0.0];
    Ok(PairContact {
        normal: v(&m.normal),
        depth: m.depth.max(0.0),
        points: m.points.iter().map(|p| v(&p.midpoint().coords)).collect(),
    })
}

#[derive(Serialize)]
struct JsonMs {
    read: f64,
    broad: f64,
    narrow: f64,
    total: f64,
}

#[derive(Serialize)]
struct JsonStats {
    shapes: usize,
    candidates: usize,
    pairs: usize,
    ms: JsonMs,
}

#[derive(Serialize)]
struct JsonExplanation<'a> {
    a: &'a str,
    b: &'a str,
    verdict: &'static str,
    axis: String,
    direction: [Real; 3],
    distance: Real,
    text: String,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    pairs: Vec<JsonPair<'a>>,
    stats: JsonStats,
    #[serde(skip_serializing_if = "Option::is_none")]
    explanations: Option<Vec<JsonExplanation<'a>>>,
}

/// The result of checking a scene, before printing.
pub struct CheckResult {
    /// Candidate pairs tested by the narrow phase.
    pub candidates: usize,
    /// Intersecting pairs `(i, j)`, `i < j`, sorted.
    pub hits: Vec<(usize, usize)>,
    /// Milliseconds in the broad phase (sweep or listed pairs).
    pub broad_ms: f64,
    /// Milliseconds in the narrow phase.
    pub narrow_ms: f64,
}

/// Milliseconds since `t`, to the microsecond.
fn ms_since(t: Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 1e6).round() / 1e3
}

/// Candidate pairs, narrow phase, sorted hits. Exposed for the tests of this module.
pub fn check_scene(scene: &Scene) -> Result<CheckResult, CliError> {
    let t = Instant::now();
    let candidates: Vec<(usize, usize)> = {
        let _span = tracing::info_span!("broad").entered();
        let mut pairs = match &scene.pairs {
            Some(listed) => listed_pairs(listed),
            None => {
                let boxes: Vec<Aabb> = scene.shapes.iter().map(|s| s.shape.world_aabb()).collect();
                let mut out = Vec::new();
                SweepAndPrune::new().candidates(&boxes, &mut out);
                out
            }
        };
        pairs.retain(|&(i, j)| layers_allow(&scene.shapes[i], &scene.shapes[j]));
        tracing::info!(
            candidates = pairs.len(),
            listed = scene.pairs.is_some(),
            "candidate pairs"
        );
        pairs
    };
    let broad_ms = ms_since(t);

    let t = Instant::now();
    let mut hits = Vec::new();
    {
        let _span = tracing::info_span!("narrow").entered();
        for &(i, j) in &candidates {
            let (a, b) = (&scene.shapes[i], &scene.shapes[j]);
            let hit = intersects_shapes(&a.shape, &b.shape)
                .map_err(|e| CliError::new(format!("shapes {:?} and {:?}: {e}", a.id, b.id)))?;
            if hit {
                hits.push((i, j));
            }
        }
        hits.sort_unstable();
        tracing::info!(hits = hits.len(), "narrow phase done");
    }
    Ok(CheckResult {
        candidates: candidates.len(),
        hits,
        broad_ms,
        narrow_ms: ms_since(t),
    })
}

/// The box pairs to explain: every listed pair when the scene lists pairs, otherwise every hit;
/// non-box pairs are left out.
fn explained(scene: &Scene, hits: &[(usize, usize)]) -> Vec<(usize, usize, BoxWitness)> {
    let pairs = match &scene.pairs {
        Some(listed) => listed_pairs(listed),
        None => hits.to_vec(),
    };
    pairs
        .into_iter()
        .filter_map(|(i, j)| {
            box_witness(&scene.shapes[i].shape, &scene.shapes[j].shape).map(|w| (i, j, w))
        })
        .collect()
}

fn write_svg(
    path: &Path,
    scene: &Scene,
    hits: &[(usize, usize)],
    witnesses: &[(usize, usize, BoxWitness)],
    title: String,
) -> Result<(), CliError> {
    let _span = tracing::info_span!("svg", path = %path.display()).entered();
    let mut hit = vec![false; scene.shapes.len()];
    for &(i, j) in hits {
        hit[i] = true;
        hit[j] = true;
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
    let drawn: Vec<DrawWitness> = witnesses
        .iter()
        .map(|&(a, b, witness)| DrawWitness { a, b, witness })
        .collect();
    let options = SvgOptions {
        title,
        ..SvgOptions::default()
    };
    let text = render_svg(&shapes, &drawn, &options);
    std::fs::write(path, text)
        .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))
}

/// Runs `sepax check`.
pub fn run(args: &CheckArgs) -> Result<ExitCode, CliError> {
    let t0 = Instant::now();
    let scene = load_scene(&args.scene)?;
    let read_ms = ms_since(t0);
    let result = check_scene(&scene)?;
    let witnesses = if args.explain {
        explained(&scene, &result.hits)
    } else {
        Vec::new()
    };
    // The picture is written before anything is printed: if it fails, stdout stays empty.
    if let Some(path) = &args.svg {
        write_svg(
            path,
            &scene,
            &result.hits,
            &witnesses,
            format!("sepax check {}", args.scene.display()),
        )?;
    }
    let id = |i: usize| scene.shapes[i].id.as_str();
    let contacts: Vec<Option<PairContact>> = if args.contacts {
        let _span = tracing::info_span!("contacts").entered();
        result
            .hits
            .iter()
            .map(|&(i, j)| {
                pair_contact(&scene.shapes[i].shape, &scene.shapes[j].shape)
                    .map(Some)
                    .map_err(|e| CliError::new(format!("shapes {:?} and {:?}: {e}", id(i), id(j))))
            })
            .collect::<Result<_, _>>()?
    } else {
        result.hits.iter().map(|_| None).collect()
    };
    let mut text = String::new();
    if args.json {
        let explanations = args.explain.then(|| {
            witnesses
                .iter()
                .map(|(i, j, w)| JsonExplanation {
                    a: id(*i),
                    b: id(*j),
                    verdict: verdict_word(w.classification),
                    axis: axis_words(w.axis, id(*i), id(*j)),
                    direction: [w.direction.x, w.direction.y, w.direction.z],
                    // `+ 0.0` turns a negative zero into zero.
                    distance: w.distance + 0.0,
                    text: witness_sentence(id(*i), id(*j), w),
                })
                .collect()
        });
        let report = JsonReport {
            pairs: result
                .hits
                .iter()
                .zip(&contacts)
                .map(|(&(i, j), c)| JsonPair {
                    a: id(i),
                    b: id(j),
                    normal: c.as_ref().map(|c| c.normal),
                    depth: c.as_ref().map(|c| c.depth),
                    points: c.as_ref().map(|c| c.points.clone()),
                })
                .collect(),
            stats: JsonStats {
                shapes: scene.shapes.len(),
                candidates: result.candidates,
                pairs: result.hits.len(),
                ms: JsonMs {
                    read: read_ms,
                    broad: result.broad_ms,
                    narrow: result.narrow_ms,
                    total: ms_since(t0),
                },
            },
            explanations,
        };
        text = serde_json::to_string(&report)
            .map_err(|e| CliError::new(format!("cannot write JSON: {e}")))?;
        text.push('\n');
    } else {
        let triple = |v: &[Real; 3]| format!("({}, {}, {})", v[0], v[1], v[2]);
        for (&(i, j), c) in result.hits.iter().zip(&contacts) {
            text.push_str(id(i));
            text.push(' ');
            text.push_str(id(j));
            if let Some(c) = c {
                text.push_str(&format!(
                    " normal {} depth {} points",
                    triple(&c.normal),
                    c.depth
                ));
                for p in &c.points {
                    text.push(' ');
                    text.push_str(&triple(p));
                }
            }
            text.push('\n');
        }
        for (i, j, w) in &witnesses {
            text.push_str(&witness_sentence(id(*i), id(*j), w));
            text.push('\n');
        }
    }
    print!("{text}");
    Ok(if args.fail_on_hit && !result.hits.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
