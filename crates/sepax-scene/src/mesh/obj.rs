//! Wavefront OBJ through `tobj` (polygons triangulated). Materials are not needed for geometry,
//! so no `mtllib` is ever opened: the loader's material callback answers every one with nothing,
//! without touching the file system.

use super::{point, MeshPart, ReadError};

pub(super) fn read(bytes: &[u8], stem: &str) -> Result<Vec<MeshPart>, ReadError> {
    let options = tobj::LoadOptions {
        triangulate: true,
        single_index: true,
        ignore_points: true,
        ignore_lines: true,
    };
    // Texture coordinates and normals are not needed, and `tobj` multiplies their face indices
    // unchecked (an overflow panic on `f 1/-99999999999 ...`): their lines are left out, so that
    // `tobj` sees none and never indexes them.
    let geometry = without_vt_vn(bytes);
    let mut reader = std::io::BufReader::new(geometry.as_slice());
    let (models, _materials) =
        tobj::load_obj_buf(&mut reader, &options, |_| Ok(Default::default()))
            .map_err(|e| ReadError::Parse(e.to_string()))?;
    let mut parts = Vec::with_capacity(models.len());
    for (k, m) in models.into_iter().enumerate() {
        let pos = &m.mesh.positions;
        if pos.len() % 3 != 0 {
            return Err(format!(
                "object {k}: {} position numbers, not a multiple of 3",
                pos.len()
            )
            .into());
        }
        let vertices = pos
            .chunks_exact(3)
            .map(|c| point(c[0], c[1], c[2]))
            .collect();
        let triangles = m
            .mesh
            .indices
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect();
        let name = if m.name.is_empty() || m.name == "unnamed_object" {
            format!("{stem}.{k}")
        } else {
            m.name
        };
        parts.push(MeshPart {
            name,
            vertices,
            triangles,
        });
    }
    if parts.iter().all(|p| p.vertices.is_empty()) {
        // `tobj` keeps only the vertices that faces use; say what the file really holds.
        let listed = vertex_lines(bytes);
        if listed > 0 {
            return Err(ReadError::NoFaces(listed));
        }
    }
    Ok(parts)
}

/// The file without its `vt` and `vn` lines.
fn without_vt_vn(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let word = line
            .trim_ascii_start()
            .split(|b| b.is_ascii_whitespace())
            .next()
            .unwrap_or_default();
        if word != b"vt" && word != b"vn" {
            out.extend_from_slice(line);
        }
    }
    out
}

/// How many `v` (position) lines the file has.
fn vertex_lines(bytes: &[u8]) -> usize {
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| {
            let l = l.trim_ascii_start();
            l.starts_with(b"v") && l.get(1).is_some_and(u8::is_ascii_whitespace)
        })
        .count()
}
