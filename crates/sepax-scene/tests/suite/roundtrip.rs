//! `read_scene(write_scene(s)) == s` exactly, for random scenes of every shape type with numbers
//! of every magnitude (subnormals, huge, negative zero), ids with escapes and any Unicode,
//! layers, masks, pairs and frames (shapes moved and turned).

use proptest::prelude::*;
use sepax_scene::{read_scene, write_scene, Frame, Scene, SceneShape};
use sepax_shapes::math::{Matrix3, Point3, Quaternion, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, Sphere, Triangle};

/// Finite numbers: any bit pattern (every magnitude, subnormals, -0) or a "typed" decimal.
fn real() -> impl Strategy<Value = Real> {
    prop_oneof![
        any::<u64>()
            .prop_map(|b| Real::from_bits(b as _))
            .prop_filter("finite", |x| x.is_finite()),
        (-100_000i32..100_000).prop_map(|k| k as Real / 100.0),
        (-1e6 as Real..1e6 as Real),
    ]
}

fn point() -> impl Strategy<Value = Point3> {
    (real(), real(), real()).prop_map(|(x, y, z)| Point3::new(x, y, z))
}

fn size() -> impl Strategy<Value = Real> {
    real().prop_map(|x| x.abs())
}

fn sizes() -> impl Strategy<Value = Vector3> {
    (size(), size(), size()).prop_map(|(x, y, z)| Vector3::new(x, y, z))
}

/// A shape, when the checked constructor accepts the drawn numbers (huge centres with huge sizes
/// overflow and are refused; those draws are skipped).
fn shape() -> impl Strategy<Value = Shape> {
    let unit = (
        -1.0 as Real..1.0,
        -1.0 as Real..1.0,
        -1.0 as Real..1.0,
        -1.0 as Real..1.0,
    );
    prop_oneof![
        (point(), point()).prop_filter_map("aabb", |(a, b)| {
            Aabb::new(a.inf(&b), a.sup(&b)).ok().map(Shape::Aabb)
        }),
        (point(), sizes(), unit.clone()).prop_filter_map("obb", |(c, h, (w, x, y, z))| {
            let q = Quaternion::new(w, x, y, z);
            (q.norm() > 0.1).then_some(())?;
            Obb::from_rotation(c, UnitQuaternion::from_quaternion(q), h)
                .ok()
                .map(Shape::Obb)
        }),
        // Axes a little off orthonormal (within the tolerance), kept exactly as given.
        (point(), sizes(), unit, -5e-5 as Real..5e-5).prop_filter_map(
            "obb axes",
            |(c, h, (w, x, y, z), e)| {
                let q = Quaternion::new(w, x, y, z);
                (q.norm() > 0.1).then_some(())?;
                let mut m: Matrix3 = UnitQuaternion::from_quaternion(q)
                    .to_rotation_matrix()
                    .into_inner();
                m[(0, 1)] += e;
                Obb::new(c, m, h).ok().map(Shape::Obb)
            }
        ),
        (point(), size()).prop_filter_map("sphere", |(c, r)| {
            Sphere::new(c, r).ok().map(Shape::Sphere)
        }),
        (point(), point(), size()).prop_filter_map("capsule", |(a, b, r)| {
            Capsule::new(a, b, r).ok().map(Shape::Capsule)
        }),
        (point(), point(), point()).prop_filter_map("triangle", |(a, b, c)| {
            Triangle::new(a, b, c).ok().map(Shape::Triangle)
        }),
    ]
}

fn scene() -> impl Strategy<Value = Scene> {
    let entry = (
        prop::collection::vec(any::<char>(), 0..6),
        shape(),
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u32>()),
    );
    let unit = (
        -1.0 as Real..1.0,
        -1.0 as Real..1.0,
        -1.0 as Real..1.0,
        -1.0 as Real..1.0,
    );
    let pose = (0usize..12, point(), unit, any::<bool>());
    (
        prop::collection::vec(entry, 0..12),
        prop::option::of(prop::collection::vec((0usize..12, 0usize..12), 0..10)),
        prop::collection::vec(prop::collection::vec(pose, 0..5), 0..4),
    )
        .prop_map(|(entries, pairs, frames)| {
            let shapes: Vec<SceneShape> = entries
                .into_iter()
                .enumerate()
                .map(|(i, (name, shape, layer, mask))| SceneShape {
                    // Unique and non-empty: the index ends every id.
                    id: format!("{}#{i}", name.into_iter().collect::<String>()),
                    shape,
                    layer,
                    mask,
                    collider: None,
                })
                .collect();
            let n = shapes.len();
            let pairs = pairs.map(|list| {
                let mut seen = std::collections::HashSet::new();
                list.into_iter()
                    .filter(|&(a, b)| a < n && b < n && a != b && seen.insert((a.min(b), a.max(b))))
                    .collect()
            });
            let frames = frames
                .into_iter()
                .map(|poses| {
                    let mut poses: Vec<(usize, Shape)> = poses
                        .into_iter()
                        .filter(|p| p.0 < n)
                        .filter_map(|(i, to, q, flip)| {
                            Some((i, moved(&shapes[i].shape, to, q, flip)?))
                        })
                        .collect();
                    poses.sort_by_key(|p| p.0);
                    poses.dedup_by_key(|p| p.0);
                    Frame { poses }
                })
                .collect();
            Scene {
                shapes,
                pairs,
                frames,
                ..Scene::default()
            }
        })
}

/// The shape at a new place: translated to `to` (its first point there) and, for OBBs, turned
/// by `q`; capsules may swap their ends and triangles be mirrored. Sizes are unchanged (up to rounding,
/// which the reader's size rule allows). `None` when the moved shape would overflow.
fn moved(shape: &Shape, to: Point3, q: (Real, Real, Real, Real), flip: bool) -> Option<Shape> {
    let by = |p: Point3, origin: Point3| p + (to - origin);
    match shape {
        Shape::Aabb(b) => Aabb::new(to, by(b.max(), b.min())).ok().map(Shape::Aabb),
        Shape::Obb(b) => {
            let q = Quaternion::new(q.0, q.1, q.2, q.3);
            (q.norm() > 0.1).then_some(())?;
            let rotation = UnitQuaternion::from_quaternion(q);
            Obb::from_rotation(to, rotation, b.half_extents())
                .ok()
                .map(Shape::Obb)
        }
        Shape::Sphere(s) => Sphere::new(to, s.radius()).ok().map(Shape::Sphere),
        Shape::Capsule(c) => {
            let (p0, p1) = if flip {
                (c.p1(), c.p0())
            } else {
                (c.p0(), c.p1())
            };
            Capsule::new(to, by(p1, p0), c.radius())
                .ok()
                .map(Shape::Capsule)
        }
        Shape::Triangle(t) => {
            // Flipped: mirrored through `a` (every edge keeps its length).
            let k: Real = if flip { -1.0 } else { 1.0 };
            let (a, b, c) = (t.a(), t.b(), t.c());
            Triangle::new(to, to + (b - a) * k, to + (c - a) * k)
                .ok()
                .map(Shape::Triangle)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn read_of_write_is_the_same_scene(scene in scene()) {
        let text = write_scene(&scene);
        let back = read_scene(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &scene);
        // Bit for bit (PartialEq would let -0 pass for 0): the text is a fixed point.
        prop_assert_eq!(write_scene(&back), text);
    }
}

#[test]
fn written_text_looks_like_the_format() {
    let scene = read_scene(
        r#"{"shapes": [
            {"id": "floor", "type": "aabb", "min": [-10, -1, -10], "max": [10, 0, 10], "layer": 1},
            {"id": "crate", "type": "obb", "center": [0, 0.5, 0], "half_extents": [0.5, 0.5, 0.5],
             "axes": [[0, 1, 0], [-1, 0, 0], [0, 0, 1]], "mask": 3},
            {"id": "ball", "type": "sphere", "center": [0, 2, 0], "radius": 0.25},
            {"id": "pole", "type": "capsule", "p0": [3, 0, 0], "p1": [3, 2, 0], "radius": 1e-30},
            {"id": "tri", "type": "triangle", "a": [0, 0, 0], "b": [1e20, 0, 0], "c": [0, 1, 0]}
        ], "pairs": [["crate", "floor"], ["ball", "crate"]]}"#,
    )
    .unwrap();
    let want = r#"{
  "version": 1,
  "shapes": [
    {"id": "floor", "type": "aabb", "min": [-10, -1, -10], "max": [10, 0, 10], "layer": 1},
    {"id": "crate", "type": "obb", "center": [0, 0.5, 0], "half_extents": [0.5, 0.5, 0.5], "axes": [[0, 1, 0], [-1, 0, 0], [0, 0, 1]], "mask": 3},
    {"id": "ball", "type": "sphere", "center": [0, 2, 0], "radius": 0.25},
    {"id": "pole", "type": "capsule", "p0": [3, 0, 0], "p1": [3, 2, 0], "radius": 1e-30},
    {"id": "tri", "type": "triangle", "a": [0, 0, 0], "b": [1e20, 0, 0], "c": [0, 1, 0]}
  ],
  "pairs": [
    ["crate", "floor"],
    ["ball", "crate"]
  ]
}
"#;
    assert_eq!(write_scene(&scene), want);
    assert_eq!(
        write_scene(&Scene::default()),
        "{\n  \"version\": 1,\n  \"shapes\": []\n}\n"
    );
}

#[test]
fn a_pair_index_outside_the_shapes_does_not_read_back() {
    let mut scene = read_scene(
        r#"{"shapes": [{"id": "a", "type": "sphere", "center": [0, 0, 0], "radius": 1}]}"#,
    )
    .unwrap();
    scene.pairs = Some(vec![(0, 5)]);
    let text = write_scene(&scene);
    let e = read_scene(&text).unwrap_err().to_string();
    assert!(
        e.contains("pair 0: expected ids of shapes of the file, found \"<no shape 5>\""),
        "{e}"
    );
}
