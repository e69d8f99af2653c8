//! Conservative advancement: the general time-of-impact loop of every pair (the bound of the
//! module docs of [`super`]).

use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::tolerance::{TOI_DISTANCE_ALLOWANCE, UNIT_ROUNDOFF};
use sepax_shapes::Shape;

use super::{valid_query, CastOptions, Motion, Toi, ToiStatus};
use crate::distance::{rounded_closest_hint, ClosestPoints};
use crate::gjk::{norm_safe, ConvexCore, SupportMap};

/// [`time_of_impact`](super::time_of_impact) by conservative advancement alone (the bound of the module docs), for
/// every pair of shapes and motions: the general path, exposed with the `bench-internals`
/// feature to compare the closed form of box pairs with it. Non-finite motions or `t_max` give
/// `None`.
pub fn conservative_advancement(
    a: &Shape,
    ma: &Motion,
    b: &Shape,
    mb: &Motion,
    t_max: Real,
    options: &CastOptions,
) -> Option<Toi> {
    if !valid_query(ma, mb, t_max, options) {
        return None;
    }
    let target = options.target_distance.max(0.0);
    let (ca, ra) = ConvexCore::of(a);
    let (cb, rb) = ConvexCore::of(b);
    let wa = norm_safe(&ma.angular);
    let wb = norm_safe(&mb.angular);
    // Distance of every point of each shape from its spin axis (the line through the pivot
    // along ω): rotations about that axis keep it, and only the component of x − pivot
    // perpendicular to ω enters n·(ω × (x − pivot)) and |ω × (x − pivot)|.
    let reach_a = if wa > 0.0 {
        ca.reach_from_axis(&ma.pivot, &(ma.angular / wa)) + ra
    } else {
        0.0
    };
    let reach_b = if wb > 0.0 {
        cb.reach_from_axis(&mb.pivot, &(mb.angular / wb)) + rb
    } else {
        0.0
    };
    // Sizes, for the rounding allowance of each step.
    let size = |c: &ConvexCore, r: Real| c.reach_from(&c.reference_point()) + r;
    let sizes = size(&ca, ra) + size(&cb, rb);
    // The allowance at time t: relative to the pair's local scale (distance between the
    // reference points plus sizes) for the distance kernels, plus the rounding of placing the
    // shapes (pivot + v t + R (x - pivot)), relative to the coordinates themselves.
    let allowance = |pa: &ConvexCore, pb: &ConvexCore, t: Real| {
        let (xa, xb) = (pa.reference_point(), pb.reference_point());
        let local = norm_safe(&(xb - xa)) + sizes;
        let placed = xa.coords.amax().max(xb.coords.amax())
            + (norm_safe(&ma.linear) + norm_safe(&mb.linear)) * t
            + reach_a
            + reach_b;
        TOI_DISTANCE_ALLOWANCE * local + 8.0 * UNIT_ROUNDOFF * placed
    };

    let mut t: Real = 0.0;
    // Direction from B to A of the previous step: warm-starts GJK.
    let mut hint: Option<Vector3> = None;
    let mut steps = 0;
    for iteration in 0..options.max_iterations.max(1) {
        steps = iteration + 1;
        let (pa, pb) = (ma.place(&ca, t), mb.place(&cb, t));
        let (cp, _, slack): (ClosestPoints, Real, Real) =
            rounded_closest_hint(&pa, ra, &pb, rb, hint.as_ref());
        if cp.distance == 0.0 {
            // At t = 0 the placed shapes are the inputs themselves.
            let pen = if iteration == 0 {
                crate::contact::penetration_shapes(a, b)
            } else {
                None
            };
            return Some(Toi {
                time: t,
                normal: pen.map_or_else(Vector3::zeros, |p| p.normal),
                depth: pen.map_or(0.0, |p| p.depth),
                point_a: cp.point_a,
                point_b: cp.point_b,
                status: if iteration == 0 {
                    ToiStatus::StartedInContact
                } else {
                    ToiStatus::Converged
                },
                iterations: iteration,
            });
        }
        let n = cp.normal;
        hint = Some(-n);
        let d = cp.distance;
        let e = allowance(&pa, &pb, t);
        if !d.is_finite() || !e.is_finite() {
            // Unmeasurable (overflow): report the current time, before which no contact
            // happened, rather than risk a miss.
            break;
        }
        // A proven lower bound of the distance (GJK's upper and lower bounds may differ by more
        // than its tolerance when it stopped on a repeated support point).
        let d_low = (d - slack).max(0.0);
        if d <= target + 2.0 * e || d_low <= target + e {
            return Some(Toi {
                time: t,
                normal: n,
                depth: 0.0,
                point_a: cp.point_a,
                point_b: cp.point_b,
                status: ToiStatus::Converged,
                iterations: iteration,
            });
        }
        // The gap along the fixed direction n, measured by the support functions: a lower bound
        // of the distance now and, while positive, at every later time.
        let base = pa.reference_point();
        let gap = n.dot(&pb.support(&base, &-n)) - rb - (n.dot(&pa.support(&base, &n)) + ra);
        // Spin term: n . (w x r) = r . (n x w) <= |r| |n x w| for every point at every time.
        let spin = (norm_safe(&n.cross(&ma.angular)) * reach_a
            + norm_safe(&n.cross(&mb.angular)) * reach_b)
            * (1.0 + 8.0 * UNIT_ROUNDOFF);
        let mu = n.dot(&(ma.linear - mb.linear)) + spin;
        let dt = if gap > target + e && !mu.is_nan() {
            if mu <= 0.0 {
                // The gap along n never shrinks: no contact at all.
                return None;
            }
            (gap - e - target) / mu
        } else {
            // n does not separate by a usable margin (an inexact normal): fall back on the
            // direction-free bound, the distance being Lipschitz with constant
            // |v_A - v_B| + |w_A| r_A + |w_B| r_B.
            let lipschitz = (norm_safe(&(ma.linear - mb.linear)) + wa * reach_a + wb * reach_b)
                * (1.0 + 8.0 * UNIT_ROUNDOFF);
            if lipschitz.is_nan() || lipschitz <= 0.0 {
                return None;
            }
            (d_low - e - target) / lipschitz
        };
        t += dt;
        if t.is_nan() || t > t_max {
            return None;
        }
    }
    let (pa, pb) = (ma.place(&ca, t), mb.place(&cb, t));
    let cp = rounded_closest_hint(&pa, ra, &pb, rb, hint.as_ref()).0;
    Some(Toi {
        time: t,
        normal: cp.normal,
        depth: 0.0,
        point_a: cp.point_a,
        point_b: cp.point_b,
        status: ToiStatus::MaxIterations,
        iterations: steps,
    })
}
