//! Valid scene files: every shape form of version 1, pairs, layers, and the forgiving details
//! (field order, whitespace, byte-order mark).

use sepax_scene::{read_scene, read_scene_file, Scene, SceneError};
use sepax_shapes::math::{Matrix3, Point3, Quaternion, Real, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, ShapeKind, Sphere, Triangle};

/// The example of ARCHITECTURE.md ("Scene file (version 1)").
const ARCHITECTURE_EXAMPLE: &str = r#"{
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
}"#;

fn p(x: Real, y: Real, z: Real) -> Point3 {
    Point3::new(x, y, z)
}

fn v(x: Real, y: Real, z: Real) -> Vector3 {
    Vector3::new(x, y, z)
}

#[test]
fn architecture_example() {
    let scene = read_scene(ARCHITECTURE_EXAMPLE).unwrap();
    let ids: Vec<&str> = scene.shapes.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["floor", "crate", "drum", "ball", "pole"]);
    let kinds: Vec<ShapeKind> = scene.shapes.iter().map(|s| s.shape.kind()).collect();
    assert_eq!(
        kinds,
        [
            ShapeKind::Aabb,
            ShapeKind::Obb,
            ShapeKind::Obb,
            ShapeKind::Sphere,
            ShapeKind::Capsule
        ]
    );
    assert_eq!(
        scene.shapes[0].shape,
        Shape::Aabb(Aabb::new(p(-10.0, -1.0, -10.0), p(10.0, 0.0, 10.0)).unwrap())
    );
    assert_eq!(
        scene.shapes[1].shape,
        Shape::Obb(Obb::new(p(0.0, 0.5, 0.0), Matrix3::identity(), v(0.5, 0.5, 0.5)).unwrap())
    );
    assert_eq!(
        scene.shapes[2].shape,
        Shape::Obb(
            Obb::from_quaternion(
                p(2.0, 0.5, 0.0),
                Quaternion::new(1.0, 0.0, 0.0, 0.0),
                v(0.4, 0.6, 0.4)
            )
            .unwrap()
        )
    );
    assert_eq!(
        scene.shapes[3].shape,
        Shape::Sphere(Sphere::new(p(0.0, 2.0, 0.0), 0.25).unwrap())
    );
    assert_eq!(
        scene.shapes[4].shape,
        Shape::Capsule(Capsule::new(p(3.0, 0.0, 0.0), p(3.0, 2.0, 0.0), 0.1).unwrap())
    );
    // Pairs keep the order of the list and the order of each pair as written.
    assert_eq!(scene.pairs, Some(vec![(1, 0), (3, 1)]));
    assert!(scene
        .shapes
        .iter()
        .all(|s| s.layer.is_none() && s.mask.is_none()));
}

#[test]
fn axes_are_rows_of_the_file() {
    // A box turned 90 degrees about z: its local x axis points along world y.
    let text = r#"{"shapes": [{"id": "b", "type": "obb", "center": [1, 2, 3],
        "half_extents": [3, 2, 1], "axes": [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]}]}"#;
    let scene = read_scene(text).unwrap();
    let Shape::Obb(b) = scene.shapes[0].shape else {
        panic!("not an obb")
    };
    assert_eq!(b.axis(0), v(0.0, 1.0, 0.0));
    assert_eq!(b.axis(1), v(-1.0, 0.0, 0.0));
    assert_eq!(b.axis(2), v(0.0, 0.0, 1.0));
    // Its longest side (half-extent 3 along local x) lies along world y.
    let bounds = b.world_aabb();
    assert!(bounds.max().y - bounds.min().y >= 6.0);
    assert!(bounds.max().x - bounds.min().x < 4.01);
}

#[test]
fn rotation_is_w_x_y_z() {
    // 90 degrees about z: w = cos 45°, z = sin 45°.
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let text = format!(
        r#"{{"shapes": [{{"id": "b", "type": "obb", "center": [0, 0, 0],
        "half_extents": [1, 1, 1], "rotation": [{h}, 0, 0, {h}]}}]}}"#
    );
    let scene = read_scene(&text).unwrap();
    let Shape::Obb(b) = scene.shapes[0].shape else {
        panic!("not an obb")
    };
    assert!((b.axis(0) - v(0.0, 1.0, 0.0)).norm() < 1e-6);
    assert!((b.axis(1) - v(-1.0, 0.0, 0.0)).norm() < 1e-6);
}

#[test]
fn aabb_from_center_and_half_extents() {
    let text = r#"{"shapes": [{"id": "b", "type": "aabb", "center": [1, 2, 3], "half_extents": [0.5, 0, 2]}]}"#;
    let scene = read_scene(text).unwrap();
    assert_eq!(
        scene.shapes[0].shape,
        Shape::Aabb(Aabb::from_center_half_extents(p(1.0, 2.0, 3.0), v(0.5, 0.0, 2.0)).unwrap())
    );
}

#[test]
fn triangle_layers_masks_and_degenerate_sizes() {
    let text = r#"{"shapes": [
        {"id": "t", "type": "triangle", "a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 1, 0],
         "layer": 4294967295, "mask": 0},
        {"id": "point", "type": "sphere", "center": [0, 0, 0], "radius": 0, "layer": 1},
        {"id": "needle", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 0, 0],
         "rotation": [1, 0, 0, 0], "mask": 7},
        {"id": "segment", "type": "capsule", "p0": [0, 0, 0], "p1": [0, 0, 0], "radius": 0}
    ]}"#;
    let scene = read_scene(text).unwrap();
    assert_eq!(
        scene.shapes[0].shape,
        Shape::Triangle(
            Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)).unwrap()
        )
    );
    assert_eq!(scene.shapes[0].layer, Some(u32::MAX));
    assert_eq!(scene.shapes[0].mask, Some(0));
    assert_eq!(scene.shapes[1].layer, Some(1));
    assert_eq!(scene.shapes[1].mask, None);
    assert_eq!(scene.shapes[2].mask, Some(7));
    assert_eq!(scene.pairs, None);
}

#[test]
fn empty_scene_version_and_empty_pairs() {
    assert_eq!(read_scene(r#"{"shapes": []}"#).unwrap(), Scene::default());
    let s = read_scene(r#"{"version": 1, "shapes": [], "pairs": []}"#).unwrap();
    assert_eq!(s.shapes.len(), 0);
    assert_eq!(s.pairs, Some(vec![]));
}

#[test]
fn field_order_whitespace_and_bom_do_not_matter() {
    let a = read_scene(
        r#"{"pairs": [["b", "a"]], "shapes": [{"radius": 1, "center": [0, 0, 0], "type": "sphere", "id": "a"},
        {"type": "sphere", "id": "b", "center": [1, 0, 0], "radius": 1}], "version": 1}"#,
    )
    .unwrap();
    let b = read_scene(
        "\u{feff}\r\n{ \"shapes\" :\t[ {\"id\":\"a\",\"type\":\"sphere\",\"center\":[0,0,0],\"radius\":1},\r\n\
         {\"id\":\"b\",\"type\":\"sphere\",\"center\":[1,0,0],\"radius\":1} ] ,\"pairs\":[[\"b\",\"a\"]] }\r\n",
    )
    .unwrap();
    assert_eq!(a, b);
    assert_eq!(a.pairs, Some(vec![(1, 0)]));
}

#[test]
fn ids_with_escapes_are_decoded() {
    let text = r#"{"shapes": [{"id": "caf\u00e9 \"1\"", "type": "sphere", "center": [0, 0, 0], "radius": 1},
        {"id": "café \"2\"", "type": "sphere", "center": [0, 0, 0], "radius": 1}],
        "pairs": [["café \"1\"", "caf\u00e9 \"2\""]]}"#;
    let scene = read_scene(text).unwrap();
    assert_eq!(scene.shapes[0].id, "café \"1\"");
    assert_eq!(scene.pairs, Some(vec![(0, 1)]));
    // The same id spelled two ways is a duplicate.
    let dup = r#"{"shapes": [{"id": "\u0061", "type": "sphere", "center": [0, 0, 0], "radius": 1},
        {"id": "a", "type": "sphere", "center": [0, 0, 0], "radius": 1}]}"#;
    let e = read_scene(dup).unwrap_err().to_string();
    assert!(e.contains("shape 1 (\"a\"): field \"id\""), "{e}");
}

#[test]
fn axes_within_the_tolerance_are_kept_as_written() {
    // Five significant digits: not exactly orthonormal, but within AXES_TOLERANCE.
    let text = r#"{"shapes": [{"id": "b", "type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1],
        "axes": [[0.70711, 0.70711, 0], [-0.70711, 0.70711, 0], [0, 0, 1]]}]}"#;
    let scene = read_scene(text).unwrap();
    let Shape::Obb(b) = scene.shapes[0].shape else {
        panic!("not an obb")
    };
    let typed: Real = "0.70711".parse().unwrap();
    assert_eq!(b.axis(0), v(typed, typed, 0.0));
    assert!(b.axes_error() > 0.0);
}

#[test]
fn files() {
    let dir = std::env::temp_dir().join(format!("sepax-scene-read-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("scene.json");
    std::fs::write(&path, ARCHITECTURE_EXAMPLE).unwrap();
    assert_eq!(
        read_scene_file(&path).unwrap(),
        read_scene(ARCHITECTURE_EXAMPLE).unwrap()
    );

    // Invalid UTF-8 on line 2.
    std::fs::write(&path, b"{\"shapes\": [\n  {\"id\": \"\xff\"}]}").unwrap();
    let e = read_scene_file(&path).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2, column 11: invalid UTF-8 (a scene file is UTF-8 JSON)"
    );

    let missing = dir.join("missing.json");
    let e = read_scene_file(&missing).unwrap_err();
    assert!(matches!(e, SceneError::Io { .. }));
    assert!(e.to_string().starts_with("cannot read "), "{e}");
    assert!(e.to_string().contains("missing.json"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
