//! STL (ASCII or binary) through `stl_io`.

use super::{point, MeshPart};

pub(super) fn read(bytes: &[u8], stem: &str) -> Result<Vec<MeshPart>, String> {
    let mut cursor = std::io::Cursor::new(bytes);
    let mesh = stl_io::read_stl(&mut cursor).map_err(|e| e.to_string())?;
    let vertices = mesh
        .vertices
        .iter()
        .map(|v| point(v[0], v[1], v[2]))
        .collect();
    let mut triangles = Vec::with_capacity(mesh.faces.len());
    for (t, f) in mesh.faces.iter().enumerate() {
        let idx = f.vertices.map(u32::try_from);
        match idx {
            [Ok(a), Ok(b), Ok(c)] => triangles.push([a, b, c]),
            _ => return Err(format!("triangle {t}: vertex index beyond u32")),
        }
    }
    Ok(vec![MeshPart {
        name: stem.to_string(),
        vertices,
        triangles,
    }])
}
