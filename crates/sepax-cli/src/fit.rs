//! `sepax fit MESH [--method aabb|pca|hull-pca|dito|exact] [--json]`: the bounding box of a mesh
//! file's vertices (every part together), its volume, and its ratio to the AABB and to the exact
//! minimum.

use crate::input::CliError;
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

/// Arguments of `sepax fit`.
#[derive(Debug, Args)]
pub struct FitArgs {
    /// The mesh file (.obj, .stl, .ply, .gltf, .glb).
    pub mesh: PathBuf,
    /// How to fit the box.
    #[arg(long, value_enum, default_value_t = MethodArg::Dito)]
    pub method: MethodArg,
    /// Print `{"method", "center", "half_extents", "axes", "volume"}` as JSON (axes as rows, like
    /// the scene format).
    #[arg(long)]
    pub json: bool,
}

/// Runs `sepax fit`: the box on stdout, exit 0; an unreadable or broken mesh exits 2.
pub fn run(args: &FitArgs) -> Result<ExitCode, CliError> {
    let parts = read_mesh_file(&args.mesh).map_err(|e| CliError::new(e.to_string()))?;
    let points = all_vertices(&parts);
    let method = args.method.method();
    let _span =
        tracing::info_span!("fit", method = method.name(), vertices = points.len()).entered();
    let fit = |m: Method| {
        fit_obb(&points, m).map_err(|e| CliError::new(format!("{}: {e}", args.mesh.display())))
    };
    let obb = fit(method)?;
    let volume = obb.volume();
    if args.json {
        let json = serde_json::json!({
            "method": method.name(),
            "center": obb.center().coords.as_slice(),
            "half_extents": obb.half_extents().as_slice(),
            "axes": rows(&obb),
            "volume": volume,
        });
        println!("{json}");
        return Ok(ExitCode::SUCCESS);
    }
    let aabb = fit(Method::Aabb)?.volume();
    let exact = if method == Method::Exact {
        volume
    } else {
        fit(Method::Exact)?.volume()
    };
    let c = obb.center();
    let h = obb.half_extents();
    println!("method {}", method.name());
    println!("vertices {}", points.len());
    println!("center {} {} {}", c.x, c.y, c.z);
    println!("half_extents {} {} {}", h.x, h.y, h.z);
    for (k, r) in rows(&obb).iter().enumerate() {
        println!("axis{k} {} {} {}", r[0], r[1], r[2]);
    }
    println!("volume {volume}");
    println!("ratio_to_aabb {}", ratio(volume, aabb));
    println!("ratio_to_exact {}", ratio(volume, exact));
    Ok(ExitCode::SUCCESS)
}

/// The box's axes as rows (row `k` is local axis `k` in world coordinates).
pub fn rows(obb: &Obb) -> [[Real; 3]; 3] {
    let a = obb.axes();
    [0, 1, 2].map(|k| [a[(0, k)], a[(1, k)], a[(2, k)]])
}

/// `v / reference`, printed as a number (`1` for two zero volumes).
fn ratio(v: Real, reference: Real) -> String {
    if reference > 0.0 {
        format!("{:.6}", v as f64 / reference as f64)
    } else if v == 0.0 {
        "1".into()
    } else {
        "inf".into()
    }
}
