//! Version 2 of the scene format: collider attributes, `allowed` and `world`; exact round trips
//! and errors that name the shape and the field.

use sepax_scene::{read_scene, write_scene, Scene, SceneShape, SceneWorld};
use sepax_shapes::math::{Isometry3, Point3, Quaternion, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Capsule, Obb, Shape, Sphere};
use sepax_world::{ColliderDesc, Filter, Kind, OwnerId, Report};

fn desc(i: usize) -> ColliderDesc {
    let r = 0.1 + 0.01 * i as Real;
    let local = match i % 3 {
        0 => Shape::Sphere(Sphere::new(Point3::new(0.0, 0.1, 0.0), r).unwrap()),
        1 => Shape::Capsule(
            Capsule::new(Point3::new(0.0, 0.0, -0.3), Point3::new(0.0, 0.0, 0.3), r).unwrap(),
        ),
        _ => Shape::Obb(
            Obb::from_quaternion(
                Point3::new(0.2, 0.0, 0.0),
                UnitQuaternion::new_normalize(Quaternion::new(0.9, 0.1, 0.3, -0.2)).into_inner(),
                Vector3::new(r, 2.0 * r, 0.5),
            )
            .unwrap(),
        ),
    };
    let q = UnitQuaternion::new_normalize(Quaternion::new(
        1.0 + i as Real,
        0.3,
        -0.7 * i as Real,
        0.25,
    ));
    let pose = Isometry3::from_parts(Vector3::new(i as Real * 0.37, -1.5, 1e-7).into(), q);
    let mut d = ColliderDesc::new(local).pose(pose);
    d.kind = [Kind::Static, Kind::Kinematic, Kind::Dynamic][i % 3];
    d.report = [Report::BeginEnd, Report::Persist, Report::Manifolds][i % 3];
    d.filter = Filter {
        membership: 1 << (i % 64),
        mask: u64::MAX - i as u64,
        group: -(i as i32) + 3,
        owner: i
            .is_multiple_of(2)
            .then_some(OwnerId(u64::MAX - 7 * i as u64)),
    };
    d.user = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    d.sensor = i % 4 == 1;
    d.enabled = i % 5 != 3;
    d.ccd = i % 3 == 2;
    d
}

fn scene(n: usize) -> Scene {
    let shapes = (0..n)
        .map(|i| {
            let d = desc(i);
            SceneShape {
                id: format!("{}", (1u64 << 32) | i as u64),
                shape: d.shape.transformed(&d.pose).unwrap(),
                layer: None,
                mask: None,
                collider: Some(d),
            }
        })
        .collect();
    Scene {
        shapes,
        allowed: vec![(0, 1, false), (2, 0, true)],
        world: Some(SceneWorld {
            all_pairs: true,
            margin: 0.05,
        }),
        ..Scene::default()
    }
}

#[test]
fn version2_round_trips_exactly() {
    let s = scene(40);
    let text = write_scene(&s);
    assert!(text.contains("\"version\": 2"));
    let back = read_scene(&text).unwrap();
    assert_eq!(back, s);
    assert_eq!(write_scene(&back), text);
}

#[test]
fn scenes_without_colliders_stay_version1() {
    let mut s = scene(3);
    for shape in &mut s.shapes {
        shape.collider = None;
    }
    s.allowed.clear();
    s.world = None;
    let text = write_scene(&s);
    assert!(text.contains("\"version\": 1"));
    assert_eq!(read_scene(&text).unwrap(), s);
}

fn error(text: &str) -> String {
    read_scene(text).unwrap_err().to_string()
}

const SPHERE: &str = r#""id": "b", "type": "sphere", "center": [0, 0, 0], "radius": 1"#;

#[test]
fn version2_fields_are_checked() {
    let cases: [(&str, &str); 12] = [
        (
            r#"{"shapes": [{SPHERE, "collider": {}}]}"#,
            r#"shape 0 ("b"): field "collider": expected a file of version 2 ("version": 2) for this field, found a version-1 file"#,
        ),
        (
            r#"{"version": 1, "shapes": [], "allowed": []}"#,
            r#"top level: field "allowed": expected a file of version 2"#,
        ),
        (
            r#"{"version": 2, "shapes": [{SPHERE, "collider": {"kind": "wobbly"}}]}"#,
            r#"shape 0 ("b"): field "collider.kind": expected one of "static", "kinematic", "dynamic", found "wobbly""#,
        ),
        (
            r#"{"version": 2, "shapes": [{SPHERE, "collider": {"mask": 18446744073709551616}}]}"#,
            r#"field "collider.mask": expected an integer from 0 to 18446744073709551615, found 18446744073709551616"#,
        ),
        (
            r#"{"version": 2, "shapes": [{SPHERE, "collider": {"group": 1.5}}]}"#,
            r#"field "collider.group": expected an integer from -2147483648 to 2147483647, found 1.5"#,
        ),
        (
            r#"{"version": 2, "shapes": [{SPHERE, "collider": {"rotation": [1, 0, 0, 0.1]}}]}"#,
            r#"field "collider.rotation": expected a unit quaternion"#,
        ),
        (
            r#"{"version": 2, "shapes": [{SPHERE, "collider": {"position": [1e400, 0, 0]}}]}"#,
            r#"field "collider.position": expected 3 numbers within the"#,
        ),
        (
            r#"{"version": 2, "shapes": [{SPHERE, "collider": {"sensor": 1}}]}"#,
            r#"field "collider.sensor": expected true or false, found 1"#,
        ),
        (
            r#"{"version": 2, "shapes": [{SPHERE, "collider": {"colour": 1}}]}"#,
            r#"field "collider.colour": expected one of "position", "rotation""#,
        ),
        (
            r#"{"version": 2, "shapes": [{SPHERE, "collider": {"user": 1, "user": 2}}]}"#,
            r#"field "collider.user": expected each field at most once"#,
        ),
        (
            r#"{"version": 2, "shapes": [{SPHERE}], "allowed": [["b", "b", true]]}"#,
            r#"top level: field "allowed[0]": expected [id, id, true or false] with two different ids"#,
        ),
        (
            r#"{"version": 2, "shapes": [], "world": {"margin": -1}}"#,
            r#"top level: field "world.margin": expected a number >= 0, found -1"#,
        ),
    ];
    for (text, want) in cases {
        let got = error(&text.replace("SPHERE", SPHERE));
        assert!(got.contains(want), "{text}\n got: {got}\nwant: {want}");
    }
}

#[test]
fn collider_shapes_are_placed_by_their_pose() {
    let text = format!(
        r#"{{"version": 2, "shapes": [{{{SPHERE}, "collider": {{"position": [1, 2, 3], "kind": "static"}}}}]}}"#
    );
    let s = read_scene(&text).unwrap();
    let d = s.shapes[0].collider.as_ref().unwrap();
    assert_eq!(d.kind, Kind::Static);
    assert_eq!(
        s.shapes[0].shape,
        Shape::Sphere(Sphere::new(Point3::new(1.0, 2.0, 3.0), 1.0).unwrap())
    );
    assert_eq!(
        d.shape,
        Shape::Sphere(Sphere::new(Point3::origin(), 1.0).unwrap())
    );
}
