//! One view's plot: its place on the page, the mapping from world to screen, the layout of the
//! two views, and the grid with its tick values.

use core::fmt::Write as _;

use super::geom::{self, bounds, View, P2};
use super::text;
use super::text::px;
use super::CAPTION_H;
use super::{DrawRay, StyledShape};
use super::{GAP, GUTTER_L, GUTTER_R, MARGIN, MAX_ASPECT, MIN_PLOT_H, MIN_PLOT_W, PAD, TITLE_H};

/// One view's plot: where it sits on the page and how world coordinates map onto it.
pub(super) struct Panel {
    pub(super) view: View,
    /// Plot rectangle in px.
    pub(super) x0: f64,
    pub(super) y0: f64,
    pub(super) w: f64,
    pub(super) h: f64,
    /// px per world unit (the same in both panels).
    pub(super) scale: f64,
    /// The view-plane `u` at the plot's left edge and `v` at its top edge.
    pub(super) u0: f64,
    pub(super) v_top: f64,
}

impl Panel {
    /// Screen position of a view-plane point.
    pub(super) fn to_screen(&self, q: P2) -> P2 {
        P2::new(
            self.x0 + (q.x - self.u0) * self.scale,
            self.y0 + (q.y - self.v_top) * self.scale * self.view.v_down(),
        )
    }

    /// Screen position of a world point.
    pub(super) fn world(&self, p: [f64; 3]) -> P2 {
        self.to_screen(self.view.plane(p))
    }

    /// Screen vector (px) of a world vector.
    pub(super) fn dir(&self, d: [f64; 3]) -> P2 {
        let q = self.view.plane(d);
        P2::new(q.x * self.scale, q.y * self.scale * self.view.v_down())
    }

    pub(super) fn rect(&self) -> (f64, f64, f64, f64) {
        (self.x0, self.y0, self.x0 + self.w, self.y0 + self.h)
    }
}

/// The two panels at a common scale, each cropped to the content (shapes and rays) seen in its
/// view plus a margin: the same x range in both, the TOP view as tall as the content's z range
/// and the SIDE view as tall as its y range (at least [`MIN_PLOT_H`]).
pub(super) fn layout(shapes: &[StyledShape<'_>], rays: &[DrawRay<'_>], width: f64) -> [Panel; 2] {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    let mut grow = |a: [f64; 3], b: [f64; 3]| {
        for k in 0..3 {
            lo[k] = lo[k].min(a[k]);
            hi[k] = hi[k].max(b[k]);
        }
    };
    for s in shapes {
        let (a, b) = bounds(s.shape);
        grow(a, b);
    }
    for r in rays {
        for q in [Some(r.from), Some(r.to), r.hit].into_iter().flatten() {
            let q = geom::point(&q);
            grow(q, q);
        }
    }
    layout_box(lo, hi, width)
}

/// The two panels for content within the world box `lo`..`hi` (as [`layout`]).
pub(super) fn layout_box(mut lo: [f64; 3], mut hi: [f64; 3], width: f64) -> [Panel; 2] {
    if !(lo.iter().chain(&hi).all(|x| x.is_finite())) {
        // Empty scene (or coordinates beyond f64 range: then the picture is not meaningful).
        (lo, hi) = ([-1.0; 3], [1.0; 3]);
    }
    let ext: [f64; 3] = core::array::from_fn(|k| hi[k] - lo[k]);
    let mut largest = ext.iter().fold(0.0_f64, |m, &e| m.max(e));
    if !(largest.is_finite() && largest > 0.0) {
        // Everything at one point: any scale shows it; one world unit across.
        largest = 1.0;
    }
    let span: [f64; 3] = core::array::from_fn(|k| ext[k] + 2.0 * MARGIN * largest);
    let panel_w = (width - 2.0 * PAD - GAP) / 2.0;
    let room_w = panel_w - GUTTER_L - GUTTER_R;
    let tall = span[1].max(span[2]);
    let mut scale = (room_w / span[0]).min(room_w * MAX_ASPECT / tall);
    if !(scale.is_finite() && scale > 0.0) {
        scale = 1.0;
    }
    // Cropped to the x range unless that is narrower than a readable plot.
    let plot_w = (span[0] * scale).clamp(MIN_PLOT_W.min(room_w), room_w);
    let centre: [f64; 3] = core::array::from_fn(|k| 0.5 * lo[k] + 0.5 * hi[k]);
    let u0 = centre[0] - plot_w / (2.0 * scale);
    let y0 = PAD + TITLE_H + CAPTION_H;
    View::ALL.map(|view| {
        let i = match view {
            View::Top => 0.0,
            View::Side => 1.0,
        };
        let v = view.v_index();
        let plot_h = (span[v] * scale).max(MIN_PLOT_H);
        Panel {
            view,
            x0: PAD + i * (panel_w + GAP) + GUTTER_L,
            y0,
            w: plot_w,
            h: plot_h,
            scale,
            u0,
            // The v at the top edge: the smallest z (Top, z down) or the largest y (Side).
            v_top: centre[v] - view.v_down() * plot_h / (2.0 * scale),
        }
    })
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

pub(super) fn draw_grid(out: &mut String, p: &Panel) {
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
