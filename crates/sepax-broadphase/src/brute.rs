//! The brute-force broad phase: every pair of stored boxes is compared. `O(n²)` per frame, kept
//! as the reference that the tests compare every other implementation with.
//!
//! Also home of two small pieces the simple implementations share: the generational slot table
//! behind [`ProxyId`] and the closed-set box overlap test.

use sepax_shapes::math::Vector3;
use sepax_shapes::Aabb;

use crate::{BroadPhase, ProxyId, QueryStats, Visit};

/// Closed-set overlap of two boxes (touching counts), by exact comparisons.
#[inline]
pub(crate) fn overlaps(a: &Aabb, b: &Aabb) -> bool {
    let (amin, amax, bmin, bmax) = (a.min(), a.max(), b.min(), b.max());
    amin.x <= bmax.x
        && bmin.x <= amax.x
        && amin.y <= bmax.y
        && bmin.y <= amax.y
        && amin.z <= bmax.z
        && bmin.z <= amax.z
}

/// Packs a pair of slot indices into one sortable key (`lo` in the high half), so that sorting
/// keys sorts pairs as `(a, b)` lexicographically.
#[inline]
pub(crate) fn pair_key(a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (u64::from(lo) << 32) | u64::from(hi)
}

/// One slot of a [`Slots`] table.
#[derive(Debug, Clone)]
struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

/// A generational slot table: removed slots are reused with a bumped generation, so a handle of
/// a removed proxy never aliases a newer one. A slot whose generation would wrap is retired.
#[derive(Debug, Clone)]
pub(crate) struct Slots<T> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
    len: usize,
}

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            free: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Slots<T> {
    /// Stores `value`, returning its handle.
    pub(crate) fn insert(&mut self, value: T) -> ProxyId {
        self.len += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.value = Some(value);
            return ProxyId {
                index,
                generation: slot.generation,
            };
        }
        let index = u32::try_from(self.slots.len()).expect("more than u32::MAX proxies");
        self.slots.push(Slot {
            generation: 0,
            value: Some(value),
        });
        ProxyId {
            index,
            generation: 0,
        }
    }

    /// Removes and returns the value of a live handle; `None` for a stale or unknown one.
    pub(crate) fn remove(&mut self, id: ProxyId) -> Option<T> {
        let slot = self.slots.get_mut(id.index as usize)?;
        if slot.generation != id.generation || slot.value.is_none() {
            return None;
        }
        let value = slot.value.take();
        self.len -= 1;
        if let Some(next) = slot.generation.checked_add(1) {
            slot.generation = next;
            self.free.push(id.index);
        }
        value
    }

    /// The value of a live handle.
    #[inline]
    pub(crate) fn get(&self, id: ProxyId) -> Option<&T> {
        let slot = self.slots.get(id.index as usize)?;
        if slot.generation == id.generation {
            slot.value.as_ref()
        } else {
            None
        }
    }

    /// The value of a live handle, mutably.
    #[inline]
    pub(crate) fn get_mut(&mut self, id: ProxyId) -> Option<&mut T> {
        let slot = self.slots.get_mut(id.index as usize)?;
        if slot.generation == id.generation {
            slot.value.as_mut()
        } else {
            None
        }
    }

    /// The live value in slot `index` (no generation check: for indices the structure stored).
    #[inline]
    pub(crate) fn at(&self, index: u32) -> Option<&T> {
        self.slots.get(index as usize)?.value.as_ref()
    }

    /// The handle of the live value in slot `index`.
    #[inline]
    pub(crate) fn id_at(&self, index: u32) -> ProxyId {
        ProxyId {
            index,
            generation: self.slots[index as usize].generation,
        }
    }

    /// Number of live values.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Bytes of heap memory held by the table.
    pub(crate) fn capacity_bytes(&self) -> usize {
        self.slots.capacity() * core::mem::size_of::<Slot<T>>()
            + self.free.capacity() * core::mem::size_of::<u32>()
    }

    /// Live `(handle, value)` pairs in slot order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (ProxyId, &T)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.value.as_ref().map(|v| {
                (
                    ProxyId {
                        index: i as u32,
                        generation: s.generation,
                    },
                    v,
                )
            })
        })
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
}

/// A stored proxy of the brute-force broad phase.
#[derive(Debug, Clone, Copy)]
struct Proxy {
    aabb: Aabb,
    user: u64,
}

/// All pairs by exact box comparisons; boxes are stored exactly as given (no fattening).
///
/// The reference implementation: `O(n²)` per [`BroadPhase::update_pairs`], `O(n)` per query.
#[derive(Debug, Clone, Default)]
pub struct BruteForce {
    proxies: Slots<Proxy>,
    /// Live proxies packed for the pair loop (scratch, reused between frames).
    packed: Vec<(ProxyId, Aabb)>,
}

impl BruteForce {
    /// An empty broad phase.
    pub fn new() -> Self {
        Self::default()
    }
}

impl BroadPhase for BruteForce {
    fn insert(&mut self, aabb: Aabb, user: u64) -> ProxyId {
        self.proxies.insert(Proxy { aabb, user })
    }

    fn remove(&mut self, id: ProxyId) -> bool {
        self.proxies.remove(id).is_some()
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb, _displacement: Vector3) -> bool {
        match self.proxies.get_mut(id) {
            Some(p) => {
                p.aabb = aabb;
                true
            }
            None => false,
        }
    }

    fn user(&self, id: ProxyId) -> Option<u64> {
        self.proxies.get(id).map(|p| p.user)
    }

    fn stored_aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.proxies.get(id).map(|p| p.aabb)
    }

    fn len(&self) -> usize {
        self.proxies.len()
    }

    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> Visit) -> QueryStats {
        let mut stats = QueryStats::default();
        for (id, p) in self.proxies.iter() {
            stats.leaves_tested += 1;
            if overlaps(&p.aabb, aabb) {
                stats.hits += 1;
                if f(id) == Visit::Stop {
                    break;
                }
            }
        }
        stats
    }

    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        out.clear();
        self.packed.clear();
        self.packed
            .extend(self.proxies.iter().map(|(id, p)| (id, p.aabb)));
        // Slot order is handle order, so `i < j` emits pairs already sorted.
        for (i, (a, box_a)) in self.packed.iter().enumerate() {
            for (b, box_b) in &self.packed[i + 1..] {
                if overlaps(box_a, box_b) {
                    out.push((*a, *b));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_shapes::math::Point3;

    fn cube(x: f64, h: f64) -> Aabb {
        let (x, h) = (x as sepax_shapes::math::Real, h as sepax_shapes::math::Real);
        Aabb::new(Point3::new(x - h, -h, -h), Point3::new(x + h, h, h)).unwrap()
    }

    #[test]
    fn touching_boxes_pair_and_stale_handles_are_rejected() {
        let mut bp = BruteForce::new();
        let a = bp.insert(cube(0.0, 1.0), 10);
        let b = bp.insert(cube(2.0, 1.0), 11);
        let c = bp.insert(cube(5.0, 1.0), 12);
        let mut pairs = Vec::new();
        bp.update_pairs(&mut pairs);
        assert_eq!(pairs, vec![(a, b)]);
        assert!(bp.remove(b));
        assert!(!bp.remove(b));
        assert!(!bp.update(b, cube(0.0, 1.0), Vector3::zeros()));
        assert_eq!(bp.user(b), None);
        // The slot is reused with a new generation; the old handle stays dead.
        let d = bp.insert(cube(0.5, 1.0), 13);
        assert_eq!(d.index, b.index);
        assert_ne!(d.generation, b.generation);
        assert_eq!(bp.user(b), None);
        assert_eq!(bp.user(d), Some(13));
        bp.update_pairs(&mut pairs);
        assert_eq!(pairs, vec![(a, d)]);
        assert_eq!(bp.len(), 3);
        let mut hits = Vec::new();
        bp.query_aabb(&cube(5.0, 0.0), &mut |id| {
            hits.push(id);
            Visit::Continue
        });
        assert_eq!(hits, vec![c]);
    }
}
