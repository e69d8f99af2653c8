//! What a ray cast needs of each broad-phase proxy, dense by proxy slot: the collider's id and,
//! when its placed shape is a box, that box in one cache line (f32; two in f64).
//!
//! A ray's leaf test through the collider itself reads the tree's user value, then the slotmap
//! slot (generation check) and then the placed shape inside the collider: several scattered
//! lines per candidate. Here a candidate of an unfiltered query touches one bit of a small
//! bitset and the box's line; the id is read only for a hit within the clip. Other shapes, and
//! filtered queries, go through the collider as before.
//!
//! Freshness: the tables are written by the same edits that write a collider's placed shape or
//! add, move or drop its proxy (`world/edit.rs`: `add_proxy`, `drop_proxy`, `place_collider`,
//! `insert_many`, `shift_origin`), so a query between two updates sees every edit, as the
//! trees do. A slot with no entry (a broad phase whose proxy indices run far beyond the number
//! of colliders) is answered through the broad phase's user value instead.

use crate::collider::Kind;
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use crate::world::World;
use sepax_broadphase::ProxyId;
use sepax_shapes::math::Point3;
use sepax_shapes::{Aabb, Obb, Shape};

/// A box alone on its cache line(s).
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Line(Obb);

/// No collider in this slot.
const EMPTY: u64 = u64::MAX;

/// The per-slot ray data of one broad phase (see the module documentation).
#[derive(Debug, Default)]
pub(crate) struct RayTable {
    /// Per slot, the collider id's bits or [`EMPTY`].
    ids: Vec<u64>,
    /// Bit `slot`: `boxes[slot]` is the collider's placed shape.
    is_box: Vec<u64>,
    boxes: Vec<Line>,
}

/// A box for slots whose shape is not one (never read: its bit is clear).
fn filler() -> Line {
    let o = Point3::origin();
    Line(Obb::from_aabb(&Aabb::new_unchecked(o, o)))
}

impl RayTable {
    /// Records `id` with placed shape `shape` in `slot`, unless `slot` is beyond `cap` (then
    /// the slot is left empty and answered the slow way).
    fn set(&mut self, slot: u32, id: ColliderId, shape: &Shape, cap: usize) {
        let s = slot as usize;
        if s >= self.ids.len() {
            if s > cap {
                return;
            }
            self.ids.resize(s + 1, EMPTY);
            self.boxes.resize(s + 1, filler());
            self.is_box.resize(s / 64 + 1, 0);
        }
        self.ids[s] = id.to_bits();
        let bit = 1u64 << (s % 64);
        match shape {
            Shape::Obb(b) => {
                self.boxes[s] = Line(*b);
                self.is_box[s / 64] |= bit;
            }
            _ => self.is_box[s / 64] &= !bit,
        }
    }

    /// Empties `slot`.
    fn clear(&mut self, slot: u32) {
        let s = slot as usize;
        if s < self.ids.len() {
            self.ids[s] = EMPTY;
            self.is_box[s / 64] &= !(1u64 << (s % 64));
        }
    }

    /// Empties every slot.
    fn clear_all(&mut self) {
        self.ids.fill(EMPTY);
        self.is_box.fill(0);
    }

    /// The collider in `slot` (`None`: not recorded here).
    #[inline]
    pub(crate) fn id(&self, slot: u32) -> Option<ColliderId> {
        match self.ids.get(slot as usize) {
            Some(&bits) if bits != EMPTY => Some(ColliderId::from_bits(bits)),
            _ => None,
        }
    }

    /// The placed box of the collider in `slot`, when its shape is a box.
    #[inline]
    pub(crate) fn obb(&self, slot: u32) -> Option<&Obb> {
        let s = slot as usize;
        let word = *self.is_box.get(s / 64)?;
        if word & (1u64 << (s % 64)) == 0 {
            return None;
        }
        // The bit is set only with `boxes[s]` written.
        self.boxes.get(s).map(|l| &l.0)
    }
}

/// The ray tables of a world: one per broad phase.
#[derive(Debug, Default)]
pub(crate) struct RayTables {
    pub(crate) statics: RayTable,
    pub(crate) moving: RayTable,
}

impl RayTables {
    /// Records proxy `p` of collider `id` (static or not, placed shape `shape`, in a world of
    /// `count` colliders): see [`World::note_proxy`].
    #[inline]
    pub(crate) fn note(
        &mut self,
        is_static: bool,
        p: ProxyId,
        id: ColliderId,
        shape: &Shape,
        count: usize,
    ) {
        if is_static {
            self.statics.set(p.index, id, shape, usize::MAX);
        } else {
            let cap = count.saturating_mul(2).saturating_add(1024);
            self.moving.set(p.index, id, shape, cap);
        }
    }
}

impl<B: MovingPhase> World<B> {
    /// Records the proxy of collider `id` (its current placed shape) in its tree's table;
    /// nothing when it has no proxy.
    ///
    /// The static tree's slots are the dynamic tree's, never more than it has held proxies at
    /// once, so every static proxy is recorded (`ray.rs` relies on it). A moving
    /// broad phase is any [`MovingPhase`], whose proxy indices need not be dense: one far
    /// beyond the collider count is not recorded, and answered through its user value.
    pub(crate) fn note_proxy(&mut self, id: ColliderId) {
        let count = self.colliders.len();
        let Some(c) = self.colliders.get(id) else {
            return;
        };
        let Some(p) = c.proxy else {
            return;
        };
        let is_static = c.desc.kind == Kind::Static;
        self.rays.note(is_static, p, id, &c.world_shape, count);
    }

    /// Forgets proxy `p` of a static (`is_static`) or moving collider.
    pub(crate) fn forget_proxy(&mut self, is_static: bool, p: ProxyId) {
        if is_static {
            self.rays.statics.clear(p.index);
        } else {
            self.rays.moving.clear(p.index);
        }
    }

    /// Forgets every proxy of both tables (before the trees are loaded again).
    pub(crate) fn forget_all_proxies(&mut self) {
        self.rays.statics.clear_all();
        self.rays.moving.clear_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Vector3;
    use sepax_shapes::Sphere;

    #[test]
    fn slots_hold_ids_and_boxes() {
        let mut t = RayTable::default();
        let id = ColliderId::from_bits(7 | 1 << 32);
        let o = Point3::new(1.0, 2.0, 3.0);
        let b = Obb::from_aabb(&Aabb::from_center_half_extents(o, Vector3::repeat(1.0)).unwrap());
        t.set(70, id, &Shape::Obb(b), 100);
        assert_eq!((t.id(70), t.obb(70)), (Some(id), Some(&b)));
        assert_eq!((t.id(3), t.obb(3)), (None, None));
        t.set(70, id, &Shape::Sphere(Sphere::new(o, 1.0).unwrap()), 100);
        assert_eq!((t.id(70), t.obb(70)), (Some(id), None));
        t.clear(70);
        assert_eq!((t.id(70), t.obb(70)), (None, None));
        // Beyond the cap: not recorded.
        t.set(1 << 30, id, &Shape::Obb(b), 100);
        assert_eq!(t.id(1 << 30), None);
        assert!(t.ids.len() <= 71);
    }
}
