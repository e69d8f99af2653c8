//! A shape's outline in one view: the convex hull of a polytope's corners, a circle, a stadium,
//! or a marker when the projection is too small to see.

use core::fmt::Write as _;

use sepax_shapes::Shape;

use super::geom::{self, centre, convex_hull, polytope_points, wide, P2};
use super::panel::Panel;
use super::text::{escape, px};
use super::{Style, StyledShape, HIT, MARKER_R, MIN_VISIBLE, OTHER, STATIC};

/// A shape's outline in one view, in screen px.
pub(super) enum Outline {
    Polygon(Vec<P2>),
    Circle(P2, f64),
    Stadium(P2, P2, f64),
    Marker(P2),
}

impl Outline {
    pub(super) fn of(shape: &Shape, p: &Panel) -> Outline {
        if let Some(pts) = polytope_points(shape) {
            let hull = convex_hull(pts.into_iter().map(|q| p.world(q)).collect());
            let (x0, y0, x1, y1) = bbox(&hull);
            if hull.is_empty() {
                return Outline::Marker(p.world(centre(shape)));
            }
            if (x1 - x0).max(y1 - y0) < MIN_VISIBLE {
                return Outline::Marker(P2::new(0.5 * (x0 + x1), 0.5 * (y0 + y1)));
            }
            return Outline::Polygon(hull);
        }
        match shape {
            Shape::Sphere(s) => {
                let c = p.world(geom::point(&s.center()));
                let r = wide(s.radius()) * p.scale;
                if 2.0 * r < MIN_VISIBLE {
                    Outline::Marker(c)
                } else {
                    Outline::Circle(c, r)
                }
            }
            Shape::Capsule(c) => {
                let a = p.world(geom::point(&c.p0()));
                let b = p.world(geom::point(&c.p1()));
                let r = wide(c.radius()) * p.scale;
                let len = b.sub(a).norm();
                if len + 2.0 * r < MIN_VISIBLE {
                    Outline::Marker(a.add(b).scale(0.5))
                } else if len < 0.5 {
                    Outline::Circle(a.add(b).scale(0.5), r)
                } else {
                    Outline::Stadium(a, b, r)
                }
            }
            // Polytopes were handled above.
            _ => Outline::Marker(p.world(centre(shape))),
        }
    }

    /// Screen bounding box `(x0, y0, x1, y1)`.
    pub(super) fn bbox(&self) -> (f64, f64, f64, f64) {
        match self {
            Outline::Polygon(pts) => bbox(pts),
            Outline::Circle(c, r) => (c.x - r, c.y - r, c.x + r, c.y + r),
            Outline::Stadium(a, b, r) => {
                let (x0, y0, x1, y1) = bbox(&[*a, *b]);
                (x0 - r, y0 - r, x1 + r, y1 + r)
            }
            Outline::Marker(c) => (
                c.x - MARKER_R,
                c.y - MARKER_R,
                c.x + MARKER_R,
                c.y + MARKER_R,
            ),
        }
    }

    /// Writes the one element that outlines the shape.
    pub(super) fn write(&self, out: &mut String, s: &StyledShape<'_>) {
        let (class, stroke, fill, width) = match s.style {
            Style::Static => (
                "shape static",
                STATIC,
                format!("fill=\"{STATIC}\" fill-opacity=\"0.10\""),
                1.0,
            ),
            Style::Plain => ("shape", OTHER, "fill=\"none\"".to_owned(), 1.5),
            Style::Touching => (
                "shape hit",
                HIT,
                format!("fill=\"{HIT}\" fill-opacity=\"0.16\""),
                2.0,
            ),
            Style::Began => (
                "shape hit began",
                HIT,
                format!("fill=\"{HIT}\" fill-opacity=\"0.30\""),
                2.5,
            ),
        };
        let marker_fill = format!("fill=\"{stroke}\"");
        let id = escape(s.id);
        let common = |fill: &str| {
            format!(
                "class=\"{class}\" data-id=\"{id}\" data-kind=\"{}\" stroke=\"{stroke}\" \
                 stroke-width=\"{width}\" stroke-linejoin=\"round\" stroke-linecap=\"round\" {fill}",
                s.shape.kind().name()
            )
        };
        let tooltip = format!("<title>{id} ({})</title>", s.shape.kind().name());
        match self {
            Outline::Polygon(pts) => {
                let list: Vec<String> = pts
                    .iter()
                    .map(|q| format!("{},{}", px(q.x), px(q.y)))
                    .collect();
                w!(
                    out,
                    "<polygon {} points=\"{}\">{tooltip}</polygon>\n",
                    common(&fill),
                    list.join(" ")
                );
            }
            Outline::Circle(c, r) => {
                w!(
                    out,
                    "<circle {} cx=\"{}\" cy=\"{}\" r=\"{}\">{tooltip}</circle>\n",
                    common(&fill),
                    px(c.x),
                    px(c.y),
                    px(*r)
                );
            }
            Outline::Stadium(a, b, r) => {
                w!(
                    out,
                    "<path {} d=\"{}\">{tooltip}</path>\n",
                    common(&fill),
                    stadium_path(*a, *b, *r)
                );
            }
            Outline::Marker(c) => {
                w!(
                    out,
                    "<circle {} cx=\"{}\" cy=\"{}\" r=\"{MARKER_R}\">{tooltip}</circle>\n",
                    common(&marker_fill),
                    px(c.x),
                    px(c.y)
                );
            }
        }
    }
}

/// Bounding box `(x0, y0, x1, y1)` of points (all zero when empty).
pub(super) fn bbox(pts: &[P2]) -> (f64, f64, f64, f64) {
    if pts.is_empty() {
        return (0.0, 0.0, 0.0, 0.0);
    }
    pts.iter().fold(
        (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ),
        |(a, b, c, d), q| (a.min(q.x), b.min(q.y), c.max(q.x), d.max(q.y)),
    )
}

/// The `d` of a stadium's path: the hull of the two end discs (centres `a`, `b`, radius `r`), two
/// straight sides and two half circles.
pub(super) fn stadium_path(a: P2, b: P2, r: f64) -> String {
    let e = b.sub(a).scale(1.0 / b.sub(a).norm());
    let n = e.perp().scale(r);
    let (p1, p2, p3, p4) = (a.add(n), b.add(n), b.sub(n), a.sub(n));
    let rr = px(r);
    format!(
        "M{},{} L{},{} A{rr},{rr} 0 0 0 {},{} L{},{} A{rr},{rr} 0 0 0 {},{} Z",
        px(p1.x),
        px(p1.y),
        px(p2.x),
        px(p2.y),
        px(p3.x),
        px(p3.y),
        px(p4.x),
        px(p4.y),
        px(p1.x),
        px(p1.y)
    )
}
