//! Sphere–AABB: `crate::intersect::sphere_aabb::intersects` lane-wise.
//!
//! The scalar test rescales a pair by a power of two when its magnitudes leave
//! `2^-40 .. 2^40` (`unit_scale`); everywhere else its factor is exactly 1 and the lanes below
//! perform its operations in its order, so they give its answer bit for bit. Lanes that would
//! need the rescale (and the harmless limit cases 0 and infinity) go to the scalar function.

use super::lanes::{arr3, Lane256, LaneMask};
use super::soa::{AabbLanes, AabbSoa, SphereLanes, SphereSoa};
use super::PairKernel;
use sepax_shapes::math::Real;
use sepax_shapes::tolerance::SPHERE_AABB_ALLOWANCE as ALLOWANCE;
use sepax_shapes::tolerance::UNIT_ROUNDOFF;
use sepax_shapes::{Aabb, Sphere};

/// Sphere–AABB on a [`SphereSoa`] and an [`AabbSoa`].
pub(crate) struct SphereAabb;

/// The range of magnitudes where the scalar test's scale factor is exactly 1.
const LIMIT: Real = (1u64 << 40) as Real;

impl PairKernel for SphereAabb {
    type A = SphereSoa;
    type B = AabbSoa;
    #[inline(always)]
    fn lanes<V: Lane256>(a: &SphereLanes<V>, b: &AabbLanes<V>) -> (LaneMask, LaneMask) {
        // (lo, hi) = (b.min() - c, b.max() - c)
        let lo: [V; 3] = arr3!(k => b.min[k] - a.center[k]);
        let hi: [V; 3] = arr3!(k => b.max[k] - a.center[k]);
        // m = max_abs(&[&lo, &hi], &[r]); k = unit_scale(m) is 1 when 2^-40 < m < 2^40.
        let mut m = a.radius.abs();
        for k in 0..3 {
            m = m.max(lo[k].abs()).max(hi[k].abs());
        }
        let unscaled = m.lt_mask(V::splat(LIMIT)) & V::splat(1.0 / LIMIT).lt_mask(m);
        // d = zeros().sup(&lo).inf(&hi)
        let d: [V; 3] = arr3!(k => V::splat(0.0).max(lo[k]).min(hi[k]));
        // s = norm1(lo) + norm1(hi) + radius
        let s = lo[0].abs()
            + lo[1].abs()
            + lo[2].abs()
            + (hi[0].abs() + hi[1].abs() + hi[2].abs())
            + a.radius;
        // within_reach(d.norm_squared(), radius + ALLOWANCE * s)
        let dist_sq = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        let reach = a.radius + V::splat(ALLOWANCE) * s;
        let limit = reach * reach * V::splat(1.0 + 2.0 * UNIT_ROUNDOFF);
        (dist_sq.le_mask(limit) & unscaled, !unscaled)
    }
    #[inline]
    fn scalar(a: &Sphere, b: &Aabb) -> bool {
        crate::intersect::intersects(a, b)
    }
}
