//! AABB–AABB: six comparisons per lane, exact (as `crate::intersect::aabb_aabb`).

use super::lanes::{Lane256, LaneMask};
use super::soa::{AabbLanes, AabbSoa};
use super::PairKernel;
use sepax_shapes::Aabb;

/// AABB–AABB on [`AabbSoa`] batches.
pub(crate) struct AabbAabb;

impl PairKernel for AabbAabb {
    type A = AabbSoa;
    type B = AabbSoa;
    #[inline(always)]
    fn lanes<L: Lane256>(a: &AabbLanes<L>, b: &AabbLanes<L>) -> (LaneMask, LaneMask) {
        // amin.x <= bmax.x && bmin.x <= amax.x && ... (closed sets).
        let mut hit = !0;
        for k in 0..3 {
            hit &= a.min[k].le_mask(b.max[k]) & b.min[k].le_mask(a.max[k]);
        }
        (hit, 0)
    }
    #[inline]
    fn scalar(a: &Aabb, b: &Aabb) -> bool {
        crate::intersect::intersects(a, b)
    }
}
