//! STL, binary or ASCII. A file is binary exactly when its size is `84 + 50 n` for the triangle
//! count `n` its header declares (the binary layout is fixed, so this is decisive, and it does
//! not depend on the header's first bytes, which binary writers often fill with `solid ...`);
//! every other file is read as ASCII through `stl_io`.

use super::{point, MeshPart};
use std::collections::HashMap;

/// Bytes of a binary STL's header plus its triangle count.
const HEAD: usize = 84;
/// Bytes of one binary triangle record: normal, three vertices, attribute count.
const RECORD: usize = 50;

pub(super) fn read(bytes: &[u8], stem: &str) -> Result<Vec<MeshPart>, String> {
    let declared = bytes
        .get(80..HEAD)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as u64);
    let (vertices, triangles) = match declared {
        Some(n) if HEAD as u64 + RECORD as u64 * n == bytes.len() as u64 => binary(&bytes[HEAD..]),
        _ => ascii(bytes, declared)?,
    };
    Ok(vec![MeshPart {
        name: stem.to_string(),
        vertices,
        triangles,
    }])
}

type Mesh = (Vec<super::Point3>, Vec<[u32; 3]>);

/// The triangle records (their count already matches the size), equal vertices merged.
fn binary(records: &[u8]) -> Mesh {
    let f = |r: &[u8], k: usize| f32::from_le_bytes([r[k], r[k + 1], r[k + 2], r[k + 3]]);
    let mut index: HashMap<[u32; 3], u32> = HashMap::new();
    let mut vertices = Vec::new();
    let mut triangles = Vec::with_capacity(records.len() / RECORD);
    for r in records.chunks_exact(RECORD) {
        let mut tri = [0u32; 3];
        for (j, slot) in tri.iter_mut().enumerate() {
            let c = [0, 4, 8].map(|o| f(r, 12 + 12 * j + o));
            *slot = *index.entry(c.map(f32::to_bits)).or_insert_with(|| {
                vertices.push(point(c[0], c[1], c[2]));
                (vertices.len() - 1) as u32
            });
        }
        triangles.push(tri);
    }
    (vertices, triangles)
}

/// ASCII STL. `stl_io` wants the first line to be `solid NAME`; a bare `solid` is accepted too.
fn ascii(bytes: &[u8], declared: Option<u64>) -> Result<Mesh, String> {
    let first_end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(bytes.len());
    let first = bytes[..first_end].trim_ascii();
    let is_ascii =
        first == b"solid" || first.starts_with(b"solid ") || first.starts_with(b"solid\t");
    if !is_ascii {
        return Err(match declared {
            Some(n) => format!(
                "not an ASCII STL (it does not start with \"solid\"), and not a binary one: \
                 its header declares {n} triangles ({} bytes), the file has {} bytes",
                HEAD as u64 + RECORD as u64 * n,
                bytes.len()
            ),
            None => format!(
                "{} bytes: too short for a binary STL (84-byte header) and not ASCII \
                 (it does not start with \"solid\")",
                bytes.len()
            ),
        });
    }
    let mut fixed;
    let text: &[u8] = if bytes.starts_with(b"solid ") {
        bytes
    } else {
        fixed = b"solid \n".to_vec();
        fixed.extend_from_slice(bytes.get(first_end + 1..).unwrap_or_default());
        &fixed
    };
    let mesh = stl_io::read_stl(&mut std::io::Cursor::new(text)).map_err(|e| match declared {
        Some(n) => format!(
            "ASCII STL: {e} (not read as binary: its header would declare {n} triangles, \
                 {} bytes, the file has {})",
            HEAD as u64 + RECORD as u64 * n,
            bytes.len()
        ),
        None => format!("ASCII STL: {e}"),
    })?;
    let vertices = mesh
        .vertices
        .iter()
        .map(|v| point(v[0], v[1], v[2]))
        .collect();
    let mut triangles = Vec::with_capacity(mesh.faces.len());
    for (t, f) in mesh.faces.iter().enumerate() {
        match f.vertices.map(u32::try_from) {
            [Ok(a), Ok(b), Ok(c)] => triangles.push([a, b, c]),
            _ => return Err(format!("triangle {t}: vertex index beyond u32")),
        }
    }
    Ok((vertices, triangles))
}
