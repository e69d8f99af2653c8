//! Time of impact: the first time two moving shapes touch.
//!
//! - [`sweep_aabb_aabb`]: two translating AABBs, by slab entry and exit times (closed form).
//! - [`cast`]: any pair of shapes with linear velocities ([`cast_shapes`] on two [`Shape`]s).
//! - [`time_of_impact`]: any pair with linear and angular velocities (each shape spins about a
//!   pivot point that moves with the linear velocity; [`time_of_impact_shapes`] on two
//!   [`Shape`]s).
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

mod advance;
mod box_sweep;
mod swept_aabb;

/// The general path alone, to compare the closed form of box pairs with it (`bench-internals`).
#[cfg(feature = "bench-internals")]
#[doc(hidden)]
pub use advance::conservative_advancement;
#[cfg(not(feature = "bench-internals"))]
use advance::conservative_advancement;

pub use swept_aabb::{sweep_aabb_aabb, SweptAabbHit};

use sepax_shapes::math::{Point3, Real, UnitQuaternion, Vector3};
use sepax_shapes::Shape;

use crate::gjk::{ConvexCore, SupportMap};

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
///
/// ```
/// use sepax_narrowphase::toi::{cast, CastOptions};
/// use sepax_shapes::math::{Point3, Vector3};
/// use sepax_shapes::{Aabb, Sphere};
///
/// let wall = Aabb::new(Point3::new(10.0, -5.0, -5.0), Point3::new(11.0, 5.0, 5.0)).unwrap();
/// let ball = Sphere::new(Point3::origin(), 1.0).unwrap();
/// let v = Vector3::new(3.0, 0.0, 0.0);
/// let hit = cast(&ball, &v, &wall, &Vector3::zeros(), 10.0, &CastOptions::default()).unwrap();
/// assert!((hit.time - 3.0).abs() < 1e-4);
/// ```
pub fn cast<A, B>(
    a: &A,
    va: &Vector3,
    b: &B,
    vb: &Vector3,
    t_max: Real,
    options: &CastOptions,
) -> Option<Toi>
where
    A: Copy + Into<Shape>,
    B: Copy + Into<Shape>,
{
    cast_shapes(&(*a).into(), va, &(*b).into(), vb, t_max, options)
}

/// [`cast`] of two shapes of any kinds.
pub fn cast_shapes(
    a: &Shape,
    va: &Vector3,
    b: &Shape,
    vb: &Vector3,
    t_max: Real,
    options: &CastOptions,
) -> Option<Toi> {
    time_of_impact_shapes(
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
/// else, and box pairs that may touch at time 0, take conservative advancement (the module
/// docs).
pub fn time_of_impact<A, B>(
    a: &A,
    ma: &Motion,
    b: &B,
    mb: &Motion,
    t_max: Real,
    options: &CastOptions,
) -> Option<Toi>
where
    A: Copy + Into<Shape>,
    B: Copy + Into<Shape>,
{
    time_of_impact_shapes(&(*a).into(), ma, &(*b).into(), mb, t_max, options)
}

/// [`time_of_impact`] of two shapes of any kinds.
pub fn time_of_impact_shapes(
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
        let hit = time_of_impact_shapes(
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
