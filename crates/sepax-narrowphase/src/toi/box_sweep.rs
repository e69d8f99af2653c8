//! Time of impact of two translating boxes (AABB or OBB in any mix) in closed form: the
//! separating-axis sweep.
//!
//! Under pure translation the offset between the centres is `p(t) = p + w t` (`w = v_B − v_A`)
//! and the boxes keep their axes, so the 15 SAT directions `L = x × y` of `sat::certified` (3
//! faces of A, 3 of B, 9 edge crosses) are fixed. The boxes overlap at time `t` iff
//! `|L·p(t)| <= r(L)` for every non-zero `L` (`r(L) = Σ h_A,k |L·a_k| + Σ h_B,k |L·b_k|`),
//! so each axis admits the interval of times
//!
//! ```text
//! |L·p + (L·w) t| <= r(L)   <=>   t in [(−r − σ L·p) / |L·w|, (r − σ L·p) / |L·w|],  σ = sign(L·w)
//! ```
//!
//! (all times or none when `L·w = 0`), and the first contact is the largest entry time if it
//! does not pass the smallest exit time. Everything is computed in `f64` with the cross products
//! of `sat::certified` (accurate relative to `|L|`, so nearly parallel edges keep their
//! accuracy and exactly parallel ones give no axis). Each radius is widened by the proven bound
//! on the rounding of `r`, `L·p` and `L·w` over `[0, t_max]`, and each entry (exit) time is
//! moved down (up) by `4u` of itself: every computed interval contains the exact one, so the
//! largest entry time is never later than the exact first contact (docs/tolerance.md §8).
//!
//! The axis that attains the largest entry time gives the normal (from A toward B). The witness
//! points come from the supporting features along it at the reported time: a vertex against a
//! face (the vertex and its closest point on the other box), two edges (their closest points),
//! two AABB faces (the middle of the overlap of their rectangles); any other configuration
//! (parallel faces of rotated boxes) takes the closest points of the two boxes, as the
//! advancement loop does.
//!
//! Pairs within the advancement loop's allowance of touching at time 0, and passes within it
//! (near misses and grazing contacts: the intervals grown by that margin meet but the shrunk
//! ones do not), are left to the loop, so those decisions stay what they were.

use sepax_shapes::math::{Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::Shape;

use super::{Toi, ToiStatus};
use crate::distance::rounded_core_points;
use crate::gjk::{norm_safe, ConvexCore};
use crate::sat::certified::{dot, Box64, Pair64};
use crate::sat::{BoxFrame, SatAxis};
use sepax_shapes::tolerance::{CERT_ROUNDING_FACTOR, TOI_DISTANCE_ALLOWANCE};

/// Unit roundoff of `f64`.
const U: f64 = f64::EPSILON / 2.0;

/// What the sweep proved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Sweep {
    /// No contact in `[0, t_max]`.
    Miss,
    /// Every interval contains time 0 (the boxes may touch at the start), or no axis constrains
    /// the motion: the caller decides with the distance (the started-in-contact contract).
    AtStart,
    /// A near miss or a grazing contact (within the caller's `pass` margin of touching), or
    /// an intermediate value overflowed: the caller decides.
    Unknown,
    /// No contact before `time` (`0 < time <= t_max`); `axis` attains the largest entry time,
    /// `dir` is its vector oriented from A toward B at that time, `norm` its length.
    Hit {
        time: f64,
        axis: SatAxis,
        dir: [f64; 3],
        norm: f64,
    },
}

/// The running state of the sweep over the axes.
struct State {
    w: [f64; 3],
    w_norm: f64,
    t_max: f64,
    near: f64,
    /// The margin of a near miss (per unit of `|L|`).
    pass: f64,
    t_in: f64,
    t_out: f64,
    /// The same with every radius grown by `pass |L|`, and shrunk by it.
    t_in_loose: f64,
    t_out_loose: f64,
    t_in_shrunk: f64,
    t_out_shrunk: f64,
    /// The axis attaining `t_in`, its vector oriented toward B, its length.
    best: Option<(SatAxis, [f64; 3], f64)>,
    /// Every axis so far within `near` of overlapping at time 0.
    close: bool,
    /// The intervals so far exclude every time in `[0, t_max]`.
    missed: bool,
    /// The grown intervals so far exclude every time in `[0, t_max]`.
    missed_loose: bool,
    /// The shrunk intervals so far exclude every time in `[0, t_max]`.
    missed_shrunk: bool,
    /// `|L~ − L| <= 2u|L| + 7u^2`, slack bound factor (`CERT_ROUNDING_FACTOR u S`).
    bound_factor: f64,
}

impl State {
    /// One axis `l` (`L~`, computed as in `sat::certified`) with radius sum `r` and
    /// `along = L~·p`. Returns `false` when the grown intervals prove a miss and no start
    /// contact is possible (the sweep can stop), `None` on overflow.
    #[inline(always)]
    fn axis(&mut self, axis: SatAxis, l: &[f64; 3], r: f64, along: f64) -> Option<bool> {
        let norm_sq = dot(l, l);
        if norm_sq == 0.0 {
            // Exactly parallel axes (L~ = 0 iff L = 0): no facet.
            return Some(true);
        }
        let norm = norm_sq.sqrt();
        // The bound of `sat::certified` on |r~ − r| + |along~ − along|.
        let bound = self.bound_factor * (norm + 8.0 * U);
        self.close = self.close && along.abs() - r <= self.near * norm;
        let v = dot(l, &self.w);
        // |v~ − L·w| <= |L~ − L||w| + |L~||w~ − w| + γ3 |L~||w~| <= 7u (|L~| + 8u) |w~|.
        let bound_v = 8.0 * U * (norm + 8.0 * U) * self.w_norm;
        // The widened radius: r~ + (error of r~ and of L·p) + (error of L·w) t_max, rounded up.
        let k = (r + bound + bound_v * self.t_max) * (1.0 + 4.0 * U);
        if !(k.is_finite() && v.is_finite() && along.is_finite()) {
            return None;
        }
        let grow = self.pass * norm;
        if v == 0.0 {
            // |L~·p| <= k at every time, or at none.
            self.missed |= along.abs() > k;
            self.missed_loose |= along.abs() > k + grow;
            self.missed_shrunk |= along.abs() > k - grow;
        } else {
            let (along, speed) = if v > 0.0 { (along, v) } else { (-along, -v) };
            // Each bound is (numerator) x (1 / speed): three roundings (relative γ3 < 4u), so
            // moved by 4u of itself, plus the smallest normal number against underflow.
            let inv = 1.0 / speed;
            let lo = (-k - along) * inv;
            let lo = lo - 4.0 * U * lo.abs() - f64::MIN_POSITIVE;
            let hi = (k - along) * inv;
            let hi = hi + 4.0 * U * hi.abs() + f64::MIN_POSITIVE;
            if lo > self.t_in {
                self.t_in = lo;
                // At the entry time L·p(t) = −σ k: B lies on the −σ side of L.
                let sign = if v > 0.0 { -1.0 } else { 1.0 };
                self.best = Some((axis, [l[0] * sign, l[1] * sign, l[2] * sign], norm));
            }
            self.t_out = self.t_out.min(hi);
            // The grown and shrunk intervals (no rounding direction needed: they only choose
            // between two correct paths, and the grown ones contain the tight ones).
            let g = grow * inv;
            self.t_in_loose = self.t_in_loose.max(lo - g);
            self.t_out_loose = self.t_out_loose.min(hi + g);
            self.t_in_shrunk = self.t_in_shrunk.max(lo + g);
            self.t_out_shrunk = self.t_out_shrunk.min(hi - g);
            if self.t_in_loose > self.t_out_loose
                || self.t_in_loose > self.t_max
                || self.t_out_loose < 0.0
            {
                self.missed_loose = true;
            }
        }
        Some(!self.missed_loose || self.close)
    }
}

/// The sweep of the module docs on the pair `pair` with relative velocity `w` (B's minus A's,
/// in `f64`, computed with one rounding at most) over `[0, t_max]`. The axes and slacks are
/// those of `sat::certified` (its `Pair64::axis_radius`, same bound), unrolled.
///
/// Pairs whose SAT gap at time 0 (the largest `−f(L) / |L|`) is at most `near` are reported as
/// [`Sweep::AtStart`] whatever the motion, so that the caller's distance test decides a start
/// in contact exactly as it would without the sweep; pairs that would meet with every radius
/// grown by `pass |L|` but not with every radius shrunk by it (a pass within about `pass` of
/// touching, a grazing contact or a near miss) as [`Sweep::Unknown`], so that the caller's
/// allowance decides them as it would without the sweep.
#[inline]
pub(crate) fn sweep(pair: &Pair64, w: &[f64; 3], t_max: f64, near: f64, pass: f64) -> Sweep {
    let mut st = State {
        w: *w,
        w_norm: dot(w, w).sqrt(),
        t_max,
        near,
        pass,
        t_in: f64::NEG_INFINITY,
        t_out: f64::INFINITY,
        t_in_loose: f64::NEG_INFINITY,
        t_out_loose: f64::INFINITY,
        t_in_shrunk: f64::NEG_INFINITY,
        t_out_shrunk: f64::INFINITY,
        best: None,
        close: true,
        missed: false,
        missed_loose: false,
        missed_shrunk: false,
        bound_factor: CERT_ROUNDING_FACTOR * U * pair.s,
    };
    let (a, b, p) = (&pair.a, &pair.b, &pair.p);
    // One axis with its vector and radius sum from `Pair64::axis_radius` (`0.0 +` keeps a
    // zero sum `+0`, as the sum from `0.0` gave it); leaves the closure early when the sweep
    // is decided.
    macro_rules! axis {
        ($axis:expr) => {{
            let (l, r) = pair.axis_radius($axis);
            if !st.axis($axis, &l, 0.0 + r, dot(&l, p))? {
                return Some(());
            }
        }};
    }
    let go = (|| {
        axis!(SatAxis::FaceA(0));
        axis!(SatAxis::FaceA(1));
        axis!(SatAxis::FaceA(2));
        // Identical axes: the 12 other directions repeat A's face normals or vanish (see
        // `certified::classify`).
        if a.axes == b.axes {
            return Some(());
        }
        axis!(SatAxis::FaceB(0));
        axis!(SatAxis::FaceB(1));
        axis!(SatAxis::FaceB(2));
        axis!(SatAxis::Edge(0, 0));
        axis!(SatAxis::Edge(0, 1));
        axis!(SatAxis::Edge(0, 2));
        axis!(SatAxis::Edge(1, 0));
        axis!(SatAxis::Edge(1, 1));
        axis!(SatAxis::Edge(1, 2));
        axis!(SatAxis::Edge(2, 0));
        axis!(SatAxis::Edge(2, 1));
        axis!(SatAxis::Edge(2, 2));
        Some(())
    })();
    if go.is_none() {
        return Sweep::Unknown;
    }
    let outside = |t_in: f64, t_out: f64| t_in > t_out || t_in > t_max || t_out < 0.0;
    if st.close {
        return Sweep::AtStart;
    }
    if st.missed_loose || outside(st.t_in_loose, st.t_out_loose) {
        return Sweep::Miss;
    }
    if st.missed
        || outside(st.t_in, st.t_out)
        || st.missed_shrunk
        || outside(st.t_in_shrunk, st.t_out_shrunk)
    {
        return Sweep::Unknown;
    }
    match st.best {
        Some((axis, dir, norm)) if st.t_in > 0.0 => Sweep::Hit {
            time: st.t_in,
            axis,
            dir,
            norm,
        },
        _ => Sweep::AtStart,
    }
}

/// The box frame of a shape, if it is a box.
#[inline]
pub(crate) fn frame_of(s: &Shape) -> Option<BoxFrame> {
    match s {
        Shape::Aabb(b) => Some(BoxFrame::from(b)),
        Shape::Obb(b) => Some(BoxFrame::from(b)),
        _ => None,
    }
}

/// The largest `Real` not above the non-negative `t`.
#[inline]
fn real_down(t: f64) -> Real {
    let r = t as Real;
    if (r as f64) > t {
        r.next_down().max(0.0)
    } else {
        r
    }
}

/// `Some(None)`: proven miss; `Some(Some(toi))`: the first contact; `None`: the caller's
/// general path decides (possible contact at time 0, a pass within the advancement loop's
/// allowance of touching, overflow).
#[inline]
pub(crate) fn cast_boxes(
    a: &Shape,
    fa: &BoxFrame,
    va: &Vector3,
    b: &Shape,
    fb: &BoxFrame,
    vb: &Vector3,
    t_max: Real,
) -> Option<Option<Toi>> {
    let pair = Pair64::new(fa, fb);
    let w = [
        vb.x as f64 - va.x as f64,
        vb.y as f64 - va.y as f64,
        vb.z as f64 - va.z as f64,
    ];
    // The advancement loop reports a contact at time 0 when the boxes are within its allowance
    // there (`TOI_DISTANCE_ALLOWANCE` of the pair's scale plus 8u of the coordinates, twice):
    // such pairs are left to it, four times that far, so that a start in contact is reported
    // exactly as before.
    let mut far = 0.0f64;
    for k in 0..3 {
        far = far.max(pair.a.c[k].abs()).max(pair.b.c[k].abs());
    }
    let near = 4.0 * TOI_DISTANCE_ALLOWANCE as f64 * (pair.s + far);
    // Likewise it reports a hit when the shapes pass within its allowance (which grows with
    // the distance travelled): such near misses are left to it.
    let travel = (norm_safe(va) + norm_safe(vb)) as f64 * t_max as f64;
    let pass = near + 4.0 * TOI_DISTANCE_ALLOWANCE as f64 * travel;
    let (time, axis, dir, norm) = match sweep(&pair, &w, t_max as f64, near, pass) {
        Sweep::Miss => return Some(None),
        Sweep::AtStart | Sweep::Unknown => return None,
        Sweep::Hit {
            time,
            axis,
            dir,
            norm,
        } => (time, axis, dir, norm),
    };
    let t = real_down(time);
    let n = Vector3::new(
        (dir[0] / norm) as Real,
        (dir[1] / norm) as Real,
        (dir[2] / norm) as Real,
    );
    let len = n.norm();
    if !(len > 0.0 && len.is_finite()) {
        return None;
    }
    let n = n / len;
    let (point_a, point_b) = witness(a, va, b, vb, &pair, axis, &dir, norm, t, &n);
    Some(Some(Toi {
        time: t,
        normal: n,
        depth: 0.0,
        point_a,
        point_b,
        status: ToiStatus::Converged,
        iterations: 0,
    }))
}

/// Signs `σ_k` of the vertex of `bx` extreme along `dir` (`σ_k = sign(dir·x_k)`), or `None`
/// when some axis with a non-zero extent is within rounding of perpendicular to `dir` (the
/// extreme feature is then an edge or a face), except `skip` (an edge's own axis).
#[inline]
fn vertex_signs(bx: &Box64, dir: &[f64; 3], norm: f64, skip: Option<usize>) -> Option<[Real; 3]> {
    // |L~·x~ − L·x| <= (2u|L| + 7u^2)|x| + γ3 |L~||x~| <= 6u (|L~| + 8u) for |x| <= 1.0001.
    let bound = 8.0 * U * (norm + 8.0 * U);
    let mut sig = [0.0; 3];
    for (k, s) in sig.iter_mut().enumerate() {
        if Some(k) == skip || bx.h[k] == 0.0 {
            continue;
        }
        let d = dot(dir, &bx.axes[k]);
        if d.abs() <= bound {
            return None;
        }
        *s = if d > 0.0 { 1.0 } else { -1.0 };
    }
    Some(sig)
}

/// The point `center + Σ σ_k h_k x_k` of a placed box core.
#[inline]
fn box_point(core: &ConvexCore, sig: &[Real; 3]) -> Option<Point3> {
    match core {
        ConvexCore::Box {
            center,
            axes,
            half_extents,
        } => Some(
            center
                + axes.column(0) * (sig[0] * half_extents.x)
                + axes.column(1) * (sig[1] * half_extents.y)
                + axes.column(2) * (sig[2] * half_extents.z),
        ),
        ConvexCore::AlignedBox { min, max } => Some(Point3::new(
            pick(min.x, max.x, sig[0]),
            pick(min.y, max.y, sig[1]),
            pick(min.z, max.z, sig[2]),
        )),
        _ => None,
    }
}

/// `lo` for `σ < 0`, `hi` for `σ > 0`, the middle for `σ = 0`.
#[inline]
fn pick(lo: Real, hi: Real, s: Real) -> Real {
    if s > 0.0 {
        hi
    } else if s < 0.0 {
        lo
    } else {
        lo * 0.5 + hi * 0.5
    }
}

/// The edge of a placed box core along its axis `k` through the point of signs `sig` (the
/// `k`-th sign ignored).
#[inline]
fn box_edge(core: &ConvexCore, k: usize, sig: &[Real; 3]) -> Option<[Point3; 2]> {
    let (mut s0, mut s1) = (*sig, *sig);
    s0[k] = -1.0;
    s1[k] = 1.0;
    Some([box_point(core, &s0)?, box_point(core, &s1)?])
}

/// The witness points at time `t` along the contact axis (see the module docs).
#[allow(clippy::too_many_arguments)]
fn witness(
    a: &Shape,
    va: &Vector3,
    b: &Shape,
    vb: &Vector3,
    pair: &Pair64,
    axis: SatAxis,
    dir: &[f64; 3],
    norm: f64,
    t: Real,
    n: &Vector3,
) -> (Point3, Point3) {
    let place = |s: &Shape, v: &Vector3| {
        ConvexCore::of(s)
            .0
            .moved(&Point3::origin(), &UnitQuaternion::identity(), &(v * t))
    };
    let (ca, cb) = (place(a, va), place(b, vb));
    let neg = dir.map(|x| -x);
    let closest = |x: &ConvexCore, y: &ConvexCore| rounded_core_points(x, y, None);
    match axis {
        SatAxis::FaceA(i) => {
            if let Some(sig) = vertex_signs(&pair.b, &neg, norm, None) {
                if let Some(v) = box_point(&cb, &sig) {
                    return closest(&ca, &ConvexCore::Point(v));
                }
            }
            if let (
                ConvexCore::AlignedBox {
                    min: amin,
                    max: amax,
                },
                ConvexCore::AlignedBox {
                    min: bmin,
                    max: bmax,
                },
            ) = (&ca, &cb)
            {
                return aligned_faces(amin, amax, bmin, bmax, i as usize, dir[i as usize] > 0.0);
            }
        }
        SatAxis::FaceB(_) => {
            if let Some(sig) = vertex_signs(&pair.a, dir, norm, None) {
                if let Some(v) = box_point(&ca, &sig) {
                    return closest(&ConvexCore::Point(v), &cb);
                }
            }
        }
        SatAxis::Edge(i, j) => {
            let (i, j) = (i as usize, j as usize);
            if let (Some(sa), Some(sb)) = (
                vertex_signs(&pair.a, dir, norm, Some(i)),
                vertex_signs(&pair.b, &neg, norm, Some(j)),
            ) {
                if let (Some(ea), Some(eb)) = (box_edge(&ca, i, &sa), box_edge(&cb, j, &sb)) {
                    return closest(&ConvexCore::Segment(ea), &ConvexCore::Segment(eb));
                }
            }
        }
    }
    rounded_core_points(&ca, &cb, Some(&-n))
}

/// Two AABBs touching along axis `i` (B on the `+` side when `plus`): on the other two axes,
/// the middle of the overlap of the face rectangles (clamped into each box).
#[inline]
fn aligned_faces(
    amin: &Point3,
    amax: &Point3,
    bmin: &Point3,
    bmax: &Point3,
    i: usize,
    plus: bool,
) -> (Point3, Point3) {
    let (mut pa, mut pb) = (Point3::origin(), Point3::origin());
    for k in 0..3 {
        if k == i {
            (pa[k], pb[k]) = if plus {
                (amax[k], bmin[k])
            } else {
                (amin[k], bmax[k])
            };
        } else {
            let lo = amin[k].max(bmin[k]);
            let hi = amax[k].min(bmax[k]);
            let m = lo * 0.5 + hi * 0.5;
            pa[k] = m.clamp(amin[k], amax[k]);
            pb[k] = m.clamp(bmin[k], bmax[k]);
        }
    }
    (pa, pb)
}
