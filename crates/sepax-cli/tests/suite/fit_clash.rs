//! End-to-end tests of `sepax fit` and `sepax clash` on mesh files written here, with answers
//! worked out by hand.

use crate::common::{self, sepax};
use predicates::prelude::*;
use std::path::PathBuf;

/// An empty scratch folder of this suite.
fn folder(name: &str) -> PathBuf {
    common::folder("sepax-fit-clash-tests", name)
}

/// An OBJ box: the corners `c + R (±h)` of a box rotated by `R` (rows), as 12 triangles.
fn box_obj(c: [f64; 3], h: [f64; 3], r: [[f64; 3]; 3]) -> String {
    let mut s = String::new();
    for i in 0..8 {
        let l = [0, 1, 2].map(|k| if i >> k & 1 == 1 { h[k] } else { -h[k] });
        let p = [0, 1, 2].map(|j| c[j] + r[0][j] * l[0] + r[1][j] * l[1] + r[2][j] * l[2]);
        s.push_str(&format!("v {} {} {}\n", p[0], p[1], p[2]));
    }
    for f in [
        [1, 3, 7, 5],
        [2, 6, 8, 4],
        [1, 5, 6, 2],
        [3, 4, 8, 7],
        [1, 2, 4, 3],
        [5, 7, 8, 6],
    ] {
        s.push_str(&format!("f {} {} {} {}\n", f[0], f[1], f[2], f[3]));
    }
    s
}

const I3: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

fn rotated() -> [[f64; 3]; 3] {
    // A rotation by 0.5 rad about z, then 0.3 rad about x (rows are the rotated axes).
    let (c1, s1) = (0.5f64.cos(), 0.5f64.sin());
    let (c2, s2) = (0.3f64.cos(), 0.3f64.sin());
    let rz = [[c1, s1, 0.0], [-s1, c1, 0.0], [0.0, 0.0, 1.0]];
    let rx = [[1.0, 0.0, 0.0], [0.0, c2, s2], [0.0, -s2, c2]];
    [0, 1, 2].map(|i| [0, 1, 2].map(|j| (0..3).map(|k| rz[i][k] * rx[k][j]).sum()))
}

#[test]
fn fit_json_has_the_documented_keys_and_the_exact_volume() {
    let dir = folder("fit-json");
    let mesh = dir.join("box.obj");
    std::fs::write(
        &mesh,
        box_obj([10.0, -2.0, 3.0], [2.0, 1.0, 0.5], rotated()),
    )
    .unwrap();
    let out = sepax()
        .args(["fit", mesh.to_str().unwrap(), "--method", "exact", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        ["axes", "center", "half_extents", "method", "volume"]
    );
    assert_eq!(v["method"], "exact");
    let volume = v["volume"].as_f64().unwrap();
    assert!((volume / 8.0 - 1.0).abs() < 1e-4, "volume {volume}, true 8");
    let c: Vec<f64> = v["center"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!((c[0] - 10.0).abs() < 1e-4 && (c[1] + 2.0).abs() < 1e-4 && (c[2] - 3.0).abs() < 1e-4);
    let mut h: Vec<f64> = v["half_extents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    h.sort_by(f64::total_cmp);
    assert!((h[0] - 0.5).abs() < 1e-4 && (h[1] - 1.0).abs() < 1e-4 && (h[2] - 2.0).abs() < 1e-4);
    assert_eq!(v["axes"].as_array().unwrap().len(), 3);
}

#[test]
fn fit_text_reports_ratios_for_every_method() {
    let dir = folder("fit-text");
    let mesh = dir.join("box.obj");
    std::fs::write(&mesh, box_obj([0.0; 3], [2.0, 1.0, 0.5], rotated())).unwrap();
    let mut volumes = Vec::new();
    for m in ["aabb", "pca", "hull-pca", "dito", "exact"] {
        let out = sepax()
            .args(["fit", mesh.to_str().unwrap(), "--method", m])
            .args(["--compare", "exact"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let get = |key: &str| -> f64 {
            let line = text
                .lines()
                .find(|l| l.starts_with(key))
                .unwrap_or_else(|| panic!("{key} in {text}"));
            line.split_whitespace().nth(1).unwrap().parse().unwrap()
        };
        assert!(text.starts_with(&format!("method {m}\n")), "{text}");
        assert_eq!(get("vertices"), 8.0);
        let (to_aabb, to_exact) = (get("ratio_to_aabb"), get("ratio_to_exact"));
        assert!(to_exact >= 1.0 - 1e-5, "{m}: {text}");
        assert!(
            to_aabb <= 1.0 + 1e-5,
            "{m}: nothing is looser than the AABB here: {text}"
        );
        if m == "aabb" {
            assert_eq!(to_aabb, 1.0);
        }
        if m == "exact" || m == "dito" {
            // The corners of a box: both find it.
            assert!(to_exact < 1.0 + 1e-4, "{m}: {text}");
        }
        volumes.push(get("volume"));
    }
    assert!(
        volumes[0] > 1.5 * volumes[4],
        "the rotated box's AABB is much looser"
    );
}

#[test]
fn fit_bad_input_exits_2_with_the_file_named() {
    let dir = folder("fit-bad");
    let broken = dir.join("broken.stl");
    std::fs::write(
        &broken,
        b"solid x\n facet normal 0 0 0\n outer loop\n vertex 1 2\n",
    )
    .unwrap();
    sepax()
        .args(["fit", broken.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::starts_with("sepax: ").and(predicate::str::contains("broken.stl")));
    sepax()
        .args(["fit", dir.join("missing.obj").to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing.obj"));
    let odd = dir.join("x.fbx");
    std::fs::write(&odd, b"?").unwrap();
    sepax()
        .args(["fit", odd.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unsupported mesh format"));
    sepax()
        .args(["fit", odd.to_str().unwrap(), "--method", "best"])
        .assert()
        .code(2);
}

/// Three unit cubes and two flat triangles: A [0,1]³ and B [0.5,1.5]³ interpenetrate, C is far
/// away; triangle T lies in z = 3 and triangle U sits inside T's box but off T itself.
fn clash_folder(name: &str) -> PathBuf {
    let dir = folder(name);
    std::fs::write(dir.join("a.obj"), box_obj([0.5; 3], [0.5; 3], I3)).unwrap();
    std::fs::write(dir.join("b.obj"), box_obj([1.0; 3], [0.5; 3], I3)).unwrap();
    std::fs::write(dir.join("c.obj"), box_obj([5.5; 3], [0.5; 3], I3)).unwrap();
    std::fs::write(dir.join("t.obj"), "v 0 0 3\nv 2 0 3\nv 0 2 3\nf 1 2 3\n").unwrap();
    std::fs::write(
        dir.join("u.obj"),
        "v 1.6 1.6 3\nv 1.9 1.6 3\nv 1.6 1.9 3\nf 1 2 3\n",
    )
    .unwrap();
    dir
}

#[test]
fn clash_confirms_at_triangle_level() {
    let dir = clash_folder("clash");
    let out = sepax()
        .args(["clash", dir.to_str().unwrap(), "--method", "aabb"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("clash a.obj b.obj ("), "{text}");
    assert!(lines.contains(&"near t.obj u.obj"), "{text}");
    assert!(!text.contains("c.obj"), "{text}");
    assert_eq!(lines.last().unwrap(), &"5 parts, 2 box overlaps, 1 clashes");
    sepax()
        .args(["clash", dir.to_str().unwrap(), "--fail-on-clash"])
        .assert()
        .code(1);
}

#[test]
fn clash_json_placements_and_picture() {
    let dir = clash_folder("clash-json");
    // Move c onto a: now a, b and c all clash; unknown parts are errors.
    std::fs::write(
        dir.join("placements.json"),
        r#"{"c.obj": {"translation": [-5, -5, -5], "rotation": [1, 0, 0, 0]}}"#,
    )
    .unwrap();
    let svg = dir.join("clash.svg");
    let out = sepax()
        .args([
            "clash",
            dir.to_str().unwrap(),
            "--json",
            "--svg",
            svg.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["parts"].as_array().unwrap().len(), 5);
    let pairs: Vec<(String, String)> = v["clashes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["a"].as_str().unwrap().to_string(),
                c["b"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for want in [("a.obj", "b.obj"), ("a.obj", "c.obj"), ("b.obj", "c.obj")] {
        assert!(
            pairs
                .iter()
                .any(|p| (p.0.as_str(), p.1.as_str()) == want
                    || (p.1.as_str(), p.0.as_str()) == want),
            "{want:?} in {pairs:?}"
        );
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let hits: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("shape hit"))
        .filter_map(|n| n.attribute("data-id"))
        .collect();
    for id in ["a.obj", "b.obj", "c.obj"] {
        assert!(hits.contains(&id), "{id} highlighted: {hits:?}");
    }
    assert!(!hits.contains(&"t.obj"));

    std::fs::write(
        dir.join("placements.json"),
        r#"{"zz.obj": {"translation": [0, 0, 0]}}"#,
    )
    .unwrap();
    sepax()
        .args(["clash", dir.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("placements.json")
                .and(predicate::str::contains("no such part")),
        );
}

#[test]
fn clash_of_a_model_file_uses_its_objects() {
    let dir = folder("clash-model");
    let mut text = String::from("o left\n");
    text.push_str(&box_obj([0.5; 3], [0.5; 3], I3));
    text.push_str("o right\n");
    // OBJ indices are global: shift the second box's face indices by 8.
    let second = box_obj([1.2, 0.5, 0.5], [0.5; 3], I3);
    for line in second.lines() {
        if let Some(rest) = line.strip_prefix("f ") {
            let idx: Vec<String> = rest
                .split_whitespace()
                .map(|i| (i.parse::<u32>().unwrap() + 8).to_string())
                .collect();
            text.push_str(&format!("f {}\n", idx.join(" ")));
        } else {
            text.push_str(line);
            text.push('\n');
        }
    }
    let model = dir.join("model.obj");
    std::fs::write(&model, text).unwrap();
    sepax()
        .args(["clash", model.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("clash left right ("));
}
