//! The command line under attack: output that must stream in bounded memory, closed or full
//! standard output, ids and file names that could forge lines or reach the terminal, output
//! files that cannot be written, numbers that are not finite, options out of range, and inputs
//! whose work must stay bounded.

use crate::common::{self, sepax};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("sepax")
}

/// An empty scratch folder of this suite.
fn folder(name: &str) -> PathBuf {
    common::folder("sepax-hardening-tests", name)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `n` unit boxes at the same place: every pair intersects.
fn overlapping_scene(dir: &Path, n: usize) -> PathBuf {
    let shapes: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"id": "b{i}", "type": "aabb", "min": [0, 0, 0], "max": [1, 1, 1]}}"#))
        .collect();
    write(
        dir,
        "overlapping.json",
        &format!(r#"{{"shapes": [{}]}}"#, shapes.join(",")),
    )
}

fn stderr_one_line(out: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "one line on stderr: {err:?}");
    assert!(err.starts_with("sepax: "), "{err:?}");
    err
}

// ---- 1. check streams ------------------------------------------------------------------------

#[test]
fn check_streams_millions_of_pairs_in_little_memory() {
    let dir = folder("stream");
    let scene = overlapping_scene(&dir, 2000);
    // 1,999,000 pairs (about 25 MB of text) under a 100 MB address-space limit: building the
    // output in memory does not fit, writing it as it is found does.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 102400 && exec \"$0\" check \"$1\" | wc -l")
        .arg(bin())
        .arg(&scene)
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1999000");
}

#[test]
fn max_pairs_stops_with_complete_output_and_exit_3() {
    let dir = folder("max-pairs");
    let scene = overlapping_scene(&dir, 20_000);
    let out = sepax()
        .args(["check", "--max-pairs", "5", scene.to_str().unwrap()])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        "b0 b1\nb0 b2\nb0 b3\nb0 b4\nb0 b5\n"
    );
    let err = stderr_one_line(&out);
    assert!(err.contains("--max-pairs 5"), "{err}");

    let out = sepax()
        .args([
            "check",
            "--json",
            "--explain",
            "--contacts",
            "--max-pairs",
            "3",
        ])
        .arg(&scene)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let pairs = json["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3);
    assert_eq!(pairs[2]["b"], "b3");
    assert_eq!(json["stats"]["pairs"], 3);
    assert_eq!(json["stats"]["stopped_at_max_pairs"], true);
    assert_eq!(json["explanations"].as_array().unwrap().len(), 3);

    // Exactly N pairs is not a stop.
    let small = overlapping_scene(&folder("max-pairs-exact"), 3);
    sepax()
        .args(["check", "--max-pairs", "3", small.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout("b0 b1\nb0 b2\nb1 b2\n");
}

#[test]
fn streamed_json_is_the_same_document() {
    let dir = folder("json-stream");
    let scene = overlapping_scene(&dir, 40);
    let out = sepax()
        .args(["check", "--json", scene.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let pairs = json["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 40 * 39 / 2);
    let got: Vec<(u64, u64)> = pairs
        .iter()
        .map(|p| {
            let n = |k: &str| p[k].as_str().unwrap()[1..].parse::<u64>().unwrap();
            (n("a"), n("b"))
        })
        .collect();
    let mut sorted = got.clone();
    sorted.sort_unstable();
    assert_eq!(got, sorted, "pairs in the sorted order");
    assert_eq!(json["stats"]["stopped_at_max_pairs"], false);
}

// ---- 2. clash --------------------------------------------------------------------------------

/// Two parts of `n` thin triangles each, all through the origin.
fn fans(dir: &Path, n: usize) -> PathBuf {
    let mut s = String::new();
    let mut base = 0;
    for (name, sign) in [("a", 1.0), ("b", -1.0)] {
        s.push_str(&format!("o {name}\nv 0 0 0\n"));
        for k in 0..n {
            let t = k as f64 * 0.001 + sign;
            let (c, si) = (t.cos(), t.sin());
            s.push_str(&format!("v {c} {si} {sign}\nv {c} {si} {}\n", sign * 1.1));
        }
        for k in 0..n {
            s.push_str(&format!(
                "f {} {} {}\n",
                base + 1,
                base + 2 + 2 * k,
                base + 3 + 2 * k
            ));
        }
        base += 1 + 2 * n;
    }
    write(dir, "fans.obj", &s)
}

#[test]
fn clash_of_two_large_parts_through_one_point_is_quick() {
    let dir = folder("fans");
    let model = fans(&dir, 6000);
    let out = sepax()
        .args(["clash", model.to_str().unwrap()])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "clash a b (triangles 0 and 0)\n2 parts, 1 box overlaps, 1 clashes\n"
    );
}

// ---- 3. fit ----------------------------------------------------------------------------------

fn sphere_obj(dir: &Path, n: usize) -> PathBuf {
    let mut s = String::new();
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    for k in 0..n {
        let z = 1.0 - 2.0 * (k as f64 + 0.5) / n as f64;
        let r = (1.0 - z * z).sqrt();
        let t = golden * k as f64;
        s.push_str(&format!("v {} {} {z}\n", r * t.cos(), r * t.sin()));
    }
    for k in (1..=n - 2).step_by(3) {
        s.push_str(&format!("f {} {} {}\n", k, k + 1, k + 2));
    }
    write(dir, "sphere.obj", &s)
}

#[test]
fn fit_computes_the_exact_box_only_when_asked() {
    let dir = folder("fit-sphere");
    let mesh = sphere_obj(&dir, 20_001);
    for method in ["aabb", "dito"] {
        let out = sepax()
            .args(["fit", mesh.to_str().unwrap(), "--method", method])
            .timeout(Duration::from_secs(30))
            .output()
            .unwrap();
        assert!(out.status.success(), "{method}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("ratio_to_aabb "), "{text}");
        assert!(!text.contains("ratio_to_exact"), "{text}");
    }
    let small = sphere_obj(&folder("fit-small-sphere"), 201);
    let out = sepax()
        .args(["fit", small.to_str().unwrap(), "--method", "aabb"])
        .args(["--compare", "exact"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let ratio: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("ratio_to_exact "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(ratio >= 1.0 - 1e-5, "{text}");
}

#[test]
fn fit_of_huge_coordinates_prints_finite_numbers() {
    let dir = folder("fit-huge");
    let mut s = String::new();
    for i in 0..8 {
        let c = |k: usize, size: f64| if i >> k & 1 == 1 { size } else { 0.0 };
        s.push_str(&format!("v {} {} {}\n", c(0, 3e13), c(1, 2e13), c(2, 1e13)));
    }
    s.push_str("f 1 2 4 3\nf 5 6 8 7\n");
    let mesh = write(&dir, "huge.obj", &s);
    for extra in [&[][..], &["--json"][..], &["--compare", "exact"][..]] {
        let out = sepax()
            .args(["fit", mesh.to_str().unwrap(), "--method", "aabb"])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap().to_lowercase();
        for bad in ["inf", "nan", "null"] {
            assert!(!text.contains(bad), "{extra:?}: {text}");
        }
        if extra.is_empty() {
            let get = |k: &str| -> f64 {
                text.lines()
                    .find_map(|l| l.strip_prefix(k))
                    .unwrap()
                    .trim()
                    .parse()
                    .unwrap()
            };
            let v = get("volume ");
            assert!((v / 6e39 - 1.0).abs() < 1e-5, "{text}");
            assert_eq!(get("ratio_to_aabb "), 1.0);
        }
    }
}

// ---- 4. demo ---------------------------------------------------------------------------------

#[test]
fn demo_options_out_of_range_are_one_line_errors() {
    for args in [
        &["--shapes", "18446744073709551615"][..],
        &["--shapes", "100000000"],
        &["--shapes", "-1"],
        &["--frames", "0"],
        &["--frames", "1000000000000"],
        &["--shapes", "1000000", "--frames", "5000"],
        &["--seed", "x"],
    ] {
        let svg = folder("demo-range").join("d.svg");
        let out = sepax()
            .arg("demo")
            .args(args)
            .arg("--svg")
            .arg(&svg)
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        stderr_one_line(&out);
        assert!(!svg.exists(), "{args:?}");
    }
}

#[test]
fn demo_scene_from_a_seed_is_the_same_in_both_precisions() {
    let svg = folder("demo-seed").join("d.svg");
    // Golden descriptions: the same lines are expected from the f32 and the f64 build.
    for (seed, shapes, want) in [
        (
            "7",
            "3000",
            "  shapes: 5 static (floor, 4 walls), 1442 OBBs, 323 AABBs, 604 spheres, 631 capsules",
        ),
        (
            "1",
            "500",
            "  shapes: 5 static (floor, 4 walls), 237 OBBs, 54 AABBs, 107 spheres, 102 capsules",
        ),
    ] {
        let out = sepax()
            .args([
                "demo", "--seed", seed, "--shapes", shapes, "--frames", "1", "--svg",
            ])
            .arg(&svg)
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().nth(1), Some(want), "seed {seed}");
    }
}

// ---- 5. closed or full standard output -------------------------------------------------------

fn tiny_scene(dir: &Path) -> PathBuf {
    write(
        dir,
        "tiny.json",
        r#"{"shapes": [
            {"id": "p", "type": "aabb", "min": [0, 0, 0], "max": [1, 1, 1]},
            {"id": "q", "type": "aabb", "min": [0.5, 0, 0], "max": [2, 1, 1]}]}"#,
    )
}

/// Every subcommand, with arguments that print something.
fn printing_commands(dir: &Path) -> Vec<Vec<String>> {
    let scene = tiny_scene(dir).display().to_string();
    let mesh = write(dir, "t.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    let mesh = mesh.display().to_string();
    let svg = dir.join("d.svg").display().to_string();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        s(&["check", &scene]),
        s(&["check", "--json", "--contacts", "--explain", &scene]),
        s(&["explain", &scene, "p", "q"]),
        s(&["play", &scene]),
        s(&["play", "--json", "--threads", "2", &scene]),
        s(&["fit", &mesh]),
        s(&["clash", &mesh]),
        s(&["demo", "--shapes", "20", "--frames", "2", "--svg", &svg]),
        s(&["--help"]),
    ]
}

#[test]
fn a_closed_pipe_ends_quietly_with_status_141() {
    let dir = folder("epipe");
    for args in printing_commands(&dir) {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = std::process::Command::new(bin())
            .args(&args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let want = if args[0] == "--help" { 0 } else { 141 };
        assert_eq!(out.status.code(), Some(want), "{args:?}");
        assert!(
            out.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn head_of_a_long_output_is_quiet() {
    let dir = folder("head");
    let scene = overlapping_scene(&dir, 300);
    let mut child = std::process::Command::new(bin())
        .arg("check")
        .arg(&scene)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    {
        use std::io::BufRead;
        let mut r = std::io::BufReader::new(child.stdout.take().unwrap());
        r.read_line(&mut first).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(first, "b0 b1\n");
    assert_eq!(out.status.code(), Some(141));
    assert!(out.stderr.is_empty());
}

#[test]
fn a_full_disk_is_one_line_and_status_2() {
    if !Path::new("/dev/full").exists() {
        // Not Linux: no device that always fails writes.
        return;
    }
    let dir = folder("full");
    for args in printing_commands(&dir) {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(bin())
            .args(&args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr_one_line(&out);
        assert!(err.contains("standard output"), "{args:?}: {err}");
    }
}

// ---- 6. ids and file names that could lie ----------------------------------------------------

#[test]
fn ids_are_quoted_so_lines_cannot_be_forged() {
    let dir = folder("ids");
    let scene = write(
        &dir,
        "ids.json",
        r#"{"shapes": [
            {"id": "a\nfake1 fake2", "type": "aabb", "min": [0, 0, 0], "max": [1, 1, 1]},
            {"id": "b c", "type": "aabb", "min": [0, 0, 0], "max": [1, 1, 1]},
            {"id": "\u001b[31mred", "type": "aabb", "min": [0, 0, 0], "max": [1, 1, 1]},
            {"id": "plain", "type": "aabb", "min": [0, 0, 0], "max": [1, 1, 1]}]}"#,
    );
    let out = sepax().args(["check"]).arg(&scene).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        concat!(
            r#""a\nfake1 fake2" "b c""#,
            "\n",
            r#""a\nfake1 fake2" "\u001b[31mred""#,
            "\n",
            r#""a\nfake1 fake2" plain"#,
            "\n",
            r#""b c" "\u001b[31mred""#,
            "\n",
            r#""b c" plain"#,
            "\n",
            r#""\u001b[31mred" plain"#,
            "\n"
        )
    );
    let out = sepax()
        .args(["check", "--explain"])
        .arg(&scene)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\u{1b}'));
    assert_eq!(text.lines().count(), 12);
    let out = sepax()
        .args(["explain"])
        .arg(&scene)
        .args(["b c", "plain"])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("\"b c\" and plain "));
    // JSON keeps the ids as they are (escaped by JSON itself).
    let out = sepax()
        .args(["check", "--json"])
        .arg(&scene)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["pairs"][0]["a"], "a\nfake1 fake2");
}

#[test]
fn clash_quotes_file_names() {
    let dir = folder("names");
    let cube = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n";
    write(&dir, "a\nclash x y.obj", cube);
    write(&dir, "b c.obj", cube);
    let out = sepax().arg("clash").arg(&dir).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with(r#"clash "a\nclash x y.obj" "b c.obj" ("#),
        "{text}"
    );
    assert_eq!(text.lines().count(), 2, "{text}");
}

// ---- 7. output files checked before the work -------------------------------------------------

#[test]
fn unwritable_pictures_fail_before_any_output() {
    let dir = folder("svg-first");
    let scene = tiny_scene(&dir);
    let mesh = write(&dir, "t.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    let bad = dir.join("no-such-dir").join("x.svg");
    for args in [
        vec!["check".into(), scene.display().to_string()],
        vec!["clash".into(), mesh.display().to_string()],
        vec!["demo".into(), "--frames".into(), "100000".into()],
    ] {
        let out = sepax()
            .args(&args)
            .arg("--svg")
            .arg(&bad)
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = stderr_one_line(&out);
        assert!(err.contains("x.svg"), "{err}");
    }
}

#[test]
fn a_failure_after_the_picture_removes_it() {
    let dir = folder("svg-removed");
    // A broken scene after a writable picture path: no picture is left behind.
    let broken = write(&dir, "broken.json", r#"{"shapes": [}"#);
    let svg = dir.join("out.svg");
    sepax()
        .args(["check", "--svg"])
        .arg(&svg)
        .arg(&broken)
        .assert()
        .code(2)
        .stdout("");
    assert!(!svg.exists());
    let mesh = write(&dir, "broken.obj", "v 0 0 0\nf 1 2 3\n");
    sepax()
        .args(["clash", "--svg"])
        .arg(&svg)
        .arg(&mesh)
        .assert()
        .code(2)
        .stdout("");
    assert!(!svg.exists());
}

// ---- 8. numbers that are not finite ----------------------------------------------------------

#[test]
fn huge_boxes_never_print_a_number_that_is_not_finite() {
    let dir = folder("huge");
    let scene = write(
        &dir,
        "huge.json",
        r#"{"shapes": [
            {"id": "big", "type": "aabb", "min": [-3e38, -3e38, -3e38], "max": [3e38, 3e38, 3e38]},
            {"id": "other", "type": "aabb", "min": [-3e38, -3e38, -3e38], "max": [3e38, 3e38, 3e38]}]}"#,
    );
    for args in [
        &["check", "--contacts", "--json"][..],
        &["check", "--contacts"],
        &["check", "--explain"],
        &["check", "--explain", "--json"],
        &["explain"],
    ] {
        let mut cmd = sepax();
        cmd.args(args).arg(&scene);
        if args == ["explain"] {
            cmd.args(["big", "other"]);
        }
        let out = cmd.output().unwrap();
        let text = String::from_utf8(out.stdout.clone())
            .unwrap()
            .to_lowercase();
        for bad in ["inf", "nan", "null"] {
            assert!(!text.contains(bad), "{args:?}: {text}");
        }
        // Contacts of these boxes are representable (the depth saturates at the largest
        // number, as documented; points and their midpoints stay finite): they must be printed.
        if args.contains(&"--contacts") && !args.contains(&"--explain") {
            assert_eq!(
                out.status.code(),
                Some(0),
                "{args:?}: {}",
                stderr_one_line(&out)
            );
        }
        match out.status.code() {
            Some(0) => {}
            Some(2) => {
                let err = stderr_one_line(&out);
                assert!(err.contains("not a finite number"), "{args:?}: {err}");
                // Nothing about the pair was written: text ends at a line boundary before it.
                assert!(
                    text.is_empty() || text.ends_with('\n') || text.ends_with('['),
                    "{text}"
                );
            }
            other => panic!("{args:?}: exit {other:?}"),
        }
    }
}
