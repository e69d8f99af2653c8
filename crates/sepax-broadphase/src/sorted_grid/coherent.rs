//! The coherent build of a dense layout: only the proxies changed since the last build are
//! re-keyed; the entries whose key changed are sorted and merged back (`merge.rs`).

#[cfg(target_arch = "x86_64")]
use super::avx2;
use super::changes::{NOWHERE, OVERSIZE, REGULAR};
use super::entry::Entry;
use super::layout::{Class, DenseGeom, Layout};
use super::SortedGrid;

/// The key of an entry that leaves its place (removed, re-keyed or now oversize), during a
/// coherent build (dense keys are below `i32::MAX`).
pub(super) const DEAD: u32 = u32::MAX;

/// How many dirty slots ahead the re-keying prefetches the entry it will store into.
const PREFETCH_AHEAD: usize = 16;

/// Asks the processor to start loading the cache line of `e` (a hint: no effect on results;
/// nothing off x86-64).
#[inline(always)]
fn prefetch(e: &Entry) {
    sepax_simd::prefetch(e);
}

impl SortedGrid {
    /// Brings the sorted entries up to date.
    pub(super) fn build(&mut self) {
        if let Layout::Dense { origin, dims } = self.layout {
            if self.build_coherent(origin, dims) {
                self.clear_dirty();
                return;
            }
        }
        self.clear_dirty();
        self.build_full();
    }

    /// The coherent build of a dense layout: only the listed (dirty) proxies are looked at;
    /// those whose key is unchanged keep their place, the others are taken out, sorted and
    /// merged back. Returns false, leaving a state that only [`Self::build_full`] may follow,
    /// when a home cell falls outside the layout.
    pub(super) fn build_coherent(&mut self, origin: [i64; 3], dims: [i64; 3]) -> bool {
        let mut moved = core::mem::take(&mut self.moved);
        moved.clear();
        let dead = self.rekey(&mut moved, &DenseGeom::new(origin, dims));
        if let Some(dead) = dead {
            let (py, pz) = (dims[1] as usize + 1, dims[2] as usize + 1);
            self.merge(&mut moved, dims[0] as usize * py * pz, dead);
        }
        self.moved = moved;
        dead.is_some()
    }

    /// Refreshes the oversize list and the entries from the dirty proxies: entries whose key
    /// stays get their new box in place, entries whose key changed (and new proxies) go to
    /// `moved`, those that leave are marked `DEAD`. Returns how many entries are marked, or
    /// `None` when a home cell falls outside the layout.
    ///
    /// On a CPU with AVX2 the same code runs compiled for AVX2 (see [`avx2`]).
    #[inline(never)]
    pub(super) fn rekey(&mut self, moved: &mut Vec<Entry>, g: &DenseGeom) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = avx2::Avx2::detect() {
            return avx2::rekey(cpu, self, moved, g);
        }
        self.rekey_body(moved, g)
    }

    /// The body of [`Self::rekey`], instantiated for the build's own target features and for
    /// AVX2.
    #[inline(always)]
    pub(super) fn rekey_body(&mut self, moved: &mut Vec<Entry>, g: &DenseGeom) -> Option<usize> {
        // The dirty entries, visited in dirty (update) order: the reads of the slot table and
        // of `home` follow that order, the entries only receive stores (no read of the old
        // entry). Most boxes keep their key: their entry takes the new box in place.
        let inv = self.inv_cell;
        let mut dead = 0;
        // The tables as local slices (so that their addresses stay in registers).
        let (dirty, place, home) = (&self.dirty[..], &mut self.place[..], &self.home[..]);
        let (entries, proxies, oversize) =
            (&mut self.entries[..], &self.proxies, &mut self.oversize);
        for (i, &slot) in dirty.iter().enumerate() {
            // The entry a few dirty slots ahead, requested now (its store then rarely waits).
            if let Some(&ahead) = dirty.get(i + PREFETCH_AHEAD) {
                if let Some(e) = entries.get(home[ahead as usize].pos as usize) {
                    prefetch(e);
                }
            }
            let s = slot as usize;
            if place[s] != REGULAR {
                // Listed nowhere yet (inserted since the last build): classified here. A new
                // oversize proxy is checked again (and kept) by the oversize pass below.
                if place[s] == NOWHERE {
                    if let Some(p) = proxies.at(slot) {
                        match g.classify(inv, &p.aabb) {
                            Class::Key(key) => {
                                moved.push(Entry::new(&p.aabb, slot, key));
                                place[s] = REGULAR;
                            }
                            Class::Oversize => {
                                oversize.push(slot);
                                place[s] = OVERSIZE;
                            }
                            Class::Outside => return None,
                        }
                    }
                }
                continue;
            }
            let h = home[s];
            let e = &mut entries[h.pos as usize];
            let Some(p) = proxies.at(slot) else {
                e.set_key(DEAD);
                place[s] = NOWHERE;
                dead += 1;
                continue;
            };
            match g.classify(inv, &p.aabb) {
                Class::Key(key) if key == h.key => *e = Entry::new(&p.aabb, slot, key),
                Class::Key(key) => {
                    moved.push(Entry::new(&p.aabb, slot, key));
                    e.set_key(DEAD);
                    dead += 1;
                }
                Class::Oversize => {
                    // Checked again (and kept) by the oversize pass below.
                    oversize.push(slot);
                    place[s] = OVERSIZE;
                    e.set_key(DEAD);
                    dead += 1;
                }
                Class::Outside => return None,
            }
        }
        // The oversize list, compacted in place.
        let mut w = 0;
        for r in 0..self.oversize.len() {
            let slot = self.oversize[r];
            if self.listed[slot as usize] {
                let Some(p) = self.proxies.at(slot) else {
                    self.place[slot as usize] = NOWHERE;
                    continue;
                };
                match g.classify(inv, &p.aabb) {
                    Class::Oversize => {}
                    Class::Key(key) => {
                        moved.push(Entry::new(&p.aabb, slot, key));
                        self.place[slot as usize] = REGULAR;
                        continue;
                    }
                    Class::Outside => return None,
                }
            }
            self.oversize[w] = slot;
            w += 1;
        }
        self.oversize.truncate(w);
        Some(dead)
    }
}
