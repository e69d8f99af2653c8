//! SVG pictures of a scene: two orthographic views side by side with the shapes outlined and
//! box-pair witnesses explained.
//!
//! [`render_svg`] draws a TOP view (looking down `-y`: the x–z plane, x to the right and z down
//! the page, as a right-handed frame seen from above) and a SIDE view (looking along `-z`: the
//! x–y plane, x to the right and y up) at one common scale fitted to the union of the shapes'
//! world AABBs plus a margin, with grid, tick values, axis names, a legend and the title.
//!
//! What the document promises to tools that read it back:
//! - every shape is outlined exactly once per view by one element with `class="shape"` (or
//!   `class="shape hit"` when highlighted) and `data-id` set to its id;
//! - every drawn piece of a witness carries the class `witness`;
//! - ids and the title are XML-escaped, and no coordinate is ever `NaN` or infinite.
//!
//! Boxes and triangles are drawn as the convex hull of their projected corners, spheres as
//! circles, capsules as 2D stadiums (the exact projection of a capsule). A shape whose
//! projection is smaller than a few pixels (a point box, a zero-radius sphere, a needle seen end
//! on) is drawn as a small filled marker so that it stays visible; flat shapes seen edge on are
//! drawn as their (stroked) segment.

mod geom;
mod text;

use core::fmt::Write as _;

use geom::{bounds, centre, clip_segment, convex_hull, dot3, polytope_points, vector, wide};
use geom::{View, P2};
use sepax_narrowphase::intersect::{BoxWitness, Classification};
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

/// Writing to a `String` cannot fail.
macro_rules! w {
    ($out:expr, $($arg:tt)*) => {
        let _ = write!($out, $($arg)*);
    };
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
/// At most this many shape labels per view (highlighted shapes first).
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

/// One view's plot: where it sits on the page and how world coordinates map onto it.
struct Panel {
    view: View,
    /// Plot rectangle in px.
    x0: f64,
    y0: f64,
    w: f64,
    h: f64,
    /// px per world unit (the same in both panels).
    scale: f64,
    /// The view-plane `u` at the plot's left edge and `v` at its top edge.
    u0: f64,
    v_top: f64,
}

impl Panel {
    /// Screen position of a view-plane point.
    fn to_screen(&self, q: P2) -> P2 {
        P2::new(
            self.x0 + (q.x - self.u0) * self.scale,
            self.y0 + (q.y - self.v_top) * self.scale * self.view.v_down(),
        )
    }

    /// Screen position of a world point.
    fn world(&self, p: [f64; 3]) -> P2 {
        self.to_screen(self.view.plane(p))
    }

    /// Screen vector (px) of a world vector.
    fn dir(&self, d: [f64; 3]) -> P2 {
        let q = self.view.plane(d);
        P2::new(q.x * self.scale, q.y * self.scale * self.view.v_down())
    }

    fn rect(&self) -> (f64, f64, f64, f64) {
        (self.x0, self.y0, self.x0 + self.w, self.y0 + self.h)
    }
}

/// The two panels at a common scale fitted to the union of the world AABBs.
fn layout(shapes: &[DrawShape<'_>], width: f64) -> [Panel; 2] {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for s in shapes {
        let (a, b) = bounds(s.shape);
        for k in 0..3 {
            lo[k] = lo[k].min(a[k]);
            hi[k] = hi[k].max(b[k]);
        }
    }
    if !(lo.iter().chain(&hi).all(|x| x.is_finite())) {
        // Empty scene (or coordinates beyond f64 range: then the picture is not meaningful).
        (lo, hi) = ([-1.0; 3], [1.0; 3]);
    }
    let ext: [f64; 3] = core::array::from_fn(|k| hi[k] - lo[k]);
    let mut largest = ext.iter().fold(0.0_f64, |m, &e| m.max(e));
    if !(largest.is_finite() && largest > 0.0) {
        // Every shape at one point: any scale shows it; one world unit across.
        largest = 1.0;
    }
    let span: [f64; 3] = core::array::from_fn(|k| ext[k] + 2.0 * MARGIN * largest);
    let panel_w = (width - 2.0 * PAD - GAP) / 2.0;
    let plot_w = panel_w - GUTTER_L - GUTTER_R;
    let tall = span[1].max(span[2]);
    let mut scale = (plot_w / span[0]).min(plot_w * MAX_ASPECT / tall);
    if !(scale.is_finite() && scale > 0.0) {
        scale = 1.0;
    }
    let plot_h = (tall * scale).max(MIN_PLOT_H);
    let centre: [f64; 3] = core::array::from_fn(|k| 0.5 * lo[k] + 0.5 * hi[k]);
    let u0 = centre[0] - plot_w / (2.0 * scale);
    let y0 = PAD + TITLE_H + CAPTION_H;
    View::ALL.map(|view| {
        let i = match view {
            View::Top => 0.0,
            View::Side => 1.0,
        };
        let vc = centre[view.v_index()];
        Panel {
            view,
            x0: PAD + i * (panel_w + GAP) + GUTTER_L,
            y0,
            w: plot_w,
            h: plot_h,
            scale,
            u0,
            // The v at the top edge: the smallest z (Top, z down) or the largest y (Side).
            v_top: vc - view.v_down() * plot_h / (2.0 * scale),
        }
    })
}

/// A shape's outline in one view, in screen px.
enum Outline {
    Polygon(Vec<P2>),
    Circle(P2, f64),
    Stadium(P2, P2, f64),
    Marker(P2),
}

impl Outline {
    fn of(shape: &Shape, p: &Panel) -> Outline {
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
    fn bbox(&self) -> (f64, f64, f64, f64) {
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
    fn write(&self, out: &mut String, s: &DrawShape<'_>) {
        let (class, stroke, fill) = if s.highlighted {
            (
                "shape hit",
                HIT,
                format!("fill=\"{HIT}\" fill-opacity=\"0.16\""),
            )
        } else {
            ("shape", OTHER, "fill=\"none\"".to_owned())
        };
        let marker_fill = format!("fill=\"{stroke}\"");
        let width = if s.highlighted { 2.0 } else { 1.5 };
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
                // The hull of the two end discs: two straight sides and two half circles.
                let e = b.sub(*a).scale(1.0 / b.sub(*a).norm());
                let n = e.perp().scale(*r);
                let (p1, p2, p3, p4) = (a.add(n), b.add(n), b.sub(n), a.sub(n));
                let rr = px(*r);
                w!(
                    out,
                    "<path {} d=\"M{},{} L{},{} A{rr},{rr} 0 0 0 {},{} L{},{} A{rr},{rr} 0 0 0 {},{} Z\">{tooltip}</path>\n",
                    common(&fill),
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
fn bbox(pts: &[P2]) -> (f64, f64, f64, f64) {
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

/// Greedy label placement inside a rectangle, avoiding what was placed before.
struct Placer {
    area: (f64, f64, f64, f64),
    taken: Vec<(f64, f64, f64, f64)>,
}

impl Placer {
    /// Keeps the rectangle free of labels placed later.
    fn block(&mut self, r: (f64, f64, f64, f64)) {
        self.taken.push(r);
    }

    /// Picks, among candidate top-left corners, the first whose `w × h` box overlaps nothing
    /// taken (else the least overlapping), moved inside the area; returns its top-left corner,
    /// or `None` (placing nothing) when the best still covers more than `max_overlap` of the
    /// box's area with earlier labels.
    fn place(&mut self, candidates: &[P2], w: f64, h: f64, max_overlap: f64) -> Option<P2> {
        let (ax0, ay0, ax1, ay1) = self.area;
        let inside = |c: P2| {
            let x = c.x.min(ax1 - w - 2.0).max(ax0 + 2.0);
            let y = c.y.min(ay1 - h - 2.0).max(ay0 + 2.0);
            P2::new(x, y)
        };
        let mut best: Option<(P2, f64)> = None;
        for c in candidates.iter().filter(|c| c.is_finite()) {
            let c = inside(*c);
            let overlap: f64 = self
                .taken
                .iter()
                .map(|&(x0, y0, x1, y1)| {
                    let dx = (c.x + w).min(x1) - c.x.max(x0);
                    let dy = (c.y + h).min(y1) - c.y.max(y0);
                    dx.max(0.0) * dy.max(0.0)
                })
                .sum();
            if best.is_none_or(|(_, o)| overlap < o) {
                best = Some((c, overlap));
                if overlap == 0.0 {
                    break;
                }
            }
        }
        let (c, overlap) = best.unwrap_or((inside(P2::new(ax0, ay0)), 0.0));
        if overlap > max_overlap * w * h {
            return None;
        }
        self.taken.push((c.x, c.y, c.x + w, c.y + h));
        Some(c)
    }
}

/// A text label with a white halo, its box's top-left corner at `at`.
fn write_label(out: &mut String, at: P2, text: &str, class: &str, colour: &str, size: f64) {
    w!(
        out,
        "<text class=\"{class}\" x=\"{}\" y=\"{}\" font-size=\"{size}\" fill=\"{colour}\" \
         stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\">{}</text>\n",
        px(at.x),
        px(at.y + 0.8 * size * 1.2),
        escape(text)
    );
}

/// `gap 0.5`, `depth 0.25` or `touching, distance 0` for a witness.
fn measure(w: &BoxWitness) -> String {
    let d = wide(w.distance);
    match w.classification {
        Classification::Separated => format!("gap {}", value(d)),
        Classification::Overlapping => format!("depth {}", value(-d)),
        Classification::Uncertain => format!("touching, distance {}", value(d)),
    }
}

fn verdict(w: &BoxWitness) -> &'static str {
    match w.classification {
        Classification::Separated => "separated",
        Classification::Overlapping => "overlapping",
        Classification::Uncertain => "touching (within the rounding band)",
    }
}

/// The witness direction as a finite unit `f64` vector, if it is one.
fn unit_direction(w: &BoxWitness) -> Option<[f64; 3]> {
    let d = vector(&w.direction);
    let n = dot3(d, d).sqrt();
    (n.is_finite() && n > 0.0).then(|| d.map(|x| x / n))
}

/// Grid spacing: 1, 2 or 5 times a power of ten, giving about `count` steps over `span`.
fn nice_step(span: f64, count: f64) -> f64 {
    let raw = span / count.max(1.0);
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let m = if f < 1.5 {
        1.0
    } else if f < 3.5 {
        2.0
    } else if f < 7.5 {
        5.0
    } else {
        10.0
    };
    m * mag
}

/// Tick values in `[lo, hi]` on a grid of spacing `step`.
fn ticks(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && step.is_finite() && step > 0.0) {
        return Vec::new();
    }
    let first = (lo / step).ceil();
    (0..200)
        .map(|i| (first + f64::from(i)) * step)
        .take_while(|&t| t <= hi + 1e-9 * step)
        .collect()
}

fn draw_grid(out: &mut String, p: &Panel) {
    let (x0, y0, x1, y1) = p.rect();
    let grid = |out: &mut String, a: P2, b: P2| {
        w!(
            out,
            "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e6e6e6\" stroke-width=\"1\"/>\n",
            px(a.x),
            px(a.y),
            px(b.x),
            px(b.y)
        );
    };
    let step = nice_step(p.w / p.scale, (p.w / 90.0).max(2.0));
    let u1 = p.u0 + p.w / p.scale;
    for t in ticks(p.u0, u1, step) {
        let x = p.x0 + (t - p.u0) * p.scale;
        grid(out, P2::new(x, y0), P2::new(x, y1));
        w!(
            out,
            "<text class=\"tick\" x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#555\" text-anchor=\"middle\">{}</text>\n",
            px(x),
            px(y1 + 14.0),
            text::tick(t, step)
        );
    }
    let v_span = p.h / p.scale;
    let (v_lo, v_hi) = match p.view {
        View::Top => (p.v_top, p.v_top + v_span),
        View::Side => (p.v_top - v_span, p.v_top),
    };
    let vstep = nice_step(v_span, (p.h / 60.0).max(2.0));
    for t in ticks(v_lo, v_hi, vstep) {
        let y = p.to_screen(P2::new(p.u0, t)).y;
        grid(out, P2::new(x0, y), P2::new(x1, y));
        w!(
            out,
            "<text class=\"tick\" x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#555\" text-anchor=\"end\">{}</text>\n",
            px(x0 - 5.0),
            px(y + 4.0),
            text::tick(t, vstep)
        );
    }
    // Axis names: x along the bottom, the view's second axis in the bottom-left corner.
    let arrow = match p.view {
        View::Top => "\u{2193}",
        View::Side => "\u{2191}",
    };
    w!(
        out,
        "<text class=\"axis-name\" x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"#333\" text-anchor=\"end\">x \u{2192}</text>\n",
        px(x1),
        px(y1 + 29.0)
    );
    w!(
        out,
        "<text class=\"axis-name\" x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"#333\">{} {arrow}</text>\n",
        px(x0 - GUTTER_L + 4.0),
        px(y1 + 29.0),
        p.view.v_axis()
    );
}

/// A witness label waiting for placement.
struct PendingLabel {
    text: String,
    candidates: Vec<P2>,
    w: f64,
    h: f64,
}

/// Draws the witness graphics of one view (axis line and the two intervals) and returns the
/// label to place, or `None` when the witness is not drawn in this view.
fn draw_witness(
    out: &mut String,
    p: &Panel,
    number: usize,
    dw: &DrawWitness,
    shapes: &[DrawShape<'_>],
    placer: &mut Placer,
) -> Option<PendingLabel> {
    let (sa, sb) = (shapes.get(dw.a)?, shapes.get(dw.b)?);
    let wit = &dw.witness;
    let d = unit_direction(wit)?;
    if p.view.plane(d).norm() < MIN_AXIS_PROJECTION {
        return None;
    }
    let (ca, cb) = (centre(sa.shape), centre(sb.shape));
    let mid: [f64; 3] = core::array::from_fn(|k| 0.5 * ca[k] + 0.5 * cb[k]);
    let ms = p.world(mid);
    let ds = p.dir(d);
    let len = ds.norm();
    if !(ms.is_finite() && len.is_finite() && len > 0.0) {
        return None;
    }
    let e = ds.scale(1.0 / len);
    let nrm = e.perp();
    // The world point of parameter t on the axis line through the midpoint.
    let base = dot3(d, mid);
    let at = |t: f64| ms.add(ds.scale(t - base));

    w!(
        out,
        "<g class=\"witness\" data-witness=\"W{number}\" data-a=\"{}\" data-b=\"{}\">\n",
        escape(sa.id),
        escape(sb.id)
    );
    if let Some((a, b)) = clip_segment(ms, e, (-1e6, 1e6), p.rect()) {
        w!(
            out,
            "<line class=\"witness axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{AXIS}\" stroke-width=\"1.2\" stroke-dasharray=\"7 4\"/>\n",
            px(a.x),
            px(a.y),
            px(b.x),
            px(b.y)
        );
    }
    let ia = [wide(wit.interval_a[0]), wide(wit.interval_a[1])];
    let ib = [wide(wit.interval_b[0]), wide(wit.interval_b[1])];
    let mut ends = Vec::new();
    for (iv, side, colour, class) in [
        (ia, 1.0, COLOUR_A, "interval-a"),
        (ib, -1.0, COLOUR_B, "interval-b"),
    ] {
        if !(iv[0].is_finite() && iv[1].is_finite()) {
            continue;
        }
        let off = nrm.scale(side * BAR_OFFSET);
        let (mut s0, mut s1) = (at(iv[0]).add(off), at(iv[1]).add(off));
        if s1.sub(s0).norm() < 2.0 {
            // A flat box along the axis: still a visible tick.
            let c = s0.add(s1).scale(0.5);
            (s0, s1) = (c.sub(e), c.add(e));
        }
        ends.extend([s0, s1]);
        let (x0, y0, x1, y1) = bbox(&[s0, s1]);
        let pad = BAR_WIDTH;
        placer.block((x0 - pad, y0 - pad, x1 + pad, y1 + pad));
        w!(
            out,
            "<line class=\"witness {class}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"{BAR_WIDTH}\" stroke-opacity=\"0.9\"/>\n",
            px(s0.x),
            px(s0.y),
            px(s1.x),
            px(s1.y)
        );
    }
    out.push_str("</g>\n");

    let measured = measure(wit);
    let mut label = format!("W{number} {}: {measured}", wit.axis);
    if text::width(&label, FONT) > p.w - 8.0 {
        label = format!("W{number}: {measured}");
    }
    let (w, h) = (text::width(&label, FONT), FONT * 1.2);
    // Beside the middle of the drawn intervals, on either side of the axis, farther and farther.
    let centre_px = if ends.is_empty() {
        ms
    } else {
        let (x0, y0, x1, y1) = bbox(&ends);
        P2::new(0.5 * (x0 + x1), 0.5 * (y0 + y1))
    };
    let mut candidates = Vec::new();
    for k in [1.0, 2.0, 3.5, 5.0] {
        for side in [-1.0, 1.0] {
            let u = nrm.scale(side);
            let c = centre_px.add(u.scale(BAR_OFFSET + BAR_WIDTH + 4.0 + 12.0 * (k - 1.0)));
            candidates.push(P2::new(
                c.x - 0.5 * w + 0.5 * u.x * w,
                c.y - 0.5 * h + 0.5 * u.y * h,
            ));
        }
    }
    // Then anywhere in the plot, nearest rows first: better away from the bars than on another
    // label (the legend names the witness in full).
    let (_, py0, _, py1) = p.rect();
    let mut rows: Vec<f64> = (0..200)
        .map(|i| py0 + 2.0 + f64::from(i) * (h + 2.0))
        .take_while(|&y| y + h <= py1)
        .collect();
    rows.sort_by(|a, b| (a - centre_px.y).abs().total_cmp(&(b - centre_px.y).abs()));
    for y in rows {
        for dx in [0.0, -0.5, 0.5] {
            candidates.push(P2::new(centre_px.x - 0.5 * w + dx * w, y));
        }
    }
    Some(PendingLabel {
        text: label,
        candidates,
        w,
        h,
    })
}

/// Draws one view; returns how many shape labels were left out for want of room.
fn draw_panel(
    out: &mut String,
    p: &Panel,
    shapes: &[DrawShape<'_>],
    witnesses: &[DrawWitness],
) -> usize {
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
    // Highlighted shapes last, on top.
    for pass in [false, true] {
        for (s, o) in shapes.iter().zip(&outlines) {
            if s.highlighted == pass {
                o.write(out, s);
            }
        }
    }
    let mut placer = Placer {
        area: p.rect(),
        taken: Vec::new(),
    };
    let mut pending = Vec::new();
    for (i, dw) in witnesses.iter().enumerate() {
        if let Some(l) = draw_witness(out, p, i + 1, dw, shapes, &mut placer) {
            pending.push(l);
        }
    }
    out.push_str("</g>\n");

    // Labels: witnesses first, then shapes (highlighted, then small before large).
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
            .highlighted
            .cmp(&shapes[i].highlighted)
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
                let colour = if s.highlighted { HIT_TEXT } else { OTHER_TEXT };
                write_label(out, at, &label, "label", colour, FONT);
            }
            None => omitted += 1,
        }
    }
    out.push_str("</g>\n");
    omitted
}

/// The legend (swatches, then one line per witness) laid out from `y = 0` in a picture
/// `width` px wide; returns the SVG and its height.
fn legend(
    width: f64,
    shapes: &[DrawShape<'_>],
    witnesses: &[DrawWitness],
    omitted: usize,
) -> (String, f64) {
    let mut out = String::new();
    let (mut x, mut y) = (PAD, 14.0);
    let items: [(&str, &str); 5] = [
        ("hit", "intersecting shape"),
        ("other", "other shape"),
        ("axis", "witness axis (through the midpoint of the centres)"),
        ("a", "A's interval along the axis"),
        ("b", "B's interval along the axis"),
    ];
    for (kind, label) in items {
        // The layout estimate of text widths is generous; a little less of it here.
        let item_w = 28.0 + 0.9 * text::width(label, FONT) + 16.0;
        if x > PAD && x + item_w > width - PAD {
            (x, y) = (PAD, y + LINE_H);
        }
        match kind {
            "hit" | "other" => {
                let (stroke, fill) = if kind == "hit" {
                    (HIT, format!("fill=\"{HIT}\" fill-opacity=\"0.16\""))
                } else {
                    (OTHER, "fill=\"none\"".to_owned())
                };
                w!(
                    out,
                    "<rect class=\"legend\" x=\"{}\" y=\"{}\" width=\"22\" height=\"11\" stroke=\"{stroke}\" stroke-width=\"1.5\" {fill}/>\n",
                    px(x),
                    px(y - 10.0)
                );
            }
            _ => {
                let (colour, extra) = match kind {
                    "axis" => (AXIS, "stroke-width=\"1.2\" stroke-dasharray=\"7 4\""),
                    "a" => (COLOUR_A, "stroke-width=\"5\""),
                    _ => (COLOUR_B, "stroke-width=\"5\""),
                };
                w!(
                    out,
                    "<line class=\"legend\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" {extra}/>\n",
                    px(x),
                    px(y - 4.5),
                    px(x + 22.0),
                    px(y - 4.5)
                );
            }
        }
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
    (out, y + 8.0)
}

/// Renders two orthographic views side by side: TOP (looking down -y: the x–z plane) and SIDE
/// (looking along -z: the x–y plane), with a common scale fitted to the union of the shapes'
/// world AABBs (plus margin), axes labelled, a legend, and the title.
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
    let width = f64::from(options.width.clamp(MIN_WIDTH, MAX_WIDTH));
    let panels = layout(shapes, width);
    let legend_y = panels[0].y0 + panels[0].h + TICKS_H;
    let mut body = String::with_capacity(4096 + 1200 * shapes.len() + 3000 * witnesses.len());
    let omitted: usize = panels
        .iter()
        .map(|p| draw_panel(&mut body, p, shapes, witnesses))
        .sum();
    let (legend_svg, legend_h) = legend(width, shapes, witnesses, omitted);
    let height = (legend_y + legend_h + PAD).ceil();

    let mut out = String::with_capacity(body.len() + legend_svg.len() + 4096);
    let title = escape(&options.title);
    w!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"{FONT}\">\n\
         <title>{title}</title>\n\
         <desc>sepax scene picture: {} shapes ({} intersecting), {} witnesses; TOP view looking down -y, \
         SIDE view looking along -z, common scale.</desc>\n",
        shapes.len(),
        shapes.iter().filter(|s| s.highlighted).count(),
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
        "{} shapes, {} intersecting \u{00b7} 1 unit = {} px",
        shapes.len(),
        shapes.iter().filter(|s| s.highlighted).count(),
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
