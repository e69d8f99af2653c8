//! Stanford PLY (ASCII or binary) through `ply-rs-bw`: the `vertex` element's `x`, `y`, `z` and
//! the `face` element's `vertex_indices` (or `vertex_index`) lists.

use super::{fan, MeshPart};
use ply_rs_bw::parser::Parser;
use ply_rs_bw::ply::{DefaultElement, Property};
use sepax_shapes::math::{Point3, Real};

pub(super) fn read(bytes: &[u8], stem: &str) -> Result<Vec<MeshPart>, String> {
    let mut cursor = std::io::Cursor::new(bytes);
    let ply = Parser::<DefaultElement>::new()
        .read_ply(&mut cursor)
        .map_err(|e| e.to_string())?;
    let verts = ply
        .payload
        .get("vertex")
        .ok_or_else(|| "no \"vertex\" element".to_string())?;
    let mut vertices = Vec::with_capacity(verts.len());
    for (i, v) in verts.iter().enumerate() {
        let mut c: [Real; 3] = [0.0; 3];
        for (k, name) in ["x", "y", "z"].iter().enumerate() {
            c[k] = match v.get(*name) {
                Some(Property::Float(x)) => *x as Real,
                Some(Property::Double(x)) => *x as Real,
                Some(p) => match scalar(p) {
                    Some(x) => x as Real,
                    None => return Err(format!("vertex {i}: property {name} is a list")),
                },
                None => return Err(format!("vertex {i}: no property {name}")),
            };
        }
        vertices.push(Point3::new(c[0], c[1], c[2]));
    }
    let mut triangles = Vec::new();
    if let Some(faces) = ply.payload.get("face") {
        for (f, face) in faces.iter().enumerate() {
            let list = face
                .get("vertex_indices")
                .or_else(|| face.get("vertex_index"))
                .ok_or_else(|| format!("face {f}: no vertex_indices list"))?;
            let idx = indices(list).ok_or_else(|| {
                format!("face {f}: vertex_indices is not a list of non-negative integers")
            })?;
            if idx.len() < 3 {
                return Err(format!(
                    "face {f}: {} vertices (at least 3 needed)",
                    idx.len()
                ));
            }
            fan(&idx, &mut triangles);
        }
    }
    Ok(vec![MeshPart {
        name: stem.to_string(),
        vertices,
        triangles,
    }])
}

fn scalar(p: &Property) -> Option<f64> {
    Some(match p {
        Property::Char(v) => *v as f64,
        Property::UChar(v) => *v as f64,
        Property::Short(v) => *v as f64,
        Property::UShort(v) => *v as f64,
        Property::Int(v) => *v as f64,
        Property::UInt(v) => *v as f64,
        Property::Float(v) => *v as f64,
        Property::Double(v) => *v,
        _ => return None,
    })
}

fn indices(p: &Property) -> Option<Vec<u32>> {
    fn conv<T: Copy + TryInto<u32>>(v: &[T]) -> Option<Vec<u32>> {
        v.iter().map(|x| (*x).try_into().ok()).collect()
    }
    match p {
        Property::ListChar(v) => conv(v),
        Property::ListUChar(v) => conv(v),
        Property::ListShort(v) => conv(v),
        Property::ListUShort(v) => conv(v),
        Property::ListInt(v) => conv(v),
        Property::ListUInt(v) => conv(v),
        _ => None,
    }
}
