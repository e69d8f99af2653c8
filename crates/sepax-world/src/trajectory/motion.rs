//! The motion of a link from one step to the next, and a box that holds it.
//!
//! The shape's centre moves on the straight line between its two positions while the shape
//! turns at a constant rate along the shortest arc between its two orientations: a
//! [`Motion`] spinning about the centre over the unit of time. A point `x` of the shape at
//! `t` is `c0 + (c1 - c0) t + Q(t) (x - c0)`, which differs from the straight blend of its
//! two end positions by `Q(t) r - ((1 - t) r + t Q(1) r)` (`r = x - c0`). That difference is
//! 0 at both ends and its second derivative has length `θ² |r_⊥| <= θ² R` (θ the angle turned,
//! `R` the shape's reach from the centre), so it is at most `θ² R / 8` along the whole motion
//! (the interpolation error bound of a linear blend), and never more than `2 R`. The union of
//! the two end boxes grown by that much holds the whole motion.

use crate::collider::grow_saturating;
use sepax_narrowphase::toi::Motion;
use sepax_shapes::math::{Isometry3, Real, UnitQuaternion, Vector3};
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::{Aabb, Shape};

/// A link's motion over one step and the box that holds it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Swept {
    pub motion: Motion,
    pub aabb: Aabb,
}

/// The rotation from `from` to `to` along the shortest arc: `to * from⁻¹` with `w >= 0`.
pub(crate) fn shortest_arc(from: &UnitQuaternion, to: &UnitQuaternion) -> UnitQuaternion {
    let d = to * from.inverse();
    if d.quaternion().w < 0.0 {
        UnitQuaternion::new_unchecked(-d.into_inner())
    } else {
        d
    }
}

/// The motion of a link from `prev` (its shape and broad-phase box at pose `p0`) to `next`
/// (at pose `p1`).
pub(crate) fn swept(
    prev: &(Shape, Aabb),
    next: &(Shape, Aabb),
    p0: &Isometry3,
    p1: &Isometry3,
) -> Swept {
    let c0 = Motion::about_center(&prev.0, Vector3::zeros(), Vector3::zeros()).pivot;
    let c1 = Motion::about_center(&next.0, Vector3::zeros(), Vector3::zeros()).pivot;
    let turn = shortest_arc(&p0.rotation, &p1.rotation);
    let angular = turn.scaled_axis();
    let motion = Motion::about_center(&prev.0, c1 - c0, angular);
    let b = &prev.1;
    let reach = (b.center() - c0).norm() + b.half_extents().norm();
    let theta = angular.norm();
    let bow = reach * (theta * theta / 8.0).min(2.0);
    // Rounding of the placed points (centre, blend, rotation): a few units of roundoff of the
    // magnitudes involved, generously covered.
    let scale = c0.coords.amax().max(c1.coords.amax()) + reach;
    let pad = bow * (1.0 + 64.0 * UNIT_ROUNDOFF) + 256.0 * UNIT_ROUNDOFF * scale;
    let aabb = grow_saturating(&b.merge(&next.1), pad);
    Swept { motion, aabb }
}

/// A motion that stays still.
pub(crate) fn still() -> Motion {
    Motion::linear(Vector3::zeros())
}

/// `Real` zero and one, for readability at call sites.
pub(crate) const END: Real = 1.0;
