//! The optional `frames` list: placements read in every form, applied cumulatively, and every
//! bad frame an error naming the frame, the id and the field.

use sepax_scene::{read_scene, write_scene, Scene, MAX_FRAME_SHAPES};
use sepax_shapes::math::{Matrix3, Point3, Real, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, Sphere, Triangle};

const SHAPES: &str = r#"
    {"id": "floor", "type": "aabb", "min": [-10, -1, -10], "max": [10, 0, 10]},
    {"id": "crate", "type": "obb", "center": [0, 0.5, 0], "half_extents": [0.5, 0.5, 0.5],
     "axes": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
    {"id": "ball", "type": "sphere", "center": [0, 2, 0], "radius": 0.25},
    {"id": "pole", "type": "capsule", "p0": [3, 0, 0], "p1": [3, 2, 0], "radius": 0.1},
    {"id": "ramp", "type": "triangle", "a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 1, 1]}"#;

fn scene_with(frames: &str) -> String {
    format!("{{\"shapes\": [{SHAPES}\n], \"frames\": {frames}}}")
}

fn p(x: Real, y: Real, z: Real) -> Point3 {
    Point3::new(x, y, z)
}

fn v(x: Real, y: Real, z: Real) -> Vector3 {
    Vector3::new(x, y, z)
}

#[test]
fn every_placement_form_reads_and_applies_cumulatively() {
    let text = scene_with(
        r#"[
        {"poses": {"crate": {"center": [0, 0.4, 0], "rotation": [1, 0, 0, 0]},
                   "floor": {"center": [0, -0.5, 0], "half_extents": [10, 0.5, 10]}}},
        {"poses": {}},
        {"poses": {"ramp": {"a": [1, 0, 0], "b": [2, 0, 0], "c": [1, 1, 1]},
                   "pole": {"p0": [3, 0, 0], "p1": [3, 0, 2]},
                   "ball": {"center": [0, 1e-1, 0]},
                   "crate": {"center": [0, 0.5, 0], "axes": [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]},
                   "floor": {"min": [-9, -1, -10], "max": [11, 0, 10]}}}
    ]"#,
    );
    let scene = read_scene(&text).unwrap();
    assert_eq!(scene.frame_count(), 4);
    assert_eq!(scene.frames.len(), 3);
    // Entries sorted by shape index, whatever the file's order.
    let order: Vec<Vec<usize>> = scene
        .frames
        .iter()
        .map(|f| f.poses.iter().map(|&(i, _)| i).collect())
        .collect();
    assert_eq!(order, [vec![0, 1], vec![], vec![0, 1, 2, 3, 4]]);

    let floor0 = Shape::Aabb(Aabb::new(p(-10.0, -1.0, -10.0), p(10.0, 0.0, 10.0)).unwrap());
    let crate0 = scene.shapes[1].shape;
    let crate1 = Shape::Obb(
        Obb::from_quaternion(
            p(0.0, 0.4, 0.0),
            sepax_shapes::math::Quaternion::new(1.0, 0.0, 0.0, 0.0),
            v(0.5, 0.5, 0.5),
        )
        .unwrap(),
    );
    let floor1 =
        Shape::Aabb(Aabb::from_center_half_extents(p(0.0, -0.5, 0.0), v(10.0, 0.5, 10.0)).unwrap());
    let crate3 = Shape::Obb(
        Obb::new(
            p(0.0, 0.5, 0.0),
            Matrix3::from_columns(&[v(0.0, 1.0, 0.0), v(-1.0, 0.0, 0.0), v(0.0, 0.0, 1.0)]),
            v(0.5, 0.5, 0.5),
        )
        .unwrap(),
    );
    let ball3 = Shape::Sphere(Sphere::new(p(0.0, 0.1, 0.0), 0.25).unwrap());
    let pole3 = Shape::Capsule(Capsule::new(p(3.0, 0.0, 0.0), p(3.0, 0.0, 2.0), 0.1).unwrap());
    let ramp3 = Shape::Triangle(
        Triangle::new(p(1.0, 0.0, 0.0), p(2.0, 0.0, 0.0), p(1.0, 1.0, 1.0)).unwrap(),
    );
    let floor3 = Shape::Aabb(Aabb::new(p(-9.0, -1.0, -10.0), p(11.0, 0.0, 10.0)).unwrap());

    let at = |k| scene.placements_at(k).unwrap();
    assert_eq!(at(0)[0], floor0);
    assert_eq!(at(0)[1], crate0);
    assert_eq!(&at(1)[..2], &[floor1, crate1]);
    // Frame 2 names nothing: frame 1's placements stay.
    assert_eq!(at(2), at(1));
    assert_eq!(&at(1)[2..], &at(0)[2..]);
    assert_eq!(at(3), vec![floor3, crate3, ball3, pole3, ramp3]);
    assert_eq!(scene.placements_at(4), None);

    let walked: Vec<(usize, Vec<Shape>)> = scene.placements().collect();
    assert_eq!(walked.len(), 4);
    for (k, shapes) in walked {
        assert_eq!(shapes, at(k), "frame {k}");
    }

    // The writer writes frames; they read back to the same scene and the same text.
    let written = write_scene(&scene);
    assert!(written.contains("\"frames\": ["), "{written}");
    let back = read_scene(&written).unwrap();
    assert_eq!(back, scene);
    assert_eq!(write_scene(&back), written);
}

#[test]
fn version_1_without_frames_is_unchanged() {
    let scene = read_scene(&format!("{{\"shapes\": [{SHAPES}]}}")).unwrap();
    assert!(scene.frames.is_empty());
    assert_eq!(scene.frame_count(), 1);
    assert!(!write_scene(&scene).contains("frames"));
    // An empty list is the same scene.
    assert_eq!(read_scene(&scene_with("[]")).unwrap(), scene);
    // Ids are compared after unescaping, as in `pairs`.
    let escaped = read_scene(&scene_with(
        r#"[{"poses": {"b\u0061ll": {"center": [1, 2, 3]}}}]"#,
    ))
    .unwrap();
    assert_eq!(escaped.frames[0].poses[0].0, 2);
}

#[test]
fn moved_coordinates_that_round_keep_the_size() {
    // 0.3 - 0.2 != 0.1 in binary floating point: a translated box must still pass.
    let text = r#"{"shapes": [{"id": "b", "type": "aabb", "min": [0, 0, 0], "max": [0.1, 0.1, 0.1]},
        {"id": "c", "type": "capsule", "p0": [0, 0, 0], "p1": [0.1, 0.2, 0.3], "radius": 1}],
        "frames": [{"poses": {"b": {"min": [0.2, 1e4, -7.7], "max": [0.3, 10000.1, -7.6]},
                              "c": {"p0": [0.3, 0.2, 0.1], "p1": [0, 0, 0]}}}]}"#;
    let scene = read_scene(text).unwrap();
    assert_eq!(scene.frames[0].poses.len(), 2);
}

/// (frames, the piece of the text where the error points and its occurrence, the message
/// after "line L, column C: ").
const BAD: &[(&str, (&str, usize), &str)] = &[
    (
        r#"{}"#,
        ("{}", 0),
        r#"top level: field "frames": expected an array of frame objects {"poses": {id: placement, ...}}, found {}"#,
    ),
    (
        r#"[3]"#,
        ("3", 0),
        r#"frame 1: expected a frame object {"poses": {id: placement, ...}}, found 3"#,
    ),
    (
        r#"[{"poses": {}}, {}]"#,
        ("{}]", 0),
        r#"frame 2: field "poses": expected an object of placements by shape id, found nothing (the field is missing)"#,
    ),
    (
        r#"[{"poses": {}, "time": 1}]"#,
        ("1}", 0),
        r#"frame 1: field "time": expected "poses" (the only field of a frame), found an unknown field"#,
    ),
    (
        r#"[{"poses": {}, "poses": {}}]"#,
        ("{}}", 0),
        r#"frame 1: field "poses": expected each field at most once, found a second "poses""#,
    ),
    (
        r#"[{"poses": []}]"#,
        ("[]", 0),
        r#"frame 1: field "poses": expected an object of placements by shape id, found []"#,
    ),
    (
        r#"[{"poses": {}}, {"poses": {"crat": {"center": [0, 0, 0]}}}]"#,
        (r#"{"center""#, 0),
        r#"frame 2 ("crat"): expected the id of a shape of the file, found "crat" (no shape has this id)"#,
    ),
    (
        r#"[{"poses": {"ball": {"center": [0, 0, 0]}, "b\u0061ll": {"center": [1, 0, 0]}}}]"#,
        (r#"{"center": [1"#, 0),
        r#"frame 1 ("ball"): expected each shape at most once in a frame, found a second placement of "ball""#,
    ),
    (
        r#"[{"poses": {"ball": [0, 0, 0]}}]"#,
        ("[0", 0),
        r#"frame 1 ("ball"): expected a placement object: one of "center" (the placement fields of a sphere), found [0, 0, 0]"#,
    ),
    (
        r#"[{"poses": {"ball": {"center": [0, 0, 0], "radius": 1}}}]"#,
        ("1}", 0),
        r#"frame 1 ("ball"): field "radius": expected one of "center" (the placement fields of a sphere), found a size (sizes do not change between frames)"#,
    ),
    (
        r#"[{"poses": {"crate": {"center": [0, 0, 0], "half_extents": [1, 1, 1], "rotation": [1, 0, 0, 0]}}}]"#,
        ("[1, 1", 0),
        r#"frame 1 ("crate"): field "half_extents": expected one of "center", "axes", "rotation" (the placement fields of an obb), found a size (sizes do not change between frames)"#,
    ),
    (
        r#"[{"poses": {"ball": {"p0": [0, 0, 0]}}}]"#,
        ("[0", 0),
        r#"frame 1 ("ball"): field "p0": expected one of "center" (the placement fields of a sphere), found a field that a placement of a sphere does not have"#,
    ),
    (
        r#"[{"poses": {"ball": {"center": [0, 0, 0], "type": "sphere"}}}]"#,
        (r#""sphere"}"#, 0),
        r#"frame 1 ("ball"): field "type": expected one of "center" (the placement fields of a sphere), found a field that a placement of a sphere does not have"#,
    ),
    (
        r#"[{"poses": {"ball": {"centre": [0, 0, 0]}}}]"#,
        ("[0", 0),
        r#"frame 1 ("ball"): field "centre": expected one of "center" (the placement fields of a sphere), found an unknown field"#,
    ),
    (
        r#"[{"poses": {"ball": {"center": [0, 0, 0], "center": [1, 0, 0]}}}]"#,
        ("[1", 0),
        r#"frame 1 ("ball"): field "center": expected each field at most once, found a second "center""#,
    ),
    (
        r#"[{"poses": {"ball": {}}}]"#,
        ("{}", 0),
        r#"frame 1 ("ball"): field "center": expected 3 numbers, found nothing (the field is missing)"#,
    ),
    (
        r#"[{"poses": {"ball": {"center": [0, "NaN", 0]}}}]"#,
        ("[0", 0),
        r#"frame 1 ("ball"): field "center": expected 3 numbers, found [0, "NaN", 0]"#,
    ),
    (
        r#"[{"poses": {"crate": {"center": [0, 0, 0]}}}]"#,
        (r#"{"center""#, 0),
        r#"frame 1 ("crate"): field "axes": expected 3 rows of 3 numbers (the box's local x, y, z axes), or "rotation": a unit quaternion [w, x, y, z], found nothing (the field is missing)"#,
    ),
    (
        r#"[{"poses": {"crate": {"center": [0, 0, 0], "rotation": [1, 0, 0, 0.1]}}}]"#,
        ("[1, 0, 0, 0.1]", 0),
        r#"frame 1 ("crate"): field "rotation": expected a unit quaternion [w, x, y, z] (| |q| - 1 | <= 0.0001), found [1, 0, 0, 0.1] (norm NORM)"#,
    ),
    (
        r#"[{"poses": {"crate": {"center": [0, 0, 0], "axes": [[1, 0, 0], [0, 1, 0], [0, 0.6, 0.8]]}}}]"#,
        ("[[1", 0),
        r#"frame 1 ("crate"): field "axes": expected orthonormal rows (| |a_i|^2 - 1 | <= 0.0001 and |a_i . a_j| <= 0.0001), found [[1, 0, 0], [0, 1, 0], [0, 0.6, 0.8]] (axes[1] . axes[2] = 0.6)"#,
    ),
    (
        r#"[{"poses": {"crate": {"center": [0, 0, 0], "axes": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "rotation": [1, 0, 0, 0]}}}]"#,
        ("[1, 0, 0, 0]", 0),
        r#"frame 1 ("crate"): field "rotation": expected exactly one of "axes" and "rotation", found both"#,
    ),
    (
        r#"[{"poses": {"floor": {"min": [-10, -1, -10], "max": [10, 1, 10]}}}]"#,
        ("[10, 1", 0),
        r#"frame 1 ("floor"): field "max": expected the shape's size (sizes do not change between frames: max[1] - min[1] within 0.0001 x max(1, largest coordinate) of the shape's), found [10, 1, 10] (max[1] - min[1] = 2, the shape's is 1)"#,
    ),
    (
        r#"[{"poses": {"floor": {"center": [0, 0, 0], "half_extents": [10, 0.5, 11]}}}]"#,
        ("[10, 0.5", 0),
        r#"frame 1 ("floor"): field "half_extents": expected the shape's size (sizes do not change between frames: max[2] - min[2] within 0.0001 x max(1, largest coordinate) of the shape's), found [10, 0.5, 11] (max[2] - min[2] = 22, the shape's is 20)"#,
    ),
    (
        r#"[{"poses": {"floor": {"min": [0, 0, 0], "center": [0, 0, 0]}}}]"#,
        ("[0, 0, 0]}", 0),
        r#"frame 1 ("floor"): field "center": expected either "min" and "max" or "center" and "half_extents", not both, found both forms"#,
    ),
    (
        r#"[{"poses": {"floor": {"min": [1, 0, 0], "max": [0, 1, 20]}}}]"#,
        ("[1, 0", 0),
        r#"frame 1 ("floor"): field "min": expected min <= max on every axis, found [1, 0, 0] (min[0] = 1 > max[0] = 0)"#,
    ),
    (
        r#"[{"poses": {"pole": {"p0": [0, 0, 0], "p1": [0, 3, 0]}}}]"#,
        ("[0, 3", 0),
        r#"frame 1 ("pole"): field "p1": expected the shape's size (sizes do not change between frames: |p1 - p0| within 0.0001 x max(1, largest coordinate) of the shape's), found [0, 3, 0] (|p1 - p0| = 3, the shape's is 2)"#,
    ),
    (
        r#"[{"poses": {"pole": {"p0": [0, 0, 0]}}}]"#,
        (r#"{"p0""#, 0),
        r#"frame 1 ("pole"): field "p1": expected 3 numbers, found nothing (the field is missing)"#,
    ),
    (
        r#"[{"poses": {"ramp": {"a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 2, 1]}}}]"#,
        ("[0, 2", 0),
        r#"frame 1 ("ramp"): field "c": expected the shape's size (sizes do not change between frames: |c - b| within 0.0001 x max(1, largest coordinate) of the shape's), found [0, 2, 1] (|c - b| = 2.4494898, the shape's is 1.7320508)"#,
    ),
    (
        r#"[{"poses": {"ball": {"center": [1e39, 0, 0]}}}]"#,
        ("[1e39", 0),
        r#"frame 1 ("ball"): field "center": expected 3 numbers within the PRECISION range (magnitude at most MAX), found [1e39, 0, 0]"#,
    ),
];

fn position_of(text: &str, piece: &str, n: usize) -> (usize, usize) {
    let at = text
        .match_indices(piece)
        .nth(n)
        .unwrap_or_else(|| panic!("{piece:?} not in {text:?}"))
        .0;
    let before = &text[..at];
    let line = 1 + before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, 1 + before[start..].chars().count())
}

#[test]
fn every_bad_frame_names_frame_id_and_field() {
    let norm = sepax_shapes::math::Quaternion::new(1.0, 0.0, 0.0, 0.1)
        .norm()
        .to_string();
    let precision = if cfg!(feature = "f64") { "f64" } else { "f32" };
    let mut wrong = Vec::new();
    // A number beyond the build's range.
    let big = if cfg!(feature = "f64") {
        "1e309"
    } else {
        "1e39"
    };
    for (frames, (piece, n), tail) in BAD {
        let frames = &frames.replace("1e39", big);
        let (piece, tail) = (&piece.replace("1e39", big), tail.replace("1e39", big));
        let text = scene_with(frames);
        // Pieces are looked for in the frames part, after the shapes.
        let offset = text.find("\"frames\"").unwrap();
        let (line, column) = {
            let (l, c) = position_of(&text[offset..], piece, *n);
            let (l0, c0) = position_of(&text, "\"frames\"", 0);
            if l == 1 {
                (l0, c0 + c - 1)
            } else {
                (l0 + l - 1, c)
            }
        };
        let tail = tail
            .replace("NORM", &norm)
            .replace("PRECISION", precision)
            .replace("MAX", &format!("{:e}", Real::MAX));
        // The f64 build computes the triangle's edges in f64 as well; its digits differ.
        if tail.contains("2.4494898") && cfg!(feature = "f64") {
            let e = read_scene(&text).unwrap_err().to_string();
            assert!(
                e.contains("field \"c\"") && e.contains("|c - b| = 2.449489742783178"),
                "{e}"
            );
            continue;
        }
        let want = format!("line {line}, column {column}: {tail}");
        match read_scene(&text) {
            Ok(_) => wrong.push(format!("accepted: {frames}")),
            Err(e) if e.to_string() != want => {
                wrong.push(format!("frames: {frames}\n  got:  {e}\n  want: {want}"))
            }
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn frames_times_shapes_is_capped() {
    // (1 + frames) x shapes <= MAX_FRAME_SHAPES: with 100,000 shapes, 999 frames. The product
    // is what a player's work grows with; the frame past the cap is refused as it is reached.
    let shapes = 100_000usize;
    let allowed = (MAX_FRAME_SHAPES / shapes as u64 - 1) as usize;
    assert_eq!(allowed, 999);
    let mut text = String::from("{\"shapes\": [");
    for i in 0..shapes {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(
            "{{\"id\":\"{i}\",\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":0}}"
        ));
    }
    text.push_str("], \"frames\": [");
    text.push_str(&vec!["{\"poses\":{}}"; allowed + 1].join(","));
    text.push_str("]}");
    let e = read_scene(&text).unwrap_err().to_string();
    assert!(
        e.ends_with(&format!(
            "frame 1000: expected at most 999 frames for 100000 shapes ((1 + frames) x max(1, shapes) <= {MAX_FRAME_SHAPES}), found frame 1000"
        )),
        "{e}"
    );
    // One frame fewer is accepted.
    let cut = text.rfind(",{").unwrap();
    let ok = format!("{}]}}", &text[..cut]);
    let scene: Scene = read_scene(&ok).unwrap();
    assert_eq!(scene.frames.len(), allowed);
}

#[test]
fn the_example_of_the_format_doc_reads() {
    let doc = include_str!("../../../../docs/scene-format.md");
    let start = doc.find("```json\n").unwrap() + "```json\n".len();
    let example = &doc[start..start + doc[start..].find("\n```").unwrap()];
    let scene = read_scene(example).unwrap();
    assert_eq!(scene.frame_count(), 3);
    let last = scene.placements_at(2).unwrap();
    let ball = scene.shapes.iter().position(|s| s.id == "ball").unwrap();
    assert_eq!(
        last[ball],
        Shape::Sphere(Sphere::new(p(0.0, 1.0, 0.0), 0.25).unwrap())
    );
}

#[test]
fn sizes_beyond_the_range_compare_without_overflow() {
    // Edges and extents longer than the largest finite number (in either build): the size rule
    // still compares them (a placement with the same sizes passes, another one does not).
    let big = Real::MAX * 0.9;
    let text = |z: Real| {
        format!(
            r#"{{"shapes": [{{"id": "t", "type": "triangle", "a": [0, 0, {big:e}], "b": [0, 0, {nbig:e}], "c": [0, 0, 0]}},
              {{"id": "b", "type": "aabb", "min": [{nbig:e}, 0, 0], "max": [{big:e}, 0, 0]}}],
              "frames": [{{"poses": {{"t": {{"a": [0, 0, {nbig:e}], "b": [0, 0, {big:e}], "c": [0, 0, 0]}},
                                     "b": {{"min": [{nbig:e}, 0, {z:e}], "max": [{big:e}, 0, {z:e}]}}}}}}]}}"#,
            nbig = -big
        )
    };
    let scene = read_scene(&text(1.0)).unwrap();
    assert_eq!(scene.frames[0].poses.len(), 2);
    // A mirrored triangle whose third vertex moved away: an edge changed.
    let moved = text(0.0).replace(
        &format!(r#""b": [0, 0, {big:e}], "c": [0, 0, 0]}}"#),
        &format!(r#""b": [0, 0, {big:e}], "c": [{:e}, 0, 0]}}"#, big),
    );
    let e = read_scene(&moved).unwrap_err().to_string();
    assert!(e.contains("frame 1 (\"t\"): field \"c\""), "{e}");
}
