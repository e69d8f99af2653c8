//! Hostile mesh files (issue 13): references outside the model's folder, resource bombs (counts
//! that the bytes cannot hold, node graphs that are not trees), and error messages that must name
//! what is really wrong. Every case here must end quickly with the error described.

use sepax_scene::mesh::{read_mesh_file, MeshError, MeshPart, MAX_FILE_BYTES};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A fresh folder per test (tests run in parallel), removed when the test ends.
struct Folder(PathBuf);

impl std::ops::Deref for Folder {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn dir(name: &str) -> Folder {
    let d = std::env::temp_dir().join(format!("sepax-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Folder(d)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Reads on a thread and fails the test if the reader takes over `limit` (a hang is a failure,
/// not a stuck test run).
fn read_within(path: &Path, limit: Duration) -> Result<Vec<MeshPart>, MeshError> {
    let (tx, rx) = std::sync::mpsc::channel();
    let p = path.to_path_buf();
    let start = Instant::now();
    std::thread::spawn(move || {
        let _ = tx.send(read_mesh_file(&p));
    });
    match rx.recv_timeout(limit) {
        Ok(r) => r,
        Err(_) => panic!(
            "{}: no answer after {:?} (hang or unbounded work)",
            path.display(),
            start.elapsed()
        ),
    }
}

fn read(path: &Path) -> Result<Vec<MeshPart>, MeshError> {
    read_within(path, Duration::from_secs(10))
}

/// The tetrahedron's vertex floats and u16 indices (72 bytes).
fn tetra_buffer() -> Vec<u8> {
    let v: [[f32; 3]; 4] = [[0., 0., 0.], [1., 0., 0.], [0., 2., 0.], [0., 0., 3.]];
    let f: [u16; 12] = [0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2];
    let mut b: Vec<u8> = v.iter().flatten().flat_map(|c| c.to_le_bytes()).collect();
    b.extend(f.iter().flat_map(|i| i.to_le_bytes()));
    b
}

fn gltf(uri: &str, len: u64) -> String {
    format!(
        r#"{{"asset":{{"version":"2.0"}},"scenes":[{{"nodes":[0]}}],"nodes":[{{"mesh":0}}],
"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}}],
"buffers":[{{"byteLength":{len},"uri":"{uri}"}}],
"bufferViews":[{{"buffer":0,"byteLength":48}},{{"buffer":0,"byteOffset":48,"byteLength":24}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3","min":[0,0,0],"max":[1,2,3]}},
{{"bufferView":1,"componentType":5123,"count":12,"type":"SCALAR"}}]}}"#
    )
}

/// A reference error naming buffer 0 and its URI, with the rule's words in it.
fn refused(e: &MeshError, uri: &str, rule: &str) {
    let m = e.to_string();
    assert!(matches!(e, MeshError::Reference { .. }), "{uri}: {m}");
    assert!(m.contains("buffer 0"), "{m}");
    assert!(m.contains(&format!("{uri:?}")), "names the uri {uri}: {m}");
    assert!(m.contains(rule), "{uri}: expected \"{rule}\" in: {m}");
    assert!(!m.contains('\n'), "one line: {m}");
}

#[test]
fn gltf_buffer_uris_outside_the_folder_are_refused() {
    let root = dir("uris");
    let model_dir = root.join("model");
    write(&root, "outside.bin", &tetra_buffer());
    write(&model_dir, "sub/in.bin", &tetra_buffer());
    let len = tetra_buffer().len() as u64;
    let cases: &[(&str, &str)] = &[
        ("/etc/passwd", "absolute paths"),
        ("/proc/self/environ", "absolute paths"),
        ("/dev/zero", "absolute paths"),
        ("../outside.bin", "leaves the model's folder"),
        ("../../etc/passwd", "leaves the model's folder"),
        ("sub/../../outside.bin", "leaves the model's folder"),
        ("%2e%2e/outside.bin", "leaves the model's folder"),
        ("%2E%2E%2Foutside.bin", "leaves the model's folder"),
        ("%2Fetc%2Fpasswd", "absolute paths"),
        ("file:///etc/passwd", "\"file:\" scheme"),
        ("http://example.com/x.bin", "\"http:\" scheme"),
        ("C:/x.bin", "scheme"),
        ("in.bin?x=1", "query or fragment"),
        ("sub\\\\in.bin", "backslash"),
        ("%zz.bin", "percent-escape"),
        ("sub", "not a regular file (a folder)"),
        ("nothere.bin", "No such file"),
    ];
    for (k, (uri, rule)) in cases.iter().enumerate() {
        let p = write(&model_dir, &format!("u{k}.gltf"), gltf(uri, len).as_bytes());
        let e = read(&p).unwrap_err();
        // The JSON escapes in `uri` are undone in the message's Debug quoting.
        let shown = uri.replace("\\\\", "\\");
        refused(&e, &shown, rule);
    }
    // Inside the folder: `..` that stays inside, and proper percent-decoding.
    write(&model_dir, "my buf é.bin", &tetra_buffer());
    for uri in [
        "sub/in.bin",
        "sub/../sub/in.bin",
        "./sub/in.bin",
        "my%20buf%20%C3%A9.bin",
    ] {
        let p = write(&model_dir, "ok.gltf", gltf(uri, len).as_bytes());
        let parts = read(&p).unwrap_or_else(|e| panic!("{uri}: {e}"));
        assert_eq!(parts[0].triangles.len(), 4, "{uri}");
    }
}

#[test]
fn symlinks_fifos_and_devices_are_refused() {
    use std::os::unix::fs::symlink;
    let root = dir("links");
    let model_dir = root.join("model");
    write(&root, "outside.bin", &tetra_buffer());
    write(&model_dir, "real.bin", &tetra_buffer());
    let len = tetra_buffer().len() as u64;
    symlink(root.join("outside.bin"), model_dir.join("out.bin")).unwrap();
    symlink("/dev/zero", model_dir.join("zero.bin")).unwrap();
    symlink(model_dir.join("real.bin"), model_dir.join("alias.bin")).unwrap();
    let fifo = model_dir.join("fifo.bin");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    for (uri, rule) in [
        ("out.bin", "outside the model's folder"),
        ("zero.bin", "outside the model's folder"),
        ("fifo.bin", "not a regular file (a FIFO)"),
    ] {
        let p = write(&model_dir, "l.gltf", gltf(uri, len).as_bytes());
        refused(&read(&p).unwrap_err(), uri, rule);
    }
    // A link that stays inside is followed.
    let p = write(&model_dir, "alias.gltf", gltf("alias.bin", len).as_bytes());
    assert_eq!(read(&p).unwrap()[0].triangles.len(), 4);
    // The model file itself must be a regular file: a device or FIFO behind a mesh name is not
    // read (it would never end, or block).
    symlink("/dev/zero", model_dir.join("dev.obj")).unwrap();
    let e = read(&model_dir.join("dev.obj")).unwrap_err();
    assert!(matches!(e, MeshError::Io { .. }), "{e}");
    assert!(
        e.to_string().contains("not a regular file (a device)"),
        "{e}"
    );
    std::fs::rename(&fifo, model_dir.join("pipe.stl")).unwrap();
    let e = read(&model_dir.join("pipe.stl")).unwrap_err();
    assert!(e.to_string().contains("not a regular file (a FIFO)"), "{e}");
}

#[test]
fn buffer_sizes_are_checked_before_reading_and_reads_are_capped() {
    let d = dir("sizes");
    let data = tetra_buffer();
    // Declared over the limit: refused from the declaration alone (the file is sparse).
    let big = std::fs::File::create(d.join("big.bin")).unwrap();
    big.set_len(MAX_FILE_BYTES + 4096).unwrap();
    let over = MAX_FILE_BYTES + 1;
    let p = write(&d, "over.gltf", gltf("big.bin", over).as_bytes());
    refused(&read(&p).unwrap_err(), "big.bin", "over the");
    // A file far longer than declared: only the declared bytes are read (fast, small memory).
    {
        use std::io::Write;
        let mut f = std::fs::File::create(d.join("long.bin")).unwrap();
        f.write_all(&data).unwrap();
        f.set_len(4 * MAX_FILE_BYTES).unwrap();
    }
    let p = write(
        &d,
        "long.gltf",
        gltf("long.bin", data.len() as u64).as_bytes(),
    );
    let parts = read_within(&p, Duration::from_secs(5)).unwrap();
    assert_eq!(parts[0].triangles.len(), 4);
    // A file shorter than declared: the declared and actual sizes in the message.
    write(&d, "short.bin", &data[..40]);
    let p = write(&d, "short.gltf", gltf("short.bin", 72).as_bytes());
    refused(
        &read(&p).unwrap_err(),
        "short.bin",
        "holds 40 bytes, 72 needed",
    );
    // A data URI shorter than declared.
    let p = write(
        &d,
        "du.gltf",
        gltf("data:application/octet-stream;base64,AAAA", 1 << 40).as_bytes(),
    );
    let e = read(&p).unwrap_err();
    assert!(
        e.to_string()
            .contains("holds 3 bytes, 1099511627776 declared"),
        "{e}"
    );
}

#[test]
fn obj_mtllib_is_never_opened() {
    let d = dir("mtl");
    // A FIFO would block an open forever; the reader must not touch any of these.
    let made = std::process::Command::new("mkfifo")
        .arg(d.join("m.mtl"))
        .status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let text = "mtllib m.mtl\nmtllib /dev/zero\nmtllib ../../etc/passwd\nusemtl x\n\
                v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    let p = write(&d, "m.obj", text.as_bytes());
    let parts = read_within(&p, Duration::from_secs(5)).unwrap();
    assert_eq!(parts[0].triangles.len(), 1);
}

fn ply_head(format: &str, elements: &str) -> Vec<u8> {
    format!("ply\nformat {format} 1.0\n{elements}end_header\n").into_bytes()
}

#[test]
fn ply_counts_must_fit_the_bytes() {
    let d = dir("ply");
    let vertex = "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n";
    for (name, format, elements, words) in [
        // Zero properties: the parser would loop 10^12 times and grow without bound.
        (
            "zero.ply",
            "binary_little_endian",
            format!("{vertex}element junk 1000000000000\n"),
            "\"junk\" declares 1000000000000 elements",
        ),
        (
            "zero_be.ply",
            "binary_big_endian",
            format!("element nothing 100000000000\n{vertex}"),
            "\"nothing\" declares 100000000000 elements",
        ),
        (
            "verts.ply",
            "binary_little_endian",
            vertex.replace(" 3\n", " 100000000000\n"),
            "\"vertex\" declares 100000000000 elements of at least 12 bytes",
        ),
        (
            "ascii.ply",
            "ascii",
            format!("{vertex}element face 1000000000000\nproperty list uchar int vertex_indices\n"),
            "\"face\" declares 1000000000000 elements",
        ),
    ] {
        let mut bytes = ply_head(format, &elements);
        if format == "ascii" {
            bytes.extend_from_slice(b"0 0 0\n1 0 0\n0 1 0\n");
        } else {
            bytes.extend(std::iter::repeat_n(0u8, 36));
        }
        let p = write(&d, name, &bytes);
        let e = read_within(&p, Duration::from_secs(5)).unwrap_err();
        let m = e.to_string();
        assert!(m.contains(words) && m.contains("holds"), "{name}: {m}");
    }
}

#[test]
fn stl_counts_and_kinds() {
    let d = dir("stl");
    // Binary that declares 4e9 triangles and holds one: the count and the size are named.
    let mut bin = vec![0u8; 80];
    bin.extend_from_slice(&4_000_000_000u32.to_le_bytes());
    bin.extend_from_slice(&[0u8; 50]);
    let e = read(&write(&d, "huge.stl", &bin)).unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("4000000000 triangles") && m.contains("134 bytes"),
        "{m}"
    );
    assert!(!m.contains("fill whole buffer"), "{m}");
    // Binary whose header starts with "solid " (many writers do this): binary by its size.
    let mut bin = b"solid exported by some CAD tool".to_vec();
    bin.resize(80, b' ');
    bin.extend_from_slice(&1u32.to_le_bytes());
    bin.extend_from_slice(&[0u8; 12]);
    for v in [[0f32, 0., 0.], [1., 0., 0.], [0., 1., 0.]] {
        bin.extend(v.iter().flat_map(|c| c.to_le_bytes()));
    }
    bin.extend_from_slice(&[0u8; 2]);
    let parts = read(&write(&d, "solidbin.stl", &bin)).unwrap();
    assert_eq!(parts[0].triangles.len(), 1);
    assert_eq!(parts[0].vertices.len(), 3);
    // ASCII whose first line is a bare `solid` (no name).
    let text = "solid\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n\
                endloop\nendfacet\nendsolid\n";
    let parts = read(&write(&d, "bare.stl", text.as_bytes())).unwrap();
    assert_eq!(parts[0].triangles.len(), 1);
    let parts = read(&write(
        &d,
        "crlf.stl",
        text.replace('\n', "\r\n").as_bytes(),
    ))
    .unwrap();
    assert_eq!(parts[0].triangles.len(), 1);
    // Too short for either.
    let e = read(&write(&d, "tiny.stl", b"abc")).unwrap_err();
    assert!(e.to_string().contains("3 bytes"), "{e}");
}

#[test]
fn obj_without_faces_says_so() {
    let d = dir("objfaces");
    let e = read(&write(&d, "pts.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\n")).unwrap_err();
    assert!(matches!(e, MeshError::NoFaces { vertices: 3, .. }), "{e}");
    assert!(
        e.to_string().contains("holds 3 vertices but no faces"),
        "{e}"
    );
    let e = read(&write(&d, "none.obj", b"# nothing\n")).unwrap_err();
    assert!(e.to_string().contains("holds no vertices"), "{e}");
}

/// A glTF whose nodes are given as JSON, all with mesh 0 (the tetrahedron, as a data URI).
fn gltf_nodes(nodes: &str, scene: &str) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let buf = tetra_buffer();
    let b64: String = buf
        .chunks(3)
        .flat_map(|c| {
            let n = (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32;
            (0..4).map(move |k| T[(n >> (18 - 6 * k) & 63) as usize] as char)
        })
        .collect();
    gltf(&format!("data:application/octet-stream;base64,{b64}"), 72)
        .replace(
            r#""scenes":[{"nodes":[0]}]"#,
            &format!(r#""scenes":[{{"nodes":{scene}}}]"#),
        )
        .replace(r#""nodes":[{"mesh":0}]"#, &format!(r#""nodes":{nodes}"#))
}

#[test]
fn gltf_node_graphs_must_be_trees() {
    let d = dir("dag");
    // Node i has children [i+1, i+1], 40 levels: 2^40 paths if expanded.
    let mut nodes: Vec<String> = (0..40)
        .map(|i| format!(r#"{{"mesh":0,"children":[{},{}]}}"#, i + 1, i + 1))
        .collect();
    nodes.push(r#"{"mesh":0}"#.into());
    let p = write(
        &d,
        "dag.gltf",
        gltf_nodes(&format!("[{}]", nodes.join(",")), "[0]").as_bytes(),
    );
    let e = read_within(&p, Duration::from_secs(5)).unwrap_err();
    assert!(e.to_string().contains("is reached twice"), "{e}");
    // A cycle, a node with two parents, a root listed twice.
    for (nodes, scene, twice) in [
        (r#"[{"children":[1]},{"mesh":0,"children":[0]}]"#, "[0]", 0),
        (
            r#"[{"children":[2]},{"children":[2]},{"mesh":0}]"#,
            "[0,1]",
            2,
        ),
        (r#"[{"mesh":0}]"#, "[0,0]", 0),
    ] {
        let p = write(&d, "g.gltf", gltf_nodes(nodes, scene).as_bytes());
        let e = read(&p).unwrap_err();
        assert!(
            e.to_string()
                .contains(&format!("node {twice} is reached twice")),
            "{nodes}: {e}"
        );
    }
    // A proper tree of 2,000 nodes reading one mesh each: every node once.
    let nodes: Vec<String> = (0..2000)
        .map(|i| {
            let kids: Vec<String> = [2 * i + 1, 2 * i + 2]
                .into_iter()
                .filter(|&c| c < 2000)
                .map(|c| c.to_string())
                .collect();
            format!(r#"{{"mesh":0,"children":[{}]}}"#, kids.join(","))
        })
        .collect();
    let nodes = nodes.join(",").replace(r#","children":[]"#, "");
    let p = write(
        &d,
        "tree.gltf",
        gltf_nodes(&format!("[{nodes}]"), "[0]").as_bytes(),
    );
    let parts = read(&p).unwrap();
    assert_eq!(parts.len(), 2000);
}

#[test]
fn gltf_counts_must_fit_the_bytes_and_the_caps() {
    let d = dir("counts");
    let base = gltf_nodes(r#"[{"mesh":0}]"#, "[0]");
    for (count, words) in [
        (
            "4611686018427387904",
            "declares 4611686018427387904 elements",
        ),
        ("1000000000000000", "declares 1000000000000000 elements"),
        ("5", "declares 5 elements"),
    ] {
        let text = base.replacen(r#""count":4"#, &format!(r#""count":{count}"#), 1);
        let e = read(&write(&d, "c.gltf", text.as_bytes())).unwrap_err();
        assert!(e.to_string().contains(words), "{count}: {e}");
    }
    let text = base.replacen(
        r#""byteOffset":48"#,
        r#""byteOffset":18446744073709551610"#,
        1,
    );
    let e = read(&write(&d, "o.gltf", text.as_bytes())).unwrap_err();
    assert!(!e.to_string().is_empty());
    // Instancing: 40 nodes of a mesh of 2^20 vertices (a 12 MiB buffer) would be 41,943,040
    // vertices, over the cap: refused from the declared counts, before any vertex is read.
    let n = 1u64 << 20;
    let f = std::fs::File::create(d.join("big.bin")).unwrap();
    f.set_len(12 * n).unwrap();
    let nodes: Vec<String> = (0..40).map(|_| r#"{"mesh":0}"#.to_string()).collect();
    let scene: Vec<String> = (0..40).map(|i| i.to_string()).collect();
    let text = gltf("big.bin", 12 * n)
        .replace(
            r#""scenes":[{"nodes":[0]}]"#,
            &format!(r#""scenes":[{{"nodes":[{}]}}]"#, scene.join(",")),
        )
        .replace(
            r#""nodes":[{"mesh":0}]"#,
            &format!("\"nodes\":[{}]", nodes.join(",")),
        )
        .replace(r#","indices":1"#, "")
        .replacen(
            r#""byteLength":48"#,
            &format!("\"byteLength\":{}", 12 * n),
            1,
        )
        .replacen(r#""count":4"#, &format!("\"count\":{n}"), 1);
    let e = read_within(
        &write(&d, "inst.gltf", text.as_bytes()),
        Duration::from_secs(5),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("41943040 vertices") && e.to_string().contains("caps"),
        "{e}"
    );
}
