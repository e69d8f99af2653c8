//! Robustness of mesh import: valid seed files of every format (OBJ, STL ASCII and binary, PLY
//! ASCII and binary in both byte orders, glTF with a data URI, GLB) are mutated at random (byte
//! flips, insertions, deletions, truncations, format tokens, hostile 32-bit words in binary
//! files, hostile JSON values in glTF fields), and hand-made bombs are added (huge counts, deep
//! and DAG node graphs, bad URIs, truncations). Every result must be an error with a one-line
//! message naming the file, or a mesh no larger than its bytes can hold; no case may panic or
//! take long, and the whole run must stay within a memory bound.

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_scene::mesh::{read_mesh_file, MeshPart, MAX_TRIANGLES, MAX_VERTICES};
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The slowest a single case may be in a debug build.
const CASE_LIMIT: Duration = Duration::from_secs(2);

const TETRA: [[f32; 3]; 4] = [[0., 0., 0.], [1., 0., 0.], [0., 2., 0.], [0., 0., 3.]];
const FACES: [[u32; 3]; 4] = [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]];

fn obj_seed() -> Vec<u8> {
    b"# seed\nmtllib m.mtl\no first\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n\
      f 1/1/1 2/1/1 3/1/1 4/1/1\ng second\nv 5 5 5\nv 6 5 5\nv 5 6 5\nusemtl red\nf -3 -2 -1\n"
        .to_vec()
}

fn stl_ascii_seed() -> Vec<u8> {
    let mut s = String::from("solid seed\n");
    for f in FACES {
        s.push_str("facet normal 0 0 1\n outer loop\n");
        for i in f {
            let v = TETRA[i as usize];
            s.push_str(&format!("  vertex {} {} {}\n", v[0], v[1], v[2]));
        }
        s.push_str(" endloop\nendfacet\n");
    }
    s.push_str("endsolid seed\n");
    s.into_bytes()
}

fn stl_binary_seed() -> Vec<u8> {
    let mut b = b"solid binary header".to_vec();
    b.resize(80, 0);
    b.extend_from_slice(&(FACES.len() as u32).to_le_bytes());
    for f in FACES {
        b.extend_from_slice(&[0u8; 12]);
        for i in f {
            b.extend(TETRA[i as usize].iter().flat_map(|c| c.to_le_bytes()));
        }
        b.extend_from_slice(&[0u8; 2]);
    }
    b
}

const PLY_ELEMENTS: &str =
    "element vertex 4\nproperty float x\nproperty float y\nproperty float z\n\
                            element face 4\nproperty list uchar int vertex_indices\n";

fn ply_ascii_seed() -> Vec<u8> {
    let mut s = format!("ply\nformat ascii 1.0\ncomment seed\n{PLY_ELEMENTS}end_header\n");
    for v in TETRA {
        s.push_str(&format!("{} {} {}\n", v[0], v[1], v[2]));
    }
    for f in FACES {
        s.push_str(&format!("3 {} {} {}\n", f[0], f[1], f[2]));
    }
    s.into_bytes()
}

fn ply_binary_seed(big_endian: bool) -> Vec<u8> {
    let order = if big_endian { "big" } else { "little" };
    let mut b =
        format!("ply\nformat binary_{order}_endian 1.0\n{PLY_ELEMENTS}end_header\n").into_bytes();
    let word = |mut x: [u8; 4]| {
        if big_endian {
            x.reverse();
        }
        x
    };
    for v in TETRA {
        for c in v {
            b.extend(word(c.to_le_bytes()));
        }
    }
    for f in FACES {
        b.push(3);
        for i in f {
            b.extend(word((i as i32).to_le_bytes()));
        }
    }
    b
}

fn buffer() -> Vec<u8> {
    let mut b: Vec<u8> = TETRA
        .iter()
        .flatten()
        .flat_map(|c| c.to_le_bytes())
        .collect();
    b.extend(
        FACES
            .iter()
            .flatten()
            .flat_map(|&i| (i as u16).to_le_bytes()),
    );
    b
}

fn b64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in data.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for k in 0..4 {
            s.push(if k <= c.len() {
                T[(n >> (18 - 6 * k) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    s
}

/// A three-node tree (a parent with two children, one mesh), the buffer as a data URI or, with
/// `uri` `None`, the GLB binary chunk.
fn gltf_tree(uri: Option<String>) -> Value {
    let mut buffer = serde_json::json!({ "byteLength": 72 });
    if let Some(u) = uri {
        buffer["uri"] = Value::String(u);
    }
    serde_json::json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [
            { "name": "arm", "translation": [10, 0, 0], "children": [1, 2] },
            { "name": "hand", "mesh": 0, "scale": [2, 2, 2] },
            { "name": "finger", "mesh": 0, "rotation": [0, 0, 0.6, 0.8] }
        ],
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0 }, "indices": 1, "mode": 4 }] }],
        "buffers": [buffer],
        "bufferViews": [
            { "buffer": 0, "byteOffset": 0, "byteLength": 48, "byteStride": 12 },
            { "buffer": 0, "byteOffset": 48, "byteLength": 24 }
        ],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
              "min": [0, 0, 0], "max": [1, 2, 3] },
            { "bufferView": 1, "byteOffset": 0, "componentType": 5123, "count": 12, "type": "SCALAR" }
        ]
    })
}

fn gltf_seed() -> Value {
    gltf_tree(Some(format!(
        "data:application/octet-stream;base64,{}",
        b64(&buffer())
    )))
}

fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let mut json = json.to_vec();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut bin = bin.to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = b"glTF".to_vec();
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}

const TOKENS: &[&str] = &[
    "\n",
    " ",
    "\r\n",
    "\0",
    "-",
    "0",
    "1",
    "-1",
    "nan",
    "inf",
    "1e39",
    "-1e-45",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "1000000000000",
    "é",
    "#",
    "/",
    "//",
    "v ",
    "f ",
    "vt ",
    "o ",
    "g ",
    "mtllib /dev/zero\n",
    "f 1 2 99999999999\n",
    "f 0 0 0\n",
    "f -9 -9 -9\n",
    "solid",
    "solid ",
    "facet normal",
    "outer loop",
    "vertex",
    "endloop",
    "endfacet",
    "endsolid",
    "ply\n",
    "end_header\n",
    "format ascii 1.0\n",
    "format binary_little_endian 1.0\n",
    "element vertex 1000000000000\n",
    "element junk 100000000000\n",
    "property float x\n",
    "property list uint uint vertex_indices\n",
    "property list uchar float x\n",
    "property double z\n",
];

/// 32-bit words that break counts and offsets in binary files.
const WORDS: &[u32] = &[
    0,
    1,
    2,
    3,
    255,
    65535,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    4_000_000_000,
    0x7fc0_0000,
    0x7f80_0000,
    0xff80_0000,
    0x0000_0001,
];

fn mutate_bytes(rng: &mut ChaCha8Rng, bytes: &mut Vec<u8>, binary: bool) {
    for _ in 0..rng.random_range(1..=4) {
        let n = bytes.len();
        let at = rng.random_range(0..=n);
        match rng.random_range(0..7) {
            0 if n > 0 => bytes[at.min(n - 1)] = rng.random(),
            1 => bytes.insert(at, rng.random()),
            2 if n > 0 => {
                let end = (at + rng.random_range(1..20)).min(n);
                bytes.drain(at.min(n)..end);
            }
            3 => bytes.truncate(at),
            4 if !binary || rng.random_bool(0.3) => {
                let t = TOKENS.choose(rng).unwrap();
                bytes.splice(at..at, t.bytes());
            }
            4 | 5 if n >= 4 => {
                let at = rng.random_range(0..=n - 4);
                let w = *WORDS.choose(rng).unwrap();
                let w = if rng.random_bool(0.5) {
                    w.to_le_bytes()
                } else {
                    w.to_be_bytes()
                };
                bytes[at..at + 4].copy_from_slice(&w);
            }
            _ if n > 0 => {
                let start = rng.random_range(0..n);
                let end = (start + rng.random_range(1..40)).min(n);
                let piece: Vec<u8> = bytes[start..end].to_vec();
                bytes.splice(at..at, piece);
            }
            _ => {}
        }
    }
}

const HOSTILE_URIS: &[&str] = &[
    "/etc/passwd",
    "../../etc/passwd",
    "../outside.bin",
    "/proc/self/environ",
    "/dev/zero",
    "file:///etc/passwd",
    "http://example.com/a.bin",
    "%2e%2e/%2e%2e/etc/passwd",
    "",
    ".",
    "..",
    "a/../../b",
    "data:",
    "data:,",
    "data:;base64,====",
    "data:;base64,@@@",
    "%",
    "%c3",
    "C:\\x.bin",
    "\\\\server\\share",
    "x.bin#frag",
    "fifo.bin",
];

fn hostile_number(rng: &mut ChaCha8Rng) -> Value {
    let n: serde_json::Number = match rng.random_range(0..10) {
        0 => 0.into(),
        1 => (-1).into(),
        2 => u32::MAX.into(),
        3 => (u32::MAX as u64 + 1).into(),
        4 => (1u64 << 53).into(),
        5 => u64::MAX.into(),
        6 => 1_000_000_000_000u64.into(),
        7 => serde_json::Number::from_f64(1e300).unwrap(),
        8 => serde_json::Number::from_f64(-0.5).unwrap(),
        _ => rng.random_range(0..8).into(),
    };
    Value::Number(n)
}

/// One hostile change somewhere in a glTF JSON tree.
fn mutate_tree(rng: &mut ChaCha8Rng, v: &mut Value) {
    match v {
        Value::Object(map) if !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = keys.choose(rng).unwrap().clone();
            match rng.random_range(0..8) {
                0 => {
                    map.remove(&key);
                }
                1 if key == "uri" => {
                    map[&key] = Value::String(HOSTILE_URIS.choose(rng).unwrap().to_string())
                }
                2 if key == "children" || key == "nodes" => {
                    let i = rng.random_range(0..4);
                    map[&key] = serde_json::json!(match rng.random_range(0..4) {
                        0 => vec![i, i],
                        1 => vec![0],
                        2 => vec![i, 0, 1, 2],
                        _ => vec![999],
                    });
                }
                3 => map[&key] = hostile_number(rng),
                4 => {
                    map.insert("children".into(), serde_json::json!([0]));
                }
                _ => mutate_tree(rng, map.get_mut(&key).unwrap()),
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let k = rng.random_range(0..items.len());
            match rng.random_range(0..5) {
                0 => {
                    items.remove(k);
                }
                1 => {
                    let dup = items[k].clone();
                    items.push(dup);
                }
                2 => items[k] = hostile_number(rng),
                _ => mutate_tree(rng, &mut items[k]),
            }
        }
        Value::Number(_) => *v = hostile_number(rng),
        _ => {}
    }
}

/// The vertex and triangle counts a file of `len` bytes in format `ext` can honestly produce.
fn bound(ext: &str, len: usize) -> (usize, usize) {
    match ext {
        // Every OBJ/PLY vertex or triangle costs at least one byte of input.
        "obj" | "ply" => (len, len),
        // An ASCII facet is far over 20 bytes, a binary one 50; 3 vertices each.
        "stl" => (3 * len / 20, len / 20),
        // Instancing repeats meshes, so only the square of the size (and the caps) bound it.
        _ => (
            (len * len).min(MAX_VERTICES),
            (len * len).min(MAX_TRIANGLES),
        ),
    }
}

struct Run {
    dir: PathBuf,
    cases: usize,
    meshes: usize,
    slowest: (Duration, String),
    reading: Duration,
    files: std::collections::HashMap<String, std::fs::File>,
}

impl Run {
    fn new(name: &str) -> Run {
        let dir =
            std::env::temp_dir().join(format!("sepax-mesh-fuzz-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("model")).unwrap();
        // Targets for the hostile URIs: a file outside the model's folder, a FIFO inside.
        std::fs::write(dir.join("outside.bin"), buffer()).unwrap();
        let _ = std::process::Command::new("mkfifo")
            .arg(dir.join("model/fifo.bin"))
            .status();
        Run {
            dir,
            cases: 0,
            meshes: 0,
            slowest: (Duration::ZERO, String::new()),
            reading: Duration::ZERO,
            files: Default::default(),
        }
    }

    /// Reads one case; a panic, a multi-line or anonymous error, an oversized mesh or a slow
    /// read fails the test (the file is kept for replay).
    fn check(&mut self, label: &str, ext: &str, bytes: &[u8]) {
        let path = self.dir.join("model").join(format!("case.{ext}"));
        // One handle per extension, rewritten in place: creating a file per case costs far more
        // than reading it on a loaded disk.
        let file = self.files.entry(ext.to_string()).or_insert_with(|| {
            std::fs::OpenOptions::new()
                .create(true)
                .truncate(true)
                .write(true)
                .open(&path)
                .unwrap()
        });
        {
            use std::io::{Seek, Write};
            file.seek(std::io::SeekFrom::Start(0)).unwrap();
            file.write_all(bytes).unwrap();
            file.set_len(bytes.len() as u64).unwrap();
        }
        let start = Instant::now();
        let result = std::panic::catch_unwind(|| read_mesh_file(&path));
        let took = start.elapsed();
        self.reading += took;
        let keep = |why: &str| -> String {
            let kept = std::env::temp_dir().join(format!("sepax-mesh-fuzz-fail-{label}.{ext}"));
            std::fs::write(&kept, bytes).unwrap();
            format!("{label}: {why} (input kept in {})", kept.display())
        };
        let Ok(result) = result else {
            panic!("{}", keep("panicked"))
        };
        assert!(took < CASE_LIMIT, "{}", keep(&format!("took {took:?}")));
        if took > self.slowest.0 {
            self.slowest = (took, label.to_string());
        }
        match result {
            Ok(parts) => self.check_size(&parts, ext, bytes.len(), &keep),
            Err(e) => {
                let m = e.to_string();
                assert!(
                    !m.contains('\n') && !m.contains('\r'),
                    "{}",
                    keep(&format!("two lines: {m:?}"))
                );
                assert!(
                    m.contains(&*path.to_string_lossy()),
                    "{}",
                    keep(&format!("no file name: {m}"))
                );
            }
        }
        self.cases += 1;
    }

    fn check_size(
        &mut self,
        parts: &[MeshPart],
        ext: &str,
        len: usize,
        keep: &dyn Fn(&str) -> String,
    ) {
        let v: usize = parts.iter().map(|p| p.vertices.len()).sum();
        let t: usize = parts.iter().map(|p| p.triangles.len()).sum();
        let (bv, bt) = bound(ext, len);
        assert!(
            v <= bv && t <= bt,
            "{}",
            keep(&format!("{v} vertices, {t} triangles from {len} bytes"))
        );
        for p in parts {
            assert!(p.vertices.iter().all(|q| q.iter().all(|c| c.is_finite())));
            let n = p.vertices.len() as u32;
            assert!(
                p.triangles.iter().flatten().all(|&i| i < n),
                "{}",
                keep("index out of range")
            );
        }
        self.meshes += 1;
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `SEPAX_FUZZ_SCALE=N` runs N times the cases (a longer search than CI's); `SEPAX_FUZZ_SEED`
/// picks another random sequence.
fn scale() -> usize {
    std::env::var("SEPAX_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

#[test]
fn mutated_seed_files_never_panic() {
    let seed = std::env::var("SEPAX_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x6e5_4f22);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut run = Run::new("bytes");
    let gltf_text = serde_json::to_vec(&gltf_seed()).unwrap();
    let glb_seed = glb(&serde_json::to_vec(&gltf_tree(None)).unwrap(), &buffer());
    let seeds: Vec<(&str, &str, Vec<u8>, bool)> = vec![
        ("obj", "obj", obj_seed(), false),
        ("stla", "stl", stl_ascii_seed(), false),
        ("stlb", "stl", stl_binary_seed(), true),
        ("plya", "ply", ply_ascii_seed(), false),
        ("plyl", "ply", ply_binary_seed(false), true),
        ("plyb", "ply", ply_binary_seed(true), true),
        ("gltf", "gltf", gltf_text, false),
        ("glb", "glb", glb_seed, true),
    ];
    // Each seed as it is must be a mesh: otherwise the mutants test nothing.
    for (name, ext, bytes, _) in &seeds {
        run.check(name, ext, bytes);
        assert_eq!(run.meshes, run.cases, "seed {name} is not read");
    }
    for round in 0..20_000 * scale() {
        let (name, ext, seed, binary) = &seeds[round % seeds.len()];
        let mut bytes = seed.clone();
        mutate_bytes(&mut rng, &mut bytes, *binary);
        run.check(&format!("{name}-{round}"), ext, &bytes);
    }
    // Tree-level glTF mutations, written as .gltf and as .glb.
    let tree = gltf_seed();
    let glb_tree = gltf_tree(None);
    for round in 0..6000 * scale() {
        let glb_case = round % 2 == 1;
        let mut t = if glb_case {
            glb_tree.clone()
        } else {
            tree.clone()
        };
        for _ in 0..rng.random_range(1..=3) {
            mutate_tree(&mut rng, &mut t);
        }
        let json = serde_json::to_vec(&t).unwrap();
        if glb_case {
            run.check(&format!("glbtree-{round}"), "glb", &glb(&json, &buffer()));
        } else {
            run.check(&format!("tree-{round}"), "gltf", &json);
        }
    }
    println!(
        "{} mutated mesh files, {} read as meshes; {:?} reading, slowest {:?} ({})",
        run.cases, run.meshes, run.reading, run.slowest.0, run.slowest.1
    );
    // Most mutants are broken, some still read (a changed number), which checks both branches.
    assert!(
        run.meshes > 200 && run.meshes < run.cases * 9 / 10,
        "{} of {}",
        run.meshes,
        run.cases
    );
}

fn ply(format: &str, elements: &str, body: &[u8]) -> Vec<u8> {
    let mut b = format!("ply\nformat {format} 1.0\n{elements}end_header\n").into_bytes();
    b.extend_from_slice(body);
    b
}

fn bombs() -> Vec<(String, &'static str, Vec<u8>)> {
    let mut out: Vec<(String, &'static str, Vec<u8>)> = Vec::new();
    let xyz = "property float x\nproperty float y\nproperty float z\n";
    for format in ["ascii", "binary_little_endian", "binary_big_endian"] {
        for count in ["100000000000", "1000000000000", "18446744073709551615"] {
            out.push((
                format!("ply-zero-{format}-{count}"),
                "ply",
                ply(
                    format,
                    &format!("element vertex 1\n{xyz}element junk {count}\n"),
                    &[0u8; 12],
                ),
            ));
            out.push((
                format!("ply-verts-{format}-{count}"),
                "ply",
                ply(
                    format,
                    &format!("element vertex {count}\n{xyz}"),
                    b"0 0 0\n",
                ),
            ));
        }
        // A list whose count field is 4e9.
        out.push((format!("ply-list-{format}"), "ply", ply(format,
            &format!("element vertex 1\n{xyz}element face 1\nproperty list uint int vertex_indices\n"),
            &[&[0u8; 12][..], &4_000_000_000u32.to_le_bytes(), &[0u8; 8]].concat())));
    }
    let mut stl = vec![0u8; 80];
    stl.extend_from_slice(&u32::MAX.to_le_bytes());
    stl.extend_from_slice(&[0u8; 50]);
    out.push(("stl-count".into(), "stl", stl));
    out.push(("stl-solid-only".into(), "stl", b"solid".to_vec()));
    out.push((
        "stl-long-line".into(),
        "stl",
        [&b"solid x\nfacet normal "[..], &vec![b'1'; 200_000]].concat(),
    ));
    out.push((
        "obj-huge-index".into(),
        "obj",
        b"v 0 0 0\nf 1 2 18446744073709551617\n".to_vec(),
    ));
    let big_face: String = (1..=20_000).map(|i| format!(" {i}")).collect();
    let verts: String = (0..20_000)
        .map(|i| format!("v {i} {} 0\n", i % 7))
        .collect();
    out.push((
        "obj-big-face".into(),
        "obj",
        format!("{verts}f{big_face}\n").into_bytes(),
    ));
    out.push((
        "obj-faces-only".into(),
        "obj",
        "f 1 2 3\n".repeat(1000).into_bytes(),
    ));
    // glTF: DAG, deep chain, self-cycle, huge counts and lengths, bad URIs, GLB lengths.
    let with_nodes = |nodes: Vec<Value>| {
        let mut t = gltf_seed();
        t["nodes"] = Value::Array(nodes);
        t["scenes"] = serde_json::json!([{ "nodes": [0] }]);
        serde_json::to_vec(&t).unwrap()
    };
    out.push((
        "gltf-dag".into(),
        "gltf",
        with_nodes(
            (0..41)
                .map(|i| {
                    if i < 40 {
                        serde_json::json!({ "mesh": 0, "children": [i + 1, i + 1] })
                    } else {
                        serde_json::json!({ "mesh": 0 })
                    }
                })
                .collect(),
        ),
    ));
    out.push((
        "gltf-chain".into(),
        "gltf",
        with_nodes(
            (0..20_000)
                .map(|i| {
                    if i < 19_999 {
                        serde_json::json!({ "children": [i + 1] })
                    } else {
                        serde_json::json!({ "mesh": 0 })
                    }
                })
                .collect(),
        ),
    ));
    out.push((
        "gltf-self".into(),
        "gltf",
        with_nodes(vec![serde_json::json!({ "mesh": 0, "children": [0] })]),
    ));
    for (field, path) in [
        ("count", "/accessors/0/count"),
        ("count1", "/accessors/1/count"),
        ("byteLength", "/buffers/0/byteLength"),
        ("viewLength", "/bufferViews/0/byteLength"),
        ("viewOffset", "/bufferViews/0/byteOffset"),
        ("accOffset", "/accessors/1/byteOffset"),
        ("stride", "/bufferViews/0/byteStride"),
    ] {
        for (k, n) in [0u64, 1, 4, 252, 1 << 32, 1 << 62, u64::MAX]
            .into_iter()
            .enumerate()
        {
            let mut t = gltf_seed();
            *t.pointer_mut(path).unwrap() = n.into();
            out.push((
                format!("gltf-{field}-{k}"),
                "gltf",
                serde_json::to_vec(&t).unwrap(),
            ));
        }
    }
    for (k, uri) in HOSTILE_URIS.iter().enumerate() {
        let mut t = gltf_seed();
        t["buffers"][0]["uri"] = Value::String(uri.to_string());
        out.push((
            format!("gltf-uri-{k}"),
            "gltf",
            serde_json::to_vec(&t).unwrap(),
        ));
    }
    let good = glb(&serde_json::to_vec(&gltf_tree(None)).unwrap(), &buffer());
    for (at, w) in [(8usize, u32::MAX), (12, u32::MAX), (12, 0), (8, 12)] {
        let mut b = good.clone();
        b[at..at + 4].copy_from_slice(&w.to_le_bytes());
        out.push((format!("glb-len-{at}-{w}"), "glb", b));
    }
    let bin_len_at = good.len() - buffer().len() - 8;
    let mut b = good.clone();
    b[bin_len_at..bin_len_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    out.push(("glb-bin-len".into(), "glb", b));
    for cut in [0, 3, 12, 19, 20, good.len() / 2, good.len() - 1] {
        out.push((format!("glb-cut-{cut}"), "glb", good[..cut].to_vec()));
    }
    out
}

#[test]
fn hand_made_bombs_end_quickly() {
    let mut run = Run::new("bombs");
    for (label, ext, bytes) in bombs() {
        run.check(&label, ext, &bytes);
    }
    println!(
        "{} bombs; slowest {:?} ({})",
        run.cases, run.slowest.0, run.slowest.1
    );
}

/// The process's peak resident memory, from `/proc/self/status` (Linux).
fn peak_rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[test]
fn memory_stays_bounded() {
    // Runs the bombs again in this thread, then checks the peak of the whole test process (all
    // cases of this file): a reader that allocated for a declared count would blow far past it.
    let mut run = Run::new("memory");
    for (label, ext, bytes) in bombs() {
        run.check(&label, ext, &bytes);
    }
    if let Some(peak) = peak_rss_bytes() {
        assert!(peak < 512 << 20, "peak resident memory {} MiB", peak >> 20);
    }
}
