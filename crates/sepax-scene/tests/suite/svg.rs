//! The SVG picture writer: the document parses, every shape is outlined once per view with its
//! id, highlights and witnesses are marked, text is escaped, and no coordinate is NaN or
//! infinite, whatever the scene (empty, degenerate, huge, random).
//!
//! Set `SEPAX_SVG_SAMPLE=/path/file.svg` to also write the sample scene's picture there, and
//! `SEPAX_SVG_DIR=/some/dir` to write every picture these tests check into that folder.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_narrowphase::intersect::{explain, intersects_shapes, BoxWitness, Classification};
use sepax_scene::svg::{render_svg, DrawShape, DrawWitness, SvgOptions};
use sepax_shapes::math::{Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, Sphere, Triangle};

fn p(x: Real, y: Real, z: Real) -> Point3 {
    Point3::new(x, y, z)
}

fn v(x: Real, y: Real, z: Real) -> Vector3 {
    Vector3::new(x, y, z)
}

fn obb(c: Point3, axis: Vector3, degrees: Real, h: Vector3) -> Shape {
    let r = UnitQuaternion::from_scaled_axis(axis.normalize() * degrees.to_radians());
    Shape::Obb(Obb::from_rotation(c, r, h).unwrap())
}

/// The sample scene: a floor, rotated boxes (some overlapping), a sphere, a capsule, a
/// triangle and a point box.
fn sample_scene() -> Vec<(&'static str, Shape)> {
    vec![
        (
            "floor",
            Shape::Aabb(Aabb::new(p(-6.0, -1.0, -4.0), p(6.0, 0.0, 4.0)).unwrap()),
        ),
        (
            "crate",
            obb(p(-3.0, 0.5, 0.0), v(0.0, 1.0, 0.0), 30.0, v(0.6, 0.6, 0.6)),
        ),
        (
            "tilted",
            obb(p(0.0, 1.3, 0.5), v(1.0, 1.0, 0.0), 40.0, v(1.0, 0.4, 0.7)),
        ),
        (
            "leaning",
            obb(p(1.5, 1.6, 0.9), v(0.0, 0.0, 1.0), 25.0, v(0.5, 0.9, 0.3)),
        ),
        (
            "far box",
            obb(p(4.0, 2.0, -2.2), v(0.0, 1.0, 1.0), 35.0, v(0.5, 0.5, 0.5)),
        ),
        (
            "ball",
            Shape::Sphere(Sphere::new(p(-1.0, 2.8, -2.0), 0.6).unwrap()),
        ),
        (
            "pole",
            Shape::Capsule(Capsule::new(p(3.5, 0.3, 2.5), p(5.0, 2.6, 1.5), 0.3).unwrap()),
        ),
        (
            "fin",
            Shape::Triangle(
                Triangle::new(p(-5.0, 1.5, 2.0), p(-3.5, 3.2, 3.0), p(-4.6, 2.6, 0.6)).unwrap(),
            ),
        ),
        (
            "pin",
            Shape::Aabb(Aabb::new(p(5.5, 3.0, 3.5), p(5.5, 3.0, 3.5)).unwrap()),
        ),
    ]
}

fn highlights(shapes: &[(&str, Shape)]) -> Vec<bool> {
    let mut hit = vec![false; shapes.len()];
    for i in 0..shapes.len() {
        for j in i + 1..shapes.len() {
            if intersects_shapes(&shapes[i].1, &shapes[j].1) {
                hit[i] = true;
                hit[j] = true;
            }
        }
    }
    hit
}

fn witness(a: &Shape, b: &Shape) -> BoxWitness {
    match (a, b) {
        (Shape::Aabb(a), Shape::Aabb(b)) => explain(a, b),
        (Shape::Aabb(a), Shape::Obb(b)) => explain(a, b),
        (Shape::Obb(a), Shape::Aabb(b)) => explain(a, b),
        (Shape::Obb(a), Shape::Obb(b)) => explain(a, b),
        _ => panic!("not a box pair"),
    }
}

fn draw<'a>(shapes: &'a [(&'a str, Shape)], hit: &[bool]) -> Vec<DrawShape<'a>> {
    shapes
        .iter()
        .zip(hit)
        .map(|((id, shape), &highlighted)| DrawShape {
            id,
            shape,
            highlighted,
        })
        .collect()
}

fn has_class(n: &roxmltree::Node<'_, '_>, class: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|t| t == class))
}

/// Parses the document and checks what every picture must satisfy; returns it for more checks.
fn check<'s>(name: &str, svg: &'s str, shapes: &[DrawShape<'_>]) -> roxmltree::Document<'s> {
    if let Ok(dir) = std::env::var("SEPAX_SVG_DIR") {
        std::fs::write(std::path::Path::new(&dir).join(format!("{name}.svg")), svg).unwrap();
    }
    assert!(!svg.contains("NaN"), "NaN in the output");
    assert!(!svg.contains("inf"), "inf in the output");
    let doc = roxmltree::Document::parse(svg).expect("the SVG parses as XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    for attr in ["width", "height"] {
        let x: f64 = root.attribute(attr).unwrap().parse().unwrap();
        assert!(x.is_finite() && x > 0.0);
    }
    let shape_elems: Vec<_> = doc
        .descendants()
        .filter(|n| has_class(n, "shape"))
        .collect();
    assert_eq!(shape_elems.len(), 2 * shapes.len());
    for s in shapes {
        let mine: Vec<_> = shape_elems
            .iter()
            .filter(|n| n.attribute("data-id") == Some(s.id))
            .collect();
        let expected = 2 * shapes.iter().filter(|t| t.id == s.id).count();
        assert_eq!(mine.len(), expected, "shape {:?}", s.id);
        // One per view.
        for view in ["top", "side"] {
            assert!(mine.iter().any(|n| n
                .ancestors()
                .any(|a| a.attribute("data-view") == Some(view))));
        }
        assert!(mine.iter().all(|n| has_class(n, "hit") == s.highlighted));
    }
    let hits = doc.descendants().filter(|n| has_class(n, "hit")).count();
    assert_eq!(hits, 2 * shapes.iter().filter(|s| s.highlighted).count());
    // Every numeric attribute is finite, and every outline has a visible size.
    for n in doc.descendants().filter(|n| n.is_element()) {
        for a in n.attributes() {
            if matches!(
                a.name(),
                "x" | "y" | "x1" | "y1" | "x2" | "y2" | "cx" | "cy" | "r"
            ) {
                let x: f64 = a.value().parse().unwrap();
                assert!(x.is_finite());
            }
            if matches!(a.name(), "points" | "d") {
                for tok in a
                    .value()
                    .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'e'))
                {
                    if !tok.is_empty() && tok != "e" {
                        let _: f64 = tok.parse().unwrap_or_else(|_| panic!("bad number {tok:?}"));
                    }
                }
            }
        }
    }
    for n in &shape_elems {
        match n.tag_name().name() {
            "circle" => assert!(n.attribute("r").unwrap().parse::<f64>().unwrap() >= 2.0),
            "polygon" => {
                let pts: Vec<f64> = n
                    .attribute("points")
                    .unwrap()
                    .split([' ', ','])
                    .map(|t| t.parse().unwrap())
                    .collect();
                assert!(pts.len() >= 4, "a polygon has at least two points");
            }
            "path" => assert!(n.attribute("d").unwrap().starts_with('M')),
            other => panic!("unexpected shape element {other}"),
        }
    }
    doc
}

#[test]
fn sample_scene_picture() {
    let scene = sample_scene();
    let hit = highlights(&scene);
    assert!(hit.iter().any(|&h| h) && hit.iter().any(|&h| !h));
    let shapes = draw(&scene, &hit);
    let idx = |id: &str| scene.iter().position(|(n, _)| *n == id).unwrap();
    let pairs = [
        ("tilted", "far box"),
        ("tilted", "leaning"),
        ("crate", "floor"),
    ];
    let witnesses: Vec<DrawWitness> = pairs
        .iter()
        .map(|&(a, b)| DrawWitness {
            a: idx(a),
            b: idx(b),
            witness: witness(&scene[idx(a)].1, &scene[idx(b)].1),
        })
        .collect();
    assert_eq!(
        witnesses[0].witness.classification,
        Classification::Separated
    );
    assert_eq!(
        witnesses[1].witness.classification,
        Classification::Overlapping
    );
    let options = SvgOptions {
        title: "Sample scene: 2 explained pairs".to_owned(),
        ..SvgOptions::default()
    };
    let svg = render_svg(&shapes, &witnesses, &options);
    if let Ok(path) = std::env::var("SEPAX_SVG_SAMPLE") {
        std::fs::write(path, &svg).unwrap();
    }
    let doc = check("sample", &svg, &shapes);
    let root = doc.root_element();
    assert_eq!(root.attribute("width"), Some("1200"));
    let witness_elems = doc
        .descendants()
        .filter(|n| has_class(n, "witness"))
        .count();
    assert!(witness_elems >= 3 * witnesses.len());
    // Each witness has its axis, two intervals and a label in at least one view.
    for (class, at_least) in [
        ("axis", 3),
        ("interval-a", 3),
        ("interval-b", 3),
        ("label", 3),
    ] {
        let n = doc
            .descendants()
            .filter(|n| has_class(n, "witness") && has_class(n, class))
            .count();
        assert!(n >= at_least, "{class}: {n}");
    }
    // The legend spells each witness out, with its axis.
    let text: String = doc
        .descendants()
        .filter(|n| n.is_text())
        .map(|n| n.text().unwrap())
        .collect();
    for w in &witnesses {
        assert!(text.contains(&w.witness.axis.to_string()));
    }
    assert!(text.contains("Sample scene"));
    assert!(text.contains("TOP") && text.contains("SIDE"));
}

#[test]
fn no_witness_no_witness_elements() {
    let scene = sample_scene();
    let hit = highlights(&scene);
    let shapes = draw(&scene, &hit);
    let svg = render_svg(&shapes, &[], &SvgOptions::default());
    let doc = check("sample_no_witness", &svg, &shapes);
    assert_eq!(
        doc.descendants()
            .filter(|n| has_class(n, "witness"))
            .count(),
        0
    );
}

#[test]
fn ids_and_title_are_escaped() {
    let a = Shape::Sphere(Sphere::new(p(0.0, 0.0, 0.0), 1.0).unwrap());
    let b = Shape::Aabb(Aabb::new(p(0.5, 0.5, 0.5), p(2.0, 2.0, 2.0)).unwrap());
    let c = Shape::Aabb(Aabb::new(p(3.0, 0.0, 0.0), p(4.0, 1.0, 1.0)).unwrap());
    let ids = ["a<&\"'>b", "]]><!--x-->", "&amp;"];
    let shapes = vec![
        DrawShape {
            id: ids[0],
            shape: &a,
            highlighted: true,
        },
        DrawShape {
            id: ids[1],
            shape: &b,
            highlighted: true,
        },
        DrawShape {
            id: ids[2],
            shape: &c,
            highlighted: false,
        },
    ];
    let wit = witness(&b, &c);
    let options = SvgOptions {
        width: 800,
        title: "<script>alert('x & y')</script>".to_owned(),
    };
    let svg = render_svg(
        &shapes,
        &[DrawWitness {
            a: 1,
            b: 2,
            witness: wit,
        }],
        &options,
    );
    assert!(!svg.contains("<script"));
    let doc = check("escaped", &svg, &shapes);
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("title"))
        .unwrap()
        .text()
        .unwrap();
    assert_eq!(title, options.title);
}

#[test]
fn empty_scene_renders() {
    let svg = render_svg(&[], &[], &SvgOptions::default());
    let doc = check("empty", &svg, &[]);
    assert!(doc.descendants().any(|n| has_class(&n, "frame")));
    assert!(doc
        .descendants()
        .any(|n| has_class(&n, "title") && n.text() == Some("sepax scene")));
    // Out-of-range witness indices are tolerated (listed, not drawn).
    let w = witness(
        &Shape::Aabb(Aabb::new(p(0.0, 0.0, 0.0), p(1.0, 1.0, 1.0)).unwrap()),
        &Shape::Aabb(Aabb::new(p(2.0, 0.0, 0.0), p(3.0, 1.0, 1.0)).unwrap()),
    );
    let svg = render_svg(
        &[],
        &[DrawWitness {
            a: 0,
            b: 7,
            witness: w,
        }],
        &SvgOptions::default(),
    );
    let doc = check("empty_bad_witness", &svg, &[]);
    assert_eq!(
        doc.descendants()
            .filter(|n| has_class(n, "witness"))
            .count(),
        0
    );
    assert!(svg.contains("out of range"));
}

#[test]
fn degenerate_shapes_stay_visible() {
    let scene: Vec<(&str, Shape)> = vec![
        (
            "point box",
            Shape::Aabb(Aabb::new(p(1.0, 1.0, 1.0), p(1.0, 1.0, 1.0)).unwrap()),
        ),
        (
            "flat box",
            Shape::Aabb(Aabb::new(p(-2.0, 0.0, -2.0), p(2.0, 0.0, 2.0)).unwrap()),
        ),
        (
            "needle",
            obb(p(0.0, 1.0, 0.0), v(1.0, 0.0, 0.0), 30.0, v(0.0, 0.0, 1.5)),
        ),
        (
            "flat obb",
            obb(p(0.5, 2.0, 0.5), v(0.0, 0.0, 1.0), 20.0, v(1.0, 0.0, 0.5)),
        ),
        (
            "dot",
            Shape::Sphere(Sphere::new(p(-1.0, 1.0, 0.0), 0.0).unwrap()),
        ),
        (
            "wire",
            Shape::Capsule(Capsule::new(p(0.0, 0.0, 0.0), p(0.0, 2.0, 0.0), 0.0).unwrap()),
        ),
        (
            "bead",
            Shape::Capsule(Capsule::new(p(2.0, 2.0, 2.0), p(2.0, 2.0, 2.0), 0.0).unwrap()),
        ),
        (
            "ball capsule",
            Shape::Capsule(Capsule::new(p(-2.0, 2.0, 2.0), p(-2.0, 2.0, 2.0), 0.4).unwrap()),
        ),
        (
            "sliver",
            Shape::Triangle(
                Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 1.0, 1.0), p(2.0, 2.0, 2.0)).unwrap(),
            ),
        ),
        (
            "speck",
            Shape::Triangle(
                Triangle::new(p(-1.0, -1.0, 1.0), p(-1.0, -1.0, 1.0), p(-1.0, -1.0, 1.0)).unwrap(),
            ),
        ),
    ];
    let hit: Vec<bool> = (0..scene.len()).map(|i| i % 2 == 0).collect();
    let shapes = draw(&scene, &hit);
    let svg = render_svg(&shapes, &[], &SvgOptions::default());
    check("degenerate", &svg, &shapes);

    // Everything at one point.
    let one = [(
        "a",
        Shape::Aabb(Aabb::new(p(3.0, 3.0, 3.0), p(3.0, 3.0, 3.0)).unwrap()),
    )];
    let shapes = draw(&one, &[true]);
    check(
        "one_point",
        &render_svg(&shapes, &[], &SvgOptions::default()),
        &shapes,
    );
}

#[test]
fn witness_axis_along_a_view_direction_is_skipped_there() {
    // Boxes stacked along y: the witness axis is y, which the TOP view looks along.
    let a = Shape::Aabb(Aabb::new(p(0.0, 0.0, 0.0), p(1.0, 1.0, 1.0)).unwrap());
    let b = Shape::Aabb(Aabb::new(p(0.0, 2.0, 0.0), p(1.0, 3.0, 1.0)).unwrap());
    let wit = witness(&a, &b);
    assert_eq!(wit.direction, Vector3::y());
    let shapes = vec![
        DrawShape {
            id: "a",
            shape: &a,
            highlighted: false,
        },
        DrawShape {
            id: "b",
            shape: &b,
            highlighted: false,
        },
    ];
    let svg = render_svg(
        &shapes,
        &[DrawWitness {
            a: 0,
            b: 1,
            witness: wit,
        }],
        &SvgOptions::default(),
    );
    let doc = check("axis_along_view", &svg, &shapes);
    let axes_in = |view: &str| {
        doc.descendants()
            .filter(|n| has_class(n, "witness") && has_class(n, "axis"))
            .filter(|n| {
                n.ancestors()
                    .any(|a| a.attribute("data-view") == Some(view))
            })
            .count()
    };
    assert_eq!(axes_in("top"), 0);
    assert_eq!(axes_in("side"), 1);
    assert!(svg.contains("axis not drawn in top"));
}

#[test]
fn extreme_widths_and_coordinates() {
    let big: Real = 1e30;
    let scene: Vec<(&str, Shape)> = vec![
        (
            "far",
            Shape::Aabb(Aabb::new(p(big, big, big), p(big, big, big)).unwrap()),
        ),
        (
            "near",
            Shape::Sphere(Sphere::new(p(-big, 0.0, 0.0), 1e-20).unwrap()),
        ),
        (
            "huge",
            obb(p(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0), 45.0, v(big, big, big)),
        ),
        (
            "tiny",
            Shape::Aabb(Aabb::new(p(0.0, 0.0, 0.0), p(1e-30, 1e-30, 1e-30)).unwrap()),
        ),
    ];
    let hit = vec![true, false, true, false];
    let shapes = draw(&scene, &hit);
    for width in [0, 1, 400, 1200, u32::MAX] {
        let options = SvgOptions {
            width,
            title: String::new(),
        };
        check(
            &format!("huge_w{width}"),
            &render_svg(&shapes, &[], &options),
            &shapes,
        );
    }
    // A tiny scene.
    let tiny: Vec<(&str, Shape)> = vec![
        (
            "t1",
            Shape::Aabb(Aabb::new(p(0.0, 0.0, 0.0), p(1e-6, 2e-6, 1e-6)).unwrap()),
        ),
        (
            "t2",
            Shape::Sphere(Sphere::new(p(3e-6, 0.0, 0.0), 1e-6).unwrap()),
        ),
    ];
    let shapes = draw(&tiny, &[false, false]);
    check(
        "tiny",
        &render_svg(&shapes, &[], &SvgOptions::default()),
        &shapes,
    );
}

#[test]
fn random_scenes() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5e9a);
    for round in 0..60 {
        let n = rng.random_range(0..12);
        let mut scene: Vec<(String, Shape)> = Vec::new();
        for i in 0..n {
            let scale: Real = [1e-3, 1.0, 1e3][rng.random_range(0..3)];
            let mut q = || {
                p(
                    rng.random_range(-5.0..5.0),
                    rng.random_range(-5.0..5.0),
                    rng.random_range(-5.0..5.0),
                ) * scale
            };
            let (a, b) = (q(), q());
            let c = q();
            let shape = match i % 5 {
                0 => Shape::Aabb(Aabb::new(a.inf(&b), a.sup(&b)).unwrap()),
                1 => {
                    let r = UnitQuaternion::from_euler_angles(a.x, b.y, c.z);
                    Shape::Obb(Obb::from_rotation(a, r, (b.coords - c.coords).abs() * 0.3).unwrap())
                }
                2 => Shape::Sphere(Sphere::new(a, (b.x.abs() * 0.2).min(2.0 * scale)).unwrap()),
                3 => Shape::Capsule(Capsule::new(a, b, (c.x.abs() * 0.1).min(scale)).unwrap()),
                _ => Shape::Triangle(Triangle::new(a, b, c).unwrap()),
            };
            scene.push((format!("s{i}<{}>", i % 3), shape));
        }
        let hit: Vec<bool> = (0..scene.len()).map(|_| rng.random_bool(0.4)).collect();
        let shapes: Vec<DrawShape<'_>> = scene
            .iter()
            .zip(&hit)
            .map(|((id, shape), &highlighted)| DrawShape {
                id,
                shape,
                highlighted,
            })
            .collect();
        let boxes: Vec<usize> = (0..scene.len())
            .filter(|&i| matches!(scene[i].1, Shape::Aabb(_) | Shape::Obb(_)))
            .collect();
        let mut witnesses = Vec::new();
        for w in boxes.windows(2) {
            witnesses.push(DrawWitness {
                a: w[0],
                b: w[1],
                witness: witness(&scene[w[0]].1, &scene[w[1]].1),
            });
        }
        let width = rng.random_range(300..2000);
        let svg = render_svg(
            &shapes,
            &witnesses,
            &SvgOptions {
                width,
                title: "random".into(),
            },
        );
        let doc = check(&format!("random{round}"), &svg, &shapes);
        let drawn = doc
            .descendants()
            .filter(|n| has_class(n, "witness"))
            .count();
        assert_eq!(drawn == 0, witnesses.is_empty());
    }
}
