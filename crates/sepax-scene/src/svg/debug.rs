//! The SVG writer as a [`DebugDraw`]: primitives are collected, then drawn in the two views of
//! the scene pictures (TOP and SIDE, one scale, cropped to what was drawn).
//!
//! Each primitive is one element per view with the class `debug` and its layer's class
//! (`collider`, `fat-aabb`, `node`, `contact`, `normal`, `axis`, `ccd`, `label`), and
//! `data-depth` on tree nodes (`data-tree`: `moving` or `static`). Boxes and triangles are the
//! hull of their projected corners, spheres circles, capsules stadiums (as the scene
//! pictures), lines segments, points small filled circles.

use core::fmt::Write as _;

use sepax_shapes::math::{Point3, Real};
use sepax_shapes::{Aabb, Capsule, Obb, Shape, Sphere, Triangle};
use sepax_world::debug::{Color, DebugDraw, DebugRecorder, Layer, Paint, Primitive, Tree};

use super::geom::{self, P2};
use super::outline::{stadium_path, Outline};
use super::panel::{self, Panel};
use super::text::{escape, px};
use super::{SvgOptions, FONT, MARKER_R, MAX_WIDTH, MIN_WIDTH, PAD};

/// Collects debug primitives and renders them as an SVG picture ([`SvgDebugDraw::render`]).
#[derive(Debug, Clone, Default)]
pub struct SvgDebugDraw {
    recorder: DebugRecorder,
}

impl SvgDebugDraw {
    /// An empty drawing.
    pub fn new() -> Self {
        Self::default()
    }

    /// What was drawn so far.
    pub fn recorder(&self) -> &DebugRecorder {
        &self.recorder
    }

    /// The picture of everything drawn so far.
    pub fn render(&self, options: &SvgOptions) -> String {
        render_debug(&self.recorder.primitives, options)
    }
}

impl DebugDraw for SvgDebugDraw {
    fn line(&mut self, a: Point3, b: Point3, paint: Paint) {
        self.recorder.line(a, b, paint);
    }
    fn sphere(&mut self, centre: Point3, radius: Real, paint: Paint) {
        self.recorder.sphere(centre, radius, paint);
    }
    fn point(&mut self, at: Point3, paint: Paint) {
        self.recorder.point(at, paint);
    }
    fn text(&mut self, at: Point3, text: &str, paint: Paint) {
        self.recorder.text(at, text, paint);
    }
    fn aabb(&mut self, aabb: &Aabb, paint: Paint) {
        self.recorder.aabb(aabb, paint);
    }
    fn obb(&mut self, obb: &Obb, paint: Paint) {
        self.recorder.obb(obb, paint);
    }
    fn triangle(&mut self, vertices: [Point3; 3], paint: Paint) {
        self.recorder.triangle(vertices, paint);
    }
    fn capsule(&mut self, a: Point3, b: Point3, radius: Real, paint: Paint) {
        self.recorder.capsule(a, b, radius, paint);
    }
}

/// The class of a layer's elements.
fn class(layer: Layer) -> &'static str {
    match layer {
        Layer::Collider => "collider",
        Layer::FatAabb => "fat-aabb",
        Layer::TreeNode { .. } => "node",
        Layer::ContactPoint => "contact",
        Layer::ContactNormal => "normal",
        Layer::SeparatingAxis => "axis",
        Layer::Ccd => "ccd",
        Layer::Label => "label",
    }
}

fn colour(c: Color) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
}

/// Renders `primitives` in the TOP and SIDE views (see the module docs). Non-finite
/// coordinates are never written (the layout falls back to a unit box; `px` writes 0).
pub fn render_debug(primitives: &[Primitive], options: &SvgOptions) -> String {
    let width = f64::from(options.width.clamp(MIN_WIDTH, MAX_WIDTH));
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in primitives {
        let (a, b) = p.bounds();
        let (a, b) = (geom::point(&a), geom::point(&b));
        for k in 0..3 {
            lo[k] = lo[k].min(a[k]);
            hi[k] = hi[k].max(b[k]);
        }
    }
    let panels = panel::layout_box(lo, hi, width);
    let bottom = panels[0].y0 + panels[0].h.max(panels[1].h) + PAD;
    let height = (bottom + PAD).ceil();
    let mut out = String::with_capacity(4096 + 400 * primitives.len());
    w!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"{FONT}\">\n\
         <title>{t}</title>\n\
         <desc>sepax debug drawing: {n} primitives; TOP view looking down -y, SIDE view looking \
         along -z, common scale.</desc>\n<defs>\n",
        w = px(width),
        h = px(height),
        t = escape(&options.title),
        n = primitives.len(),
    );
    for p in &panels {
        w!(
            out,
            "<clipPath id=\"sepax-debug-clip-{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\n",
            p.view.name(),
            px(p.x0),
            px(p.y0),
            px(p.w),
            px(p.h)
        );
    }
    out.push_str("</defs>\n");
    w!(
        out,
        "<text class=\"title\" x=\"{}\" y=\"{}\" font-size=\"18\" font-weight=\"bold\" fill=\"#111\">{}</text>\n",
        px(PAD),
        px(PAD + 18.0),
        escape(&options.title)
    );
    for p in &panels {
        draw_view(&mut out, p, primitives);
    }
    out.push_str("</svg>\n");
    out
}

fn draw_view(out: &mut String, p: &Panel, primitives: &[Primitive]) {
    w!(out, "<g class=\"view\" data-view=\"{}\">\n", p.view.name());
    w!(
        out,
        "<rect class=\"plot\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#ffffff\" stroke=\"#b0b0b0\"/>\n",
        px(p.x0),
        px(p.y0),
        px(p.w),
        px(p.h)
    );
    panel::draw_grid(out, p);
    w!(
        out,
        "<g clip-path=\"url(#sepax-debug-clip-{})\">\n",
        p.view.name()
    );
    for prim in primitives {
        draw_primitive(out, p, prim);
    }
    out.push_str("</g>\n</g>\n");
}

/// The attributes every element of `paint` carries.
fn attrs(paint: &Paint, filled: bool) -> String {
    let c = colour(paint.color);
    let opacity = f64::from(paint.color.a) / 255.0;
    let mut s = format!("class=\"debug {}\"", class(paint.layer));
    if let Layer::TreeNode { tree, depth } = paint.layer {
        let tree = match tree {
            Tree::Moving => "moving",
            Tree::Static => "static",
        };
        let _ = write!(s, " data-tree=\"{tree}\" data-depth=\"{depth}\"");
    }
    let fill = if filled {
        format!("fill=\"{c}\"")
    } else {
        "fill=\"none\"".to_owned()
    };
    let _ = write!(
        s,
        " stroke=\"{c}\" stroke-opacity=\"{}\" stroke-width=\"1.2\" stroke-linejoin=\"round\" {fill}",
        trim(opacity)
    );
    s
}

fn trim(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// The shape a solid primitive outlines (`None` for lines, points and text, and for a
/// primitive whose numbers make no valid shape: then it is drawn as a marker at its bounds).
fn solid(prim: &Primitive) -> Option<Shape> {
    match prim {
        Primitive::Aabb { aabb, .. } => Some(Shape::Aabb(*aabb)),
        Primitive::Obb { obb, .. } => Some(Shape::Obb(*obb)),
        Primitive::Sphere { centre, radius, .. } => {
            Sphere::new(*centre, *radius).ok().map(Shape::Sphere)
        }
        Primitive::Capsule { a, b, radius, .. } => {
            Capsule::new(*a, *b, *radius).ok().map(Shape::Capsule)
        }
        Primitive::Triangle { vertices: v, .. } => {
            Triangle::new(v[0], v[1], v[2]).ok().map(Shape::Triangle)
        }
        _ => None,
    }
}

fn draw_primitive(out: &mut String, p: &Panel, prim: &Primitive) {
    let paint = prim.paint();
    match prim {
        Primitive::Line { a, b, .. } => {
            let (a, b) = (p.world(geom::point(a)), p.world(geom::point(b)));
            w!(
                out,
                "<line {} x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n",
                attrs(&paint, false),
                px(a.x),
                px(a.y),
                px(b.x),
                px(b.y)
            );
        }
        Primitive::Point { at, .. } => marker(out, &paint, p.world(geom::point(at))),
        Primitive::Text { at, text, .. } => {
            let q = p.world(geom::point(at));
            w!(
                out,
                "<text class=\"debug {}\" x=\"{}\" y=\"{}\" fill=\"{}\">{}</text>\n",
                class(paint.layer),
                px(q.x),
                px(q.y),
                colour(paint.color),
                escape(text)
            );
        }
        _ => match solid(prim) {
            Some(shape) => outline(out, &paint, &Outline::of(&shape, p)),
            None => {
                let (a, b) = prim.bounds();
                let c = Point3::from((a.coords + b.coords) * 0.5);
                marker(out, &paint, p.world(geom::point(&c)));
            }
        },
    }
}

fn marker(out: &mut String, paint: &Paint, c: P2) {
    w!(
        out,
        "<circle {} cx=\"{}\" cy=\"{}\" r=\"{MARKER_R}\"/>\n",
        attrs(paint, true),
        px(c.x),
        px(c.y)
    );
}

fn outline(out: &mut String, paint: &Paint, o: &Outline) {
    match o {
        Outline::Polygon(pts) => {
            let list: Vec<String> = pts
                .iter()
                .map(|q| format!("{},{}", px(q.x), px(q.y)))
                .collect();
            w!(
                out,
                "<polygon {} points=\"{}\"/>\n",
                attrs(paint, false),
                list.join(" ")
            );
        }
        Outline::Circle(c, r) => {
            w!(
                out,
                "<circle {} cx=\"{}\" cy=\"{}\" r=\"{}\"/>\n",
                attrs(paint, false),
                px(c.x),
                px(c.y),
                px(*r)
            );
        }
        Outline::Stadium(a, b, r) => {
            w!(
                out,
                "<path {} d=\"{}\"/>\n",
                attrs(paint, false),
                stadium_path(*a, *b, *r)
            );
        }
        Outline::Marker(c) => marker(out, paint, *c),
    }
}
