//! The picture of a frame of a moving scene (`render_drawing`): static shapes plain, touching
//! ones highlighted, new contacts marked, rays drawn, each view cropped to its content and a
//! legend of only what is drawn. `SEPAX_SVG_DIR=dir` keeps the pictures for a look.

use sepax_scene::svg::{
    render_drawing, render_svg, DrawRay, DrawShape, Style, StyledShape, SvgOptions,
};
use sepax_shapes::math::{Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, Sphere};

fn p(x: Real, y: Real, z: Real) -> Point3 {
    Point3::new(x, y, z)
}

fn aabb(min: Point3, max: Point3) -> Shape {
    Shape::Aabb(Aabb::new(min, max).unwrap())
}

/// A demo-like room: floor and four walls (static), boxes, balls and a capsule inside.
fn room() -> Vec<(String, Shape, Style)> {
    let mut out = vec![
        (
            "floor".to_owned(),
            aabb(p(-10.0, -1.0, -10.0), p(10.0, 0.0, 10.0)),
            Style::Static,
        ),
        (
            "wall-w".to_owned(),
            aabb(p(-10.0, 0.0, -10.0), p(-9.5, 3.0, 10.0)),
            Style::Static,
        ),
        (
            "wall-e".to_owned(),
            aabb(p(9.5, 0.0, -10.0), p(10.0, 3.0, 10.0)),
            Style::Static,
        ),
        (
            "wall-n".to_owned(),
            aabb(p(-10.0, 0.0, -10.0), p(10.0, 3.0, -9.5)),
            Style::Static,
        ),
        (
            "wall-s".to_owned(),
            aabb(p(-10.0, 0.0, 9.5), p(10.0, 3.0, 10.0)),
            Style::Static,
        ),
    ];
    let turn = |deg: Real| UnitQuaternion::from_axis_angle(&Vector3::y_axis(), deg.to_radians());
    let half = Vector3::new(0.5, 0.5, 0.5);
    let boxes = [
        ("crate-1", p(-3.0, 0.5, 2.0), 20.0, Style::Touching),
        ("crate-2", p(-2.2, 0.5, 2.4), 45.0, Style::Began),
        ("crate-3", p(4.0, 1.5, -3.0), 10.0, Style::Plain),
        ("crate-4", p(6.0, 0.5, 5.0), 70.0, Style::Plain),
    ];
    for (id, c, deg, style) in boxes {
        let obb = Obb::from_rotation(c, turn(deg), half).unwrap();
        out.push((id.to_owned(), Shape::Obb(obb), style));
    }
    out.push((
        "ball-1".to_owned(),
        Shape::Sphere(Sphere::new(p(1.0, 2.0, 0.0), 0.4).unwrap()),
        Style::Plain,
    ));
    out.push((
        "ball-2".to_owned(),
        Shape::Sphere(Sphere::new(p(1.6, 2.3, 0.2), 0.4).unwrap()),
        Style::Began,
    ));
    out.push((
        "pole".to_owned(),
        Shape::Capsule(Capsule::new(p(-6.0, 0.2, -5.0), p(-4.0, 1.0, -4.0), 0.2).unwrap()),
        Style::Touching,
    ));
    out
}

fn styled(shapes: &[(String, Shape, Style)]) -> Vec<StyledShape<'_>> {
    shapes
        .iter()
        .map(|(id, shape, style)| StyledShape {
            id,
            shape,
            style: *style,
        })
        .collect()
}

fn keep(name: &str, svg: &str) {
    if let Ok(dir) = std::env::var("SEPAX_SVG_DIR") {
        std::fs::write(std::path::Path::new(&dir).join(format!("{name}.svg")), svg).unwrap();
    }
}

fn has_class(n: &roxmltree::Node<'_, '_>, class: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|t| t == class))
}

fn count(doc: &roxmltree::Document<'_>, class: &str) -> usize {
    doc.descendants().filter(|n| has_class(n, class)).count()
}

/// The text of the legend's entries.
fn legend_text(doc: &roxmltree::Document<'_>) -> String {
    doc.descendants()
        .filter(|n| n.tag_name().name() == "text" && has_class(n, "legend"))
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// `(x, y, w, h)` of a view's plot rectangle.
fn plot(doc: &roxmltree::Document<'_>, view: &str) -> [f64; 4] {
    let g = doc
        .descendants()
        .find(|n| n.attribute("data-view") == Some(view))
        .unwrap();
    let r = g
        .descendants()
        .find(|n| has_class(n, "plot"))
        .expect("a plot rectangle");
    ["x", "y", "width", "height"].map(|a| r.attribute(a).unwrap().parse().unwrap())
}

/// The screen bounding box of the numbers in a view's shape outlines (polygons and circles).
fn content_box(doc: &roxmltree::Document<'_>, view: &str) -> [f64; 4] {
    let g = doc
        .descendants()
        .find(|n| n.attribute("data-view") == Some(view))
        .unwrap();
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for n in g.descendants().filter(|n| has_class(n, "shape")) {
        let mut pts = Vec::new();
        match n.tag_name().name() {
            "polygon" => {
                let v: Vec<f64> = n
                    .attribute("points")
                    .unwrap()
                    .split([' ', ','])
                    .map(|t| t.parse().unwrap())
                    .collect();
                pts.extend(v.chunks(2).map(|c| (c[0], c[1])));
            }
            "circle" => {
                let a = |k| n.attribute(k).unwrap().parse::<f64>().unwrap();
                let (cx, cy, r) = (a("cx"), a("cy"), a("r"));
                pts.extend([(cx - r, cy - r), (cx + r, cy + r)]);
            }
            _ => {}
        }
        for (x, y) in pts {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
    }
    [x0, y0, x1 - x0, y1 - y0]
}

#[test]
fn a_frame_of_a_room_is_drawn_as_a_person_wants_to_see_it() {
    let shapes = room();
    let draw = styled(&shapes);
    let rays = [
        DrawRay {
            label: "probe",
            from: p(-8.0, 1.0, 0.0),
            to: p(8.0, 1.0, 0.0),
            hit: Some(p(0.6, 1.0, 0.0)),
        },
        DrawRay {
            label: "miss",
            from: p(-8.0, 2.5, -8.0),
            to: p(-1.0, 2.5, -8.0),
            hit: None,
        },
    ];
    let options = SvgOptions {
        title: "frame 12 of a room".to_owned(),
        ..SvgOptions::default()
    };
    let svg = render_drawing(&draw, &[], &rays, &options);
    keep("room_frame", &svg);
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
    let doc = roxmltree::Document::parse(&svg).unwrap();

    // One outline per shape per view, with its style's classes.
    assert_eq!(count(&doc, "shape"), 2 * shapes.len());
    let with = |style: Style| 2 * shapes.iter().filter(|s| s.2 == style).count();
    assert_eq!(count(&doc, "static"), with(Style::Static));
    assert_eq!(count(&doc, "began"), with(Style::Began));
    assert_eq!(
        count(&doc, "hit"),
        with(Style::Touching) + with(Style::Began)
    );
    assert_eq!(count(&doc, "began-mark"), with(Style::Began));
    // Static shapes are never tinted as touching, whatever touches them.
    for n in doc.descendants().filter(|n| has_class(n, "static")) {
        assert!(!has_class(&n, "hit"));
    }
    // Rays: one group per view, a cross where the first one hit.
    assert_eq!(count(&doc, "ray"), 2 * rays.len());
    assert_eq!(count(&doc, "ray-hit"), 2 * 2);

    // The legend names exactly what is drawn: no witness marks here.
    let legend = legend_text(&doc);
    for drawn in [
        "touching shape",
        "contact began this frame",
        "other shape",
        "static shape",
        "ray or segment",
        "ray hit",
    ] {
        assert!(legend.contains(drawn), "{drawn:?} missing from {legend:?}");
    }
    for absent in ["witness axis", "interval along the axis"] {
        assert!(!legend.contains(absent), "{absent:?} in {legend:?}");
    }

    // Each view is cropped to its content: the room's outlines fill the plot (up to the margin),
    // so the SIDE view (y from -1 to 3) is much lower than the TOP view (z from -10 to 10).
    let (top, side) = (plot(&doc, "top"), plot(&doc, "side"));
    assert!(side[3] < 0.5 * top[3], "top {top:?}, side {side:?}");
    for view in ["top", "side"] {
        let (r, c) = (plot(&doc, view), content_box(&doc, view));
        assert!(c[2] >= 0.85 * r[2], "{view}: content {c:?} in plot {r:?}");
        // The SIDE view keeps a readable minimum height; the TOP view is cropped to its content.
        if view == "top" {
            assert!(c[3] >= 0.85 * r[3], "{view}: content {c:?} in plot {r:?}");
        }
    }
}

#[test]
fn render_svg_legend_lists_only_what_is_drawn_and_views_are_cropped() {
    // `sepax check --svg` and `clash --svg` without witnesses: no witness swatches, and no
    // "intersecting" swatch when nothing is highlighted.
    let shapes = room();
    let draw: Vec<DrawShape<'_>> = shapes
        .iter()
        .map(|(id, shape, style)| DrawShape {
            id,
            shape,
            highlighted: *style == Style::Touching,
        })
        .collect();
    let svg = render_svg(&draw, &[], &SvgOptions::default());
    keep("room_check", &svg);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let legend = legend_text(&doc);
    assert!(legend.contains("touching shape") && legend.contains("other shape"));
    assert!(!legend.contains("witness axis"), "{legend}");
    assert!(
        !legend.contains("static") && !legend.contains("began"),
        "{legend}"
    );
    assert_eq!(count(&doc, "hit"), 2 * 2);
    let (top, side) = (plot(&doc, "top"), plot(&doc, "side"));
    assert!(side[3] < 0.5 * top[3], "top {top:?}, side {side:?}");

    let plain: Vec<DrawShape<'_>> = draw
        .iter()
        .map(|d| DrawShape {
            highlighted: false,
            ..*d
        })
        .collect();
    let doc_text = render_svg(&plain, &[], &SvgOptions::default());
    let doc = roxmltree::Document::parse(&doc_text).unwrap();
    assert_eq!(legend_text(&doc), "other shape");
}

#[test]
fn a_lone_ray_and_an_empty_drawing_render() {
    let rays = [DrawRay {
        label: "a<b",
        from: p(0.0, 0.0, 0.0),
        to: p(0.0, 0.0, 0.0),
        hit: Some(p(0.0, 0.0, 0.0)),
    }];
    for (rays, name) in [(&rays[..], "lone_ray"), (&[][..], "empty_drawing")] {
        let svg = render_drawing(&[], &[], rays, &SvgOptions::default());
        keep(name, &svg);
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(count(&doc, "ray"), 2 * rays.len());
        if rays.is_empty() {
            assert_eq!(legend_text(&doc), "");
        } else {
            assert!(svg.contains("data-label=\"a&lt;b\""));
        }
    }
}

/// The whole path a player takes: read a scene with frames, test every pair on each frame's
/// placements, style the shapes (static ones plain, touching highlighted, a pair that began this
/// frame marked) and draw the frame. The marks are exactly the pairs new since the frame before.
#[test]
fn frames_of_a_scene_file_are_drawn_with_their_new_contacts() {
    use sepax_narrowphase::intersect::intersects_shapes;
    use std::collections::BTreeSet;

    let scene = sepax_scene::read_scene(
        r#"{"shapes": [
        {"id": "floor", "type": "aabb", "min": [-5, -1, -5], "max": [5, 0, 5]},
        {"id": "crate", "type": "obb", "center": [0, 2, 0], "half_extents": [0.5, 0.5, 0.5],
         "rotation": [1, 0, 0, 0]},
        {"id": "ball", "type": "sphere", "center": [3, 0.5, 0], "radius": 0.5}
      ], "frames": [
        {"poses": {"crate": {"center": [0, 1, 0], "rotation": [1, 0, 0, 0]}}},
        {"poses": {"crate": {"center": [0, 0.45, 0], "rotation": [0.9238795, 0, 0.3826834, 0]}}},
        {"poses": {"ball": {"center": [0.9, 0.5, 0]}}},
        {"poses": {"ball": {"center": [3, 0.5, 0]}}}
      ]}"#,
    )
    .unwrap();
    let statics = [true, false, false];
    let mut before: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut began_per_frame = Vec::new();
    for (frame, placed) in scene.placements() {
        let mut touching = BTreeSet::new();
        for i in 0..placed.len() {
            for j in i + 1..placed.len() {
                if intersects_shapes(&placed[i], &placed[j]) {
                    touching.insert((i, j));
                }
            }
        }
        let began: Vec<(usize, usize)> = touching.difference(&before).copied().collect();
        let style = |i: usize| {
            if statics[i] {
                Style::Static
            } else if began.iter().any(|&(a, b)| a == i || b == i) {
                Style::Began
            } else if touching.iter().any(|&(a, b)| a == i || b == i) {
                Style::Touching
            } else {
                Style::Plain
            }
        };
        let draw: Vec<StyledShape<'_>> = scene
            .shapes
            .iter()
            .zip(&placed)
            .enumerate()
            .map(|(i, (s, shape))| StyledShape {
                id: &s.id,
                shape,
                style: style(i),
            })
            .collect();
        let options = SvgOptions {
            title: format!("frame {frame}"),
            ..SvgOptions::default()
        };
        let svg = render_drawing(&draw, &[], &[], &options);
        keep(&format!("frames_{frame}"), &svg);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let marked: BTreeSet<&str> = doc
            .descendants()
            .filter(|n| has_class(n, "began-mark"))
            .filter_map(|n| n.attribute("data-id"))
            .collect();
        let want: BTreeSet<&str> = began
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .filter(|&i| !statics[i])
            .map(|i| scene.shapes[i].id.as_str())
            .collect();
        assert_eq!(marked, want, "frame {frame}");
        assert_eq!(count(&doc, "static"), 2, "frame {frame}");
        began_per_frame.push(began);
        before = touching;
    }
    // The ball rests on the floor from frame 0 (every touching pair begins there), the crate
    // lands on the floor in frame 2, the ball rolls into it in frame 3 and away again.
    assert_eq!(
        began_per_frame,
        [vec![(0, 2)], vec![], vec![(0, 1)], vec![(1, 2)], vec![]]
    );
}
