//! Mesh import: OBJ, STL, PLY and glTF (`.gltf`, `.glb`) files as triangle meshes, one
//! [`MeshPart`] per object (OBJ objects and groups, glTF nodes with their world transforms; STL
//! and PLY files are one part).
//!
//! Parsing is done by well-kept crates (`tobj`, `stl_io`, `ply-rs-bw`, `gltf`); this module checks
//! what they return (finite coordinates, indices in range) and turns every problem into a
//! [`MeshError`] that names the file, the format and what is broken. Coordinates are read as
//! `f32` (all four formats store single precision, except PLY `double` properties, which are
//! rounded to `Real`).
//!
//! Every file is untrusted: `docs/mesh-import.md` states the policy for references a model makes
//! (glTF buffer URIs resolve only to regular files inside the model's folder; OBJ `mtllib` is not
//! read), the caps ([`MAX_FILE_BYTES`], [`MAX_VERTICES`], [`MAX_TRIANGLES`]) and the time and
//! memory bound of each reader.

// Casts between `Real` and `f64` are needed in the default `f32` build and are no-ops with `f64`.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

mod gltf;
mod gltf_buffers;
mod obj;
mod ply;
mod source;
mod stl;

use sepax_shapes::math::{Point3, Real};
use std::path::Path;

/// The largest file read: the model itself and each external glTF buffer (all of a model's
/// external buffers together, too). Checked from the file's metadata before reading, and the read
/// itself stops there.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// The most vertices a model may produce, all parts together (glTF instancing can repeat a mesh
/// many times, so this is not implied by the file size).
pub const MAX_VERTICES: usize = 1 << 25;

/// The most triangles a model may produce, all parts together.
pub const MAX_TRIANGLES: usize = 1 << 25;

/// One part of a model: a named triangle mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshPart {
    /// The part's name (OBJ object or group name, glTF node or mesh name, or the file stem).
    pub name: String,
    /// The vertices, in world coordinates (glTF node transforms applied).
    pub vertices: Vec<Point3>,
    /// Triangles as indices into `vertices` (polygons are fan-triangulated).
    pub triangles: Vec<[u32; 3]>,
}

/// Why a mesh file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MeshError {
    /// The file could not be opened or read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The path as given.
        path: String,
        /// The operating system's reason.
        message: String,
    },
    /// The extension is not one of the supported formats.
    #[error("{path}: unsupported mesh format (expected .obj, .stl, .ply, .gltf or .glb)")]
    Unsupported {
        /// The path as given.
        path: String,
    },
    /// The file is not valid in its format.
    #[error("{path}: broken {format} file: {message}")]
    Parse {
        /// The path as given.
        path: String,
        /// "OBJ", "STL", "PLY" or "glTF".
        format: &'static str,
        /// What the parser or the check found wrong.
        message: String,
    },
    /// The file holds no vertex at all.
    #[error("{path}: the {format} file holds no vertices")]
    Empty {
        /// The path as given.
        path: String,
        /// The format.
        format: &'static str,
    },
    /// The file has vertices but no faces, and the format's reader keeps only vertices that faces
    /// use (OBJ).
    #[error("{path}: the {format} file holds {vertices} vertices but no faces")]
    NoFaces {
        /// The path as given.
        path: String,
        /// The format.
        format: &'static str,
        /// How many vertex lines the file has.
        vertices: usize,
    },
    /// A reference the model makes (a glTF buffer URI) breaks the import policy, or the file it
    /// names cannot be read under it.
    #[error("{path}: {format} {reference} refused: {rule}")]
    Reference {
        /// The model's path as given.
        path: String,
        /// The format.
        format: &'static str,
        /// What refers, e.g. `buffer 0 (uri "../x.bin")`.
        reference: String,
        /// The rule broken, or why the file cannot be read.
        rule: String,
    },
}

/// A failure inside a format reader: a broken file, or a refused reference.
#[derive(Debug)]
pub(crate) enum ReadError {
    Parse(String),
    Reference { reference: String, rule: String },
    NoFaces(usize),
}

impl From<String> for ReadError {
    fn from(m: String) -> Self {
        ReadError::Parse(m)
    }
}

impl From<&str> for ReadError {
    fn from(m: &str) -> Self {
        ReadError::Parse(m.to_string())
    }
}

/// The supported formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshFormat {
    /// Wavefront OBJ.
    Obj,
    /// STL, ASCII or binary.
    Stl,
    /// Stanford PLY, ASCII or binary.
    Ply,
    /// glTF 2.0, JSON (`.gltf`) or binary (`.glb`).
    Gltf,
}

impl MeshFormat {
    /// The format of a path, from its extension (case-insensitive).
    pub fn of_path(path: &Path) -> Option<MeshFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "obj" => Some(MeshFormat::Obj),
            "stl" => Some(MeshFormat::Stl),
            "ply" => Some(MeshFormat::Ply),
            "gltf" | "glb" => Some(MeshFormat::Gltf),
            _ => None,
        }
    }

    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            MeshFormat::Obj => "OBJ",
            MeshFormat::Stl => "STL",
            MeshFormat::Ply => "PLY",
            MeshFormat::Gltf => "glTF",
        }
    }
}

/// Reads a mesh file into its parts. Errors name the file and what is broken.
pub fn read_mesh_file(path: impl AsRef<Path>) -> Result<Vec<MeshPart>, MeshError> {
    let path = path.as_ref();
    let shown = path.display().to_string();
    let format = MeshFormat::of_path(path).ok_or_else(|| MeshError::Unsupported {
        path: shown.clone(),
    })?;
    let bytes = source::read_model(path).map_err(|message| MeshError::Io {
        path: shown.clone(),
        message,
    })?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parse = |message: String| MeshError::Parse {
        path: shown.clone(),
        format: format.name(),
        message: one_line(&message),
    };
    let parts = match format {
        MeshFormat::Obj => obj::read(&bytes, &stem),
        MeshFormat::Stl => stl::read(&bytes, &stem).map_err(ReadError::Parse),
        MeshFormat::Ply => ply::read(&bytes, &stem).map_err(ReadError::Parse),
        MeshFormat::Gltf => gltf::read(&bytes, path, &stem),
    }
    .map_err(|e| match e {
        ReadError::Parse(m) => parse(m),
        ReadError::Reference { reference, rule } => MeshError::Reference {
            path: shown.clone(),
            format: format.name(),
            reference: one_line(&reference),
            rule: one_line(&rule),
        },
        ReadError::NoFaces(vertices) => MeshError::NoFaces {
            path: shown.clone(),
            format: format.name(),
            vertices,
        },
    })?;
    check_totals(&parts).map_err(parse)?;
    for part in &parts {
        check_part(part).map_err(parse)?;
    }
    if parts.iter().all(|p| p.vertices.is_empty()) {
        return Err(MeshError::Empty {
            path: shown,
            format: format.name(),
        });
    }
    Ok(parts)
}

/// All vertices of all parts, in order.
pub fn all_vertices(parts: &[MeshPart]) -> Vec<Point3> {
    parts
        .iter()
        .flat_map(|p| p.vertices.iter().copied())
        .collect()
}

/// The parsers' messages on one line: control characters (newlines and tabs included, which
/// some parsers use for layout, and any a file quotes) become single spaces, and a message that
/// quotes much of the file is cut.
fn one_line(message: &str) -> String {
    const MAX: usize = 400;
    let mut out = String::with_capacity(message.len().min(MAX + 3));
    for ch in message.chars() {
        let ch = if ch.is_control() { ' ' } else { ch };
        if ch == ' ' && (out.is_empty() || out.ends_with(' ')) {
            continue;
        }
        if out.len() >= MAX {
            out.push_str("...");
            break;
        }
        out.push(ch);
    }
    out.trim_end().to_string()
}

/// The caps on what a model produces.
fn check_totals(parts: &[MeshPart]) -> Result<(), String> {
    let v: usize = parts.iter().map(|p| p.vertices.len()).sum();
    let t: usize = parts.iter().map(|p| p.triangles.len()).sum();
    if v > MAX_VERTICES {
        return Err(format!("{v} vertices, over the cap of {MAX_VERTICES}"));
    }
    if t > MAX_TRIANGLES {
        return Err(format!("{t} triangles, over the cap of {MAX_TRIANGLES}"));
    }
    Ok(())
}

/// Finite coordinates and indices in range.
fn check_part(part: &MeshPart) -> Result<(), String> {
    for (i, v) in part.vertices.iter().enumerate() {
        if let Some(k) = (0..3).find(|&k| !v[k].is_finite()) {
            return Err(format!(
                "part \"{}\": vertex {i} has a non-finite coordinate {} = {}",
                part.name,
                ["x", "y", "z"][k],
                v[k]
            ));
        }
    }
    let n = part.vertices.len();
    for (t, tri) in part.triangles.iter().enumerate() {
        if let Some(&i) = tri.iter().find(|&&i| i as usize >= n) {
            return Err(format!(
                "part \"{}\": triangle {t} refers to vertex {i}, but there are {n} vertices",
                part.name
            ));
        }
    }
    Ok(())
}

/// A point from three `f32` coordinates (exact in both precisions).
pub(crate) fn point(x: f32, y: f32, z: f32) -> Point3 {
    Point3::new(x as Real, y as Real, z as Real)
}

/// Fan-triangulates a polygon given by vertex indices.
pub(crate) fn fan(poly: &[u32], out: &mut Vec<[u32; 3]>) {
    for k in 1..poly.len().saturating_sub(1) {
        out.push([poly[0], poly[k], poly[k + 1]]);
    }
}
