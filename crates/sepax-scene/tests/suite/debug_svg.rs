//! The SVG writer as the world's DebugDraw: the document is well-formed and holds one element
//! per primitive per view, with the layer classes and tree depths of what the world drew.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_scene::svg::{render_debug, SvgDebugDraw, SvgOptions};
use sepax_shapes::math::{Isometry3, Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, Sphere, Triangle};
use sepax_world::debug::{Layer, Tree};
use sepax_world::{ColliderDesc, DebugDraw, DebugDrawOptions, Kind, Report, Serial, World};

fn shape(rng: &mut ChaCha8Rng) -> Shape {
    let mut p = || {
        Point3::new(
            rng.random_range(-0.6..0.6),
            rng.random_range(-0.6..0.6),
            0.0,
        )
    };
    let (a, b, c) = (p(), p(), p());
    match rng.random_range(0..5) {
        0 => Shape::Aabb(Aabb::new(a - Vector3::repeat(0.4), a + Vector3::repeat(0.4)).unwrap()),
        1 => Shape::Obb(
            Obb::from_rotation(
                a,
                UnitQuaternion::from_euler_angles(0.3, 0.7, 0.1),
                Vector3::new(0.5, 0.2, 0.3),
            )
            .unwrap(),
        ),
        2 => Shape::Sphere(Sphere::new(a, 0.4).unwrap()),
        3 => Shape::Capsule(Capsule::new(a, b, 0.2).unwrap()),
        _ => Shape::Triangle(Triangle::new(a, b, c + Vector3::z()).unwrap()),
    }
}

fn world() -> World {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut world = World::new();
    for i in 0..80 {
        let t = Vector3::new(
            rng.random_range(-4.0..4.0),
            rng.random_range(-4.0..4.0),
            rng.random_range(-4.0..4.0),
        );
        let kind = if i % 4 == 0 {
            Kind::Static
        } else {
            Kind::Dynamic
        };
        let d = ColliderDesc::new(shape(&mut rng))
            .pose(Isometry3::translation(t.x, t.y, t.z))
            .kind(kind)
            .report(Report::Manifolds);
        world.insert(d).unwrap();
    }
    world.update(&Serial);
    world
}

fn options() -> DebugDrawOptions {
    DebugDrawOptions {
        fat_aabbs: true,
        tree_nodes: true,
        max_depth: u32::MAX,
        separating_axes: true,
        labels: true,
        ..DebugDrawOptions::default()
    }
}

/// Elements of `doc` in view `view` whose class is `debug <class>`.
fn count(doc: &roxmltree::Document, view: &str, class: &str) -> usize {
    let want = format!("debug {class}");
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(want.as_str()))
        .filter(|n| {
            n.ancestors()
                .any(|a| a.attribute("data-view") == Some(view))
        })
        .count()
}

#[test]
fn world_drawn_as_svg() {
    let world = world();
    let mut svg = SvgDebugDraw::new();
    world.debug_draw(&mut svg, &options());
    let rec = svg.recorder();
    let text = svg.render(&SvgOptions {
        title: "debug <world> & \"co\"".to_owned(),
        ..SvgOptions::default()
    });
    assert!(!text.contains("NaN") && !text.contains("inf"));
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
    assert_eq!(title.text(), Some("debug <world> & \"co\""));
    let layers = [
        (Layer::Collider, "collider"),
        (Layer::FatAabb, "fat-aabb"),
        (Layer::ContactPoint, "contact"),
        (Layer::ContactNormal, "normal"),
        (Layer::SeparatingAxis, "axis"),
        (Layer::Label, "label"),
    ];
    for view in ["top", "side"] {
        for (layer, class) in layers {
            let n = rec.count(layer);
            assert_eq!(count(&doc, view, class), n, "{view} {class}");
        }
        assert_eq!(count(&doc, view, "collider"), world.len());
        assert!(count(&doc, view, "contact") > 0);
        assert!(count(&doc, view, "axis") > 0);
        // Tree nodes by depth, as recorded.
        for which in [Tree::Moving, Tree::Static] {
            let name = match which {
                Tree::Moving => "moving",
                Tree::Static => "static",
            };
            let mut want: BTreeMap<u32, usize> = BTreeMap::new();
            for p in &rec.primitives {
                if let Layer::TreeNode { tree, depth } = p.layer() {
                    if tree == which {
                        *want.entry(depth).or_default() += 1;
                    }
                }
            }
            let mut got: BTreeMap<u32, usize> = BTreeMap::new();
            for n in doc.descendants().filter(|n| {
                n.attribute("class") == Some("debug node")
                    && n.attribute("data-tree") == Some(name)
                    && n.ancestors()
                        .any(|a| a.attribute("data-view") == Some(view))
            }) {
                let d: u32 = n.attribute("data-depth").unwrap().parse().unwrap();
                *got.entry(d).or_default() += 1;
            }
            assert_eq!(got, want, "{view} {name}");
            assert!(!got.is_empty());
        }
    }
}

#[test]
fn odd_input_still_gives_a_valid_document() {
    // Nothing drawn; then non-finite and degenerate primitives: never NaN or inf in the text.
    let empty = render_debug(&[], &SvgOptions::default());
    roxmltree::Document::parse(&empty).unwrap();
    let mut svg = SvgDebugDraw::new();
    let paint = sepax_world::debug::Paint {
        color: sepax_world::debug::Color::rgb(1, 2, 3),
        layer: Layer::Label,
    };
    let far = Point3::new(Real::NAN, Real::INFINITY, 0.0);
    svg.line(Point3::origin(), far, paint);
    svg.sphere(Point3::origin(), -1.0, paint);
    svg.capsule(Point3::origin(), Point3::origin(), 0.0, paint);
    svg.point(far, paint);
    svg.text(Point3::origin(), "<\u{1}>", paint);
    let text = svg.render(&SvgOptions::default());
    assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, "top", "label"), 5);
}
