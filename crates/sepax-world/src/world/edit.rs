//! Edits: insert, remove, poses, shapes, kinds, filters, enabled flags, explicit pair entries
//! and the origin shift. All validate their input first and change nothing on error.

use smallvec::SmallVec;

use super::{Removed, World};
use crate::collider::{check_pose, place, pose_from_raw, Collider, ColliderDesc, Kind};
use crate::error::{Subject, WorldError};
use crate::filter::Filter;
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use sepax_broadphase::{BroadPhase, ProxyId};
use sepax_shapes::math::{Isometry3, Real, Vector3};
use sepax_shapes::{Aabb, Shape};

impl<B: MovingPhase> World<B> {
    /// Adds a collider. Errors (naming the field) on a NaN or infinite pose, a zero rotation, or
    /// a placed shape out of the finite range; a typed rotation is renormalised.
    pub fn insert(&mut self, desc: ColliderDesc) -> Result<ColliderId, WorldError> {
        let c = self.prepare(Subject::New { index: 0 }, desc)?;
        let (ccd, pose) = (c.desc.ccd && c.desc.enabled, c.desc.pose);
        let id = self.colliders.insert(c);
        self.edited.push(id);
        self.ccd.track(id, ccd, pose);
        self.add_proxy(id);
        Ok(id)
    }

    /// Adds many colliders, appending their ids to `ids` in order; the trees are then built
    /// once (binned SAH) instead of leaf by leaf. On error (naming the collider's position in
    /// the batch) nothing is inserted.
    pub fn insert_many(
        &mut self,
        descs: impl IntoIterator<Item = ColliderDesc>,
        ids: &mut Vec<ColliderId>,
    ) -> Result<(), WorldError> {
        let mut ready = Vec::new();
        for (index, d) in descs.into_iter().enumerate() {
            ready.push(self.prepare(Subject::New { index }, d)?);
        }
        let (mut stat, mut mov) = (Vec::new(), Vec::new());
        for c in ready {
            let enabled = c.desc.enabled;
            let is_static = c.desc.kind == Kind::Static;
            let aabb = c.broad_aabb(self.config.contact.margin);
            let (ccd, pose) = (c.desc.ccd && enabled, c.desc.pose);
            let id = self.colliders.insert(c);
            self.edited.push(id);
            self.ccd.track(id, ccd, pose);
            ids.push(id);
            if enabled {
                let list = if is_static { &mut stat } else { &mut mov };
                list.push((aabb, id.to_bits()));
            }
        }
        let mut proxies = Vec::new();
        self.static_pairs_valid = false;
        // Each bulk insert rebuilds its whole tree: skipped when it gets nothing.
        if !stat.is_empty() {
            self.statics.insert_many(stat.iter().copied(), &mut proxies);
        }
        if !mov.is_empty() {
            self.moving.insert_bulk(&mov, &mut proxies);
        }
        let boxes = stat.iter().chain(mov.iter());
        for (&(_, bits), p) in boxes.zip(proxies) {
            let id = ColliderId::from_bits(bits);
            self.colliders[id].proxy = Some(p);
            self.note_proxy(id);
        }
        Ok(())
    }

    fn prepare(&self, who: Subject, mut desc: ColliderDesc) -> Result<Collider, WorldError> {
        desc.pose = check_pose(who, &desc.pose)?;
        let (world_shape, world_aabb) = place(who, &desc.shape, &desc.pose)?;
        Ok(Collider {
            desc,
            world_shape,
            world_aabb,
            proxy: None,
            changed: self.epoch,
            pairs: SmallVec::new(),
        })
    }

    /// Removes a collider and returns it; its touching pairs get `end` events (flag
    /// `REMOVED`) at the next update, and its id is stale from now on.
    pub fn remove(&mut self, id: ColliderId) -> Result<Collider, WorldError> {
        if !self.colliders.contains_key(id) {
            return Err(WorldError::StaleId(id));
        }
        self.drop_proxy(id);
        let c = self.colliders.remove(id).expect("checked above");
        if c.changed >= self.epoch {
            // It is in the edit list, which now names one removed collider more.
            self.edited_removed += 1;
        }
        for &(other, allowed) in &c.pairs {
            if let Some(o) = self.colliders.get_mut(other) {
                o.pairs.retain(|e| e.0 != id);
                if allowed && o.desc.kind == Kind::Static && c.desc.kind == Kind::Static {
                    self.forced_static -= 1;
                }
            }
        }
        self.removed.push(Removed {
            id,
            user: c.desc.user,
            sensor: c.desc.sensor,
        });
        Ok(c)
    }

    /// Moves a collider (see [`World::insert`] for the checks).
    pub fn set_pose(&mut self, id: ColliderId, pose: Isometry3) -> Result<(), WorldError> {
        let c = self.get(id)?;
        let pose = check_pose(Subject::Id(id), &pose)?;
        let (shape, aabb) = place(Subject::Id(id), &c.desc.shape, &pose)?;
        self.apply(id, pose, None, shape, aabb);
        Ok(())
    }

    /// Moves a collider to a pose given as raw numbers: translation and a quaternion
    /// `[w, x, y, z]` that must be unit within
    /// [`sepax_shapes::tolerance::QUATERNION_TOLERANCE`] (it is then normalised).
    pub fn set_pose_raw(
        &mut self,
        id: ColliderId,
        translation: [Real; 3],
        rotation: [Real; 4],
    ) -> Result<(), WorldError> {
        self.get(id)?;
        let pose = pose_from_raw(Subject::Id(id), translation, rotation)?;
        self.set_pose(id, pose)
    }

    /// Replaces a collider's local shape (kept at its pose).
    pub fn set_shape(&mut self, id: ColliderId, shape: Shape) -> Result<(), WorldError> {
        let c = self.get(id)?;
        let pose = c.desc.pose;
        let (placed, aabb) = place(Subject::Id(id), &shape, &pose)?;
        self.apply(id, pose, Some(shape), placed, aabb);
        Ok(())
    }

    /// Stores a new placement and updates the broad phase.
    fn apply(
        &mut self,
        id: ColliderId,
        pose: Isometry3,
        shape: Option<Shape>,
        placed: Shape,
        aabb: Aabb,
    ) {
        if let Some((p, broad, displacement)) = self.place_collider(id, pose, shape, placed, aabb) {
            self.moving.update(p, broad, displacement);
        }
    }

    /// Writes a collider's new pose and placed shape; a static collider's proxy is updated at
    /// once, a moving one's update (proxy, broad-phase box, displacement) is returned for the
    /// caller to apply (alone, or in a batch with `update_many`).
    pub(super) fn place_collider(
        &mut self,
        id: ColliderId,
        pose: Isometry3,
        shape: Option<Shape>,
        placed: Shape,
        aabb: Aabb,
    ) -> Option<(ProxyId, Aabb, Vector3)> {
        let epoch = self.epoch;
        let margin = self.config.contact.margin;
        let count = self.colliders.len();
        let c = &mut self.colliders[id];
        let old = c.world_aabb.center();
        c.desc.pose = pose;
        if let Some(s) = shape {
            c.desc.shape = s;
        }
        c.world_shape = placed;
        c.world_aabb = aabb;
        if c.changed < epoch {
            self.edited.push(id);
        }
        c.changed = epoch;
        let displacement = aabb.center() - old;
        let broad = c.broad_aabb(margin);
        let p = c.proxy?;
        let is_static = c.desc.kind == Kind::Static;
        self.rays.note(is_static, p, id, &c.world_shape, count);
        if is_static {
            self.statics.update(p, broad, Vector3::zeros());
            None
        } else {
            Some((p, broad, displacement))
        }
    }

    /// Sets a collider's filter; pairs it stops or starts passing end or begin at the next
    /// update.
    pub fn set_filter(&mut self, id: ColliderId, filter: Filter) -> Result<(), WorldError> {
        self.colliders
            .get_mut(id)
            .ok_or(WorldError::StaleId(id))?
            .desc
            .filter = filter;
        Ok(())
    }

    /// Sets a collider's user value (carried by the events from the next update on).
    pub fn set_user(&mut self, id: ColliderId, user: u64) -> Result<(), WorldError> {
        self.colliders
            .get_mut(id)
            .ok_or(WorldError::StaleId(id))?
            .desc
            .user = user;
        Ok(())
    }

    /// Enables or disables a collider. A disabled collider leaves the broad phase; its touching
    /// pairs end (flag `FILTERED`) at the next update.
    pub fn set_enabled(&mut self, id: ColliderId, enabled: bool) -> Result<(), WorldError> {
        let epoch = self.epoch;
        let c = self.colliders.get_mut(id).ok_or(WorldError::StaleId(id))?;
        if c.desc.enabled == enabled {
            return Ok(());
        }
        c.desc.enabled = enabled;
        if c.changed < epoch {
            self.edited.push(id);
        }
        c.changed = epoch;
        if enabled {
            self.add_proxy(id);
        } else {
            self.drop_proxy(id);
        }
        Ok(())
    }

    /// Sets a collider's kind, moving it between the static tree and the moving colliders'
    /// broad phase when it becomes or stops being static. Pairs that the pair policy then
    /// excludes (static–static under the default) end (flag `FILTERED`) at the next update, as
    /// for a filter change; pairs it now admits begin if they touch.
    pub fn set_kind(&mut self, id: ColliderId, kind: Kind) -> Result<(), WorldError> {
        let c = self.get(id)?;
        let (was_static, is_static) = (c.desc.kind == Kind::Static, kind == Kind::Static);
        if was_static == is_static {
            self.colliders[id].desc.kind = kind;
            return Ok(());
        }
        // Explicit `true` entries with static colliders join two statics now, or stop to.
        let statics = c
            .pairs
            .iter()
            .filter(|&&(o, allowed)| allowed && self.colliders[o].desc.kind == Kind::Static)
            .count();
        self.drop_proxy(id);
        let epoch = self.epoch;
        let c = &mut self.colliders[id];
        c.desc.kind = kind;
        // Its proxy changed trees: its pairs are looked for (and tested) again.
        if c.changed < epoch {
            self.edited.push(id);
        }
        c.changed = epoch;
        self.add_proxy(id);
        if is_static {
            self.forced_static += statics;
        } else {
            self.forced_static -= statics;
        }
        Ok(())
    }

    /// Sets the explicit entry of the pair `{a, b}`: `true` the pair is tested whatever the
    /// policy and filters say, `false` it never is (see the filter rule on [`World`]).
    pub fn allow_pair(
        &mut self,
        a: ColliderId,
        b: ColliderId,
        allowed: bool,
    ) -> Result<(), WorldError> {
        self.reset_pair(a, b)?;
        let both_static = self.colliders[a].desc.kind == Kind::Static
            && self.colliders[b].desc.kind == Kind::Static;
        self.colliders[a].pairs.push((b, allowed));
        self.colliders[b].pairs.push((a, allowed));
        if allowed && both_static {
            self.forced_static += 1;
        }
        Ok(())
    }

    /// Removes the explicit entry of the pair `{a, b}` (the policy and filters decide again).
    pub fn reset_pair(&mut self, a: ColliderId, b: ColliderId) -> Result<(), WorldError> {
        self.get(a)?;
        self.get(b)?;
        if a == b {
            return Err(WorldError::SamePair(a));
        }
        let both_static = self.colliders[a].desc.kind == Kind::Static
            && self.colliders[b].desc.kind == Kind::Static;
        if self.colliders[a].pair_entry(b) == Some(true) && both_static {
            self.forced_static -= 1;
        }
        self.colliders[a].pairs.retain(|e| e.0 != b);
        self.colliders[b].pairs.retain(|e| e.0 != a);
        Ok(())
    }

    /// Moves the origin to `origin`: every pose's translation becomes `translation - origin`,
    /// both trees are rebuilt, and the kept contact points become `point - origin` (the same
    /// one subtraction as the poses; normals and depths do not depend on the frame). Pair
    /// results are kept (the scene did not move relative to itself), so the shift causes no
    /// begin or end event; a kept manifold then differs from one computed on the shifted
    /// shapes only by the rounding of the shift. Errors (naming the collider) when a placed
    /// shape would leave the finite range; nothing changes then.
    pub fn shift_origin(&mut self, origin: Vector3) -> Result<(), WorldError> {
        let mut placed = Vec::with_capacity(self.colliders.len());
        for (id, c) in &self.colliders {
            let who = Subject::Id(id);
            let mut pose = c.desc.pose;
            pose.translation.vector -= origin;
            let pose = check_pose(who, &pose)?;
            let (s, b) = place(who, &c.desc.shape, &pose)?;
            placed.push((id, pose, s, b));
        }
        let mut statics = sepax_broadphase::bvh::DynamicBvh::new(*self.statics.config())
            .expect("the tree's own settings are valid");
        let mut stat = Vec::new();
        let mut mov = Vec::new();
        let margin = self.config.contact.margin;
        for &(id, pose, s, b) in &placed {
            let c = &mut self.colliders[id];
            c.desc.pose = pose;
            c.world_shape = s;
            c.world_aabb = b;
            let b = c.broad_aabb(margin);
            if let Some(p) = c.proxy.take() {
                if c.desc.kind == Kind::Static {
                    stat.push((b, id.to_bits()));
                } else {
                    self.moving.remove(p);
                    mov.push((b, id.to_bits()));
                }
            }
        }
        let mut proxies = Vec::new();
        statics.insert_many(stat.iter().copied(), &mut proxies);
        self.statics = statics;
        self.static_pairs_valid = false;
        self.moving.insert_bulk(&mov, &mut proxies);
        self.forget_all_proxies();
        for (&(_, bits), p) in stat.iter().chain(mov.iter()).zip(proxies) {
            let id = ColliderId::from_bits(bits);
            self.colliders[id].proxy = Some(p);
            self.note_proxy(id);
        }
        self.ccd.shift_origin(&origin);
        // The last update's manifolds are what the next one reuses and what readers see.
        for m in &mut self.events.manifolds {
            for p in &mut m.points {
                p.point_a -= origin;
                p.point_b -= origin;
            }
        }
        Ok(())
    }

    fn add_proxy(&mut self, id: ColliderId) {
        let c = &mut self.colliders[id];
        if !c.desc.enabled || c.proxy.is_some() {
            return;
        }
        let b = c.broad_aabb(self.config.contact.margin);
        let p = if c.desc.kind == Kind::Static {
            self.statics.insert(b, id.to_bits())
        } else {
            self.moving.insert(b, id.to_bits())
        };
        c.proxy = Some(p);
        self.note_proxy(id);
    }

    fn drop_proxy(&mut self, id: ColliderId) {
        let c = &mut self.colliders[id];
        if let Some(p) = c.proxy.take() {
            let is_static = c.desc.kind == Kind::Static;
            if is_static {
                self.statics.remove(p);
            } else {
                self.moving.remove(p);
            }
            self.forget_proxy(is_static, p);
        }
    }
}
