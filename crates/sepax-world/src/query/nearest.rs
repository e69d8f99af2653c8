//! The growing search shared by the point and distance queries: candidates are taken in rounds
//! of growing radius around the query's box, each collider once, in the round its box's
//! distance falls in; the search ends when the collector's clip is within the radius searched
//! (every collider not yet seen is farther), at the maximum distance, or at the finite range.

use super::collect::{Clip, Collector, Hit};
use super::filter::Resolved;
use crate::collider::{grow_saturating, Collider};
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use crate::world::World;
use sepax_shapes::math::Real;
use sepax_shapes::Aabb;

/// Euclidean distance between two boxes (0 when they overlap): a lower bound of the distance
/// between any shapes inside them.
pub(crate) fn box_distance(a: &Aabb, b: &Aabb) -> Real {
    let (amin, amax, bmin, bmax) = (a.min(), a.max(), b.min(), b.max());
    let mut s: Real = 0.0;
    for k in 0..3 {
        let g = (bmin[k] - amax[k]).max(amin[k] - bmax[k]).max(0.0);
        s += g * g;
    }
    s.sqrt()
}

impl<B: MovingPhase> World<B> {
    /// Offers `exact(collider)` for every seen collider whose box lies within `max` of
    /// `bounds` (the query's box), nearest rounds first, until the clip says no farther
    /// collider can be kept.
    pub(crate) fn nearest_search<H: Hit>(
        &self,
        bounds: &Aabb,
        max: Real,
        sees: &Resolved<'_, '_>,
        collector: &mut impl Collector<H>,
        mut exact: impl FnMut(ColliderId, &Collider) -> Option<H>,
    ) {
        let mut clip = Clip::new(max);
        let size = bounds.half_extents().amax();
        let at = bounds.center().coords.amax();
        let mut r: Real = size.max(1.0e-3 * (1.0 + at)).min(max);
        let mut done: Real = -1.0;
        loop {
            let reach = grow_saturating(bounds, r);
            self.visit_aabb(&reach, sees, |id, c, b| {
                let lb = box_distance(bounds, b);
                if lb <= done || lb > r || lb > clip.value {
                    return true;
                }
                match exact(id, c) {
                    Some(h) => clip.offer(collector, h),
                    None => true,
                }
            });
            if clip.stopped || clip.value <= r || r >= max || r >= Real::MAX {
                return;
            }
            done = r;
            r = (r * 4.0).min(max);
        }
    }
}
