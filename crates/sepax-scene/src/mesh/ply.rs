//! Stanford PLY (ASCII or binary) through `ply-rs-bw`: the `vertex` element's `x`, `y`, `z` and
//! the `face` element's `vertex_indices` (or `vertex_index`) lists.
//!
//! The header's element counts are checked against the bytes after `end_header` before the body
//! is parsed (the parser loops once per declared element, so a count of 10^12 elements of zero
//! bytes would never end), and elements are stored compactly (only the fields used here).

use super::{fan, MeshPart};
use ply_rs_bw::parser::Parser;
use ply_rs_bw::ply::{
    Encoding, Header, Property, PropertyAccess, PropertyAccessResult, PropertyType, ScalarType,
};
use sepax_shapes::math::{Point3, Real};

pub(super) fn read(bytes: &[u8], stem: &str) -> Result<Vec<MeshPart>, String> {
    let parser = Parser::<Elem>::new();
    let header = parser
        .read_ply_header(&mut std::io::Cursor::new(bytes))
        .map_err(|e| e.to_string())?;
    check_counts(&header, body_len(bytes)?)?;
    let ply = parser
        .read_ply(&mut std::io::Cursor::new(bytes))
        .map_err(|e| e.to_string())?;
    let verts = ply
        .payload
        .get("vertex")
        .ok_or_else(|| "no \"vertex\" element".to_string())?;
    let mut vertices = Vec::with_capacity(verts.len());
    for (i, v) in verts.iter().enumerate() {
        let mut c: [Real; 3] = [0.0; 3];
        for (k, name) in ["x", "y", "z"].iter().enumerate() {
            c[k] = match v.xyz[k] {
                Coord::Value(x) => x as Real,
                Coord::List => return Err(format!("vertex {i}: property {name} is a list")),
                Coord::Missing => return Err(format!("vertex {i}: no property {name}")),
            };
        }
        vertices.push(Point3::new(c[0], c[1], c[2]));
    }
    let mut triangles = Vec::new();
    if let Some(faces) = ply.payload.get("face") {
        for (f, face) in faces.iter().enumerate() {
            let idx = match &face.list {
                List::Missing => return Err(format!("face {f}: no vertex_indices list")),
                List::Bad => {
                    return Err(format!(
                        "face {f}: vertex_indices is not a list of non-negative integers"
                    ))
                }
                List::Indices(idx) => idx,
            };
            if idx.len() < 3 {
                return Err(format!(
                    "face {f}: {} vertices (at least 3 needed)",
                    idx.len()
                ));
            }
            fan(idx, &mut triangles);
            if triangles.len() > super::MAX_TRIANGLES {
                return Err(format!("over {} triangles (the cap)", super::MAX_TRIANGLES));
            }
        }
    }
    Ok(vec![MeshPart {
        name: stem.to_string(),
        vertices,
        triangles,
    }])
}

/// Bytes after the `end_header` line.
fn body_len(bytes: &[u8]) -> Result<u64, String> {
    let at = bytes
        .windows(10)
        .position(|w| w == b"end_header")
        .ok_or("no end_header line")?;
    let nl = bytes[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| at + p + 1);
    Ok((bytes.len() - nl) as u64)
}

/// Every declared element must fit the body: at least one byte per element (two per property
/// in ASCII: a digit and a separator), and binary lists at least their count field.
fn check_counts(header: &Header, body: u64) -> Result<(), String> {
    let ascii = header.encoding == Encoding::Ascii;
    let mut need: u64 = 0;
    for e in header.elements.values() {
        let each: u64 = if ascii {
            2 * e.properties.len() as u64
        } else {
            e.properties
                .values()
                .map(|p| match &p.data_type {
                    PropertyType::Scalar(s) => size(s),
                    PropertyType::List(count, _) => size(count),
                })
                .sum()
        };
        let min = (e.count as u64).saturating_mul(each.max(1));
        need = need.saturating_add(min);
        if need > body + 1 {
            return Err(format!(
                "element \"{}\" declares {} elements of at least {} bytes each, but the body \
                 after the header holds {body} bytes",
                e.name,
                e.count,
                each.max(1)
            ));
        }
    }
    Ok(())
}

fn size(s: &ScalarType) -> u64 {
    match s {
        ScalarType::Char | ScalarType::UChar => 1,
        ScalarType::Short | ScalarType::UShort => 2,
        ScalarType::Int | ScalarType::UInt | ScalarType::Float => 4,
        ScalarType::Double => 8,
    }
}

#[derive(Debug, Clone, Copy, Default)]
enum Coord {
    #[default]
    Missing,
    List,
    Value(f64),
}

#[derive(Debug, Default)]
enum List {
    #[default]
    Missing,
    Bad,
    Indices(Vec<u32>),
}

/// One element of any kind, keeping only what a mesh needs.
#[derive(Debug, Default)]
struct Elem {
    xyz: [Coord; 3],
    list: List,
}

impl PropertyAccess for Elem {
    fn new() -> Self {
        Elem::default()
    }

    fn set_property(&mut self, name: &str, p: Property) -> PropertyAccessResult {
        match name {
            "x" | "y" | "z" => {
                let k = (name.as_bytes()[0] - b'x') as usize;
                self.xyz[k] = scalar(&p).map_or(Coord::List, Coord::Value);
            }
            "vertex_indices" => self.list = indices(&p).map_or(List::Bad, List::Indices),
            "vertex_index" if matches!(self.list, List::Missing) => {
                self.list = indices(&p).map_or(List::Bad, List::Indices)
            }
            _ => return PropertyAccessResult::Ignored,
        }
        PropertyAccessResult::Set
    }
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
