//! The zonotope-facet test in `f64` with near-exact cross products: the fallback for what the
//! filter leaves undecided, and the source of the witness.
//!
//! For each of the 15 axes `L = x × y` (`x`, `y` two of the six box axes, as stored) the slack
//! `f(L) = sum_k h_A,k |L . a_k| + sum_k h_B,k |L . b_k| - |L . p|` is computed in f64. The cross
//! product is formed with error-free products (exact in f64 for f32 inputs; Dekker's TwoProduct
//! in the f64 build), so its relative error is about `2u` per component and the absolute error
//! of `f` is proportional to `|L|`, however short `L` is (near-parallel edges). With `S = sum h_A + sum h_B + |p|_2` (+ centre residues):
//!
//! ```text
//! |f~(L) - f(L)| <= CERT_ROUNDING_FACTOR * u64 * |L~|_2 * S
//! ```
//! Every facet normal of the zonotope is one of these `L` (as a direction) and `f(L) >= 0` for
//! every `L` when the boxes intersect, so: one `f~ < -bound` certifies separation; all non-zero
//! `L` with `f~ > +bound` certify intersection (a rank-deficient zonotope always has an `L`
//! normal to it among the 15, whose slack is `<= 0`, so flat cases are never over-claimed).

use super::{BoxFrame, Classification, SatAxis};

use sepax_shapes::tolerance::CERT_ROUNDING_FACTOR;

/// A box in f64.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Box64 {
    /// Leading part of the centre.
    pub(crate) c: [f64; 3],
    /// Trailing part of the centre.
    pub(crate) c_lo: [f64; 3],
    /// Axes (`axes[k]` is axis `k`).
    pub(crate) axes: [[f64; 3]; 3],
    /// Half-extents (exact: `half + half_lo`).
    pub(crate) h: [f64; 3],
}

impl From<&BoxFrame> for Box64 {
    fn from(b: &BoxFrame) -> Self {
        Box64 {
            c: [b.center.x as f64, b.center.y as f64, b.center.z as f64],
            c_lo: [
                b.center_lo.x as f64,
                b.center_lo.y as f64,
                b.center_lo.z as f64,
            ],
            axes: core::array::from_fn(|k| {
                let col = b.axes.column(k);
                [col[0] as f64, col[1] as f64, col[2] as f64]
            }),
            h: core::array::from_fn(|k| b.half[k] as f64 + b.half_lo[k] as f64),
        }
    }
}

/// `x × y` with a relative error of at most `2u` (f64) per component.
///
/// In the f32 build the inputs are f32 values: their products are exact in f64, so each
/// component `a*b - c*d` is rounded once (relative error <= u).
#[cfg(not(feature = "f64"))]
#[inline(always)]
pub(crate) fn cross(x: &[f64; 3], y: &[f64; 3]) -> [f64; 3] {
    [
        x[1] * y[2] - x[2] * y[1],
        x[2] * y[0] - x[0] * y[2],
        x[0] * y[1] - x[1] * y[0],
    ]
}

/// `x × y` with a relative error of at most `2u` per component.
///
/// In the f64 build each component `a*b - c*d` is formed from error-free products
/// (Dekker's TwoProduct with Veltkamp splitting, no FMA needed): `(p1 - p2) + (e1 - e2)`, whose
/// error is at most `2u |ab - cd| + 2u^2 (|ab| + |cd|)`: relative `2u` plus an absolute floor of
/// `4u^2` for unit-length axes, which the bound of [`axis_slacks`] includes.
#[cfg(feature = "f64")]
#[inline(always)]
pub(crate) fn cross(x: &[f64; 3], y: &[f64; 3]) -> [f64; 3] {
    [
        diff_of_products(x[1], y[2], x[2], y[1]),
        diff_of_products(x[2], y[0], x[0], y[2]),
        diff_of_products(x[0], y[1], x[1], y[0]),
    ]
}

#[cfg(feature = "f64")]
#[inline(always)]
fn split(a: f64) -> (f64, f64) {
    // Veltkamp: 2^27 + 1. Inputs are unit-ish axis components, far from overflow.
    let c = 134_217_729.0 * a;
    let hi = c - (c - a);
    (hi, a - hi)
}

#[cfg(feature = "f64")]
#[inline(always)]
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let e = al * bl - (((p - ah * bh) - al * bh) - ah * bl);
    (p, e)
}

#[cfg(feature = "f64")]
#[inline(always)]
fn diff_of_products(a: f64, b: f64, c: f64, d: f64) -> f64 {
    let (p1, e1) = two_product(a, b);
    let (p2, e2) = two_product(c, d);
    (p1 - p2) + (e1 - e2)
}

#[inline(always)]
pub(crate) fn dot(x: &[f64; 3], y: &[f64; 3]) -> f64 {
    x[0] * y[0] + x[1] * y[1] + x[2] * y[2]
}

/// One axis of the facet test: the computed slack, its rounding bound, and the axis.
#[derive(Debug, Clone, Copy)]
pub struct AxisSlack {
    /// Which of the 15 axes.
    pub axis: SatAxis,
    /// The axis vector `L` as computed (not normalised), in world space.
    pub vector: [f64; 3],
    /// `|L|_2`.
    pub norm: f64,
    /// The computed slack `f(L) = r_A(L) + r_B(L) - |along|` (negative: `L` separates).
    pub slack: f64,
    /// The proven bound on the slack's error (it covers the rounding of the radius sum and of
    /// `along`).
    pub bound: f64,
    /// `L . p` (its sign orients the axis from A toward B).
    pub along: f64,
}

/// The pair in f64, ready for the facet test.
pub(crate) struct Pair64 {
    /// Box A.
    pub(crate) a: Box64,
    /// Box B.
    pub(crate) b: Box64,
    /// `c_B - c_A` (within 2 ulps).
    pub(crate) p: [f64; 3],
    /// The scale `S` of the bound.
    pub(crate) s: f64,
}

impl Pair64 {
    /// The pair of two frames.
    pub(crate) fn new(a: &BoxFrame, b: &BoxFrame) -> Self {
        let (a, b) = (Box64::from(a), Box64::from(b));
        let p: [f64; 3] = core::array::from_fn(|k| (b.c[k] - a.c[k]) + (b.c_lo[k] - a.c_lo[k]));
        let lo: f64 = (0..3).map(|k| a.c_lo[k].abs() + b.c_lo[k].abs()).sum();
        let s = a.h[0] + a.h[1] + a.h[2] + b.h[0] + b.h[1] + b.h[2] + dot(&p, &p).sqrt() + lo;
        // Axes are unit within 1e-4 (checked constructors), so |a_k|_2 <= 1.0001 covers them.
        Pair64 {
            a,
            b,
            p,
            s: s * 1.0001,
        }
    }

    /// The vector `L~` of one axis and its radius sum `r_A(L~) + r_B(L~)` (the single source
    /// of both for the facet test and the sweep). `L . x` is exactly 0 for the two axes `L` is
    /// the cross product of, so those terms are left out (exactly), four products remain.
    #[inline(always)]
    pub(crate) fn axis_radius(&self, axis: SatAxis) -> ([f64; 3], f64) {
        let (a, b) = (&self.a, &self.b);
        let term = |h: f64, l: &[f64; 3], x: &[f64; 3]| h * dot(l, x).abs();
        match axis {
            SatAxis::FaceA(i) => {
                let i = i as usize;
                let l = cross(&a.axes[(i + 1) % 3], &a.axes[(i + 2) % 3]);
                let r = term(a.h[i], &l, &a.axes[i])
                    + term(b.h[0], &l, &b.axes[0])
                    + term(b.h[1], &l, &b.axes[1])
                    + term(b.h[2], &l, &b.axes[2]);
                (l, r)
            }
            SatAxis::FaceB(j) => {
                let j = j as usize;
                let l = cross(&b.axes[(j + 1) % 3], &b.axes[(j + 2) % 3]);
                let r = term(a.h[0], &l, &a.axes[0])
                    + term(a.h[1], &l, &a.axes[1])
                    + term(a.h[2], &l, &a.axes[2])
                    + term(b.h[j], &l, &b.axes[j]);
                (l, r)
            }
            SatAxis::Edge(i, j) => {
                let (i, j) = (i as usize, j as usize);
                let l = cross(&a.axes[i], &b.axes[j]);
                let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
                let r = term(a.h[i1], &l, &a.axes[i1])
                    + term(a.h[i2], &l, &a.axes[i2])
                    + term(b.h[j1], &l, &b.axes[j1])
                    + term(b.h[j2], &l, &b.axes[j2]);
                (l, r)
            }
        }
    }

    /// The slack of one axis ([`Pair64::axis_radius`]) with its rounding bound.
    #[inline(always)]
    pub(crate) fn slack(&self, axis: SatAxis) -> AxisSlack {
        let (l, radii) = self.axis_radius(axis);
        let along = dot(&l, &self.p);
        let norm = dot(&l, &l).sqrt();
        let unit = f64::EPSILON / 2.0;
        // |L~ - L| <= 2u|L| + 7u^2 (the floor only matters for axes within ~1e-16 rad of
        // parallel in the f64 build).
        let bound = CERT_ROUNDING_FACTOR * unit * (norm + 8.0 * unit) * self.s;
        AxisSlack {
            axis,
            vector: l,
            norm,
            slack: radii - along.abs(),
            bound,
            along,
        }
    }
}

/// All 15 axes of the pair `(a, b)`, with slacks and bounds, in [`SatAxis::ALL`] order.
pub fn axis_slacks(a: &BoxFrame, b: &BoxFrame) -> [AxisSlack; 15] {
    let pair = Pair64::new(a, b);
    SatAxis::ALL.map(|axis| pair.slack(axis))
}

/// The certified verdict of the facet test, stopping at the first axis that certifies
/// separation.
///
/// Boxes with bit-identical axes (stacks and grids built from one rotation, the common case of
/// resting contact) need only A's three face axes: `b_i x b_j = a_i x a_j` is the same vector,
/// `a_i x b_i = 0` exactly, and `a_i x b_j` (i != j) is a face normal again, so the other twelve
/// slacks are exact repeats or carry no facet.
pub fn classify(a: &BoxFrame, b: &BoxFrame) -> Classification {
    let pair = Pair64::new(a, b);
    let axes: &[SatAxis] = if pair.a.axes == pair.b.axes {
        &SatAxis::ALL[..3]
    } else {
        &SatAxis::ALL
    };
    verdict_of(axes.iter().map(|&axis| pair.slack(axis)))
}

/// One certified separating axis decides; otherwise every facet must be certified
/// overlapping (and at least one facet must exist).
fn verdict_of(slacks: impl Iterator<Item = AxisSlack>) -> Classification {
    let mut all_certain_overlap = true;
    let mut any_axis = false;
    for s in slacks {
        match judge(&s) {
            Judgement::Separates => return Classification::Separated,
            Judgement::Overlaps => any_axis = true,
            Judgement::Undecided => {
                any_axis = true;
                all_certain_overlap = false;
            }
            Judgement::NoFacet => {}
        }
    }
    if any_axis && all_certain_overlap {
        Classification::Overlapping
    } else {
        Classification::Uncertain
    }
}

enum Judgement {
    Separates,
    Overlaps,
    Undecided,
    NoFacet,
}

#[inline(always)]
fn judge(s: &AxisSlack) -> Judgement {
    if s.norm == 0.0 {
        // L~ = 0 iff L = 0 (relative error): parallel axes, no facet.
        Judgement::NoFacet
    } else if s.slack < -s.bound {
        Judgement::Separates
    } else if s.slack > s.bound {
        Judgement::Overlaps
    } else {
        // Includes NaN (overflow beyond ~1e150): never certified.
        Judgement::Undecided
    }
}
