//! The legend: a swatch for each kind of mark the picture draws (and only those), then one line
//! per witness and a note on labels left out.

use core::fmt::Write as _;

use super::geom::{wide, View};
use super::text::{self, escape, px, truncate, value};
use super::view::Drawn;
use super::witness::{measure, unit_direction, verdict};
use super::{DrawRay, DrawWitness, Style, StyledShape};
use super::{AXIS, BEGAN, COLOUR_A, COLOUR_B, FONT, HIT, LINE_H, MAX_LEGEND_WITNESSES};
use super::{MIN_AXIS_PROJECTION, OTHER, PAD, RAY, RAY_HIT, STATIC};

/// What the legend has a swatch for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    Touching,
    Began,
    Plain,
    Static,
    Axis,
    IntervalA,
    IntervalB,
    Ray,
    RayHit,
}

impl Item {
    fn label(self) -> &'static str {
        match self {
            Item::Touching => "touching shape",
            Item::Began => "contact began this frame",
            Item::Plain => "other shape",
            Item::Static => "static shape",
            Item::Axis => "witness axis (through the midpoint of the centres)",
            Item::IntervalA => "A's interval along the axis",
            Item::IntervalB => "B's interval along the axis",
            Item::Ray => "ray or segment (dot: origin)",
            Item::RayHit => "ray hit",
        }
    }
}

/// The swatches for what the picture actually draws, in a fixed order.
fn items(shapes: &[StyledShape<'_>], drawn_witnesses: bool, rays: &[DrawRay<'_>]) -> Vec<Item> {
    let has = |style: Style| shapes.iter().any(|s| s.style == style);
    let mut out = Vec::new();
    if has(Style::Touching) || has(Style::Began) {
        out.push(Item::Touching);
    }
    if has(Style::Began) {
        out.push(Item::Began);
    }
    if has(Style::Plain) {
        out.push(Item::Plain);
    }
    if has(Style::Static) {
        out.push(Item::Static);
    }
    if drawn_witnesses {
        out.extend([Item::Axis, Item::IntervalA, Item::IntervalB]);
    }
    if !rays.is_empty() {
        out.push(Item::Ray);
    }
    if rays.iter().any(|r| r.hit.is_some()) {
        out.push(Item::RayHit);
    }
    out
}

/// The legend (swatches of what is drawn, then one line per witness) laid out from `y = 0` in a
/// picture `width` px wide; returns the SVG and its height (0 when there is nothing to say).
pub(super) fn legend(
    width: f64,
    shapes: &[StyledShape<'_>],
    witnesses: &[DrawWitness],
    drawn: Drawn,
    rays: &[DrawRay<'_>],
) -> (String, f64) {
    let omitted = drawn.omitted;
    let mut out = String::new();
    let items = items(shapes, drawn.witnesses > 0, rays);
    let (mut x, mut y) = (PAD, if items.is_empty() { 0.0 } else { 14.0 });
    for item in items {
        let label = item.label();
        // The layout estimate of text widths is generous; a little less of it here.
        let item_w = 28.0 + 0.9 * text::width(label, FONT) + 16.0;
        if x > PAD && x + item_w > width - PAD {
            (x, y) = (PAD, y + LINE_H);
        }
        swatch(&mut out, item, x, y);
        w!(
            out,
            "<text class=\"legend\" x=\"{}\" y=\"{}\" font-size=\"{FONT}\" fill=\"#333\">{}</text>\n",
            px(x + 28.0),
            px(y),
            escape(label)
        );
        x += item_w;
    }
    let max_chars = ((width - 2.0 * PAD) / (FONT * 0.6)).max(20.0) as usize;
    for (i, dw) in witnesses.iter().take(MAX_LEGEND_WITNESSES).enumerate() {
        y += LINE_H;
        let line = match (shapes.get(dw.a), shapes.get(dw.b)) {
            (Some(a), Some(b)) => {
                let wit = &dw.witness;
                let mut line = format!(
                    "W{}  {} \u{2013} {}: {} along {}",
                    i + 1,
                    truncate(a.id, 24),
                    truncate(b.id, 24),
                    verdict(wit),
                    wit.axis
                );
                if let Some(d) = unit_direction(wit) {
                    let hidden: Vec<&str> = View::ALL
                        .iter()
                        .filter(|v| v.plane(d).norm() < MIN_AXIS_PROJECTION)
                        .map(|v| v.name())
                        .collect();
                    w!(
                        line,
                        " ({}, {}, {}); {}; A [{}, {}], B [{}, {}]",
                        value(d[0]),
                        value(d[1]),
                        value(d[2]),
                        measure(wit),
                        value(wide(wit.interval_a[0])),
                        value(wide(wit.interval_a[1])),
                        value(wide(wit.interval_b[0])),
                        value(wide(wit.interval_b[1]))
                    );
                    if !hidden.is_empty() {
                        w!(
                            line,
                            "; axis not drawn in {} (along the view)",
                            hidden.join(", ")
                        );
                    }
                } else {
                    w!(line, "; {}; no usable direction", measure(wit));
                }
                line
            }
            _ => format!(
                "W{}  not drawn: shape index out of range ({}, {})",
                i + 1,
                dw.a,
                dw.b
            ),
        };
        w!(
            out,
            "<text class=\"legend\" x=\"{}\" y=\"{}\" font-size=\"{FONT}\" fill=\"#222\">{}</text>\n",
            px(PAD),
            px(y),
            escape(&truncate(&line, max_chars))
        );
    }
    if witnesses.len() > MAX_LEGEND_WITNESSES {
        y += LINE_H;
        w!(
            out,
            "<text class=\"legend\" x=\"{}\" y=\"{}\" font-size=\"{FONT}\" fill=\"#222\">\u{2026} and {} more witnesses</text>\n",
            px(PAD),
            px(y),
            witnesses.len() - MAX_LEGEND_WITNESSES
        );
    }
    if omitted > 0 {
        y += LINE_H;
        w!(
            out,
            "<text class=\"legend\" x=\"{}\" y=\"{}\" font-size=\"{FONT}\" fill=\"#555\">{}</text>\n",
            px(PAD),
            px(y),
            escape(&truncate(
                &format!(
                    "{omitted} shape label(s) left out for want of room, counting both views (every outline carries its id as a tooltip)"
                ),
                max_chars
            ))
        );
    }
    let height = if out.is_empty() { 0.0 } else { y + 8.0 };
    (out, height)
}
/// The 22 x 11 px sample of an item, its baseline at `y`.
fn swatch(out: &mut String, item: Item, x: f64, y: f64) {
    let rect = |out: &mut String, stroke: &str, width: f64, fill: String| {
        w!(
            out,
            "<rect class=\"legend\" x=\"{}\" y=\"{}\" width=\"22\" height=\"11\" stroke=\"{stroke}\" stroke-width=\"{width}\" {fill}/>\n",
            px(x),
            px(y - 10.0)
        );
    };
    let line = |out: &mut String, colour: &str, extra: &str| {
        w!(
            out,
            "<line class=\"legend\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" {extra}/>\n",
            px(x),
            px(y - 4.5),
            px(x + 22.0),
            px(y - 4.5)
        );
    };
    match item {
        Item::Touching => rect(
            out,
            HIT,
            2.0,
            format!("fill=\"{HIT}\" fill-opacity=\"0.16\""),
        ),
        Item::Began => {
            w!(
                out,
                "<circle class=\"legend\" cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"none\" stroke=\"{BEGAN}\" stroke-width=\"2.5\"/>\
                 <circle class=\"legend\" cx=\"{}\" cy=\"{}\" r=\"2.5\" fill=\"{BEGAN}\"/>\n",
                px(x + 11.0),
                px(y - 4.5),
                px(x + 11.0),
                px(y - 4.5)
            );
        }
        Item::Plain => rect(out, OTHER, 1.5, "fill=\"none\"".to_owned()),
        Item::Static => rect(
            out,
            STATIC,
            1.0,
            format!("fill=\"{STATIC}\" fill-opacity=\"0.10\""),
        ),
        Item::Axis => line(out, AXIS, "stroke-width=\"1.2\" stroke-dasharray=\"7 4\""),
        Item::IntervalA => line(out, COLOUR_A, "stroke-width=\"5\""),
        Item::IntervalB => line(out, COLOUR_B, "stroke-width=\"5\""),
        Item::Ray => {
            line(out, RAY, "stroke-width=\"1.6\"");
            w!(
                out,
                "<circle class=\"legend\" cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{RAY}\"/>\n",
                px(x),
                px(y - 4.5)
            );
        }
        Item::RayHit => {
            let (cx, cy) = (x + 11.0, y - 4.5);
            for (dx, dy) in [(5.0, 5.0), (5.0, -5.0)] {
                w!(
                    out,
                    "<line class=\"legend\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{RAY_HIT}\" stroke-width=\"2.5\"/>\n",
                    px(cx - dx),
                    px(cy - dy),
                    px(cx + dx),
                    px(cy + dy)
                );
            }
        }
    }
}
