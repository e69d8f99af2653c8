//! The broad phase of the moving colliders, as the world drives it.

use sepax_broadphase::bvh::{DynamicBvh, RayStep, Runner};
use sepax_broadphase::sorted_grid::SortedGrid;
use sepax_broadphase::{BroadPhase, ProxyId, Visit};
use sepax_shapes::math::{Point3, Real, Vector3};
use sepax_shapes::{Aabb, Ray};

/// A [`BroadPhase`] for the world's kinematic and dynamic colliders, with what the world needs
/// beyond the trait: pairs against the static tree, a bulk load and tree statistics. The
/// defaults work for any broad phase; [`DynamicBvh`] (the default) overrides them with its
/// tree-against-tree walk and its one-build bulk insert.
pub trait MovingPhase: BroadPhase {
    /// Calls `f(moving proxy, static proxy)` once for every pair whose stored boxes overlap.
    /// The default queries `self` with every static proxy's box.
    fn pairs_with_static(&self, statics: &DynamicBvh, f: &mut dyn FnMut(ProxyId, ProxyId)) {
        for s in statics.proxies() {
            let Some(b) = statics.stored_aabb(s) else {
                continue;
            };
            self.query_aabb(&b, &mut |m| {
                f(m, s);
                Visit::Continue
            });
        }
    }

    /// Inserts many proxies (tight box, user value), appending their handles to `ids` in
    /// order. The default inserts one by one.
    fn insert_bulk(&mut self, boxes: &[(Aabb, u64)], ids: &mut Vec<ProxyId>) {
        for &(b, u) in boxes {
            ids.push(self.insert(b, u));
        }
    }

    /// Casts `ray` against the stored boxes: `f(proxy, entry distance)` for every proxy whose
    /// box the ray enters at `t <= clip`, `clip` starting at the ray's length and lowered by
    /// [`RayStep::Clip`] (the contract of [`DynamicBvh::cast_ray`]). The default queries the
    /// box around the ray's segment (every box for an infinite ray) and casts against each.
    fn cast_ray(&self, ray: &Ray, f: &mut dyn FnMut(ProxyId, Real) -> RayStep) {
        let o = ray.origin();
        let end = ray.point_at(ray.max_distance());
        let all = Aabb::new_unchecked(
            Point3::from(Vector3::repeat(-Real::MAX)),
            Point3::from(Vector3::repeat(Real::MAX)),
        );
        let reach = if end.iter().all(|x| x.is_finite()) {
            Aabb::new(o.inf(&end), o.sup(&end)).unwrap_or(all)
        } else {
            all
        };
        let mut clip = ray.max_distance();
        self.query_aabb(&reach, &mut |p| {
            let Some(t) = self
                .stored_aabb(p)
                .and_then(|b| b.cast_ray(ray))
                .map(|h| h.distance)
                .filter(|&t| t <= clip)
            else {
                return Visit::Continue;
            };
            match f(p, t) {
                RayStep::Continue => Visit::Continue,
                RayStep::Clip(c) => {
                    if c < clip {
                        clip = c;
                    }
                    Visit::Continue
                }
                RayStep::Stop => Visit::Stop,
            }
        });
    }

    /// [`BroadPhase::update_pairs`] with its work handed to `run` (the world passes its
    /// executor). The pairs must not depend on how `run` schedules the jobs. The default runs
    /// the serial update and ignores `run`.
    fn update_pairs_on(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, run: Runner<'_>) {
        let _ = run;
        self.update_pairs(out);
    }

    /// Height, for a tree (cheap: read every update).
    fn tree_depth(&self) -> Option<u32> {
        None
    }

    /// SAH cost, for a tree (walks every node: computed only on request).
    fn tree_sah(&self) -> Option<Real> {
        None
    }

    /// The tree itself, when the broad phase is a [`DynamicBvh`] (for debug drawing).
    fn as_tree(&self) -> Option<&DynamicBvh> {
        None
    }
}

impl MovingPhase for DynamicBvh {
    fn pairs_with_static(&self, statics: &DynamicBvh, f: &mut dyn FnMut(ProxyId, ProxyId)) {
        self.pairs_with(statics, |m, s| {
            f(m, s);
            Visit::Continue
        });
    }

    fn insert_bulk(&mut self, boxes: &[(Aabb, u64)], ids: &mut Vec<ProxyId>) {
        self.insert_many(boxes.iter().copied(), ids);
    }

    fn cast_ray(&self, ray: &Ray, f: &mut dyn FnMut(ProxyId, Real) -> RayStep) {
        DynamicBvh::cast_ray(self, ray, f);
    }

    fn update_pairs_on(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, run: Runner<'_>) {
        self.update_pairs_chunked(out, run);
    }

    fn tree_depth(&self) -> Option<u32> {
        Some(self.height())
    }

    fn tree_sah(&self) -> Option<Real> {
        Some(self.sah_cost())
    }

    fn as_tree(&self) -> Option<&DynamicBvh> {
        Some(self)
    }
}

impl MovingPhase for SortedGrid {}
