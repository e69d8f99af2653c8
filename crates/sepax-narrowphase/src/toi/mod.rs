//! Time of impact: the first time two moving shapes touch.
//!
//! - [`sweep_aabb_aabb`]: two translating AABBs, by slab entry and exit times (closed form).
//! - [`cast_shapes`]: any pair of shapes with linear velocities.
//! - [`time_of_impact`]: any pair with linear and angular velocities (each shape spins about a
//!   pivot point that moves with the linear velocity).
//! - [`conservative_advancement`]: the general path of the last two, on its own.
//!
//! Two translating boxes (AABB/OBB in any mix, `target_distance <= 0`) take a closed form, the
//! separating-axis sweep of `box_sweep.rs`: each of the 15 SAT axes admits an interval of times
//! (`|L·(p + w t)| <= r_A(L) + r_B(L)`), computed in `f64` with proven rounding allowances so
//! that it contains the exact interval; the first contact is the largest entry time if it does
//! not pass the smallest exit time (docs/tolerance.md §8). Pairs that may touch at time 0, and
//! near misses within the advancement loop's allowance, are left to the loop, so a start in
//! contact and a grazing pass are decided as before.
//!
//! Everything else uses conservative advancement (Mirtich 1996; Zhang, Redon, Lee and Kim 2006)
//! on the distance of [`crate::distance`]: at time `t` the shapes are `d` apart with unit normal
//! `n` (from A to B). Every point `x` of a shape that spins with angular velocity `ω` about a
//! pivot moving at `v` has velocity `v + ω × (x − pivot)`, so its speed along `n` is at most
//! `n·v + n·(ω × (x − pivot)) = n·v + (x − pivot)·(n × ω) <= n·v + |n × ω| r`, where `r`
//! bounds the distance from the spin axis (the line through the pivot along `ω`) to any point
//! of the shape: only the part of `x − pivot` perpendicular to `ω` meets `n × ω`, and rotations
//! about the axis keep its length. The gap between the shapes measured along the fixed
//! direction `n`, which is `d` at time `t` and a lower bound of the distance at every later
//! time while positive, therefore shrinks at most at the rate
//!
//! ```text
//! μ = n·(v_A − v_B) + |n × ω_A| r_A + |n × ω_B| r_B
//! ```
//!
//! so no contact can happen before `t + g / μ`, `g` the gap along `n` (measured with the support
//! functions, so it does not rely on `n` being the exact closest direction). If `μ <= 0` the gap
//! never shrinks and there is no contact at all. When `n` does not separate by a usable margin
//! (an inexact normal), the step falls back on the direction-free bound: the distance is
//! Lipschitz in time with constant `|v_A − v_B| + |ω_A| r_A + |ω_B| r_B`, applied to a proven
//! lower bound of the distance (GJK's lower bound). Steps are shortened by `e`, a bound on the
//! rounding error, and the loop stops when `d <= target_distance + 2e`: the reported time is
//! never later than the first
//! contact (docs/tolerance.md, "Time of impact"), whatever the speeds (a thin box spinning at
//! 50 rad/s through a thin wall cannot tunnel: each step is bounded by the distance).
//!
//! ```text
//! t = 0
//! loop:
//!     (d, d_low, n) = closest points of A(t), B(t) (d_low: proven lower bound)
//!     if d == 0:               started in contact (t = 0) or touching
//!     if d <= target + 2e:     hit at t
//!     g = gap along n (support functions)
//!     μ = n·(v_A − v_B) + |n × ω_A| r_A + |n × ω_B| r_B
//!     if g > target + e:  if μ <= 0: no hit;  t += (g − e − target) / μ
//!     else:               t += (d_low − e − target) / (|v_A − v_B| + |ω_A| r_A + |ω_B| r_B)
//!     if t > t_max: no hit
//! ```

mod box_sweep;
mod swept_aabb;

pub use swept_aabb::{sweep_aabb_aabb, SweptAabbHit};

use sepax_shapes::math::{Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::Shape;

use crate::distance::{rounded_closest_hint, ClosestPoints};
use crate::gjk::{norm_safe, ConvexCore, SupportMap, GJK_TOLERANCE};

/// Rounding allowance `e` of a computed distance per unit of the pair's scale: the GJK stopping
/// tolerance plus the rounding of the support points and of moving the shapes (rotating a shape
/// by a computed quaternion misplaces its points by a few `u` times their distance to the pivot).
pub const TOI_DISTANCE_ALLOWANCE: Real = GJK_TOLERANCE + 32.0 * UNIT_ROUNDOFF;

/// A rigid motion with constant velocities: at time `t` the shape is rotated by the angle
/// `|angular| t` about the axis `angular` through `pivot`, then translated by `linear * t`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Motion {
    /// The point the shape spins about, at time 0 (it moves with `linear`).
    pub pivot: Point3,
    /// Linear velocity (of the pivot).
    pub linear: Vector3,
    /// Angular velocity (axis times radians per unit of time).
    pub angular: Vector3,
}

impl Motion {
    /// A pure translation with velocity `v`.
    pub fn linear(v: Vector3) -> Self {
        Motion {
            pivot: Point3::origin(),
            linear: v,
            angular: Vector3::zeros(),
        }
    }

    /// A motion spinning about `pivot` with angular velocity `angular` while translating at
    /// `linear`.
    pub fn new(pivot: Point3, linear: Vector3, angular: Vector3) -> Self {
        Motion {
            pivot,
            linear,
            angular,
        }
    }

    /// A motion spinning about the shape's own centre (box centre, sphere centre, capsule
    /// midpoint, triangle centroid).
    pub fn about_center(shape: &Shape, linear: Vector3, angular: Vector3) -> Self {
        let (core, _) = ConvexCore::of(shape);
        Motion::new(core.reference_point(), linear, angular)
    }

    fn is_finite(&self) -> bool {
        // x * 0 is 0 for finite x and NaN for infinities and NaN: one comparison for all nine.
        let z = self.pivot.coords * 0.0 + self.linear * 0.0 + self.angular * 0.0;
        z == Vector3::zeros()
    }

    fn place(&self, core: &ConvexCore, t: Real) -> ConvexCore {
        let rotation = if self.angular == Vector3::zeros() {
            UnitQuaternion::identity()
        } else {
            UnitQuaternion::from_scaled_axis(self.angular * t)
        };
        core.moved(&self.pivot, &rotation, &(self.linear * t))
    }
}

/// Settings of the shape casts, with safe defaults ([`CastOptions::default`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CastOptions {
    /// Report the first time the shapes come within this distance (default 0: touching).
    pub target_distance: Real,
    /// Iteration cap of the advancement loop (default 256). When it is reached the current time
    /// is reported with [`ToiStatus::MaxIterations`]: no contact happens before it, so a caller
    /// that treats it as a hit never tunnels.
    pub max_iterations: u32,
}

impl Default for CastOptions {
    fn default() -> Self {
        CastOptions {
            target_distance: 0.0,
            max_iterations: 256,
        }
    }
}

/// How a time of impact was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToiStatus {
    /// The shapes came within the target distance (plus rounding) at `time`.
    Converged,
    /// The shapes touch or overlap at time 0: `time == 0`, both points a common point, and
    /// `normal` and `depth` the minimum translation of [`crate::contact::penetration`].
    StartedInContact,
    /// The iteration cap was reached; no contact happens before `time`.
    MaxIterations,
}

/// A time of impact.
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct Toi {
    /// Time of first contact, in `[0, t_max]`; never later than the exact one.
    pub time: Real,
    /// Unit normal from A to B at that time (when the shapes start in contact: the normal of
    /// the minimum translation, zero if the contact query has none).
    pub normal: Vector3,
    /// Penetration depth when the shapes start in contact (moving B by `depth * normal`
    /// separates them); 0 otherwise.
    pub depth: Real,
    /// Closest point on A at that time (world space).
    pub point_a: Point3,
    /// Closest point on B at that time (world space).
    pub point_b: Point3,
    /// How the time was found.
    pub status: ToiStatus,
    /// Advancement steps taken (0 for the closed form of translating box pairs, and for a
    /// start in contact).
    pub iterations: u32,
}

impl Toi {
    /// The contact point: halfway between the two closest points.
    pub fn point(&self) -> Point3 {
        Point3::from((self.point_a.coords + self.point_b.coords) * 0.5)
    }
}

/// The first time in `[0, t_max]` at which `a` moving with velocity `va` and `b` moving with
/// `vb` come within `options.target_distance`, or `None`. Non-finite velocities or `t_max`
/// give `None`. Box pairs (AABB/OBB) take the closed-form separating-axis sweep (see
/// [`time_of_impact`]); other pairs conservative advancement.
pub fn cast_shapes(
    a: &Shape,
    va: &Vector3,
    b: &Shape,
    vb: &Vector3,
    t_max: Real,
    options: &CastOptions,
) -> Option<Toi> {
    time_of_impact(
        a,
        &Motion::linear(*va),
        b,
        &Motion::linear(*vb),
        t_max,
        options,
    )
}

/// The first time in `[0, t_max]` at which `a` moving by `ma` and `b` moving by `mb` come within
/// `options.target_distance`, or `None`. Non-finite motions or `t_max` give `None`.
///
/// Two boxes (AABB or OBB in any mix) without angular velocity and with `target_distance <= 0`
/// take the closed-form separating-axis sweep (`iterations == 0` in the result); everything
/// else, and box pairs that may touch at time 0, take [`conservative_advancement`].
pub fn time_of_impact(
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
    if ma.angular == Vector3::zeros()
        && mb.angular == Vector3::zeros()
        && options.target_distance <= 0.0
    {
        if let (Some(fa), Some(fb)) = (box_sweep::frame_of(a), box_sweep::frame_of(b)) {
            if let Some(answer) =
                box_sweep::cast_boxes(a, &fa, &ma.linear, b, &fb, &mb.linear, t_max)
            {
                return answer;
            }
        }
    }
    conservative_advancement(a, ma, b, mb, t_max, options)
}

fn valid_query(ma: &Motion, mb: &Motion, t_max: Real, options: &CastOptions) -> bool {
    ma.is_finite()
        && mb.is_finite()
        && t_max.is_finite()
        && t_max >= 0.0
        && options.target_distance.is_finite()
}

/// [`time_of_impact`] by conservative advancement alone (the bound of the module docs), for
/// every pair of shapes and motions: the general path, also exposed to compare the closed form
/// of box pairs with it. Non-finite motions or `t_max` give `None`.
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
                crate::contact::penetration(a, b)
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

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::{Aabb, Obb, Sphere};

    fn p(x: Real, y: Real, z: Real) -> Point3 {
        Point3::new(x, y, z)
    }

    #[test]
    fn sphere_hits_box() {
        let wall = Shape::Aabb(Aabb::new(p(0.0, -5.0, -5.0), p(0.1, 5.0, 5.0)).unwrap());
        let ball = Shape::Sphere(Sphere::new(p(-10.0, 0.0, 0.0), 0.5).unwrap());
        let hit = cast_shapes(
            &ball,
            &Vector3::new(100.0, 0.0, 0.0),
            &wall,
            &Vector3::zeros(),
            1.0,
            &CastOptions::default(),
        )
        .unwrap();
        // Contact at x = -0.5: t = 9.5 / 100.
        assert!(hit.time <= 0.095 && hit.time > 0.095 - 1e-5, "{hit:?}");
        assert_eq!(hit.status, ToiStatus::Converged);
        assert!((hit.normal - Vector3::x()).norm() < 1e-4);
    }

    #[test]
    fn spinning_box_is_caught() {
        // A 4 x 0.02 x 0.02 rod spinning at 50 rad/s about z, 1.5 from a thin wall at x = 0.
        let wall = Shape::Aabb(Aabb::new(p(0.0, -5.0, -5.0), p(0.01, 5.0, 5.0)).unwrap());
        let rod = Shape::Obb(
            Obb::new(
                p(-1.5, 0.0, 0.0),
                sepax_shapes::math::Matrix3::identity(),
                Vector3::new(0.01, 2.0, 0.01),
            )
            .unwrap(),
        );
        let m = Motion::about_center(&rod, Vector3::zeros(), Vector3::new(0.0, 0.0, 50.0));
        let hit = time_of_impact(
            &rod,
            &m,
            &wall,
            &Motion::linear(Vector3::zeros()),
            1.0,
            &CastOptions::default(),
        )
        .unwrap();
        // The rod's tip reaches x = 0 when 2 sin(angle) >= 1.5 - 0.01...: angle ~ asin(0.745).
        assert!(hit.time > 0.0 && hit.time < 0.0169, "{hit:?}");
    }
}
