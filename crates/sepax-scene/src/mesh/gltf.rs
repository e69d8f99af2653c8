//! glTF 2.0 (`.gltf` with external or embedded buffers, `.glb`) through the `gltf` crate. Each
//! node with a mesh is a part, its vertices in world coordinates (the node's transform composed
//! with its ancestors'). Buffers are loaded here (GLB blob, files beside the model, or base64
//! `data:` URIs) and checked against their declared lengths before any accessor is read.

use super::{fan, MeshPart};
use gltf::buffer::Source;
use gltf::mesh::Mode;
use sepax_shapes::math::{Point3, Real};
use std::path::Path;

pub(super) fn read(bytes: &[u8], path: &Path, stem: &str) -> Result<Vec<MeshPart>, String> {
    let file = gltf::Gltf::from_slice(bytes).map_err(|e| e.to_string())?;
    let doc = &file.document;
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    for b in doc.buffers() {
        let data = match b.source() {
            Source::Bin => file.blob.clone().ok_or_else(|| {
                format!("buffer {} refers to a missing GLB binary chunk", b.index())
            })?,
            Source::Uri(uri) => {
                if let Some(rest) = uri.strip_prefix("data:") {
                    let (_, payload) = rest
                        .split_once(";base64,")
                        .ok_or_else(|| format!("buffer {}: data URI is not base64", b.index()))?;
                    base64(payload)
                        .ok_or_else(|| format!("buffer {}: invalid base64 data", b.index()))?
                } else {
                    let file = path
                        .parent()
                        .unwrap_or(Path::new("."))
                        .join(uri.replace("%20", " "));
                    std::fs::read(&file).map_err(|e| {
                        format!("buffer {}: cannot read {}: {e}", b.index(), file.display())
                    })?
                }
            }
        };
        if data.len() < b.length() {
            return Err(format!(
                "buffer {} holds {} bytes, {} declared",
                b.index(),
                data.len(),
                b.length()
            ));
        }
        buffers.push(data);
    }
    let roots: Vec<gltf::Node> = match doc.default_scene().or_else(|| doc.scenes().next()) {
        Some(scene) => scene.nodes().collect(),
        None => doc.nodes().collect(),
    };
    let identity = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let mut parts = Vec::new();
    let mut stack: Vec<(gltf::Node, [[f64; 4]; 4], usize)> =
        roots.into_iter().rev().map(|n| (n, identity, 0)).collect();
    while let Some((node, parent, depth)) = stack.pop() {
        if depth > 256 {
            return Err("node hierarchy deeper than 256 (a cycle?)".into());
        }
        let local = node.transform().matrix().map(|c| c.map(|v| v as f64));
        let world = mul(&parent, &local);
        if let Some(mesh) = node.mesh() {
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
                    format!("mesh {} primitive {}: {e}", mesh.index(), prim.index())
                })?;
            }
            parts.push(part);
        }
        for child in node.children().collect::<Vec<_>>().into_iter().rev() {
            stack.push((child, world, depth + 1));
        }
    }
    Ok(parts)
}

fn add_primitive(
    prim: &gltf::Primitive,
    buffers: &[Vec<u8>],
    m: &[[f64; 4]; 4],
    part: &mut MeshPart,
) -> Result<(), String> {
    // The reader trusts the types: POSITION must be float VEC3, indices unsigned SCALAR.
    use gltf::accessor::{DataType, Dimensions};
    if let Some(pos) = prim.get(&gltf::Semantic::Positions) {
        if pos.data_type() != DataType::F32 || pos.dimensions() != Dimensions::Vec3 {
            return Err(format!(
                "POSITION accessor {} is not float VEC3",
                pos.index()
            ));
        }
    }
    if let Some(idx) = prim.indices() {
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
    }
    // Every view must lie inside its buffer before the reader slices it.
    for (_, acc) in prim
        .attributes()
        .chain(prim.indices().map(|a| (gltf::Semantic::Weights(0), a)))
    {
        if acc.sparse().is_some() {
            return Err(format!(
                "accessor {} is sparse (not supported)",
                acc.index()
            ));
        }
        if let Some(view) = acc.view() {
            let end = view.offset() + view.length();
            let have = buffers.get(view.buffer().index()).map_or(0, Vec::len);
            if end > have {
                return Err(format!(
                    "buffer view {} ends at byte {end}, buffer holds {have}",
                    view.index()
                ));
            }
            let stride = view.stride().unwrap_or(acc.size());
            let need = acc.offset() + stride * acc.count().saturating_sub(1) + acc.size();
            if acc.count() > 0 && need > view.length() {
                return Err(format!(
                    "accessor {} reads past its buffer view",
                    acc.index()
                ));
            }
        } else {
            return Err(format!(
                "accessor {} has no buffer view (sparse-only accessors are not supported)",
                acc.index()
            ));
        }
    }
    let reader = prim.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
    let base = part.vertices.len() as u32;
    let Some(positions) = reader.read_positions() else {
        return Err("no POSITION attribute".into());
    };
    for p in positions {
        let v = [p[0] as f64, p[1] as f64, p[2] as f64];
        let w = [0, 1, 2].map(|r| m[0][r] * v[0] + m[1][r] * v[1] + m[2][r] * v[2] + m[3][r]);
        part.vertices
            .push(Point3::new(w[0] as Real, w[1] as Real, w[2] as Real));
    }
    let n = part.vertices.len() as u32 - base;
    let idx: Vec<u32> = match reader.read_indices() {
        Some(i) => i.into_u32().collect(),
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

/// `a * b` for column-major 4x4 matrices (`m[column][row]`).
fn mul(a: &[[f64; 4]; 4], b: &[[f64; 4]; 4]) -> [[f64; 4]; 4] {
    let mut out = [[0.0; 4]; 4];
    for c in 0..4 {
        for r in 0..4 {
            out[c][r] = (0..4).map(|k| a[k][r] * b[c][k]).sum();
        }
    }
    out
}

/// Standard base64 (with or without padding); `None` on any other character.
fn base64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for ch in s.bytes() {
        let v = match ch {
            b'A'..=b'Z' => ch - b'A',
            b'a'..=b'z' => ch - b'a' + 26,
            b'0'..=b'9' => ch - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return None,
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_decodes() {
        assert_eq!(super::base64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(super::base64("aGVsbG8").unwrap(), b"hello");
        assert!(super::base64("a$").is_none());
    }
}
