//! A box pair's separating-axis witness: the axis through the midpoint of the centres and the
//! two boxes' intervals along it, with its label.

use core::fmt::Write as _;

use sepax_narrowphase::intersect::{BoxWitness, Classification};

use super::geom::{centre, clip_segment, dot3, vector, wide, P2};
use super::label::Placer;
use super::outline::bbox;
use super::panel::Panel;
use super::text::{self, escape, px, value};
use super::{DrawWitness, StyledShape};
use super::{AXIS, BAR_OFFSET, BAR_WIDTH, COLOUR_A, COLOUR_B, FONT, MIN_AXIS_PROJECTION};

/// `gap 0.5`, `depth 0.25` or `touching, distance 0` for a witness.
pub(super) fn measure(w: &BoxWitness) -> String {
    let d = wide(w.distance);
    match w.classification {
        Classification::Separated => format!("gap {}", value(d)),
        Classification::Overlapping => format!("depth {}", value(-d)),
        Classification::Uncertain => format!("touching, distance {}", value(d)),
    }
}

pub(super) fn verdict(w: &BoxWitness) -> &'static str {
    match w.classification {
        Classification::Separated => "separated",
        Classification::Overlapping => "overlapping",
        Classification::Uncertain => "touching (within the rounding band)",
    }
}

/// The witness direction as a finite unit `f64` vector, if it is one.
pub(super) fn unit_direction(w: &BoxWitness) -> Option<[f64; 3]> {
    let d = vector(&w.direction);
    let n = dot3(d, d).sqrt();
    (n.is_finite() && n > 0.0).then(|| d.map(|x| x / n))
}

/// A witness label waiting for placement.
pub(super) struct PendingLabel {
    pub(super) text: String,
    pub(super) candidates: Vec<P2>,
    pub(super) w: f64,
    pub(super) h: f64,
}

/// Draws the witness graphics of one view (axis line and the two intervals) and returns the
/// label to place, or `None` when the witness is not drawn in this view.
pub(super) fn draw_witness(
    out: &mut String,
    p: &Panel,
    number: usize,
    dw: &DrawWitness,
    shapes: &[StyledShape<'_>],
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
