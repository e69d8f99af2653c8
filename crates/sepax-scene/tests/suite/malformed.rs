//! Robustness: malformed scenes never panic. Valid seed files are mutated at random (byte flips,
//! insertions, deletions, truncations, JSON tokens dropped in, random JSON values put in every
//! field, fields removed and added) and every result must be either an error with a one-line
//! message or a scene that writes and reads back to itself.

use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_scene::{read_scene, read_scene_file, write_scene, SceneError};
use serde_json::{Map, Value};

const SEEDS: &[&str] = &[
    r#"{
  "shapes": [
    {"id": "floor", "type": "aabb", "min": [-10, -1, -10], "max": [10, 0, 10]},
    {"id": "crate", "type": "obb", "center": [0, 0.5, 0], "half_extents": [0.5, 0.5, 0.5],
     "axes": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
    {"id": "drum", "type": "obb", "center": [2, 0.5, 0], "half_extents": [0.4, 0.6, 0.4],
     "rotation": [1, 0, 0, 0]},
    {"id": "ball", "type": "sphere", "center": [0, 2, 0], "radius": 0.25},
    {"id": "pole", "type": "capsule", "p0": [3, 0, 0], "p1": [3, 2, 0], "radius": 0.1}
  ],
  "pairs": [["crate", "floor"], ["ball", "crate"]]
}"#,
    r#"{"version": 1, "shapes": [
    {"id": "t", "type": "triangle", "a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 1, 0], "layer": 3, "mask": 5},
    {"id": "box", "type": "aabb", "center": [1, 2, 3], "half_extents": [0.5, 0, 2]},
    {"id": "caf\u00e9", "type": "sphere", "center": [1e-30, -0, 3.4e38], "radius": 0}
  ], "pairs": [["box", "t"]]}"#,
    r#"{"version": 1, "shapes": [
    {"id": "floor", "type": "aabb", "min": [-10, -1, -10], "max": [10, 0, 10]},
    {"id": "crate", "type": "obb", "center": [0, 0.5, 0], "half_extents": [0.5, 0.5, 0.5],
     "axes": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
    {"id": "ball", "type": "sphere", "center": [0, 2, 0], "radius": 0.25},
    {"id": "pole", "type": "capsule", "p0": [3, 0, 0], "p1": [3, 2, 0], "radius": 0.1},
    {"id": "ramp", "type": "triangle", "a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 1, 1]}
  ], "frames": [
    {"poses": {"crate": {"center": [0, 0.4, 0], "rotation": [1, 0, 0, 0]},
               "floor": {"center": [0, -0.5, 0], "half_extents": [10, 0.5, 10]}}},
    {"poses": {}},
    {"poses": {"ball": {"center": [0, 1, 0]}, "pole": {"p0": [3, 0, 0], "p1": [3, 0, 2]},
               "ramp": {"a": [1, 0, 0], "b": [2, 0, 0], "c": [1, 1, 1]},
               "crate": {"center": [0, 0.5, 0], "axes": [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]}}}
  ]}"#,
];

const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "null",
    "true",
    "-",
    "0",
    "1e999",
    "-1e-999",
    "NaN",
    "Infinity",
    "\\u00",
    "\\ud800",
    "\u{feff}",
    "\u{0}",
    "é",
    "\"id\"",
    "\"type\"",
    "\"obb\"",
    "\"axes\"",
    "\"rotation\"",
    "\"pairs\"",
    "\"frames\"",
    "\"poses\"",
    "\"crate\"",
    "{\"poses\": {}},",
    "\"version\": 2,",
    "[[[[",
    "]]]]",
    "1.5e38",
    "3.5e38",
    "99999999999999999999",
    "0.000",
    "  \n",
    "\t",
];

const FIELD_NAMES: &[&str] = &[
    "id",
    "type",
    "min",
    "max",
    "center",
    "half_extents",
    "axes",
    "rotation",
    "radius",
    "p0",
    "p1",
    "a",
    "b",
    "c",
    "layer",
    "mask",
    "shapes",
    "pairs",
    "frames",
    "poses",
    "crate",
    "ball",
    "version",
    "colour",
    "",
];

/// Checks one input: no panic (a panic fails the test), and a sane outcome.
fn check(text: &str) -> bool {
    match read_scene(text) {
        Ok(scene) => {
            let again = read_scene(&write_scene(&scene)).expect("a read scene writes back");
            assert_eq!(again, scene);
            true
        }
        Err(e) => {
            let message = e.to_string();
            assert!(!message.is_empty());
            assert!(!message.contains('\n'), "{message}");
            if let SceneError::Invalid { line, .. } | SceneError::Syntax { line, .. } = e {
                assert!(
                    line >= 1 && line <= text.lines().count().max(1) + 1,
                    "{message}"
                );
            }
            false
        }
    }
}

fn mutate_bytes(rng: &mut ChaCha8Rng, bytes: &mut Vec<u8>) {
    for _ in 0..rng.random_range(1..=4) {
        let n = bytes.len();
        let at = rng.random_range(0..=n);
        match rng.random_range(0..6) {
            0 if n > 0 => bytes[at.min(n - 1)] = rng.random(),
            1 => bytes.insert(at, rng.random()),
            2 if n > 0 => {
                let end = (at + rng.random_range(1..20)).min(n);
                bytes.drain(at.min(n)..end);
            }
            3 => bytes.truncate(at),
            4 => {
                let t = TOKENS.choose(rng).unwrap();
                bytes.splice(at..at, t.bytes());
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

fn random_number(rng: &mut ChaCha8Rng) -> Value {
    let choices: &[f64] = &[
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1e-45,
        1e-320,
        3.4e38,
        3.5e38,
        1e39,
        1e300,
        -1e308,
        0.70712,
        f64::MAX,
        f64::MIN_POSITIVE,
    ];
    match rng.random_range(0..3) {
        0 => Value::from(*choices.choose(rng).unwrap()),
        1 => Value::from(rng.random::<i64>()),
        _ => Value::from(rng.random_range(-3.0..3.0)),
    }
}

fn random_value(rng: &mut ChaCha8Rng, depth: u32) -> Value {
    let leaf = depth == 0 || rng.random_bool(0.4);
    match rng.random_range(0..if leaf { 4 } else { 7 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.random()),
        2 => random_number(rng),
        3 => Value::from(
            *[
                "", "aabb", "obb", "sphere", "capsule", "triangle", "crate", "floor", "x",
            ]
            .choose(rng)
            .unwrap(),
        ),
        4 | 5 => {
            let len = rng.random_range(0..6);
            Value::Array((0..len).map(|_| random_value(rng, depth - 1)).collect())
        }
        _ => {
            let mut map = Map::new();
            for _ in 0..rng.random_range(0..5) {
                map.insert(
                    FIELD_NAMES.choose(rng).unwrap().to_string(),
                    random_value(rng, depth - 1),
                );
            }
            Value::Object(map)
        }
    }
}

/// Replaces, removes or adds something at a random place of the tree.
fn mutate_tree(rng: &mut ChaCha8Rng, v: &mut Value) {
    // Walk down a random path, stopping at random.
    let mut node = v;
    loop {
        let go_deeper = rng.random_bool(0.75);
        let next = match node {
            Value::Array(items) if go_deeper && !items.is_empty() => {
                let i = rng.random_range(0..items.len());
                Some(i)
            }
            Value::Object(map) if go_deeper && !map.is_empty() => {
                Some(rng.random_range(0..map.len()))
            }
            _ => None,
        };
        match (next, node) {
            (Some(i), Value::Array(items)) => node = &mut items[i],
            (Some(i), Value::Object(map)) => node = map.values_mut().nth(i).unwrap(),
            (_, node) => {
                match (rng.random_range(0..4), node) {
                    (0, Value::Object(map)) if !map.is_empty() => {
                        let key = map
                            .keys()
                            .nth(rng.random_range(0..map.len()))
                            .unwrap()
                            .clone();
                        map.remove(&key);
                    }
                    (1, Value::Object(map)) => {
                        map.insert(
                            FIELD_NAMES.choose(rng).unwrap().to_string(),
                            random_value(rng, 3),
                        );
                    }
                    (2, Value::Array(items)) if !items.is_empty() => {
                        if rng.random_bool(0.5) {
                            items.pop();
                        } else {
                            items.push(random_value(rng, 2));
                        }
                    }
                    (_, node) => *node = random_value(rng, 3),
                }
                return;
            }
        }
    }
}

#[test]
fn random_mutations_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xbad_5ce7e);
    // The seeds are valid scenes (the third with frames of every placement form).
    for seed in SEEDS {
        read_scene(seed).unwrap();
    }
    assert_eq!(read_scene(SEEDS[2]).unwrap().frames.len(), 3);
    let (mut inputs, mut accepted) = (0usize, 0usize);
    let dir = std::env::temp_dir().join(format!("sepax-scene-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mutant.json");

    // Byte-level mutations (read as text, and now and then as a file to reach the UTF-8 check).
    for round in 0..30_000 {
        let mut bytes = SEEDS[round % SEEDS.len()].as_bytes().to_vec();
        mutate_bytes(&mut rng, &mut bytes);
        accepted += check(&String::from_utf8_lossy(&bytes)) as usize;
        inputs += 1;
        if round % 50 == 0 {
            std::fs::write(&file, &bytes).unwrap();
            let from_file = read_scene_file(&file);
            if let Err(e) = &from_file {
                assert!(!e.to_string().contains('\n'));
            }
            inputs += 1;
        }
    }

    // Tree-level mutations: random JSON values in every field, fields removed and added.
    let trees: Vec<Value> = SEEDS
        .iter()
        .map(|s| serde_json::from_str(s).unwrap())
        .collect();
    for round in 0..30_000 {
        let mut tree = trees[round % trees.len()].clone();
        for _ in 0..rng.random_range(1..=3) {
            mutate_tree(&mut rng, &mut tree);
        }
        let text = if rng.random_bool(0.5) {
            serde_json::to_string(&tree).unwrap()
        } else {
            serde_json::to_string_pretty(&tree).unwrap()
        };
        accepted += check(&text) as usize;
        inputs += 1;
    }
    std::fs::remove_dir_all(&dir).unwrap();
    println!("{inputs} malformed inputs, {accepted} of them still valid scenes, no panic");
    // Most mutants are invalid; some stay valid (a changed number), which checks the other branch.
    assert!(
        accepted > 100 && accepted < inputs / 2,
        "{accepted} of {inputs}"
    );
}

#[test]
fn deep_nesting_and_huge_values_are_errors() {
    let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
    for text in [
        deep.clone(),
        format!(r#"{{"shapes": {deep}}}"#),
        format!(
            r#"{{"shapes": [{{"id": "a", "type": "sphere", "center": {deep}, "radius": 1}}]}}"#
        ),
        format!(
            r#"{{"shapes": [{{"id": "{}", "type": "sphere"}}]}}"#,
            "x".repeat(1_000_000)
        ),
        format!(
            r#"{{"shapes": [{{"id": "a", "type": "sphere", "center": [0, 0, 0], "radius": 1{}}}]}}"#,
            r#", "k": 0"#.repeat(50_000)
        ),
        format!(
            r#"{{"shapes": [{{"id": "a", "type": "sphere", "center": [0, 0, 0], "radius": 1{}}}]}}"#,
            r#", "radius": 0"#.repeat(50_000)
        ),
    ] {
        let e = read_scene(&text).unwrap_err().to_string();
        assert!(!e.contains('\n') && e.len() < 400, "{e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 3000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Arbitrary text, and arbitrary text spliced into a valid file.
    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}", at in 0usize..600, seed in 0usize..3) {
        check(&text);
        let base = SEEDS[seed];
        let mut at = at.min(base.len());
        while !base.is_char_boundary(at) {
            at -= 1;
        }
        check(&format!("{}{}{}", &base[..at], text, &base[at..]));
    }
}
