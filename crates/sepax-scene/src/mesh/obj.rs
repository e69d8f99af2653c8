//! Wavefront OBJ through `tobj` (polygons triangulated, materials not loaded).

use super::{point, MeshPart};

pub(super) fn read(bytes: &[u8], stem: &str) -> Result<Vec<MeshPart>, String> {
    let options = tobj::LoadOptions {
        triangulate: true,
        single_index: true,
        ignore_points: true,
        ignore_lines: true,
    };
    let mut reader = std::io::BufReader::new(bytes);
    // Materials are irrelevant to geometry: the loader answers every `mtllib` with nothing.
    let (models, _materials) =
        tobj::load_obj_buf(&mut reader, &options, |_| Ok(Default::default()))
            .map_err(|e| e.to_string())?;
    let mut parts = Vec::with_capacity(models.len());
    for (k, m) in models.into_iter().enumerate() {
        let pos = &m.mesh.positions;
        if pos.len() % 3 != 0 {
            return Err(format!(
                "object {k}: {} position numbers, not a multiple of 3",
                pos.len()
            ));
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
    Ok(parts)
}
