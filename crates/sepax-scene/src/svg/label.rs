//! Text labels: greedy placement that avoids what was placed before, and the haloed text.

use core::fmt::Write as _;

use super::geom::P2;
use super::text::{escape, px};

/// Greedy label placement inside a rectangle, avoiding what was placed before.
pub(super) struct Placer {
    pub(super) area: (f64, f64, f64, f64),
    pub(super) taken: Vec<(f64, f64, f64, f64)>,
}

impl Placer {
    /// Keeps the rectangle free of labels placed later.
    pub(super) fn block(&mut self, r: (f64, f64, f64, f64)) {
        self.taken.push(r);
    }

    /// Picks, among candidate top-left corners, the first whose `w × h` box overlaps nothing
    /// taken (else the least overlapping), moved inside the area; returns its top-left corner,
    /// or `None` (placing nothing) when the best still covers more than `max_overlap` of the
    /// box's area with earlier labels.
    pub(super) fn place(
        &mut self,
        candidates: &[P2],
        w: f64,
        h: f64,
        max_overlap: f64,
    ) -> Option<P2> {
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
pub(super) fn write_label(
    out: &mut String,
    at: P2,
    text: &str,
    class: &str,
    colour: &str,
    size: f64,
) {
    w!(
        out,
        "<text class=\"{class}\" x=\"{}\" y=\"{}\" font-size=\"{size}\" fill=\"{colour}\" \
         stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\">{}</text>\n",
        px(at.x),
        px(at.y + 0.8 * size * 1.2),
        escape(text)
    );
}
