//! glTF 2.0 (`.gltf` with external or embedded buffers, `.glb`) through the `gltf` crate. Each
//! node with a mesh is a part, its vertices in world coordinates (the node's transform composed
//! with its ancestors'). Buffers are loaded by `gltf_buffers` and every accessor is checked
//! against its view and buffer before it is read.
//!
//! Nodes form strict trees (glTF 2.0, 3.5.3): each node is visited once, and a node reached a
//! second time (a cycle, or a node shared by two parents, which would expand exponentially) is an
//! error. Images and other URIs are never read.

use super::{fan, MeshPart, ReadError, MAX_TRIANGLES, MAX_VERTICES};
use gltf::mesh::Mode;
use sepax_shapes::math::{Point3, Real};
use std::path::Path;

type Mat4 = [[f64; 4]; 4];

const IDENTITY: Mat4 = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

pub(super) fn read(bytes: &[u8], path: &Path, stem: &str) -> Result<Vec<MeshPart>, ReadError> {
    if bytes.starts_with(b"glTF") {
        // The `gltf` crate subtracts the 12-byte header from the declared length unchecked.
        let declared = bytes
            .get(8..12)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        match declared {
            None => return Err(format!("GLB header cut short: {} bytes", bytes.len()).into()),
            Some(n) if n < 12 => {
                return Err(format!("GLB header declares a length of {n} bytes, under 12").into())
            }
            _ => {}
        }
    }
    // `gltf-json`'s validation indexes the POSITION accessor before checking that it exists (a
    // panic on a dangling index), so that index is checked first on the unvalidated document.
    let unchecked = gltf::Gltf::from_slice_without_validation(bytes).map_err(|e| e.to_string())?;
    let accessors = unchecked.document.as_json().accessors.len();
    for (m, mesh) in unchecked.document.as_json().meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let pos = gltf::json::validation::Checked::Valid(gltf::Semantic::Positions);
            if let Some(a) = prim.attributes.get(&pos).filter(|a| a.value() >= accessors) {
                return Err(format!(
                    "mesh {m} primitive {p}: POSITION accessor {} does not exist ({accessors} accessors)",
                    a.value()
                )
                .into());
            }
        }
    }
    drop(unchecked);
    let file = gltf::Gltf::from_slice(bytes).map_err(|e| e.to_string())?;
    let buffers = super::gltf_buffers::load(&file, path)?;
    for mesh in file.document.meshes() {
        for prim in mesh.primitives() {
            check_primitive(&prim, &buffers)
                .map_err(|e| format!("mesh {} primitive {}: {e}", mesh.index(), prim.index()))?;
        }
    }
    let placed = walk(&file.document)?;
    // The caps are checked on the declared counts before any accessor is read.
    let mut totals = (0usize, 0usize);
    for (node, _) in &placed {
        for prim in node.mesh().iter().flat_map(|m| m.primitives()) {
            let (v, t) = declared_size(&prim);
            totals = (totals.0.saturating_add(v), totals.1.saturating_add(t));
        }
    }
    if totals.0 > MAX_VERTICES || totals.1 > MAX_TRIANGLES {
        return Err(format!(
            "the nodes would produce {} vertices and {} triangles, over the caps of \
             {MAX_VERTICES} and {MAX_TRIANGLES}",
            totals.0, totals.1
        )
        .into());
    }
    let mut parts = Vec::new();
    for (node, world) in placed {
        let Some(mesh) = node.mesh() else { continue };
        let name = node
            .name()
            .or(mesh.name())
            .map(str::to_string)
            .unwrap_or_else(|| format!("{stem}.node{}", node.index()));
        let mut part = MeshPart {
            name,
            vertices: Vec::new(),
            triangles: Vec::new(),
        };
        for prim in mesh.primitives() {
            add_primitive(&prim, &buffers, &world, &mut part).map_err(|e| {
                format!(
                    "node {} mesh {} primitive {}: {e}",
                    node.index(),
                    mesh.index(),
                    prim.index()
                )
            })?;
        }
        parts.push(part);
    }
    Ok(parts)
}

/// The nodes with a mesh and their world transforms, depth first from the scene's roots; each
/// node visited once.
fn walk(doc: &gltf::Document) -> Result<Vec<(gltf::Node<'_>, Mat4)>, String> {
    let roots: Vec<gltf::Node> = match doc.default_scene().or_else(|| doc.scenes().next()) {
        Some(scene) => scene.nodes().collect(),
        // No scene: the nodes that are nobody's child.
        None => {
            let mut child = vec![false; doc.nodes().len()];
            for c in doc.nodes().flat_map(|n| n.children()) {
                child[c.index()] = true;
            }
            doc.nodes().filter(|n| !child[n.index()]).collect()
        }
    };
    let mut seen = vec![false; doc.nodes().len()];
    let mut placed = Vec::new();
    let mut stack: Vec<(gltf::Node, Mat4)> =
        roots.into_iter().rev().map(|n| (n, IDENTITY)).collect();
    while let Some((node, parent)) = stack.pop() {
        let Some(slot) = seen.get_mut(node.index()) else {
            return Err(format!("node {} does not exist", node.index()));
        };
        if std::mem::replace(slot, true) {
            return Err(format!(
                "node {} is reached twice (nodes must form strict trees: no cycles, one parent \
                 each, one scene root each)",
                node.index()
            ));
        }
        let local = node.transform().matrix().map(|c| c.map(|v| v as f64));
        let world = mul(&parent, &local);
        for child in node.children().collect::<Vec<_>>().into_iter().rev() {
            stack.push((child, world));
        }
        if node.mesh().is_some() {
            placed.push((node, world));
        }
    }
    Ok(placed)
}

/// The vertices and triangles a primitive declares (each primitive counted as at least one
/// vertex, so that many empty primitives repeated by many nodes stay bounded too).
fn declared_size(prim: &gltf::Primitive) -> (usize, usize) {
    let n = prim
        .get(&gltf::Semantic::Positions)
        .map_or(0, |a| a.count());
    let k = prim.indices().map_or(n, |a| a.count());
    // A strip or fan of k indices has k - 2 triangles; a list k / 3.
    let t = match prim.mode() {
        Mode::Triangles => k / 3,
        Mode::TriangleFan | Mode::TriangleStrip => k.saturating_sub(2),
        _ => 0,
    };
    (n.max(1), t)
}

/// The types a primitive's accessors must have, and every accessor inside its view and buffer.
fn check_primitive(prim: &gltf::Primitive, buffers: &[Vec<u8>]) -> Result<(), String> {
    use gltf::accessor::{DataType, Dimensions};
    let Some(pos) = prim.get(&gltf::Semantic::Positions) else {
        return Err("no POSITION attribute".into());
    };
    if pos.data_type() != DataType::F32 || pos.dimensions() != Dimensions::Vec3 {
        return Err(format!(
            "POSITION accessor {} is not float VEC3",
            pos.index()
        ));
    }
    check_accessor(&pos, buffers)?;
    let indices = prim.indices();
    if let Some(idx) = &indices {
        let unsigned = matches!(
            idx.data_type(),
            DataType::U8 | DataType::U16 | DataType::U32
        );
        if !unsigned || idx.dimensions() != Dimensions::Scalar {
            return Err(format!(
                "index accessor {} is not an unsigned integer SCALAR",
                idx.index()
            ));
        }
        check_accessor(idx, buffers)?;
    }
    Ok(())
}

fn add_primitive(
    prim: &gltf::Primitive,
    buffers: &[Vec<u8>],
    m: &Mat4,
    part: &mut MeshPart,
) -> Result<(), String> {
    let Some(pos) = prim.get(&gltf::Semantic::Positions) else {
        return Err("no POSITION attribute".into());
    };
    let indices = prim.indices();
    let n = pos.count();
    if n == 0 {
        return Ok(());
    }
    let reader = prim.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
    let base = part.vertices.len() as u32;
    let positions = reader
        .read_positions()
        .ok_or_else(|| format!("POSITION accessor {} cannot be read", pos.index()))?;
    part.vertices.reserve(n);
    for p in positions {
        let v = [p[0] as f64, p[1] as f64, p[2] as f64];
        let w = [0, 1, 2].map(|r| m[0][r] * v[0] + m[1][r] * v[1] + m[2][r] * v[2] + m[3][r]);
        part.vertices
            .push(Point3::new(w[0] as Real, w[1] as Real, w[2] as Real));
    }
    let n = part.vertices.len() as u32 - base;
    let idx: Vec<u32> = match indices {
        Some(a) if a.count() == 0 => Vec::new(),
        Some(_) => reader
            .read_indices()
            .ok_or("the index accessor cannot be read")?
            .into_u32()
            .collect(),
        None => (0..n).collect(),
    };
    if let Some(bad) = idx.iter().find(|&&i| i >= n) {
        return Err(format!("index {bad} is beyond its {n} vertices"));
    }
    let idx: Vec<u32> = idx.iter().map(|i| i + base).collect();
    match prim.mode() {
        Mode::Triangles => part
            .triangles
            .extend(idx.chunks_exact(3).map(|c| [c[0], c[1], c[2]])),
        Mode::TriangleFan => fan(&idx, &mut part.triangles),
        Mode::TriangleStrip => {
            for k in 2..idx.len() {
                let t = if k % 2 == 0 {
                    [idx[k - 2], idx[k - 1], idx[k]]
                } else {
                    [idx[k - 1], idx[k - 2], idx[k]]
                };
                part.triangles.push(t);
            }
        }
        // Points and lines: vertices only (they still bound the part).
        _ => {}
    }
    Ok(())
}

/// A dense accessor whose every element lies inside its view, and the view inside its buffer
/// (all arithmetic checked: the counts and offsets are the file's).
fn check_accessor(acc: &gltf::Accessor, buffers: &[Vec<u8>]) -> Result<(), String> {
    let id = acc.index();
    if acc.sparse().is_some() {
        return Err(format!("accessor {id} is sparse (not supported)"));
    }
    let Some(view) = acc.view() else {
        return Err(format!(
            "accessor {id} has no buffer view (sparse-only accessors are not supported)"
        ));
    };
    let have = buffers.get(view.buffer().index()).map_or(0, Vec::len);
    let end = view.offset().checked_add(view.length());
    if end.is_none_or(|e| e > have) {
        return Err(format!(
            "buffer view {} (offset {}, length {}) ends past its buffer's {have} bytes",
            view.index(),
            view.offset(),
            view.length()
        ));
    }
    let size = acc.size();
    let stride = view.stride().unwrap_or(size);
    if stride < size {
        return Err(format!(
            "buffer view {} has a stride of {stride} bytes, accessor {id} needs {size}",
            view.index()
        ));
    }
    if acc.count() == 0 {
        return Ok(());
    }
    let need = stride
        .checked_mul(acc.count() - 1)
        .and_then(|b| b.checked_add(size))
        .and_then(|b| b.checked_add(acc.offset()));
    if need.is_none_or(|b| b > view.length()) {
        return Err(format!(
            "accessor {id} declares {} elements of {size} bytes (stride {stride}, offset {}), \
             more than buffer view {}'s {} bytes",
            acc.count(),
            acc.offset(),
            view.index(),
            view.length()
        ));
    }
    Ok(())
}

/// `a * b` for column-major 4x4 matrices (`m[column][row]`).
fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [[0.0; 4]; 4];
    for c in 0..4 {
        for r in 0..4 {
            out[c][r] = (0..4).map(|k| a[k][r] * b[c][k]).sum();
        }
    }
    out
}
