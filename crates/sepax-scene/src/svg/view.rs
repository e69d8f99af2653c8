//! One view: caption, plot, grid, the shapes in their styles, witnesses, rays and labels.

use core::fmt::Write as _;

use super::geom::{self, P2};
use super::label::{write_label, Placer};
use super::outline::Outline;
use super::panel::{draw_grid, Panel};
use super::text::{self, escape, px, truncate};
use super::witness::draw_witness;
use super::{DrawRay, DrawWitness, Style, StyledShape};
use super::{AXIS, BEGAN, FONT, GUTTER_L, GUTTER_R, HIT_TEXT, LABEL_OVERLAP, MAX_LABELS};
use super::{OTHER_TEXT, RAY, RAY_HIT, STATIC_TEXT};

/// The radius of the began-this-frame badge (px).
const BEGAN_RING: f64 = 6.5;

/// What one view drew, for the legend.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Drawn {
    /// Shape labels left out for want of room.
    pub(super) omitted: usize,
    /// Witnesses drawn (their axis points out of this view's plane).
    pub(super) witnesses: usize,
}

/// Draws one view.
pub(super) fn draw_panel(
    out: &mut String,
    p: &Panel,
    shapes: &[StyledShape<'_>],
    witnesses: &[DrawWitness],
    rays: &[DrawRay<'_>],
) -> Drawn {
    let (x0, y0, _, _) = p.rect();
    w!(out, "<g class=\"view\" data-view=\"{}\">\n", p.view.name());
    let room = p.w + GUTTER_L + GUTTER_R;
    let captions = p.view.caption();
    let caption = captions
        .iter()
        .find(|c| text::width(c, 13.0) <= room)
        .unwrap_or(&captions[2]);
    w!(
        out,
        "<text class=\"caption\" x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"#222\">{caption}</text>\n",
        px(x0 - GUTTER_L),
        px(y0 - 8.0)
    );
    w!(
        out,
        "<rect class=\"plot\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#ffffff\" stroke=\"#b0b0b0\"/>\n",
        px(x0),
        px(y0),
        px(p.w),
        px(p.h)
    );
    draw_grid(out, p);

    let outlines: Vec<Outline> = shapes.iter().map(|s| Outline::of(s.shape, p)).collect();
    w!(
        out,
        "<g clip-path=\"url(#sepax-clip-{})\">\n",
        p.view.name()
    );
    // Static shapes first, underneath; touching ones last, on top.
    for pass in [Style::Static, Style::Plain, Style::Touching, Style::Began] {
        for (s, o) in shapes.iter().zip(&outlines) {
            if s.style == pass {
                o.write(out, s);
            }
        }
    }
    let mut placer = Placer {
        area: p.rect(),
        taken: Vec::new(),
    };
    for (s, o) in shapes.iter().zip(&outlines) {
        if s.style == Style::Began {
            began_mark(out, o, s.id, &mut placer);
        }
    }
    for r in rays {
        draw_ray(out, p, r);
    }
    let mut pending = Vec::new();
    for (i, dw) in witnesses.iter().enumerate() {
        if let Some(l) = draw_witness(out, p, i + 1, dw, shapes, &mut placer) {
            pending.push(l);
        }
    }
    out.push_str("</g>\n");

    let drawn_witnesses = pending.len();
    // Labels: witnesses first, then shapes (touching, moving, static; small before large).
    for l in &pending {
        if let Some(at) = placer.place(&l.candidates, l.w, l.h, f64::INFINITY) {
            write_label(out, at, &l.text, "witness label", AXIS, FONT);
        }
    }
    let mut order: Vec<usize> = (0..shapes.len()).collect();
    let area = |o: &Outline| {
        let (a, b, c, d) = o.bbox();
        (c - a) * (d - b)
    };
    order.sort_by(|&i, &j| {
        shapes[j]
            .style
            .cmp(&shapes[i].style)
            .then(area(&outlines[i]).total_cmp(&area(&outlines[j])))
    });
    let mut omitted = shapes.len().saturating_sub(MAX_LABELS);
    for &i in order.iter().take(MAX_LABELS) {
        let s = &shapes[i];
        let label = truncate(s.id, 32);
        let (w, h) = (text::width(&label, FONT), FONT * 1.2);
        let (bx0, by0, bx1, by1) = outlines[i].bbox();
        let (cx, cy) = (0.5 * (bx0 + bx1), 0.5 * (by0 + by1));
        let candidates = [
            P2::new(bx0, by0 - h - 1.0),
            P2::new(bx1 + 3.0, cy - 0.5 * h),
            P2::new(bx0, by1 + 1.0),
            P2::new(bx0 - w - 3.0, cy - 0.5 * h),
            P2::new(bx1 - w, by0 - h - 1.0),
            P2::new(bx1 - w, by1 + 1.0),
            P2::new(bx0 + 3.0, by0 + 3.0),
            P2::new(cx - 0.5 * w, cy - 0.5 * h),
            P2::new(bx1 - w - 3.0, by1 - h - 3.0),
        ];
        match placer.place(&candidates, w, h, LABEL_OVERLAP) {
            Some(at) => {
                let colour = match s.style {
                    Style::Touching | Style::Began => HIT_TEXT,
                    Style::Plain => OTHER_TEXT,
                    Style::Static => STATIC_TEXT,
                };
                write_label(out, at, &label, "label", colour, FONT);
            }
            None => omitted += 1,
        }
    }
    out.push_str("</g>\n");
    Drawn {
        omitted,
        witnesses: drawn_witnesses,
    }
}

/// A small ring badge on the top-right corner of the bounding box of a shape whose contact
/// began this frame: the same mark for every size, and it never hides the shape. Labels keep
/// clear of it.
fn began_mark(out: &mut String, o: &Outline, id: &str, placer: &mut Placer) {
    let (_, y0, x1, _) = o.bbox();
    let (c, r) = (P2::new(x1, y0), BEGAN_RING);
    placer.block((c.x - r, c.y - r, c.x + r, c.y + r));
    w!(
        out,
        "<g class=\"began-mark\" data-id=\"{}\"><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{BEGAN}\" stroke-width=\"2.5\"/>\
         <circle cx=\"{}\" cy=\"{}\" r=\"2.5\" fill=\"{BEGAN}\"/></g>\n",
        escape(id),
        px(c.x),
        px(c.y),
        px(r),
        px(c.x),
        px(c.y)
    );
}

/// A ray or segment: a line from its origin (a dot) to its hit (a cross), then dashed on to its
/// end; without a hit, solid to its end.
fn draw_ray(out: &mut String, p: &Panel, r: &DrawRay<'_>) {
    let a = p.world(geom::point(&r.from));
    let b = p.world(geom::point(&r.to));
    let hit = r.hit.map(|h| p.world(geom::point(&h)));
    if !(a.is_finite() && b.is_finite() && hit.is_none_or(P2::is_finite)) {
        return;
    }
    let line = |out: &mut String, class: &str, s: P2, e: P2, extra: &str| {
        w!(
            out,
            "<line class=\"{class}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{RAY}\" stroke-width=\"1.6\" stroke-linecap=\"round\"{extra}/>\n",
            px(s.x),
            px(s.y),
            px(e.x),
            px(e.y)
        );
    };
    w!(out, "<g class=\"ray\" data-label=\"{}\">", escape(r.label));
    w!(out, "<title>{}</title>\n", escape(r.label));
    match hit {
        Some(h) => {
            line(out, "ray-path", a, h, "");
            line(
                out,
                "ray-rest",
                h,
                b,
                " stroke-dasharray=\"4 3\" stroke-opacity=\"0.6\"",
            );
            let k = 5.0;
            for (dx, dy) in [(k, k), (k, -k)] {
                w!(
                    out,
                    "<line class=\"ray-hit\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{RAY_HIT}\" stroke-width=\"2.5\" stroke-linecap=\"round\"/>\n",
                    px(h.x - dx),
                    px(h.y - dy),
                    px(h.x + dx),
                    px(h.y + dy)
                );
            }
        }
        None => line(out, "ray-path", a, b, ""),
    }
    w!(
        out,
        "<circle class=\"ray-origin\" cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{RAY}\"/></g>\n",
        px(a.x),
        px(a.y)
    );
}
