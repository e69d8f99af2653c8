//! The proxy table that every broad phase shares: handles ([`ProxyId`], a slot and a
//! generation), each proxy's user value and stored box, and a record of the phase's own per
//! proxy (`X`: the dynamic tree's leaf, fat box and move flag; the cell range of the uniform
//! grid; nothing for the others). Also the packing of two slots into one sortable pair key,
//! which every phase sorts its pairs by.
//!
//! The slots (box, record, generation) are what the per-frame loops read, in slot order or by
//! index; the user values, read only by [`ProxyTable::user`], live in a parallel table so that
//! they take no room in those loops' cache lines.

use crate::{QueryStats, Visit};
use sepax_shapes::Aabb;

/// The [`crate::BroadPhase`] methods that only read the proxy table (`user`, `stored_aabb`,
/// `len`), for a phase that keeps it in the field `proxies` and stores the boxes it is given.
macro_rules! table_accessors {
    () => {
        fn user(&self, id: ProxyId) -> Option<u64> {
            self.proxies.user(id)
        }

        fn stored_aabb(&self, id: ProxyId) -> Option<Aabb> {
            self.proxies.aabb(id)
        }

        fn len(&self) -> usize {
            self.proxies.len()
        }
    };
}
pub(crate) use table_accessors;

/// A proxy handle: an index into the broad phase's proxy table plus a generation, so that a
/// stale handle (of a removed proxy) is detected instead of aliasing a new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProxyId {
    /// Slot index.
    pub index: u32,
    /// Generation of the slot when the handle was made.
    pub generation: u32,
}

/// Packs a pair of slot indices into one sortable key (`lo` in the high half), so that sorting
/// keys sorts pairs as `(a, b)` lexicographically.
#[inline]
pub(crate) fn pair_key(a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (u64::from(lo) << 32) | u64::from(hi)
}

/// One slot of a [`ProxyTable`]: the box the broad phase stores for its proxy, the phase's own
/// record, the slot's generation and whether it holds a live proxy. A freed slot keeps its box
/// and record (the dynamic tree reads a removed proxy's move flag until its next pair update).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Proxy<X> {
    /// The stored box: the box last given (the tree's tight box; only the tree also fattens).
    pub aabb: Aabb,
    /// The phase's own record.
    pub extra: X,
    /// Bumped on every removal; a handle is live when its generation matches and `live` is set.
    pub generation: u32,
    /// Whether the slot holds a proxy.
    pub live: bool,
}

/// A generational slot table of proxies, shared by every broad phase: removed slots are reused
/// (last freed, first reused) with a bumped generation, so a handle of a removed proxy never
/// aliases a newer one. A slot whose generation would wrap is retired.
#[derive(Debug, Clone)]
pub(crate) struct ProxyTable<X = ()> {
    slots: Vec<Proxy<X>>,
    /// The user value of each slot, parallel to `slots` (the last one's for a free slot).
    users: Vec<u64>,
    free: Vec<u32>,
    len: usize,
}

impl<X> Default for ProxyTable<X> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            users: Vec::new(),
            free: Vec::new(),
            len: 0,
        }
    }
}

impl<X: Copy> ProxyTable<X> {
    /// Stores a proxy, returning its handle.
    pub(crate) fn insert(&mut self, aabb: Aabb, user: u64, extra: X) -> ProxyId {
        self.insert_with(aabb, user, |_| extra)
    }

    /// Stores a proxy whose record `make` derives from the record its slot held before (`None`
    /// for a new slot), returning its handle.
    pub(crate) fn insert_with(
        &mut self,
        aabb: Aabb,
        user: u64,
        make: impl FnOnce(Option<&X>) -> X,
    ) -> ProxyId {
        self.len += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.extra = make(Some(&slot.extra));
            slot.aabb = aabb;
            slot.live = true;
            self.users[index as usize] = user;
            return ProxyId {
                index,
                generation: slot.generation,
            };
        }
        // `u32::MAX` stays free as the phases' null index.
        let index = u32::try_from(self.slots.len())
            .ok()
            .filter(|&i| i < u32::MAX)
            .expect("more than u32::MAX - 1 proxies");
        self.slots.push(Proxy {
            aabb,
            extra: make(None),
            generation: 0,
            live: true,
        });
        self.users.push(user);
        ProxyId {
            index,
            generation: 0,
        }
    }

    /// Removes a live proxy, returning a copy of what it stored (the slot keeps it until
    /// reused); `None` for a stale or unknown handle.
    pub(crate) fn remove(&mut self, id: ProxyId) -> Option<Proxy<X>> {
        let index = self.index_of(id)?;
        let slot = &mut self.slots[index as usize];
        let value = *slot;
        slot.live = false;
        self.len -= 1;
        if let Some(next) = slot.generation.checked_add(1) {
            slot.generation = next;
            self.free.push(index);
        }
        Some(value)
    }
}

impl<X> ProxyTable<X> {
    /// The slot index of a live handle, or `None` for a stale or unknown one.
    #[inline]
    pub(crate) fn index_of(&self, id: ProxyId) -> Option<u32> {
        let slot = self.slots.get(id.index as usize)?;
        (slot.live && slot.generation == id.generation).then_some(id.index)
    }

    /// The proxy of a live handle.
    #[inline]
    pub(crate) fn get(&self, id: ProxyId) -> Option<&Proxy<X>> {
        let slot = self.slots.get(id.index as usize)?;
        (slot.live && slot.generation == id.generation).then_some(slot)
    }

    /// The proxy of a live handle, mutably.
    #[inline]
    pub(crate) fn get_mut(&mut self, id: ProxyId) -> Option<&mut Proxy<X>> {
        let slot = self.slots.get_mut(id.index as usize)?;
        (slot.live && slot.generation == id.generation).then_some(slot)
    }

    /// Stores a new box for a live handle; false (nothing changed) for a stale or unknown one.
    #[inline]
    pub(crate) fn set_aabb(&mut self, id: ProxyId, aabb: Aabb) -> bool {
        match self.get_mut(id) {
            Some(p) => {
                p.aabb = aabb;
                true
            }
            None => false,
        }
    }

    /// The user value of a live handle.
    #[inline]
    pub(crate) fn user(&self, id: ProxyId) -> Option<u64> {
        self.get(id).map(|_| self.users[id.index as usize])
    }

    /// The stored box of a live handle.
    #[inline]
    pub(crate) fn aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.get(id).map(|p| p.aabb)
    }

    /// The live proxy in slot `index` (no generation check: for indices the structure stored).
    #[inline]
    pub(crate) fn at(&self, index: u32) -> Option<&Proxy<X>> {
        self.slots.get(index as usize).filter(|s| s.live)
    }

    /// Slot `index`, live or free (for the tree, which keeps per-slot state across a removal);
    /// panics past the table's end.
    #[inline]
    pub(crate) fn slot(&self, index: u32) -> &Proxy<X> {
        &self.slots[index as usize]
    }

    /// Slot `index`, live or free, mutably; panics past the table's end.
    #[inline]
    pub(crate) fn slot_mut(&mut self, index: u32) -> &mut Proxy<X> {
        &mut self.slots[index as usize]
    }

    /// Every slot, live or free, in slot order.
    #[inline]
    pub(crate) fn slots(&self) -> &[Proxy<X>] {
        &self.slots
    }

    /// Every slot, live or free, in slot order, mutably (the table's own bookkeeping, the
    /// generation and the live flag, must not be changed through it).
    #[inline]
    pub(crate) fn slots_mut(&mut self) -> &mut [Proxy<X>] {
        &mut self.slots
    }

    /// The handle of the proxy in slot `index`.
    #[inline]
    pub(crate) fn id_at(&self, index: u32) -> ProxyId {
        ProxyId {
            index,
            generation: self.slots[index as usize].generation,
        }
    }

    /// Number of live proxies.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Bytes of heap memory held by the table.
    pub(crate) fn capacity_bytes(&self) -> usize {
        use core::mem::size_of;
        self.slots.capacity() * size_of::<Proxy<X>>()
            + self.users.capacity() * size_of::<u64>()
            + self.free.capacity() * size_of::<u32>()
    }

    /// Live `(handle, proxy)` pairs in slot order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (ProxyId, &Proxy<X>)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.live)
            .map(|(i, s)| {
                (
                    ProxyId {
                        index: i as u32,
                        generation: s.generation,
                    },
                    s,
                )
            })
    }

    /// Every live proxy whose stored box overlaps `aabb` (closed sets), in slot order, by a
    /// linear scan: the brute-force query, and the fallback of phases whose index is stale.
    pub(crate) fn scan(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> Visit) -> QueryStats {
        let mut stats = QueryStats::default();
        for (id, p) in self.iter() {
            stats.leaves_tested += 1;
            if p.aabb.intersects(aabb) {
                stats.hits += 1;
                if f(id) == Visit::Stop {
                    break;
                }
            }
        }
        stats
    }

    /// Turns sorted pair keys (see [`pair_key`]) into sorted handle pairs in `out`.
    pub(crate) fn keys_to_pairs(&self, keys: &[u64], out: &mut Vec<(ProxyId, ProxyId)>) {
        out.clear();
        out.reserve(keys.len());
        out.extend(
            keys.iter()
                .map(|&k| (self.id_at((k >> 32) as u32), self.id_at(k as u32))),
        );
    }

    /// Checks the table's invariants: the live count, a free list of distinct free slots, and
    /// every free slot listed unless retired (its generation at `u32::MAX`).
    pub(crate) fn validate(&self) -> Result<(), String> {
        let live = self.slots.iter().filter(|s| s.live).count();
        if live != self.len || self.users.len() != self.slots.len() {
            return Err(format!(
                "{live} live slots of {} ({} user values) but count {}",
                self.slots.len(),
                self.users.len(),
                self.len
            ));
        }
        let mut listed = vec![false; self.slots.len()];
        for &f in &self.free {
            match self.slots.get(f as usize) {
                None => return Err(format!("free list holds slot {f} past the end")),
                Some(s) if s.live || listed[f as usize] => {
                    return Err(format!(
                        "free list holds slot {f} twice or while it is live"
                    ));
                }
                Some(_) => listed[f as usize] = true,
            }
        }
        for (k, s) in self.slots.iter().enumerate() {
            if !s.live && !listed[k] && s.generation != u32::MAX {
                return Err(format!("free slot {k} is in no free list"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Point3;

    fn unit(x: f64) -> Aabb {
        let x = x as sepax_shapes::math::Real;
        Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x + 1.0, 1.0, 1.0)).unwrap()
    }

    #[test]
    fn handles_users_and_boxes_follow_their_slots() {
        let mut t = ProxyTable::<u8>::default();
        let a = t.insert(unit(0.0), 10, 1);
        let b = t.insert(unit(1.0), 11, 2);
        assert_eq!((t.len(), t.user(a), t.user(b)), (2, Some(10), Some(11)));
        assert_eq!(t.aabb(b), Some(unit(1.0)));
        assert!(t.set_aabb(b, unit(5.0)));
        assert_eq!(
            t.at(b.index).map(|p| (p.aabb, p.extra)),
            Some((unit(5.0), 2))
        );
        let removed = t.remove(b).map(|p| p.extra);
        assert_eq!((removed, t.len()), (Some(2), 1));
        // Stale: refused everywhere, and the reused slot gets a new generation.
        assert!(t.remove(b).is_none() && !t.set_aabb(b, unit(0.0)));
        assert_eq!((t.user(b), t.aabb(b)), (None, None));
        let c = t.insert(unit(2.0), 12, 3);
        assert_eq!(c.index, b.index);
        assert_ne!(c.generation, b.generation);
        assert_eq!((t.user(b), t.user(c)), (None, Some(12)));
        assert_eq!(t.id_at(c.index), c);
        let live: Vec<_> = t.iter().map(|(id, p)| (id, p.extra)).collect();
        assert_eq!(live, vec![(a, 1), (c, 3)]);
        let mut pairs = Vec::new();
        t.keys_to_pairs(&[pair_key(c.index, a.index)], &mut pairs);
        assert_eq!(pairs, vec![(a, c)]);
    }

    #[test]
    fn a_slot_whose_generation_would_wrap_is_retired() {
        let mut t = ProxyTable::<()>::default();
        let a = t.insert(unit(0.0), 0, ());
        t.slots[0].generation = u32::MAX;
        assert!(t.validate().is_ok());
        let a = ProxyId {
            generation: u32::MAX,
            ..a
        };
        assert!(t.remove(a).is_some());
        assert!(t.validate().is_ok());
        let b = t.insert(unit(0.0), 1, ());
        assert_ne!(b.index, a.index, "the retired slot is not reused");
        assert_eq!(t.user(a), None);
    }
}
