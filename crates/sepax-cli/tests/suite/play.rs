//! End-to-end tests of `sepax play`: scenes with events worked out by hand, the JSON document,
//! events equal to the difference of `check` run on every frame's placements, the same output
//! for every thread count, and bad frames as one-line errors naming the frame, the id and the
//! field.

use crate::common::{self, sepax, stdout_of};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_scene::{read_scene, write_scene, Scene};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A scratch file of this suite, with `text` in it.
fn scratch(name: &str, text: &str) -> PathBuf {
    common::scratch("sepax-play-tests", name, text)
}

/// A crate slides along the floor into a drum and out again; a ball falls onto the crate and
/// stays; a lamp never moves and touches nothing; `ball` and `floor` never collide (layers).
const KNOWN: &str = r#"{
  "shapes": [
    {"id": "floor", "type": "aabb", "min": [-10, -1, -10], "max": [10, 0, 10], "layer": 1, "mask": 1},
    {"id": "crate", "type": "obb", "center": [0, 0.5, 0], "half_extents": [0.5, 0.5, 0.5],
     "rotation": [1, 0, 0, 0], "layer": 1, "mask": 3},
    {"id": "drum", "type": "sphere", "center": [3, 0.5, 0], "radius": 0.5},
    {"id": "ball", "type": "sphere", "center": [0, 3, 0], "radius": 0.25, "layer": 2, "mask": 3},
    {"id": "lamp", "type": "capsule", "p0": [-5, 5, -5], "p1": [-5, 6, -5], "radius": 0.1}
  ],
  "frames": [
    {"poses": {"crate": {"center": [1.5, 0.5, 0], "rotation": [1, 0, 0, 0]}}},
    {"poses": {"crate": {"center": [2.2, 0.5, 0], "rotation": [1, 0, 0, 0]},
               "ball": {"center": [2.2, 1.2, 0]}}},
    {"poses": {}},
    {"poses": {"crate": {"center": [0, 0.5, 0], "axes": [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]},
               "ball": {"center": [0, 1.2, 0]}}},
    {"poses": {"ball": {"center": [0, -0.5, 0]}}}
  ]
}"#;

#[test]
fn known_events_in_text() {
    let path = scratch("known.json", KNOWN);
    let out = stdout_of(&["play", path.to_str().unwrap()]);
    // Frame 0: the crate stands on the floor; the drum stands on it too (floor has mask 1, the
    // drum's layer is every bit). Frame 2: the crate reaches the drum, the ball lands on the
    // crate. Frame 4: the crate leaves the drum (the ball moves with it). Frame 5: the ball
    // sinks into the floor (layers: they never collide) and leaves the crate.
    assert_eq!(
        out,
        "frame 0 begin floor crate\n\
         frame 0 begin floor drum\n\
         frame 2 begin crate drum\n\
         frame 2 begin crate ball\n\
         frame 4 end crate drum\n\
         frame 5 end crate ball\n\
         summary: 6 frames, 4 begin, 2 end, 2 touching at the last frame\n"
    );
}

#[test]
fn known_events_in_json() {
    let path = scratch("known-json.json", KNOWN);
    let doc: serde_json::Value =
        serde_json::from_str(&stdout_of(&["play", "--json", path.to_str().unwrap()])).unwrap();
    let frames = doc["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 6);
    assert_eq!(
        frames[2],
        serde_json::json!({"frame": 2, "begin": [["crate", "drum"], ["crate", "ball"]], "end": [], "touching": 4})
    );
    assert_eq!(frames[3]["touching"], 4);
    assert_eq!(frames[4]["end"], serde_json::json!([["crate", "drum"]]));
    assert_eq!(
        doc["summary"],
        serde_json::json!({"frames": 6, "begin": 4, "end": 2, "touching": 2})
    );
}

#[test]
fn listed_pairs_apply_to_every_frame() {
    // Only `a c` and `b c` are listed: `a b` overlap from the start but are never reported.
    let path = scratch(
        "listed.json",
        r#"{"shapes": [
            {"id": "a", "type": "aabb", "min": [0, 0, 0], "max": [1, 1, 1]},
            {"id": "b", "type": "aabb", "min": [0.5, 0, 0], "max": [1.5, 1, 1]},
            {"id": "c", "type": "sphere", "center": [5, 0, 0], "radius": 0.5}],
          "pairs": [["c", "a"], ["b", "c"]],
          "frames": [{"poses": {"c": {"center": [1.2, 0.5, 0.5]}}}, {"poses": {"c": {"center": [9, 0, 0]}}}]}"#,
    );
    assert_eq!(
        stdout_of(&["play", path.to_str().unwrap()]),
        "frame 1 begin a c\nframe 1 begin b c\nframe 2 end a c\nframe 2 end b c\n\
         summary: 3 frames, 2 begin, 2 end, 0 touching at the last frame\n"
    );
}

#[test]
fn a_scene_without_frames_has_one_frame_and_ids_are_quoted() {
    let path = scratch(
        "quoted.json",
        r#"{"shapes": [
            {"id": "x y", "type": "sphere", "center": [0, 0, 0], "radius": 1},
            {"id": "frame 9 end", "type": "sphere", "center": [1, 0, 0], "radius": 1}]}"#,
    );
    assert_eq!(
        stdout_of(&["play", path.to_str().unwrap()]),
        "frame 0 begin \"x y\" \"frame 9 end\"\nsummary: 1 frames, 1 begin, 0 end, 1 touching at the last frame\n"
    );
}

/// A random scene of every shape kind with layers, masks and sometimes a pair list, and
/// frames that move some shapes, written in the file format.
fn random_scene(rng: &mut ChaCha8Rng, n: usize, frames: usize, listed: bool) -> String {
    let mut v = |lo: f64, hi: f64| -> f64 { (rng.random_range(lo..hi) * 64.0_f64).round() / 64.0 };
    let mut shapes = Vec::new();
    let mut kinds = Vec::new();
    let mut sizes = Vec::new();
    for k in 0..n {
        let c = [v(0.0, 6.0), v(0.0, 6.0), v(0.0, 6.0)];
        let kind = k % 4;
        let mut s = match kind {
            0 => {
                let h = [v(0.1, 1.0), v(0.1, 1.0), v(0.1, 1.0)];
                sizes.push(h.to_vec());
                serde_json::json!({"type": "aabb", "center": c, "half_extents": h})
            }
            1 => {
                let h = [v(0.1, 1.0), v(0.1, 1.0), v(0.1, 1.0)];
                sizes.push(h.to_vec());
                serde_json::json!({"type": "obb", "center": c, "half_extents": h, "rotation": [1, 0, 0, 0]})
            }
            2 => {
                sizes.push(vec![]);
                serde_json::json!({"type": "sphere", "center": c, "radius": v(0.1, 1.0)})
            }
            _ => {
                let d = [v(-1.0, 1.0), v(-1.0, 1.0), 0.5];
                sizes.push(d.to_vec());
                let p1 = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
                serde_json::json!({"type": "capsule", "p0": c, "p1": p1, "radius": v(0.05, 0.5)})
            }
        };
        s["id"] = serde_json::json!(format!("s{k}"));
        if k % 5 == 0 {
            s["layer"] = serde_json::json!(1 + k % 3);
            s["mask"] = serde_json::json!(1 + (k / 5) % 3);
        }
        shapes.push(s);
        kinds.push(kind);
    }
    let mut frame_list = Vec::new();
    for _ in 0..frames {
        let mut poses = serde_json::Map::new();
        for k in 0..n {
            if k % 3 != 0 {
                continue;
            }
            let c = [v(0.0, 6.0), v(0.0, 6.0), v(0.0, 6.0)];
            let p = match kinds[k] {
                0 => serde_json::json!({"center": c, "half_extents": sizes[k]}),
                1 => {
                    let a = v(0.0, std::f64::consts::TAU);
                    let (s, co) = (a.sin(), a.cos());
                    serde_json::json!({"center": c, "axes": [[co, s, 0], [-s, co, 0], [0, 0, 1]]})
                }
                2 => serde_json::json!({"center": c}),
                _ => {
                    let d = &sizes[k];
                    serde_json::json!({"p0": c, "p1": [c[0] + d[0], c[1] + d[1], c[2] + d[2]]})
                }
            };
            poses.insert(format!("s{k}"), p);
        }
        frame_list.push(serde_json::json!({"poses": poses}));
    }
    let mut doc = serde_json::json!({"shapes": shapes, "frames": frame_list});
    if listed {
        let pairs: Vec<[String; 2]> = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .filter(|(i, j)| i < j && (i * 7 + j * 3) % 4 != 0)
            .map(|(i, j)| [format!("s{i}"), format!("s{j}")])
            .collect();
        doc["pairs"] = serde_json::json!(pairs);
    }
    doc.to_string()
}

/// The touching pairs `check` prints for frame `k`'s placements of `scene`.
fn check_frame(scene: &Scene, k: usize, name: &str) -> BTreeSet<(String, String)> {
    let mut at = scene.clone();
    for (s, shape) in at.shapes.iter_mut().zip(scene.placements_at(k).unwrap()) {
        s.shape = shape;
    }
    at.frames.clear();
    let path = scratch(&format!("{name}-frame{k}.json"), &write_scene(&at));
    let doc: serde_json::Value =
        serde_json::from_str(&stdout_of(&["check", "--json", path.to_str().unwrap()])).unwrap();
    doc["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["a"].as_str().unwrap().to_owned(),
                p["b"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn names(v: &serde_json::Value) -> Vec<(String, String)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_owned(),
                p[1].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn events_are_the_difference_of_check_on_every_frame() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let (mut begins, mut ends) = (0, 0);
    for round in 0..6 {
        let name = format!("diff{round}");
        let text = random_scene(&mut rng, 40, 6, round % 3 == 2);
        let path = scratch(&format!("{name}.json"), &text);
        let scene = read_scene(&text).unwrap();
        let doc: serde_json::Value =
            serde_json::from_str(&stdout_of(&["play", "--json", path.to_str().unwrap()])).unwrap();
        let frames = doc["frames"].as_array().unwrap();
        assert_eq!(frames.len(), scene.frame_count());
        // File order of the ids, to check that each event list is sorted by pair.
        let order = |id: &str| scene.shapes.iter().position(|s| s.id == id).unwrap();
        let mut before = BTreeSet::new();
        for (k, f) in frames.iter().enumerate() {
            let now = check_frame(&scene, k, &name);
            let (begin, end) = (names(&f["begin"]), names(&f["end"]));
            let key = |p: &(String, String)| (order(&p.0), order(&p.1));
            assert!(
                begin.windows(2).all(|w| key(&w[0]) < key(&w[1])),
                "round {round} frame {k}"
            );
            assert!(
                end.windows(2).all(|w| key(&w[0]) < key(&w[1])),
                "round {round} frame {k}"
            );
            let want_begin: BTreeSet<_> = now.difference(&before).cloned().collect();
            let want_end: BTreeSet<_> = before.difference(&now).cloned().collect();
            assert_eq!(
                begin.iter().cloned().collect::<BTreeSet<_>>(),
                want_begin,
                "round {round} frame {k}"
            );
            assert_eq!(
                end.iter().cloned().collect::<BTreeSet<_>>(),
                want_end,
                "round {round} frame {k}"
            );
            assert_eq!(
                f["touching"].as_u64().unwrap() as usize,
                now.len(),
                "round {round} frame {k}"
            );
            begins += begin.len();
            ends += end.len();
            before = now;
        }
    }
    // The comparison means something only if there were many events of both kinds.
    assert!(begins > 100 && ends > 50, "{begins} begin, {ends} end");
}

#[test]
fn the_same_output_for_every_thread_count() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let path = scratch("threads.json", &random_scene(&mut rng, 300, 8, false));
    let p = path.to_str().unwrap();
    for json in [false, true] {
        let run = |threads: &str| {
            let mut args = vec!["play", "--threads", threads, p];
            if json {
                args.insert(1, "--json");
            }
            stdout_of(&args)
        };
        let one = run("1");
        assert!(one.len() > 10_000, "{} bytes", one.len());
        for threads in ["2", "8"] {
            assert_eq!(run(threads), one, "--threads {threads}");
        }
    }
    // `check` too.
    let one = stdout_of(&["check", "--threads", "1", p]);
    for threads in ["2", "8"] {
        assert_eq!(stdout_of(&["check", "--threads", threads, p]), one);
    }
}

#[test]
fn bad_frames_exit_2_naming_the_frame_the_id_and_the_field() {
    let base = r#"{"shapes": [
        {"id": "crate", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1], "rotation": [1, 0, 0, 0]},
        {"id": "ball", "type": "sphere", "center": [3, 0, 0], "radius": 1}],
      "frames": [{"poses": {}}, FRAME]}"#;
    for (frame, wants) in [
        (
            r#"{"poses": {"crat": {"center": [0, 0, 0]}}}"#,
            &["frame 2", "\"crat\""][..],
        ),
        (
            r#"{"poses": {"ball": {"radius": 2}}}"#,
            &["frame 2", "\"ball\"", "\"radius\""],
        ),
        (
            r#"{"poses": {"crate": {"center": [0, 0, 0], "rotation": [1, 0, 0, 0.1]}}}"#,
            &["frame 2", "\"crate\"", "\"rotation\""],
        ),
        (
            r#"{"poses": {"crate": {"center": [0, 0, 0], "axes": [[1, 0, 0], [1, 0, 0], [0, 0, 1]]}}}"#,
            &["frame 2", "\"crate\"", "\"axes\""],
        ),
        (
            r#"{"poses": {"ball": {"center": [0, 1e999, 0]}}}"#,
            &["frame 2", "\"ball\"", "\"center\""],
        ),
        (
            r#"{"poses": {"ball": {"p0": [0, 0, 0]}}}"#,
            &["frame 2", "\"ball\"", "\"p0\""],
        ),
    ] {
        let path = scratch("bad.json", &base.replace("FRAME", frame));
        for json in [false, true] {
            let mut cmd = sepax();
            cmd.arg("play");
            if json {
                cmd.arg("--json");
            }
            let out = cmd.arg(&path).output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{frame}");
            assert!(out.stdout.is_empty(), "{frame}");
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "{err}");
            for w in wants {
                assert!(err.contains(w), "{w} not in {err}");
            }
        }
    }
}

#[test]
fn a_long_output_into_a_closed_pipe_ends_quietly_with_status_141() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let path = scratch("pipe.json", &random_scene(&mut rng, 400, 40, false));
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("sepax"))
        .arg("play")
        .arg(&path)
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(141));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_full_disk_is_one_line_and_status_2() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let path = scratch("full.json", KNOWN);
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("sepax"))
        .args(["play", path.to_str().unwrap()])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("cannot write to standard output"), "{err}");
}

#[test]
fn the_documented_example_prints_as_documented() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/scene-format.md"),
    )
    .unwrap();
    // The page's first JSON block is the example scene; the play section shows its output.
    let block = |fence: &str, nth: usize| -> String {
        let start = doc.match_indices(fence).nth(nth).unwrap().0 + fence.len();
        let len = doc[start..].find("```").unwrap();
        doc[start..start + len].to_owned()
    };
    let path = scratch("documented.json", &block("```json\n", 0));
    let text = doc.find("### What `sepax play` prints").unwrap();
    let after = |fence: &str| {
        let start = text + doc[text..].find(fence).unwrap() + fence.len();
        let len = doc[start..].find("```").unwrap();
        doc[start..start + len].to_owned()
    };
    let p = path.to_str().unwrap();
    assert_eq!(stdout_of(&["play", p]), after("```text\n"));
    assert_eq!(stdout_of(&["play", "--json", p]), after("```json\n"));
}

/// A 1 m box jumps from x = -3 to x = +3 between frames 1 and 2, over a 1 cm wall at x = 0;
/// frame 3 puts it into the post.
const JUMP: &str = r#"{
  "shapes": [
    {"id": "wall", "type": "aabb", "min": [-0.005, -5, -5], "max": [0.005, 5, 5]},
    {"id": "post", "type": "capsule", "p0": [6, 0, -1], "p1": [6, 0, 1], "radius": 0.1},
    {"id": "box", "type": "obb", "center": [-4, 0, 0], "half_extents": [0.5, 0.5, 0.5], "rotation": [1, 0, 0, 0]}
  ],
  "frames": [
    {"poses": {"box": {"center": [-3, 0, 0], "rotation": [1, 0, 0, 0]}}},
    {"poses": {"box": {"center": [3, 0, 0], "rotation": [1, 0, 0, 0]}}},
    {"poses": {"box": {"center": [5.7, 0, 0], "rotation": [1, 0, 0, 0]}}}
  ]
}"#;

fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout_of(args)).unwrap()
}

#[test]
fn trajectory_mode_misses_the_jump_at_the_frames_and_catches_it_swept() {
    let path = scratch("jump.json", JUMP);
    let p = path.to_str().unwrap();
    // At the frames the box first touches the post, at frame 3.
    assert_eq!(
        stdout_of(&["play", "--trajectory", p]),
        "first hit: frame 3 post box\n"
    );
    let doc = json_of(&["play", "--trajectory", "--json", p]);
    assert_eq!(
        doc,
        serde_json::json!({"first_hit": {"frame": 3, "a": "post", "b": "box"}})
    );
    // Swept: the jump from frame 1 to frame 2 crosses the wall when the box's face reaches
    // x = -0.005, after 2.495 of the 6 m.
    let doc = json_of(&["play", "--trajectory", "--swept", "--json", p]);
    let hit = &doc["first_hit"];
    assert_eq!(
        (hit["frame"].as_u64(), hit["a"].as_str(), hit["b"].as_str()),
        (Some(2), Some("wall"), Some("box"))
    );
    let t = hit["t"].as_f64().unwrap();
    assert!(t <= 2.495 / 6.0 + 1e-6 && t > 2.495 / 6.0 - 1e-3, "{t}");
    let text = stdout_of(&["play", "--trajectory", "--swept", p]);
    assert!(
        text.starts_with("first hit: frame 2 t 0.41") && text.ends_with(" wall box\n"),
        "{text}"
    );
    // --fail-on-hit: status 1 with the answer written.
    let out = sepax()
        .args([
            "play",
            "--trajectory",
            "--swept",
            "--fail-on-hit",
            "--json",
            p,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("{\"first_hit\":{\"frame\":2,"));
}

#[test]
fn trajectory_mode_without_a_hit_is_null_and_status_0() {
    let text = JUMP.replace("[5.7, 0, 0]", "[4, 0, 0]");
    let path = scratch("jump-clear.json", &text);
    let p = path.to_str().unwrap();
    assert_eq!(
        stdout_of(&["play", "--trajectory", p]),
        "no hit in 4 frames\n"
    );
    let out = sepax()
        .args(["play", "--trajectory", "--fail-on-hit", "--json", p])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "{\"first_hit\":null}\n"
    );
}

#[test]
fn trajectory_first_hit_is_the_first_frame_where_check_finds_a_moving_pair() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut found = 0;
    for round in 0..8 {
        let name = format!("traj{round}");
        // Sparse scenes, so that the first hit is not always at frame 0.
        let text = random_scene(&mut rng, 14, 6, round % 3 == 2);
        let path = scratch(&format!("{name}.json"), &text);
        let scene = read_scene(&text).unwrap();
        let moving: BTreeSet<String> = scene
            .frames
            .iter()
            .flat_map(|f| f.poses.iter().map(|&(i, _)| scene.shapes[i].id.clone()))
            .collect();
        let order = |id: &str| scene.shapes.iter().position(|s| s.id == id).unwrap();
        let mut expected = serde_json::Value::Null;
        for k in 0..scene.frame_count() {
            let first = check_frame(&scene, k, &name)
                .into_iter()
                .filter(|(a, b)| moving.contains(a) || moving.contains(b))
                .min_by_key(|(a, b)| (order(a), order(b)));
            if let Some((a, b)) = first {
                expected = serde_json::json!({"frame": k, "a": a, "b": b});
                found += 1;
                break;
            }
        }
        let p = path.to_str().unwrap();
        for threads in ["1", "2", "8"] {
            let doc = json_of(&["play", "--trajectory", "--json", "--threads", threads, p]);
            assert_eq!(
                doc["first_hit"], expected,
                "round {round}, {threads} threads"
            );
        }
        // Swept finds a contact no later than the frames do.
        let swept = json_of(&["play", "--trajectory", "--swept", "--json", p]);
        if let Some(k) = expected["frame"].as_u64() {
            assert!(
                swept["first_hit"]["frame"].as_u64().unwrap() <= k,
                "round {round}"
            );
        }
    }
    assert!(found >= 3, "{found} of 8 scenes hit");
}

#[test]
fn trajectory_bad_input_is_one_line_and_status_2() {
    let path = scratch("jump2.json", JUMP);
    let p = path.to_str().unwrap();
    for args in [
        vec!["play", "--swept", p],
        vec!["play", "--fail-on-hit", p],
        vec!["play", "--trajectory", "missing-file.json"],
    ] {
        let out = sepax().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("sepax: "), "{err}");
    }
    let bad = JUMP.replace(
        "[3, 0, 0], \"rotation\"",
        "[3, 0, 0], \"radius\": 1, \"rotation\"",
    );
    let path = scratch("jump-bad.json", &bad);
    let out = sepax()
        .args(["play", "--trajectory", "--swept", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}
