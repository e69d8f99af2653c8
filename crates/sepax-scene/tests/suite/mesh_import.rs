//! Mesh import: each format read from files written here, and broken files rejected with a
//! message that names the file and the problem.

// Casts between `Real` and `f64` are needed in the default `f32` build and are no-ops with `f64`.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

use sepax_scene::mesh::{all_vertices, read_mesh_file, MeshError};
use sepax_shapes::math::{Point3, Real};
use std::path::PathBuf;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("sepax-mesh-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir().join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

const TETRA: [[f32; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 2.0, 0.0],
    [0.0, 0.0, 3.0],
];
const TETRA_FACES: [[u32; 3]; 4] = [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]];

fn tetra_points() -> Vec<Point3> {
    TETRA
        .iter()
        .map(|p| Point3::new(p[0] as Real, p[1] as Real, p[2] as Real))
        .collect()
}

#[test]
fn obj_objects_and_quads() {
    let text = "# two objects\no first\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n\
                o second\nv 5 5 5\nv 6 5 5\nv 5 6 5\nf 5 6 7\n";
    let parts = read_mesh_file(write("two.obj", text.as_bytes())).unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!(parts[0].name, "first");
    assert_eq!(parts[0].triangles.len(), 2, "quad split in two");
    assert_eq!(parts[1].name, "second");
    assert_eq!(parts[1].vertices.len(), 3);
    assert_eq!(parts[1].vertices[0], Point3::new(5.0, 5.0, 5.0));
    assert_eq!(all_vertices(&parts).len(), 7);
}

#[test]
fn stl_ascii_and_binary() {
    let mut ascii = String::from("solid t\n");
    for f in TETRA_FACES {
        ascii.push_str(" facet normal 0 0 0\n  outer loop\n");
        for i in f {
            let v = TETRA[i as usize];
            ascii.push_str(&format!("   vertex {} {} {}\n", v[0], v[1], v[2]));
        }
        ascii.push_str("  endloop\n endfacet\n");
    }
    ascii.push_str("endsolid t\n");
    let mut bin = vec![0u8; 80];
    bin.extend_from_slice(&(TETRA_FACES.len() as u32).to_le_bytes());
    for f in TETRA_FACES {
        bin.extend_from_slice(&[0u8; 12]);
        for i in f {
            for c in TETRA[i as usize] {
                bin.extend_from_slice(&c.to_le_bytes());
            }
        }
        bin.extend_from_slice(&[0u8; 2]);
    }
    for (name, bytes) in [("a.stl", ascii.as_bytes().to_vec()), ("b.stl", bin.clone())] {
        let parts = read_mesh_file(write(name, &bytes)).unwrap();
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].triangles.len(), 4, "{name}");
        let mut v = parts[0].vertices.clone();
        v.sort_by(|a, b| {
            a.coords
                .as_slice()
                .partial_cmp(b.coords.as_slice())
                .unwrap()
        });
        let mut want = tetra_points();
        want.sort_by(|a, b| {
            a.coords
                .as_slice()
                .partial_cmp(b.coords.as_slice())
                .unwrap()
        });
        assert_eq!(v, want, "{name}: vertices merged and exact");
    }
    // Truncated binary: the declared triangle count is not there.
    let e = read_mesh_file(write("cut.stl", &bin[..bin.len() - 30])).unwrap_err();
    assert!(matches!(e, MeshError::Parse { format: "STL", .. }), "{e}");
    assert!(e.to_string().contains("cut.stl"), "{e}");
}

#[test]
fn ply_ascii_and_binary() {
    let mut ascii = String::from(
        "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n\
         element face 4\nproperty list uchar int vertex_indices\nend_header\n",
    );
    for v in TETRA {
        ascii.push_str(&format!("{} {} {}\n", v[0], v[1], v[2]));
    }
    for f in TETRA_FACES {
        ascii.push_str(&format!("3 {} {} {}\n", f[0], f[1], f[2]));
    }
    let parts = read_mesh_file(write("t.ply", ascii.as_bytes())).unwrap();
    assert_eq!(parts[0].vertices, tetra_points());
    assert_eq!(parts[0].triangles, TETRA_FACES.to_vec());

    let mut bin = b"ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty double x\nproperty double y\nproperty double z\nelement face 4\nproperty list uchar uint vertex_indices\nend_header\n".to_vec();
    for v in TETRA {
        for c in v {
            bin.extend_from_slice(&(c as f64).to_le_bytes());
        }
    }
    for f in TETRA_FACES {
        bin.push(3);
        for i in f {
            bin.extend_from_slice(&i.to_le_bytes());
        }
    }
    let parts = read_mesh_file(write("tb.ply", &bin)).unwrap();
    assert_eq!(parts[0].vertices, tetra_points());
    assert_eq!(parts[0].triangles, TETRA_FACES.to_vec());

    let bad = ascii.replace("3 0 2 1", "3 0 2 9");
    let e = read_mesh_file(write("bad.ply", bad.as_bytes())).unwrap_err();
    assert!(e.to_string().contains("refers to vertex 9"), "{e}");
    assert!(e.to_string().contains("bad.ply"), "{e}");
    let e = read_mesh_file(write("novert.ply", b"ply\nformat ascii 1.0\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n")).unwrap_err();
    assert!(e.to_string().contains("no \"vertex\" element"), "{e}");
}

fn b64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in data.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for k in 0..4 {
            if k <= c.len() {
                s.push(T[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

fn tetra_buffer() -> Vec<u8> {
    let mut buf = Vec::new();
    for v in TETRA {
        for c in v {
            buf.extend_from_slice(&c.to_le_bytes());
        }
    }
    for f in TETRA_FACES {
        for i in f {
            buf.extend_from_slice(&(i as u16).to_le_bytes());
        }
    }
    buf
}

fn gltf_json(uri: Option<&str>, len: usize) -> String {
    let uri = uri.map(|u| format!(",\"uri\":\"{u}\"")).unwrap_or_default();
    format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],
"nodes":[{{"name":"arm","translation":[10,0,0],"children":[1]}},{{"name":"hand","mesh":0,"translation":[0,1,0]}}],
"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}}],
"buffers":[{{"byteLength":{len}{uri}}}],
"bufferViews":[{{"buffer":0,"byteOffset":0,"byteLength":48}},{{"buffer":0,"byteOffset":48,"byteLength":24}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3","min":[0,0,0],"max":[1,2,3]}},
{{"bufferView":1,"componentType":5123,"count":12,"type":"SCALAR"}}]}}"#
    )
}

fn check_gltf_parts(parts: &[sepax_scene::mesh::MeshPart]) {
    assert_eq!(parts.len(), 1);
    assert_eq!(parts[0].name, "hand");
    assert_eq!(parts[0].triangles, TETRA_FACES.to_vec());
    // Node transforms composed: (10, 0, 0) + (0, 1, 0).
    let moved: Vec<Point3> = tetra_points()
        .iter()
        .map(|p| p + sepax_shapes::math::Vector3::new(10.0, 1.0, 0.0))
        .collect();
    assert_eq!(parts[0].vertices, moved);
}

#[test]
fn gltf_data_uri_external_buffer_and_glb() {
    let buf = tetra_buffer();
    let uri = format!("data:application/octet-stream;base64,{}", b64(&buf));
    let parts =
        read_mesh_file(write("d.gltf", gltf_json(Some(&uri), buf.len()).as_bytes())).unwrap();
    check_gltf_parts(&parts);

    write("ext.bin", &buf);
    let parts = read_mesh_file(write(
        "e.gltf",
        gltf_json(Some("ext.bin"), buf.len()).as_bytes(),
    ))
    .unwrap();
    check_gltf_parts(&parts);

    // GLB: header, JSON chunk (padded with spaces), BIN chunk.
    let mut json = gltf_json(None, buf.len()).into_bytes();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut bin = buf.clone();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut glb = Vec::new();
    glb.extend_from_slice(b"glTF");
    glb.extend_from_slice(&2u32.to_le_bytes());
    glb.extend_from_slice(&(total as u32).to_le_bytes());
    glb.extend_from_slice(&(json.len() as u32).to_le_bytes());
    glb.extend_from_slice(b"JSON");
    glb.extend_from_slice(&json);
    glb.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    glb.extend_from_slice(b"BIN\0");
    glb.extend_from_slice(&bin);
    let parts = read_mesh_file(write("m.glb", &glb)).unwrap();
    check_gltf_parts(&parts);

    // Broken: a buffer shorter than declared, a missing external file, bad JSON.
    let short = format!("data:application/octet-stream;base64,{}", b64(&buf[..40]));
    let e = read_mesh_file(write(
        "short.gltf",
        gltf_json(Some(&short), buf.len()).as_bytes(),
    ))
    .unwrap_err();
    assert!(
        e.to_string().contains("short.gltf") && e.to_string().contains("declared"),
        "{e}"
    );
    let e = read_mesh_file(write(
        "miss.gltf",
        gltf_json(Some("nothere.bin"), buf.len()).as_bytes(),
    ))
    .unwrap_err();
    assert!(e.to_string().contains("nothere.bin"), "{e}");
    // POSITION declared as integers: refused before any read.
    let ints = gltf_json(Some(&uri), buf.len()).replacen(
        "\"componentType\":5126",
        "\"componentType\":5125",
        1,
    );
    let e = read_mesh_file(write("ints.gltf", ints.as_bytes())).unwrap_err();
    assert!(
        e.to_string()
            .contains("POSITION accessor 0 is not float VEC3"),
        "{e}"
    );
    let e = read_mesh_file(write("junk.gltf", b"{ not json")).unwrap_err();
    assert!(matches!(e, MeshError::Parse { format: "glTF", .. }), "{e}");
}

#[test]
fn missing_unsupported_and_empty_files() {
    let e = read_mesh_file(dir().join("nope.obj")).unwrap_err();
    assert!(
        matches!(e, MeshError::Io { .. }) && e.to_string().contains("nope.obj"),
        "{e}"
    );
    let e = read_mesh_file(write("x.fbx", b"whatever")).unwrap_err();
    assert!(matches!(e, MeshError::Unsupported { .. }), "{e}");
    let e = read_mesh_file(write("empty.obj", b"# nothing\n")).unwrap_err();
    assert!(matches!(e, MeshError::Empty { .. }), "{e}");
    let e =
        read_mesh_file(write("badidx.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n")).unwrap_err();
    assert!(e.to_string().contains("badidx.obj"), "{e}");
    let e =
        read_mesh_file(write("nan.obj", b"v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")).unwrap_err();
    assert!(e.to_string().contains("nan.obj"), "{e}");
}
