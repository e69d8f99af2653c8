//! What changed since the last build (the dirty list) and where the last build listed each
//! slot.

use super::SortedGrid;

/// Where a slot is listed by the last build.
pub(super) const NOWHERE: u8 = 0;
/// In `entries`.
pub(super) const REGULAR: u8 = 1;
/// In `oversize`.
pub(super) const OVERSIZE: u8 = 2;

/// Where a regular slot's entry is, and its key (dense layout).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Home {
    pub(super) pos: u32,
    pub(super) key: u32,
}

impl SortedGrid {
    /// Marks a slot as changed since the last build.
    #[inline]
    pub(super) fn mark_dirty(&mut self, slot: u32) {
        // One bounds check on the path of `update` (a slot past the tables is new: listed
        // nowhere yet, and not in `dirty`).
        match self.listed.get_mut(slot as usize) {
            Some(l) => {
                if !*l {
                    *l = true;
                    self.dirty.push(slot);
                }
            }
            None => {
                self.grow_slot_tables(slot as usize + 1);
                self.listed[slot as usize] = true;
                self.dirty.push(slot);
            }
        }
    }

    /// Grows the per-slot tables to `len` slots (a new slot; kept out of `update`'s path).
    #[cold]
    #[inline(never)]
    pub(super) fn grow_slot_tables(&mut self, len: usize) {
        self.listed.resize(len, false);
        self.place.resize(len, NOWHERE);
        self.home.resize(len, Home::default());
    }

    /// Forgets the dirty list (after a build).
    pub(super) fn clear_dirty(&mut self) {
        for &slot in &self.dirty {
            self.listed[slot as usize] = false;
        }
        self.dirty.clear();
    }

    /// Whether slot `slot` holds a live proxy that the last build listed as it is now.
    #[inline(always)]
    pub(super) fn current(&self, slot: u32) -> bool {
        self.proxies.at(slot).is_some() && !self.listed.get(slot as usize).copied().unwrap_or(false)
    }
}
