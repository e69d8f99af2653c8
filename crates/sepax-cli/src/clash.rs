//! `sepax clash MODEL_OR_DIR [--placements FILE] [--method M] [--svg OUT] [--json]`: which parts
//! of a model touch or interpenetrate.
//!
//! Parts: each object of a model file (OBJ objects and groups, glTF nodes with their transforms),
//! or each mesh file of a folder (sorted by name; all of a file's objects are one part), placed
//! by an optional placement file (`--placements FILE`, or `placements.json` in the folder):
//! `{"part name": {"translation": [x, y, z], "rotation": [w, x, y, z]}, ...}` (rotation
//! optional; the part is rotated about its own origin, then moved).
//!
//! Pipeline: a box per part (`--method`, default `dito`) → sweep-and-prune over the boxes' world
//! AABBs → OBB–OBB test → triangle-level confirmation: the triangles of each part that touch the
//! other's box, a triangle of one part paired with the triangles of the other whose AABBs meet
//! its own (never two triangles of one part), tested triangle against triangle in order until
//! the first that intersects (touching counts). A pair clashes when some triangle pair
//! intersects, and the report names the first such pair (`(i, j)` smallest, `i` the index of a
//! triangle of A in the order the part's faces were read, `j` one of B); pairs whose boxes overlap
//! but whose triangles do not are reported as near misses. Memory is the parts plus the boxes of
//! two parts' triangles; time per part pair is at most one test per pair of triangles whose boxes
//! meet, and one when the first candidate already intersects.
//!
//! Output: one `clash A B (triangles i and j)` line per clash, then `near A B` lines, then a summary
//! (part names as [`crate::output::quote`] prints them: quoted with JSON escapes unless made only
//! of safe printable characters);
//! `--json` prints `{"parts": [...], "clashes": [{"a", "b", "triangles": [i, j]}], "near": [...]}`.
//! `--svg OUT` draws every part's box, clashing parts highlighted (the file is created before the
//! work and removed again if the command fails). Exit 0 (1 with
//! `--fail-on-clash` when a clash is found), 2 on bad input.

use crate::fit::{rows, MethodArg};
use crate::input::CliError;
use crate::output::{quote, Out, OutputFile};
use crate::pairs::{visit_cross_pairs, visit_sorted_pairs, Candidates};
use clap::Args;
use sepax_narrowphase::intersect::intersects;
use sepax_scene::mesh::{read_mesh_file, MeshFormat, MeshPart};
use sepax_scene::svg::{render_svg, DrawShape, SvgOptions};
use sepax_shapes::fit::fit_obb;
use sepax_shapes::math::{Point3, Quaternion, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Obb, Shape, Triangle};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `sepax clash`.
#[derive(Debug, Args)]
pub struct ClashArgs {
    /// A model file (each object or node a part) or a folder of mesh files (each file a part).
    pub model: PathBuf,
    /// Placement file: `{"part": {"translation": [x, y, z], "rotation": [w, x, y, z]}}` (default
    /// for a folder: its `placements.json`, when present).
    #[arg(long)]
    pub placements: Option<PathBuf>,
    /// How to fit each part's box.
    #[arg(long, value_enum, default_value_t = MethodArg::Dito)]
    pub method: MethodArg,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write a picture of the parts' boxes (clashing parts highlighted) to this SVG file.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Exit with status 1 when any pair clashes.
    #[arg(long)]
    pub fail_on_clash: bool,
}

/// One part, placed.
struct Part {
    name: String,
    vertices: Vec<Point3>,
    /// The non-degenerate triangles, with their index among the part's faces.
    triangles: Vec<(usize, Triangle)>,
    obb: Obb,
}

/// A pair of parts whose boxes overlap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairResult {
    /// Index of the first part.
    pub a: usize,
    /// Index of the second part.
    pub b: usize,
    /// The first intersecting pair of triangles (face indices in A and in B); `None`: the boxes
    /// overlap, the meshes do not.
    pub triangles: Option<(usize, usize)>,
}

/// Runs `sepax clash`.
pub fn run(args: &ClashArgs) -> Result<ExitCode, CliError> {
    let svg = args.svg.as_deref().map(OutputFile::create).transpose()?;
    let raw = load_parts(&args.model)?;
    let placements = match &args.placements {
        Some(p) => Some(p.clone()),
        None if args.model.is_dir() => {
            let p = args.model.join("placements.json");
            p.exists().then_some(p)
        }
        None => None,
    };
    let raw = match placements {
        Some(p) => place(raw, &p)?,
        None => raw,
    };
    let method = args.method.method();
    let mut parts = Vec::with_capacity(raw.len());
    for p in raw {
        if p.vertices.is_empty() {
            continue;
        }
        let obb = fit_obb(&p.vertices, method)
            .map_err(|e| CliError::new(format!("part {:?}: {e}", p.name)))?;
        let triangles = p
            .triangles
            .iter()
            .enumerate()
            .filter_map(|(k, t)| {
                let [a, b, c] = t.map(|i| p.vertices[i as usize]);
                Triangle::new(a, b, c).ok().map(|t| (k, t))
            })
            .collect();
        parts.push(Part {
            name: p.name,
            vertices: p.vertices,
            triangles,
            obb,
        });
    }
    let results = find_clashes(&parts);
    let clashes: Vec<&PairResult> = results.iter().filter(|r| r.triangles.is_some()).collect();
    let near: Vec<&PairResult> = results.iter().filter(|r| r.triangles.is_none()).collect();
    // The picture is finished before anything is printed: if it fails, stdout stays empty.
    if let Some(file) = svg {
        file.finish(&picture(&parts, &clashes, &args.model))?;
    }
    let mut out = Out::stdout();
    if args.json {
        let json = serde_json::json!({
            "parts": parts.iter().map(|p| serde_json::json!({
                "name": p.name,
                "vertices": p.vertices.len(),
                "triangles": p.triangles.len(),
                "center": p.obb.center().coords.as_slice(),
                "half_extents": p.obb.half_extents().as_slice(),
                "axes": rows(&p.obb),
            })).collect::<Vec<_>>(),
            "clashes": clashes.iter().map(|r| serde_json::json!({
                "a": parts[r.a].name, "b": parts[r.b].name,
                "triangles": r.triangles.map(|(i, j)| [i, j]),
            })).collect::<Vec<_>>(),
            "near": near.iter().map(|r| serde_json::json!({
                "a": parts[r.a].name, "b": parts[r.b].name,
            })).collect::<Vec<_>>(),
        });
        out.json(&json)?;
        out.line("")?;
    } else {
        let name = |i: usize| quote(&parts[i].name);
        for r in &clashes {
            let (i, j) = r.triangles.unwrap_or_default();
            out.line(&format!(
                "clash {} {} (triangles {i} and {j})",
                name(r.a),
                name(r.b)
            ))?;
        }
        for r in &near {
            out.line(&format!("near {} {}", name(r.a), name(r.b)))?;
        }
        out.line(&format!(
            "{} parts, {} box overlaps, {} clashes",
            parts.len(),
            results.len(),
            clashes.len()
        ))?;
    }
    out.flush()?;
    Ok(if args.fail_on_clash && !clashes.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The SVG of every part's box, the clashing ones highlighted.
fn picture(parts: &[Part], clashes: &[&PairResult], model: &Path) -> String {
    let shapes: Vec<Shape> = parts.iter().map(|p| Shape::Obb(p.obb)).collect();
    let mut hit = vec![false; parts.len()];
    for r in clashes {
        hit[r.a] = true;
        hit[r.b] = true;
    }
    let draw: Vec<DrawShape> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| DrawShape {
            id: &p.name,
            shape: &shapes[i],
            highlighted: hit[i],
        })
        .collect();
    let options = SvgOptions {
        title: format!(
            "sepax clash {}: {} parts, {} clashes",
            model.display(),
            parts.len(),
            clashes.len()
        ),
        ..SvgOptions::default()
    };
    render_svg(&draw, &[], &options)
}

/// The parts of a model file, or one part per mesh file of a folder.
fn load_parts(path: &Path) -> Result<Vec<MeshPart>, CliError> {
    let err = |e: sepax_scene::mesh::MeshError| CliError::new(e.to_string());
    if !path.is_dir() {
        return read_mesh_file(path).map_err(err);
    }
    let rd = std::fs::read_dir(path)
        .map_err(|e| CliError::new(format!("cannot read {}: {e}", path.display())))?;
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && MeshFormat::of_path(p).is_some())
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(CliError::new(format!(
            "{}: no mesh files (.obj, .stl, .ply, .gltf, .glb) in this folder",
            path.display()
        )));
    }
    let mut parts = Vec::with_capacity(files.len());
    for f in files {
        let mut merged = MeshPart {
            name: f
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            vertices: Vec::new(),
            triangles: Vec::new(),
        };
        for p in read_mesh_file(&f).map_err(err)? {
            let base = merged.vertices.len() as u32;
            merged.vertices.extend(p.vertices);
            merged
                .triangles
                .extend(p.triangles.iter().map(|t| t.map(|i| i + base)));
        }
        parts.push(merged);
    }
    Ok(parts)
}

/// Applies a placement file to the parts it names; a name that matches no part is an error.
fn place(mut parts: Vec<MeshPart>, file: &Path) -> Result<Vec<MeshPart>, CliError> {
    let shown = file.display();
    let text = std::fs::read_to_string(file)
        .map_err(|e| CliError::new(format!("cannot read {shown}: {e}")))?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| CliError::new(format!("{shown}: not JSON: {e}")))?;
    let obj = json.as_object().ok_or_else(|| {
        CliError::new(format!(
            "{shown}: expected an object of part name -> placement"
        ))
    })?;
    for (name, v) in obj {
        let bad = |what: &str| CliError::new(format!("{shown}: part {name:?}: {what}"));
        let idx = parts
            .iter()
            .position(|p| &p.name == name)
            .ok_or_else(|| bad("no such part"))?;
        let numbers = |field: &str, n: usize| -> Result<Option<Vec<Real>>, CliError> {
            let Some(a) = v.get(field) else {
                return Ok(None);
            };
            let a = a
                .as_array()
                .filter(|a| a.len() == n)
                .ok_or_else(|| bad(&format!("{field} must be an array of {n} numbers")))?;
            a.iter()
                .map(|x| {
                    x.as_f64()
                        .filter(|x| x.is_finite())
                        .map(|x| x as Real)
                        .ok_or_else(|| bad(&format!("{field} must hold finite numbers")))
                })
                .collect::<Result<Vec<Real>, CliError>>()
                .map(Some)
        };
        if let Some(k) = v.as_object().and_then(|o| {
            o.keys()
                .find(|k| *k != "translation" && *k != "rotation")
                .cloned()
        }) {
            return Err(bad(&format!("unknown field {k:?}")));
        }
        let t = numbers("translation", 3)?.unwrap_or(vec![0.0; 3]);
        let rot = match numbers("rotation", 4)? {
            Some(q) => {
                let q = Quaternion::new(q[0], q[1], q[2], q[3]);
                if (q.norm() - 1.0).abs() > sepax_shapes::tolerance::QUATERNION_TOLERANCE {
                    return Err(bad("rotation is not a unit quaternion [w, x, y, z]"));
                }
                UnitQuaternion::new_normalize(q)
            }
            None => UnitQuaternion::identity(),
        };
        let shift = Vector3::new(t[0], t[1], t[2]);
        for p in parts[idx].vertices.iter_mut() {
            *p = rot * *p + shift;
        }
    }
    Ok(parts)
}

/// Box overlaps of the parts (candidates in sorted order, then OBB–OBB), each confirmed at
/// triangle level.
fn find_clashes(parts: &[Part]) -> Vec<PairResult> {
    let boxes: Vec<Aabb> = parts.iter().map(|p| p.obb.world_aabb()).collect();
    let mut out = Vec::new();
    let _ = visit_sorted_pairs::<std::convert::Infallible>(
        Candidates::Overlapping(&boxes),
        |a, b| Ok(intersects(&parts[a].obb, &parts[b].obb)),
        |a, b| {
            out.push(PairResult {
                a,
                b,
                triangles: first_triangle_contact(&parts[a], &parts[b]),
            });
            Ok(ControlFlow::Continue(()))
        },
    );
    out
}

/// The first intersecting pair of triangles of two parts (smallest index in `a`, then in `b`),
/// as face indices. Only pairs of one triangle of each part are tested (never two triangles of
/// one part), found from the triangles' boxes, and nothing is stored but the two lists of
/// triangles near the other part and an index of one.
fn first_triangle_contact(a: &Part, b: &Part) -> Option<(usize, usize)> {
    // Only triangles that touch the other part's box can touch its triangles.
    let near = |p: &Part, other: &Obb| -> Vec<(usize, Triangle)> {
        p.triangles
            .iter()
            .filter(|(_, t)| intersects(t, other))
            .copied()
            .collect()
    };
    let (ta, tb) = (near(a, &b.obb), near(b, &a.obb));
    if ta.is_empty() || tb.is_empty() {
        return None;
    }
    let boxes_a: Vec<Aabb> = ta.iter().map(|(_, t)| t.world_aabb()).collect();
    let boxes_b: Vec<Aabb> = tb.iter().map(|(_, t)| t.world_aabb()).collect();
    let mut found = None;
    visit_cross_pairs(&boxes_a, &boxes_b, |i, j| {
        if intersects(&ta[i].1, &tb[j].1) {
            found = Some((ta[i].0, tb[j].0));
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    found
}
