//! End-to-end tests of the `sepax` binary: sample scenes with answers worked out by hand, the
//! output formats and exit codes of `check`, the wording of `explain`, every class of bad input,
//! the SVG picture and the demo.

use crate::common::{self, sepax, stdout_of};
use predicates::prelude::*;
use std::path::{Path, PathBuf};

fn scene(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenes")
        .join(name)
}

/// A scratch file of this suite, with `text` in it.
fn scratch(name: &str, text: &str) -> PathBuf {
    common::scratch("sepax-cli-tests", name, text)
}

fn check_lines(name: &str) -> Vec<String> {
    let path = scene(name);
    stdout_of(&["check", path.to_str().unwrap()])
        .lines()
        .map(str::to_owned)
        .collect()
}

// ---- check: answers ------------------------------------------------------------------------

#[test]
fn rotated_box_that_an_aabb_test_would_hit_is_separated() {
    // `corner` lies inside the world AABB of the 45-degree `plank` but off its diagonal; `diag`
    // sits on the diagonal. `diag` comes first in the file, so the pair prints as `diag plank`.
    assert_eq!(check_lines("rotated.json"), ["diag plank"]);
    let path = scene("rotated.json");
    let json: serde_json::Value =
        serde_json::from_str(&stdout_of(&["check", "--json", path.to_str().unwrap()])).unwrap();
    // Both pairs reach the narrow phase (their world AABBs overlap); only one intersects.
    assert_eq!(json["stats"]["candidates"], 2);
    assert_eq!(json["stats"]["pairs"], 1);
}

#[test]
fn edge_edge_separation_and_overlap() {
    // `left`/`right` miss by 0.01 along the cross product of their edges (no face axis
    // separates them); `overlapping`/`crossing` are the same boxes pushed 0.01 into each other.
    assert_eq!(check_lines("edge_edge.json"), ["overlapping crossing"]);
}

#[test]
fn touching_counts_as_intersecting() {
    // Shared face (AABB/AABB, exact), shared face (AABB/OBB, within rounding), shared corner
    // point (OBB/AABB); `hover` misses the floor by 0.001.
    assert_eq!(
        check_lines("touching.json"),
        ["floor crate", "crate lid", "lid corner"]
    );
}

#[test]
fn sphere_capsule_triangle_mix() {
    // `dot` is a candidate of `sliver` (AABBs overlap) but misses it; `pill` misses `far_ball`.
    assert_eq!(
        check_lines("mix.json"),
        ["ball rod", "rod tri", "sliver box"]
    );
    let path = scene("mix.json");
    let json: serde_json::Value =
        serde_json::from_str(&stdout_of(&["check", "--json", path.to_str().unwrap()])).unwrap();
    assert_eq!(json["stats"]["candidates"], 4);
}

#[test]
fn listed_pairs_are_the_only_pairs_tested() {
    // `a` and `b` overlap but are not listed; listed pairs print in file order (`c a` -> `a c`).
    assert_eq!(check_lines("pairs.json"), ["a c", "b c"]);
    let path = scene("pairs.json");
    let json: serde_json::Value =
        serde_json::from_str(&stdout_of(&["check", "--json", path.to_str().unwrap()])).unwrap();
    assert_eq!(json["stats"]["candidates"], 3);
}

#[test]
fn layers_and_masks_filter_pairs() {
    // Four overlapping unit boxes. A pair is tested when each one's layer shares a bit with the
    // other's mask; a missing layer or mask means every bit.
    let path = scratch(
        "layers.json",
        r#"{"shapes": [
            {"id": "p", "type": "aabb", "min": [0, 0, 0], "max": [1, 1, 1], "layer": 1, "mask": 2},
            {"id": "q", "type": "aabb", "min": [0, 0, 0], "max": [1, 1, 1], "layer": 2, "mask": 1},
            {"id": "r", "type": "aabb", "min": [0, 0, 0], "max": [1, 1, 1], "layer": 4},
            {"id": "s", "type": "aabb", "min": [0, 0, 0], "max": [1, 1, 1], "mask": 0}]}"#,
    );
    // p-q: 1&1, 2&2 -> yes. p-r: r's layer 4 & p's mask 2 = 0 -> no. q-r: 4 & 1 = 0 -> no.
    // s collides with nothing (mask 0).
    assert_eq!(stdout_of(&["check", path.to_str().unwrap()]), "p q\n");
}

#[test]
fn zero_shapes_is_fine() {
    let path = scene("empty_scene.json");
    sepax()
        .args(["check", path.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout("");
    sepax()
        .args(["check", "--fail-on-hit", path.to_str().unwrap()])
        .assert()
        .code(0);
    let json: serde_json::Value =
        serde_json::from_str(&stdout_of(&["check", "--json", path.to_str().unwrap()])).unwrap();
    assert_eq!(json["pairs"], serde_json::json!([]));
    assert_eq!(json["stats"]["shapes"], 0);
}

#[test]
fn json_output_parses_and_matches_the_text() {
    for name in [
        "rotated.json",
        "edge_edge.json",
        "touching.json",
        "mix.json",
        "pairs.json",
    ] {
        let path = scene(name);
        let json: serde_json::Value =
            serde_json::from_str(&stdout_of(&["check", "--json", path.to_str().unwrap()])).unwrap();
        let pairs: Vec<String> = json["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| format!("{} {}", p["a"].as_str().unwrap(), p["b"].as_str().unwrap()))
            .collect();
        assert_eq!(pairs, check_lines(name), "{name}");
        let stats = &json["stats"];
        assert_eq!(stats["pairs"].as_u64().unwrap() as usize, pairs.len());
        assert!(stats["shapes"].as_u64().unwrap() > 0);
        assert!(stats["candidates"].as_u64().unwrap() >= pairs.len() as u64);
        for phase in ["read", "broad", "narrow", "total"] {
            assert!(
                stats["ms"][phase].as_f64().unwrap() >= 0.0,
                "{name} {phase}"
            );
        }
    }
}

#[test]
fn fail_on_hit_exit_codes() {
    let hit = scene("touching.json");
    sepax()
        .args(["check", "--fail-on-hit", hit.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout("floor crate\ncrate lid\nlid corner\n");
    sepax()
        .args(["check", hit.to_str().unwrap()])
        .assert()
        .code(0);
    let miss = scratch(
        "miss.json",
        r#"{"shapes": [
            {"id": "p", "type": "aabb", "min": [0, 0, 0], "max": [1, 1, 1]},
            {"id": "q", "type": "aabb", "min": [1.5, 0, 0], "max": [2, 1, 1]}]}"#,
    );
    sepax()
        .args(["check", "--fail-on-hit", miss.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout("");
}

#[test]
fn check_explain_words_each_hit_or_listed_box_pair() {
    let path = scene("pairs.json");
    let out = stdout_of(&["check", "--explain", path.to_str().unwrap()]);
    // Listed pairs: (a, c) and (b, c) involve a sphere (no witness); (b, d) is a box pair.
    assert_eq!(
        out,
        "a c\nb c\nb and d are separated along the normal of b's x faces by 7.0000\n"
    );
    let path = scene("touching.json");
    let out = stdout_of(&["check", "--explain", "--json", path.to_str().unwrap()]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ex = json["explanations"].as_array().unwrap();
    assert_eq!(ex.len(), 3);
    assert_eq!(ex[0]["a"], "floor");
    assert_eq!(ex[0]["verdict"], "overlapping");
    assert_eq!(ex[0]["axis"], "the normal of floor's y faces");
    assert_eq!(ex[0]["distance"], 0.0);
    assert_eq!(ex[1]["verdict"], "uncertain");
}

// ---- explain -------------------------------------------------------------------------------

fn explain(name: &str, a: &str, b: &str) -> String {
    let path = scene(name);
    stdout_of(&["explain", path.to_str().unwrap(), a, b])
}

#[test]
fn explain_edge_edge_separation() {
    assert_eq!(
        explain("edge_edge.json", "left", "right"),
        "left and right are separated along the cross product of left's z edge and right's y \
         edge by 0.0100\n"
    );
    // The roles swap with the argument order.
    assert_eq!(
        explain("edge_edge.json", "right", "left"),
        "right and left are separated along the cross product of right's y edge and left's z \
         edge by 0.0100\n"
    );
    assert_eq!(
        explain("edge_edge.json", "overlapping", "crossing"),
        "overlapping and crossing intersect: least overlap along the cross product of \
         overlapping's z edge and crossing's y edge, depth 0.0100\n"
    );
}

#[test]
fn explain_rotated_face_separation_and_overlap() {
    assert_eq!(
        explain("rotated.json", "plank", "corner"),
        "plank and corner are separated along the normal of plank's y faces by 0.6071\n"
    );
    // Depth along the plank's normal: 0.1 + 0.1 * sqrt(2) = 0.2414.
    assert_eq!(
        explain("rotated.json", "diag", "plank"),
        "diag and plank intersect: least overlap along the normal of plank's y faces, depth \
         0.2414\n"
    );
}

#[test]
fn explain_touching() {
    assert_eq!(
        explain("touching.json", "floor", "crate"),
        "floor and crate touch: no overlap along the normal of floor's y faces (depth 0)\n"
    );
    assert_eq!(
        explain("touching.json", "crate", "lid"),
        "crate and lid touch (within rounding) along the normal of crate's y faces\n"
    );
}

#[test]
fn explain_non_box_pairs_give_depth_or_distance() {
    // The ball (radius 1 at the origin) reaches x = 1, the rod's surface starts at 1.4 - 0.5.
    assert_eq!(
        explain("mix.json", "ball", "rod"),
        "ball and rod intersect: depth 0.1000 along (1.0000, 0.0000, 0.0000) from ball toward rod \
         (sphere and capsule)\n"
    );
    // The pill's top is at 3.6 + 0.2, the far ball's bottom at 5 - 1.
    assert_eq!(
        explain("mix.json", "pill", "far_ball"),
        "pill and far_ball do not intersect: distance 0.2000 between (0.0000, 3.8000, 0.0000) on \
         pill and (0.0000, 4.0000, 0.0000) on far_ball (capsule and sphere)\n"
    );
    // The rod's end cap (x up to 3.5) crosses the triangle's plane x = 2.5 by its radius.
    assert!(
        explain("mix.json", "rod", "tri").starts_with("rod and tri intersect: depth "),
        "{}",
        explain("mix.json", "rod", "tri")
    );
    let dot = explain("mix.json", "dot", "sliver");
    assert!(
        dot.starts_with("dot and sliver do not intersect: distance "),
        "{dot}"
    );
    // A box with a non-box shape: depth or distance too (sliver and box intersect in `check`).
    let b = explain("mix.json", "sliver", "box");
    assert!(
        b.starts_with("sliver and box intersect: depth ") || b.starts_with("sliver and box touch"),
        "{b}"
    );
    let far = explain("mix.json", "box", "far_ball");
    assert!(
        far.starts_with("box and far_ball do not intersect: distance "),
        "{far}"
    );
}

#[test]
fn explain_unknown_ids_are_bad_input() {
    let path = scene("mix.json");
    sepax()
        .args(["explain", path.to_str().unwrap(), "ball", "ghost"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with("sepax: ").and(predicate::str::contains("\"ghost\"")));
    sepax()
        .args(["explain", path.to_str().unwrap(), "ball"])
        .assert()
        .code(2)
        .stdout("");
}

// ---- bad input -----------------------------------------------------------------------------

/// Runs `check` on `text` and asserts exit 2, an empty stdout and one stderr line
/// `sepax: ...` that contains every one of `words`.
fn assert_bad(name: &str, text: &str, words: &[&str]) {
    let path = scratch(name, text);
    let out = sepax()
        .args(["check", path.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
    assert!(out.stdout.is_empty(), "{name}: stdout not empty");
    assert!(stderr.starts_with("sepax: "), "{name}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
    for w in words {
        assert!(stderr.contains(w), "{name}: {w:?} not in {stderr}");
    }
    // The other output modes fail the same way, before printing anything.
    sepax()
        .args(["check", "--json", "--explain", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout("");
}

const SPHERE: &str = r#"{"id": "s", "type": "sphere", "center": [0, 0, 0], "radius": 1}"#;

#[test]
fn malformed_json() {
    assert_bad("malformed.json", r#"{"shapes": ["#, &["line 1"]);
    assert_bad(
        "trailing.json",
        &format!(r#"{{"shapes": [{SPHERE}]}} x"#),
        &["line 1"],
    );
}

#[test]
fn wrong_types() {
    assert_bad(
        "string_radius.json",
        r#"{"shapes": [{"id": "s", "type": "sphere", "center": [0, 0, 0], "radius": "big"}]}"#,
        &["\"s\"", "radius"],
    );
    assert_bad(
        "number_id.json",
        r#"{"shapes": [{"id": 7, "type": "sphere", "center": [0, 0, 0], "radius": 1}]}"#,
        &["shape 0", "id"],
    );
    assert_bad("shapes_object.json", r#"{"shapes": {}}"#, &["shapes"]);
    assert_bad("top_array.json", "[]", &["top level"]);
}

#[test]
fn missing_and_unknown_fields() {
    assert_bad(
        "missing_radius.json",
        r#"{"shapes": [{"id": "s", "type": "sphere", "center": [0, 0, 0]}]}"#,
        &["\"s\"", "radius", "missing"],
    );
    assert_bad("missing_shapes.json", r#"{"pairs": []}"#, &["shapes"]);
    assert_bad(
        "unknown_field.json",
        r#"{"shapes": [{"id": "s", "type": "sphere", "center": [0, 0, 0], "radius": 1,
            "colour": "red"}]}"#,
        &["\"s\"", "colour"],
    );
    assert_bad(
        "unknown_top.json",
        &format!(r#"{{"shapes": [{SPHERE}], "gravity": 9.8}}"#),
        &["gravity"],
    );
}

#[test]
fn unknown_shape_type() {
    assert_bad(
        "cone.json",
        r#"{"shapes": [{"id": "s", "type": "cone", "center": [0, 0, 0], "radius": 1}]}"#,
        &["\"s\"", "type", "cone"],
    );
}

#[test]
fn duplicate_ids() {
    assert_bad(
        "duplicate.json",
        &format!(r#"{{"shapes": [{SPHERE}, {SPHERE}]}}"#),
        &["shape 1", "\"s\"", "id"],
    );
}

#[test]
fn nan_and_huge_numbers() {
    assert_bad(
        "nan.json",
        r#"{"shapes": [{"id": "s", "type": "sphere", "center": [0, 0, NaN], "radius": 1}]}"#,
        &["line 1"],
    );
    assert_bad(
        "huge.json",
        r#"{"shapes": [{"id": "s", "type": "sphere", "center": [0, 0, 1e999], "radius": 1}]}"#,
        &["\"s\"", "center", "1e999"],
    );
    assert_bad(
        "negative.json",
        r#"{"shapes": [{"id": "s", "type": "sphere", "center": [0, 0, 0], "radius": -1}]}"#,
        &["\"s\"", "radius", "-1"],
    );
    assert_bad(
        "inverted.json",
        r#"{"shapes": [{"id": "s", "type": "aabb", "min": [0, 0, 0], "max": [-1, 1, 1]}]}"#,
        &["\"s\"", "min"],
    );
}

#[test]
fn non_orthonormal_axes_and_non_unit_quaternion() {
    assert_bad(
        "axes.json",
        r#"{"shapes": [{"id": "b", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1],
            "axes": [[1, 0, 0], [0.1, 1, 0], [0, 0, 1]]}]}"#,
        &["\"b\"", "axes"],
    );
    assert_bad(
        "quaternion.json",
        r#"{"shapes": [{"id": "b", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1],
            "rotation": [1, 1, 0, 0]}]}"#,
        &["\"b\"", "rotation"],
    );
}

#[test]
fn empty_file() {
    assert_bad("empty.json", "", &["empty"]);
    assert_bad("blank.json", " \n\t\n", &["empty"]);
}

#[test]
fn pairs_naming_unknown_ids() {
    assert_bad(
        "ghost_pair.json",
        &format!(r#"{{"shapes": [{SPHERE}], "pairs": [["s", "ghost"]]}}"#),
        &["pair 0", "ghost"],
    );
}

#[test]
fn missing_file() {
    sepax()
        .args(["check", "/nonexistent/sepax/scene.json"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::starts_with("sepax: ")
                .and(predicate::str::contains("/nonexistent/sepax/scene.json")),
        );
    sepax()
        .args(["explain", "/nonexistent/sepax/scene.json", "a", "b"])
        .assert()
        .code(2)
        .stdout("");
}

#[test]
fn unwritable_svg_is_bad_input_and_prints_nothing() {
    let path = scene("touching.json");
    sepax()
        .args([
            "check",
            "--svg",
            "/nonexistent/sepax/out.svg",
            path.to_str().unwrap(),
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("/nonexistent/sepax/out.svg"));
}

#[test]
fn bad_arguments_exit_2() {
    sepax().args(["check"]).assert().code(2).stdout("");
    sepax()
        .args(["check", "--frobnicate", "x.json"])
        .assert()
        .code(2)
        .stdout("");
    sepax().args(["demo", "--frames", "0"]).assert().code(2);
}

// ---- svg -----------------------------------------------------------------------------------

fn class_has(node: &roxmltree::Node<'_, '_>, word: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|w| w == word))
}

#[test]
fn check_svg_outlines_every_shape_and_highlights_the_hits() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sepax-cli-tests");
    std::fs::create_dir_all(&out).unwrap();
    for (name, explain) in [
        ("touching.json", false),
        ("touching.json", true),
        ("mix.json", false),
        ("rotated.json", true),
        ("empty_scene.json", false),
    ] {
        let svg_path = out.join(format!("{name}.{explain}.svg"));
        let path = scene(name);
        let mut args = vec![
            "check",
            "--svg",
            svg_path.to_str().unwrap(),
            path.to_str().unwrap(),
        ];
        if explain {
            args.push("--explain");
        }
        let lines = stdout_of(&args);
        let text = std::fs::read_to_string(&svg_path).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();

        let shapes: Vec<String> = {
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            json["shapes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["id"].as_str().unwrap().to_owned())
                .collect()
        };
        let mut in_hits = std::collections::BTreeSet::new();
        for line in lines.lines().filter(|l| !l.contains(" and ")) {
            for id in line.split(' ') {
                in_hits.insert(id.to_owned());
            }
        }
        let outlines: Vec<_> = doc
            .descendants()
            .filter(|n| n.is_element() && class_has(n, "shape"))
            .collect();
        assert_eq!(outlines.len(), 2 * shapes.len(), "{name}");
        for id in &shapes {
            let n = outlines
                .iter()
                .filter(|n| n.attribute("data-id") == Some(id))
                .count();
            assert_eq!(n, 2, "{name}: outlines of {id}");
        }
        let hits: Vec<_> = outlines.iter().filter(|n| class_has(n, "hit")).collect();
        assert_eq!(hits.len(), 2 * in_hits.len(), "{name}");
        for n in hits {
            assert!(in_hits.contains(n.attribute("data-id").unwrap()), "{name}");
        }
        let witnesses = doc
            .descendants()
            .filter(|n| n.has_tag_name("g") && class_has(n, "witness"))
            .count();
        if explain {
            assert!(witnesses > 0, "{name}: no witness drawn");
        } else {
            assert_eq!(witnesses, 0, "{name}");
        }
    }
}

// ---- demo, help, logs ----------------------------------------------------------------------

#[test]
fn demo_runs_and_prints_statistics() {
    let svg = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sepax-cli-demo.svg");
    let _ = std::fs::remove_file(&svg);
    let out = stdout_of(&[
        "demo",
        "--shapes",
        "200",
        "--frames",
        "5",
        "--seed",
        "3",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    for needle in [
        "5 frames of 205 shapes",
        "candidate pairs",
        "touching",
        "events",
        "move + set_shape",
        "broad (trees)",
        "narrow",
        "summary: 5 frames",
        "world (last frame): moving tree depth",
    ] {
        assert!(out.contains(needle), "{needle:?} not in\n{out}");
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let outlines = doc
        .descendants()
        .filter(|n| n.is_element() && class_has(n, "shape"))
        .count();
    assert_eq!(outlines, 2 * 205);
    // Same seed, same run (timings aside).
    // Same seed, same run, for every thread count (timings aside).
    let counts = |s: &str| -> Vec<String> {
        let mut lines: Vec<String> = s
            .lines()
            .take_while(|l| !l.starts_with("time per phase"))
            .map(str::to_owned)
            .collect();
        lines.extend(
            s.lines()
                .filter(|l| l.starts_with("world"))
                .map(str::to_owned),
        );
        lines
    };
    assert!(counts(&out).len() >= 8, "{out}");
    for threads in ["1", "2", "8"] {
        let again = stdout_of(&[
            "demo",
            "--shapes",
            "200",
            "--frames",
            "5",
            "--seed",
            "3",
            "--threads",
            threads,
            "--svg",
            svg.to_str().unwrap(),
        ]);
        assert_eq!(counts(&out), counts(&again), "--threads {threads}");
    }
}

#[test]
fn help_and_version() {
    sepax()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("check").and(predicate::str::contains("demo")));
    for sub in ["check", "explain", "demo"] {
        sepax()
            .args([sub, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Usage: sepax"));
    }
    sepax()
        .args(["check", "--help"])
        .assert()
        .stdout(predicate::str::contains("--fail-on-hit"));
    sepax()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn verbose_logs_go_to_stderr_only() {
    let path = scene("touching.json");
    let quiet = sepax()
        .env_remove("RUST_LOG")
        .args(["check", path.to_str().unwrap()])
        .output()
        .unwrap();
    let loud = sepax()
        .env_remove("RUST_LOG")
        .args(["-v", "check", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(quiet.stdout, loud.stdout);
    assert!(quiet.stderr.is_empty());
    let log = String::from_utf8(loud.stderr).unwrap();
    for span in ["read", "world", "pairs"] {
        assert!(log.contains(span), "{span} not in {log}");
    }
}

// ---- check --contacts ----------------------------------------------------------------------

/// A crate sunk 0.1 into the floor, a ball sunk 0.25 into the crate's top face, and a far box.
const CONTACT_SCENE: &str = r#"{
  "shapes": [
    {"id": "floor", "type": "aabb", "min": [-10, -1, -10], "max": [10, 0, 10]},
    {"id": "crate", "type": "obb", "center": [0, 0.4, 0], "half_extents": [0.5, 0.5, 0.5],
     "rotation": [0.9238795325112867, 0, 0.3826834323650898, 0]},
    {"id": "ball", "type": "sphere", "center": [0, 1.15, 0], "radius": 0.5},
    {"id": "far", "type": "aabb", "min": [5, 5, 5], "max": [6, 6, 6]}
  ]
}"#;

fn close(x: &serde_json::Value, want: f64, tol: f64) -> bool {
    (x.as_f64().unwrap() - want).abs() <= tol
}

#[test]
fn contacts_json_gives_normal_depth_and_points() {
    let path = scratch("contacts.json", CONTACT_SCENE);
    let out = stdout_of(&["check", "--contacts", "--json", path.to_str().unwrap()]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let pairs = json["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 2, "{out}");
    // floor / crate: normal +y from the floor to the crate, depth 0.1, 4 points at y in
    // [-0.1, 0] (midpoints of the crate's corners and their projections on the floor).
    let p = &pairs[0];
    assert_eq!(
        (p["a"].as_str(), p["b"].as_str()),
        (Some("floor"), Some("crate"))
    );
    let n = p["normal"].as_array().unwrap();
    assert!(close(&n[0], 0.0, 1e-6) && close(&n[1], 1.0, 1e-6) && close(&n[2], 0.0, 1e-6));
    assert!(close(&p["depth"], 0.1, 1e-5), "{p}");
    let pts = p["points"].as_array().unwrap();
    assert_eq!(pts.len(), 4);
    for q in pts {
        assert!(close(&q[1], -0.05, 1e-5), "{q}");
        // The crate's corners rotated 45 degrees about y: |x| + |z| = sqrt(2)/2 * 2 * 0.5.
        let (x, z) = (q[0].as_f64().unwrap(), q[2].as_f64().unwrap());
        assert!((x.abs() + z.abs() - 0.5f64.sqrt()).abs() < 1e-5, "{q}");
    }
    // crate / ball: the ball is the second shape, so the normal points up into it; depth 0.25.
    let p = &pairs[1];
    assert_eq!(
        (p["a"].as_str(), p["b"].as_str()),
        (Some("crate"), Some("ball"))
    );
    let n = p["normal"].as_array().unwrap();
    assert!(close(&n[1], 1.0, 1e-6), "{p}");
    assert!(close(&p["depth"], 0.25, 1e-5), "{p}");
    assert_eq!(p["points"].as_array().unwrap().len(), 1);
}

#[test]
fn contacts_text_and_plain_output_unchanged_without_flag() {
    let path = scratch("contacts_text.json", CONTACT_SCENE);
    let plain = stdout_of(&["check", path.to_str().unwrap()]);
    assert_eq!(plain, "floor crate\ncrate ball\n");
    let out = stdout_of(&["check", "--contacts", path.to_str().unwrap()]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    // `a b normal (x, y, z) depth d points (x, y, z) ...`
    let numbers = |line: &str| -> Vec<f64> {
        line.split([' ', '(', ')', ','])
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    assert!(lines[0].starts_with("floor crate normal ("), "{out}");
    assert!(
        lines[0].contains(") depth ") && lines[0].contains(" points ("),
        "{out}"
    );
    let v = numbers(lines[0]);
    assert_eq!(v.len(), 3 + 1 + 4 * 3, "{out}");
    assert!(
        (v[1] - 1.0).abs() < 1e-6 && (v[3] - 0.1).abs() < 1e-5,
        "{out}"
    );
    assert!(lines[1].starts_with("crate ball normal ("), "{out}");
    let v = numbers(lines[1]);
    assert_eq!(v.len(), 3 + 1 + 3, "{out}");
    assert!(
        (v[1] - 1.0).abs() < 1e-6 && (v[3] - 0.25).abs() < 1e-5,
        "{out}"
    );
    // Without --contacts the JSON pair objects have only the ids.
    let json: serde_json::Value =
        serde_json::from_str(&stdout_of(&["check", "--json", path.to_str().unwrap()])).unwrap();
    assert!(json["pairs"][0].get("normal").is_none());
}

#[test]
fn contacts_of_touching_pairs_have_zero_depth() {
    // touching.json: shared faces and a shared corner; every depth is 0 (never negative).
    let path = scene("touching.json");
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "check",
        "--contacts",
        "--json",
        path.to_str().unwrap(),
    ]))
    .unwrap();
    let pairs = json["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3);
    for p in pairs {
        let d = p["depth"].as_f64().unwrap();
        assert!((0.0..1e-5).contains(&d), "{p}");
        let n = p["normal"].as_array().unwrap();
        let len: f64 = n.iter().map(|x| x.as_f64().unwrap().powi(2)).sum();
        assert!((len - 1.0).abs() < 1e-5, "{p}");
        assert!(!p["points"].as_array().unwrap().is_empty());
    }
}
