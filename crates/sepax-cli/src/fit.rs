//! `sepax fit MESH [--method aabb|pca|hull-pca|dito|exact] [--json]`: the bounding box of a mesh
//! file's vertices (every part together), its volume (computed in `f64`), its ratio to the AABB
//! and, with `--compare exact`, to the exact minimum box. Every number printed is finite: a box
//! that cannot be given finitely is an error naming the mesh.

use crate::input::CliError;
use crate::output::Out;
use clap::{Args, ValueEnum};
use sepax_scene::mesh::{all_vertices, read_mesh_file};
use sepax_shapes::fit::{fit_obb, Method};
use sepax_shapes::math::Real;
use sepax_shapes::Obb;
use std::path::PathBuf;
use std::process::ExitCode;

/// The fitting methods as command-line values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// The axis-aligned box.
    Aabb,
    /// Principal axes of the vertices.
    Pca,
    /// Principal axes of the convex hull's surface.
    HullPca,
    /// DiTO-14, kept only where it beats PCA and the AABB.
    Dito,
    /// The minimum-volume box (hull search, then refinement).
    Exact,
}

impl MethodArg {
    /// The library's method.
    pub fn method(self) -> Method {
        match self {
            MethodArg::Aabb => Method::Aabb,
            MethodArg::Pca => Method::Pca,
            MethodArg::HullPca => Method::HullPca,
            MethodArg::Dito => Method::Dito,
            MethodArg::Exact => Method::Exact,
        }
    }
}

/// What `sepax fit` compares its box with, beyond the AABB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareArg {
    /// The exact minimum-volume box (its search takes time that grows quickly with the hull).
    Exact,
}

/// Arguments of `sepax fit`.
#[derive(Debug, Args)]
pub struct FitArgs {
    /// The mesh file (.obj, .stl, .ply, .gltf, .glb).
    pub mesh: PathBuf,
    /// How to fit the box.
    #[arg(long, value_enum, default_value_t = MethodArg::Dito)]
    pub method: MethodArg,
    /// Also fit the exact minimum box and print `ratio_to_exact` (in JSON too); without it only
    /// the method's box and the AABB are computed.
    #[arg(long, value_enum, value_name = "BOX")]
    pub compare: Option<CompareArg>,
    /// Print `{"method", "center", "half_extents", "axes", "volume"}` as JSON (axes as rows, like
    /// the scene format).
    #[arg(long)]
    pub json: bool,
}

/// `8 hx hy hz` in `f64`, so that a box whose volume overflows the build's precision still has
/// one (`1e13` half extents give `8e39`, past `f32::MAX`).
pub fn volume_f64(obb: &Obb) -> f64 {
    let h = obb.half_extents();
    8.0 * h.x as f64 * h.y as f64 * h.z as f64
}

/// The volume as printed: in the build's precision when it holds it finitely (so `6` stays `6`
/// in the `f32` build), otherwise the `f64` value.
fn volume_json(v: f64) -> serde_json::Value {
    let real = v as Real;
    if real.is_finite() {
        serde_json::json!(real)
    } else {
        serde_json::json!(v)
    }
}

/// The volume in text: as [`volume_json`] chooses, scientific when past the build's precision.
fn volume_text(v: f64) -> String {
    let real = v as Real;
    if real.is_finite() {
        real.to_string()
    } else {
        format!("{v:e}")
    }
}

/// Runs `sepax fit`: the box on stdout, exit 0; an unreadable or broken mesh, or a box with a
/// number that is not finite, exits 2 with a message naming the mesh.
pub fn run(args: &FitArgs) -> Result<ExitCode, CliError> {
    let parts = read_mesh_file(&args.mesh).map_err(|e| CliError::new(e.to_string()))?;
    let points = all_vertices(&parts);
    let method = args.method.method();
    let _span =
        tracing::info_span!("fit", method = method.name(), vertices = points.len()).entered();
    let shown = args.mesh.display();
    let fit = |m: Method| -> Result<(Obb, f64), CliError> {
        let obb = fit_obb(&points, m).map_err(|e| CliError::new(format!("{shown}: {e}")))?;
        let volume = volume_f64(&obb);
        let c = obb.center();
        let h = obb.half_extents();
        let numbers = [c.x, c.y, c.z, h.x, h.y, h.z];
        if !numbers.iter().all(|x| x.is_finite()) || !volume.is_finite() {
            return Err(CliError::new(format!(
                "{shown}: the {} box has a centre, extent or volume that is not a finite number",
                m.name()
            )));
        }
        Ok((obb, volume))
    };
    let (obb, volume) = fit(method)?;
    let exact = match args.compare {
        Some(CompareArg::Exact) if method == Method::Exact => Some(volume),
        Some(CompareArg::Exact) => Some(fit(Method::Exact)?.1),
        None => None,
    };
    let mut out = Out::stdout();
    if args.json {
        let mut json = serde_json::json!({
            "method": method.name(),
            "center": obb.center().coords.as_slice(),
            "half_extents": obb.half_extents().as_slice(),
            "axes": rows(&obb),
            "volume": volume_json(volume),
        });
        if let Some(e) = exact {
            json["ratio_to_exact"] = ratio(volume, e).into();
        }
        out.json(&json)?;
        out.line("")?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    let aabb = if method == Method::Aabb {
        volume
    } else {
        fit(Method::Aabb)?.1
    };
    let c = obb.center();
    let h = obb.half_extents();
    let mut text = format!("method {}\nvertices {}\n", method.name(), points.len());
    text.push_str(&format!("center {} {} {}\n", c.x, c.y, c.z));
    text.push_str(&format!("half_extents {} {} {}\n", h.x, h.y, h.z));
    for (k, r) in rows(&obb).iter().enumerate() {
        text.push_str(&format!("axis{k} {} {} {}\n", r[0], r[1], r[2]));
    }
    text.push_str(&format!("volume {}\n", volume_text(volume)));
    text.push_str(&format!("ratio_to_aabb {:.6}\n", ratio(volume, aabb)));
    if let Some(e) = exact {
        text.push_str(&format!("ratio_to_exact {:.6}\n", ratio(volume, e)));
    }
    out.write_str(&text)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The box's axes as rows (row `k` is local axis `k` in world coordinates).
pub fn rows(obb: &Obb) -> [[Real; 3]; 3] {
    let a = obb.axes();
    [0, 1, 2].map(|k| [a[(0, k)], a[(1, k)], a[(2, k)]])
}

/// `v / reference` (`1` when the reference is zero: a flat or empty point set, whose boxes
/// are then all of volume zero as well). Both are finite, so the ratio is.
fn ratio(v: f64, reference: f64) -> f64 {
    if reference > 0.0 {
        v / reference
    } else {
        1.0
    }
}
