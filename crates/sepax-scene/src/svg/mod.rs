//! SVG pictures of a scene: two orthographic views side by side with the shapes outlined in
//! their styles, box-pair witnesses explained, and rays.
//!
//! [`render_drawing`] (and [`render_svg`], its form for plain highlighted/not shapes) draws a
//! TOP view (looking down `-y`: the x–z plane, x to the right and z down the page, as a
//! right-handed frame seen from above) and a SIDE view (looking along `-z`: the x–y plane, x to
//! the right and y up) at one common scale, each cropped to the content it shows (the union of
//! the shapes' world AABBs and the rays, plus a small margin: both views share the x range, the
//! TOP view is as tall as the z range and the SIDE view as the y range), with grid, tick
//! values, axis names, the title, and a legend that lists only the marks the picture draws.
//!
//! What the document promises to tools that read it back:
//! - every shape is outlined exactly once per view by one element with the class `shape` and
//!   `data-id` set to its id; its other classes say its [`Style`]: none ([`Style::Plain`]),
//!   `static`, `hit` ([`Style::Touching`]; exactly `class="shape hit"`), `hit began`
//!   ([`Style::Began`], which also gets a `began-mark` group with the same `data-id`);
//! - every drawn piece of a witness carries the class `witness`, every ray is one `ray` group;
//! - ids and the title are XML-escaped, and no coordinate is ever `NaN` or infinite.
//!
//! Boxes and triangles are drawn as the convex hull of their projected corners, spheres as
//! circles, capsules as 2D stadiums (the exact projection of a capsule). A shape whose
//! projection is smaller than a few pixels (a point box, a zero-radius sphere, a needle seen end
//! on) is drawn as a small filled marker so that it stays visible; flat shapes seen edge on are
//! drawn as their (stroked) segment.

use core::fmt::Write as _;

/// Writing to a `String` cannot fail.
macro_rules! w {
    ($out:expr, $($arg:tt)*) => {
        let _ = write!($out, $($arg)*);
    };
}

mod debug;
mod geom;
mod label;
mod legend;
mod outline;
mod panel;
mod text;
mod view;
mod witness;

pub use debug::{render_debug, SvgDebugDraw};

use sepax_narrowphase::intersect::BoxWitness;
use sepax_shapes::math::Point3;
use sepax_shapes::Shape;
use text::{escape, px, truncate, value};

/// One shape to draw: its id (label) and the shape.
#[derive(Debug, Clone, Copy)]
pub struct DrawShape<'a> {
    /// The shape's id, shown as its label and written to `data-id`.
    pub id: &'a str,
    /// The shape.
    pub shape: &'a Shape,
    /// Whether to draw it as intersecting (strong colour, translucent fill, class `hit`).
    pub highlighted: bool,
}

/// A box pair whose witness is drawn: indices into the shapes slice, and the witness.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawWitness {
    /// Index of box `A` in the shapes slice.
    pub a: usize,
    /// Index of box `B` in the shapes slice.
    pub b: usize,
    /// What [`sepax_narrowphase::intersect::explain`] said about `A` and `B`.
    pub witness: BoxWitness,
}

/// Options with safe defaults (`SvgOptions::default()`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SvgOptions {
    /// Total width of the picture in px (default 1200; values outside `400..=16384` are
    /// clamped into that range). The height follows from the scene.
    pub width: u32,
    /// The title written at the top (and into the SVG `<title>`).
    pub title: String,
}

impl Default for SvgOptions {
    fn default() -> Self {
        Self {
            width: 1200,
            title: "sepax scene".to_owned(),
        }
    }
}

/// How a shape is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Style {
    /// A shape that does not move (a floor, a wall): thin light outline and a faint fill, drawn
    /// underneath and labelled last, whether or not something touches it.
    Static,
    /// A shape that touches nothing: grey outline.
    #[default]
    Plain,
    /// A shape that touches another: strong colour, translucent fill (class `hit`).
    Touching,
    /// Touching, and one of its contacts began this frame: as `Touching`, stronger, with a
    /// ring mark (class `hit began`).
    Began,
}

/// One shape to draw in a style: its id (label) and the shape.
#[derive(Debug, Clone, Copy)]
pub struct StyledShape<'a> {
    /// The shape's id, shown as its label and written to `data-id`.
    pub id: &'a str,
    /// The shape.
    pub shape: &'a Shape,
    /// How to draw it.
    pub style: Style,
}

impl<'a> From<DrawShape<'a>> for StyledShape<'a> {
    /// Highlighted shapes are [`Style::Touching`], the others [`Style::Plain`].
    fn from(s: DrawShape<'a>) -> Self {
        Self {
            id: s.id,
            shape: s.shape,
            style: if s.highlighted {
                Style::Touching
            } else {
                Style::Plain
            },
        }
    }
}

/// A ray or segment to draw: a line from `from` to `to` with a dot at `from` and, when it hit
/// something, a cross at `hit` (the line is dashed beyond it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawRay<'a> {
    /// Shown as the tooltip and written to `data-label` (may be empty).
    pub label: &'a str,
    /// The origin.
    pub from: Point3,
    /// The end of the segment (for a ray, the origin plus the longest distance asked for).
    pub to: Point3,
    /// Where it hit, if it did.
    pub hit: Option<Point3>,
}

// Layout, in px.
const MIN_WIDTH: u32 = 400;
const MAX_WIDTH: u32 = 16384;
const PAD: f64 = 16.0;
const GAP: f64 = 24.0;
const TITLE_H: f64 = 40.0;
const CAPTION_H: f64 = 22.0;
const GUTTER_L: f64 = 52.0;
const GUTTER_R: f64 = 6.0;
const TICKS_H: f64 = 34.0;
const MIN_PLOT_H: f64 = 160.0;
/// The narrowest plot: content narrower than this is centred in it.
const MIN_PLOT_W: f64 = 240.0;
/// The tallest plot, as a multiple of its width.
const MAX_ASPECT: f64 = 1.5;
/// The margin around the scene, as a fraction of its largest extent.
const MARGIN: f64 = 0.06;
const FONT: f64 = 12.0;
const LINE_H: f64 = 18.0;
/// Below this size (px) a shape is drawn as a marker.
const MIN_VISIBLE: f64 = 3.0;
const MARKER_R: f64 = 3.0;
/// Offset of each witness interval from the axis line, and its thickness.
const BAR_OFFSET: f64 = 6.0;
const BAR_WIDTH: f64 = 5.0;
/// A witness axis whose projection onto a view is shorter than this (unit axis) is not drawn
/// in that view: it points (almost) along the view direction.
const MIN_AXIS_PROJECTION: f64 = 0.05;
/// At most this many shape labels per view (touching shapes first).
const MAX_LABELS: usize = 60;
/// A shape label is left out rather than cover more than this fraction of itself with other
/// labels (the shape keeps its `data-id` and tooltip).
const LABEL_OVERLAP: f64 = 0.15;
/// At most this many witnesses listed in the legend.
const MAX_LEGEND_WITNESSES: usize = 12;

// Colours.
const HIT: &str = "#d62728";
const HIT_TEXT: &str = "#9b1517";
const OTHER: &str = "#7f7f7f";
const OTHER_TEXT: &str = "#505050";
const COLOUR_A: &str = "#1f77b4";
const COLOUR_B: &str = "#ff7f0e";
const AXIS: &str = "#2a2a2a";
const STATIC: &str = "#9a9a9a";
const STATIC_TEXT: &str = "#7a7a7a";
const BEGAN: &str = "#7b2cbf";
const RAY: &str = "#0b7d8a";
const RAY_HIT: &str = "#111111";

/// Renders two orthographic views side by side: TOP (looking down -y: the x–z plane) and SIDE
/// (looking along -z: the x–y plane), at a common scale, each cropped to its content: the shapes'
/// world AABBs (plus margin), axes labelled, a legend, and the title. Highlighted shapes are
/// drawn as [`Style::Touching`], the others as [`Style::Plain`]; see [`render_drawing`], which
/// this calls.
///
/// Each witness is drawn in each view where its axis does not point along the view direction:
/// the axis as a dashed line through the midpoint of the two shapes' centres, and the two
/// projections `interval_a` and `interval_b` (positions along the unit `direction`) as thick
/// bars on either side of it, placed where the planes `direction · x = value` cross that line;
/// a label `W<n> <axis>: gap|depth <value>` sits beside them, and the legend spells the witness
/// out in full. Witnesses whose indices are out of range are listed in the legend but not drawn.
pub fn render_svg(
    shapes: &[DrawShape<'_>],
    witnesses: &[DrawWitness],
    options: &SvgOptions,
) -> String {
    let styled: Vec<StyledShape<'_>> = shapes.iter().map(|&s| s.into()).collect();
    render_drawing(&styled, witnesses, &[], options)
}

/// Renders shapes in their [`Style`]s, witnesses (as [`render_svg`] does) and rays or segments
/// ([`DrawRay`]): the picture of one frame of a moving scene, with static shapes plain,
/// touching ones highlighted and this frame's new contacts marked. The legend lists only the
/// marks that are drawn.
pub fn render_drawing(
    shapes: &[StyledShape<'_>],
    witnesses: &[DrawWitness],
    rays: &[DrawRay<'_>],
    options: &SvgOptions,
) -> String {
    let width = f64::from(options.width.clamp(MIN_WIDTH, MAX_WIDTH));
    let panels = panel::layout(shapes, rays, width);
    let legend_y = panels[0].y0 + panels[0].h.max(panels[1].h) + TICKS_H;
    let mut body = String::with_capacity(4096 + 1200 * shapes.len() + 3000 * witnesses.len());
    let mut drawn = view::Drawn::default();
    for p in &panels {
        let d = view::draw_panel(&mut body, p, shapes, witnesses, rays);
        drawn.omitted += d.omitted;
        drawn.witnesses += d.witnesses;
    }
    let (legend_svg, legend_h) = legend::legend(width, shapes, witnesses, drawn, rays);
    let height = (legend_y + legend_h + PAD).ceil();
    let touching = shapes
        .iter()
        .filter(|s| matches!(s.style, Style::Touching | Style::Began))
        .count();

    let mut out = String::with_capacity(body.len() + legend_svg.len() + 4096);
    let title = escape(&options.title);
    w!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"{FONT}\">\n\
         <title>{title}</title>\n\
         <desc>sepax scene picture: {} shapes ({} touching), {} witnesses; TOP view looking down -y, \
         SIDE view looking along -z, common scale.</desc>\n",
        shapes.len(),
        touching,
        witnesses.len(),
        w = px(width),
        h = px(height),
    );
    out.push_str("<defs>\n");
    for p in &panels {
        w!(
            out,
            "<clipPath id=\"sepax-clip-{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\n",
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
        "<rect class=\"frame\" x=\"0.5\" y=\"0.5\" width=\"{}\" height=\"{}\" fill=\"#fbfbfb\" stroke=\"#999999\"/>\n",
        px(width - 1.0),
        px(height - 1.0)
    );
    // Title on the left, scale and counts on the right.
    let stats = format!(
        "{} shapes, {} touching \u{00b7} 1 unit = {} px",
        shapes.len(),
        touching,
        value(panels[0].scale)
    );
    let room = width - 2.0 * PAD - text::width(&stats, FONT) - 24.0;
    let title_chars = (room / (18.0 * 0.6)).max(8.0) as usize;
    w!(
        out,
        "<text class=\"title\" x=\"{}\" y=\"{}\" font-size=\"18\" font-weight=\"bold\" fill=\"#111\">{}</text>\n",
        px(PAD),
        px(PAD + 18.0),
        escape(&truncate(&options.title, title_chars))
    );
    w!(
        out,
        "<text class=\"stats\" x=\"{}\" y=\"{}\" font-size=\"{FONT}\" fill=\"#555\" text-anchor=\"end\">{}</text>\n",
        px(width - PAD),
        px(PAD + 16.0),
        escape(&stats)
    );
    out.push_str(&body);
    w!(
        out,
        "<g class=\"legend\" transform=\"translate(0,{})\">\n{legend_svg}</g>\n",
        px(legend_y)
    );
    out.push_str("</svg>\n");
    out
}
