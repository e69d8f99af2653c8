//! Box pairs (OBB–OBB, AABB–OBB, OBB–AABB): certified classification and the witness.
//!
//! The filter (`sat/fast.rs`) decides almost every pair in `Real` arithmetic; the rest goes
//! to the f64 facet test ([`crate::sat::certified`]). An AABB is always put in the role of `A`
//! so that the rotation `R = B` is exact.

use crate::sat::certified::{self, AxisSlack};
use crate::sat::fast::{self, FastVerdict};
use crate::sat::{BoxFrame, Classification, SatAxis};
use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::{Aabb, Obb};

/// A box, axis-aligned or oriented: what [`classify`], [`intersects`](crate::intersect::intersects) and [`explain`] take.
pub trait BoxShape {
    /// The box as the SAT kernels see it.
    fn frame(&self) -> BoxFrame;
    /// Which kind of box this is (resolved at compile time after inlining).
    fn as_box(&self) -> BoxRef<'_>;
}

/// A borrowed box of either kind.
#[derive(Debug, Clone, Copy)]
pub enum BoxRef<'a> {
    /// An axis-aligned box.
    Aabb(&'a Aabb),
    /// An oriented box.
    Obb(&'a Obb),
}

impl BoxShape for Aabb {
    #[inline]
    fn frame(&self) -> BoxFrame {
        BoxFrame::from(self)
    }
    #[inline(always)]
    fn as_box(&self) -> BoxRef<'_> {
        BoxRef::Aabb(self)
    }
}

impl BoxShape for Obb {
    #[inline]
    fn frame(&self) -> BoxFrame {
        BoxFrame::from(self)
    }
    #[inline(always)]
    fn as_box(&self) -> BoxRef<'_> {
        BoxRef::Obb(self)
    }
}

/// The f64 facet test, out of line: only pairs the filter cannot decide get here.
#[cold]
#[inline(never)]
fn undecided(a: BoxFrame, b: BoxFrame) -> Classification {
    #[cfg(feature = "f64")]
    let (a, b) = in_certified_range(a, b);
    certified::classify(&a, &b)
}

/// The f64 stage forms products of up to four coordinates (and their rounding errors by
/// TwoProduct), which overflow beyond about `1e150` and turn subnormal below about `1e-150`:
/// such pairs are rescaled by a power of two (exact; components that become subnormal are
/// negligible against the magnitude that chose it) so that the stage can still decide them.
/// Needed only in the f64 build: f32 inputs are far inside the range of f64.
#[cfg(feature = "f64")]
fn in_certified_range(mut a: BoxFrame, mut b: BoxFrame) -> (BoxFrame, BoxFrame) {
    let mag = |f: &BoxFrame| f.center.amax().max(f.half.amax());
    let k = crate::geometry::robust::pow2_scale(mag(&a).max(mag(&b)), 2.0f64.powi(400));
    if k != 1.0 {
        for f in [&mut a, &mut b] {
            f.center *= k;
            f.center_lo *= k;
            f.half *= k;
            f.half_lo *= k;
        }
    }
    (a, b)
}

#[inline(always)]
fn from_fast(v: FastVerdict, a: BoxRef<'_>, b: BoxRef<'_>) -> Classification {
    let frame = |x: BoxRef<'_>| match x {
        BoxRef::Aabb(x) => BoxFrame::from(x),
        BoxRef::Obb(x) => BoxFrame::from(x),
    };
    match v {
        FastVerdict::Separated => Classification::Separated,
        FastVerdict::Overlapping => Classification::Overlapping,
        FastVerdict::Undecided => undecided(frame(a), frame(b)),
    }
}

/// Certified classification of two boxes: [`Classification::Separated`] or
/// [`Classification::Overlapping`] only when proven despite rounding, otherwise
/// [`Classification::Uncertain`] (the exact answer lies within the documented band, see
/// docs/tolerance.md). AABB pairs are decided exactly by comparisons.
#[inline(always)]
pub fn classify<A: BoxShape + ?Sized, B: BoxShape + ?Sized>(a: &A, b: &B) -> Classification {
    match (a.as_box(), b.as_box()) {
        (BoxRef::Aabb(x), BoxRef::Aabb(y)) => {
            if crate::intersect::aabb_aabb::intersects(x, y) {
                Classification::Overlapping
            } else {
                Classification::Separated
            }
        }
        // The verdict is symmetric; an AABB goes first so that R is exact.
        (BoxRef::Aabb(x), BoxRef::Obb(y)) | (BoxRef::Obb(y), BoxRef::Aabb(x)) => {
            from_fast(fast::aabb_obb(x, y), BoxRef::Aabb(x), BoxRef::Obb(y))
        }
        (BoxRef::Obb(x), BoxRef::Obb(y)) => {
            from_fast(fast::obb_obb(x, y), BoxRef::Obb(x), BoxRef::Obb(y))
        }
    }
}

/// Whether two boxes intersect; [`Classification::Uncertain`] counts as touching, so an
/// intersecting pair is never reported as separated.
#[inline(always)]
pub fn intersects<A: BoxShape + ?Sized, B: BoxShape + ?Sized>(a: &A, b: &B) -> bool {
    classify(a, b) != Classification::Separated
}

/// Why two boxes touch or not: the witness axis and what happens along it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct BoxWitness {
    /// The certified verdict (as [`classify`]).
    pub classification: Classification,
    /// When separated: the axis with the largest gap. Otherwise: the axis of least overlap (the
    /// first in [`SatAxis::ALL`] order among axes tied within the rounding bound, so faces win
    /// ties).
    pub axis: SatAxis,
    /// The axis as a unit vector in world space, oriented from A's centre toward B's.
    pub direction: Vector3,
    /// Signed distance along `direction`: the gap (> 0) when separated, minus the overlap depth
    /// (<= 0) otherwise.
    pub distance: Real,
    /// A's projection onto `direction` (world coordinates along the axis): `[min, max]`.
    pub interval_a: [Real; 2],
    /// B's projection onto `direction`: `[min, max]`.
    pub interval_b: [Real; 2],
}

/// The witness for a box pair: which of the 15 SAT axes separates them (with its direction and
/// gap) or, when they overlap, the axis of least overlap and the depth along it. The signs
/// always agree with the verdict: `distance > 0` when Separated, `<= 0` when Overlapping.
pub fn explain<A: BoxShape + ?Sized, B: BoxShape + ?Sized>(a: &A, b: &B) -> BoxWitness {
    if let (BoxRef::Aabb(x), BoxRef::Aabb(y)) = (a.as_box(), b.as_box()) {
        return explain_aabb_aabb(x, y);
    }
    let (fa, fb) = (a.frame(), b.frame());
    let classification = classify(a, b);
    let slacks = certified::axis_slacks(&fa, &fb);
    let separated = classification == Classification::Separated;
    // Minimise the normalised slack: the largest gap when separated (among the axes that
    // certify it), the least overlap otherwise. An axis replaces the best so far only when
    // lower by more than both rounding bounds, so faces (tested first) win ties.
    let mut best: Option<(&AxisSlack, f64, f64)> = None;
    let candidates = slacks
        .iter()
        .filter(|s| s.norm > 0.0 && s.slack.is_finite() && (!separated || s.slack < -s.bound));
    for s in candidates {
        let value = s.slack / s.norm;
        let tol = s.bound / s.norm;
        if best.is_none_or(|(_, v, t)| value < v - (t + tol)) {
            best = Some((s, value, tol));
        }
    }
    let Some((s, value, _)) = best else {
        // Every axis degenerate or non-finite (f64 inputs beyond ~1e150): no witness.
        return BoxWitness {
            classification,
            axis: SatAxis::FaceA(0),
            direction: Vector3::x(),
            distance: 0.0,
            interval_a: [0.0, 0.0],
            interval_b: [0.0, 0.0],
        };
    };
    let sign = if s.along < 0.0 { -1.0 } else { 1.0 };
    let n: [f64; 3] = core::array::from_fn(|k| sign * s.vector[k] / s.norm);
    let interval = |f: &BoxFrame| -> [Real; 2] {
        let c: [f64; 3] = core::array::from_fn(|k| f.center[k] as f64 + f.center_lo[k] as f64);
        let mid = n[0] * c[0] + n[1] * c[1] + n[2] * c[2];
        let mut r = 0.0;
        for k in 0..3 {
            let col = f.axes.column(k);
            let h = f.half[k] as f64 + f.half_lo[k] as f64;
            r += h * (n[0] * col[0] as f64 + n[1] * col[1] as f64 + n[2] * col[2] as f64).abs();
        }
        [(mid - r) as Real, (mid + r) as Real]
    };
    BoxWitness {
        classification,
        axis: s.axis,
        direction: Vector3::new(n[0] as Real, n[1] as Real, n[2] as Real),
        distance: (-value) as Real,
        interval_a: interval(&fa),
        interval_b: interval(&fb),
    }
}

/// The witness of two AABBs, exactly: each per-axis gap `min_B - max_A` or `min_A - max_B` is
/// one rounded subtraction, whose sign is the exact sign.
fn explain_aabb_aabb(a: &Aabb, b: &Aabb) -> BoxWitness {
    let (amin, amax, bmin, bmax) = (a.min(), a.max(), b.min(), b.max());
    // Per axis: (signed distance, B on the positive side?).
    let along = |k: usize| -> (Real, bool) {
        let (above, below) = (bmin[k] - amax[k], amin[k] - bmax[k]);
        if above > 0.0 || below > 0.0 {
            // Separated on this axis: the gap.
            if above >= below {
                (above, true)
            } else {
                (below, false)
            }
        } else {
            // Overlapping: minus the smaller of the two overlaps, pushing B the short way.
            let (up, down) = (amax[k] - bmin[k], bmax[k] - amin[k]);
            if up <= down {
                (-up, true)
            } else {
                (-down, false)
            }
        }
    };
    let per_axis = [along(0), along(1), along(2)];
    let separated = per_axis.iter().any(|(d, _)| *d > 0.0);
    // Separated: the largest gap; overlapping: the least overlap (the largest of -depth).
    let mut k = 0;
    for i in 1..3 {
        if per_axis[i].0 > per_axis[k].0 {
            k = i;
        }
    }
    let (distance, positive) = per_axis[k];
    let s: Real = if positive { 1.0 } else { -1.0 };
    let project = |lo: Real, hi: Real| if positive { [lo, hi] } else { [-hi, -lo] };
    BoxWitness {
        classification: if separated {
            Classification::Separated
        } else {
            Classification::Overlapping
        },
        axis: SatAxis::FaceA(k as u8),
        direction: Vector3::ith(k, s),
        distance,
        interval_a: project(amin[k], amax[k]),
        interval_b: project(bmin[k], bmax[k]),
    }
}
