//! The merge of the coherent build: the re-keyed entries, sorted, merged with the kept ones
//! in one pass that also writes the key column and each slot's place.

use super::changes::Home;
use super::coherent::DEAD;
use super::entry::Entry;
use super::sort::{radix_sort, RADIX_MIN};
use super::sorted::PAD;
use super::SortedGrid;

/// Writes entry `e` at index `w` of the merge's output and key column, and records its place
/// in `home`.
#[inline(always)]
fn put(
    out: &mut [core::mem::MaybeUninit<Entry>],
    keys: &mut [core::mem::MaybeUninit<i32>],
    home: &mut [Home],
    w: usize,
    e: &Entry,
) {
    out[w].write(*e);
    keys[w].write(e.key() as i32);
    home[e.slot() as usize] = Home {
        pos: w as u32,
        key: e.key(),
    };
}

impl SortedGrid {
    /// Sorts `moved` by key (keys below `bound`) and merges it with the entries not marked
    /// `DEAD` (`dead` of them are) into the second buffer, in one pass that also refreshes the
    /// key column and `home`.
    #[inline(never)]
    pub(super) fn merge(&mut self, moved: &mut Vec<Entry>, bound: usize, dead: usize) {
        if moved.len() >= RADIX_MIN {
            radix_sort(moved, &mut self.sorted, bound);
        } else {
            moved.sort_unstable_by_key(|e| e.key());
        }
        let n = self.entries.len() - dead + moved.len();
        let mut out = core::mem::take(&mut self.sorted);
        out.clear();
        out.reserve(n);
        let keys = &mut self.columns.keys;
        keys.clear();
        keys.reserve(n + PAD);
        // Written through the spare capacity, one store each (no length updates in the loop).
        let (o, k) = (
            &mut out.spare_capacity_mut()[..n],
            &mut keys.spare_capacity_mut()[..n],
        );
        let home = &mut self.home;
        let mut w = 0;
        // A moved entry goes after the kept entries of keys up to its own. `next`: the key of
        // the next moved entry (`DEAD`, above every key, when none is left).
        let mut j = 0;
        let mut next = moved.first().map_or(DEAD, |m| m.key());
        for e in &self.entries {
            if e.key() == DEAD {
                continue;
            }
            if next < e.key() {
                while j < moved.len() && moved[j].key() < e.key() {
                    put(o, k, home, w, &moved[j]);
                    w += 1;
                    j += 1;
                }
                next = moved.get(j).map_or(DEAD, |m| m.key());
            }
            put(o, k, home, w, e);
            w += 1;
        }
        for m in &moved[j..] {
            put(o, k, home, w, m);
            w += 1;
        }
        // Every kept entry (`entries.len() - dead`) and every moved one was written once, to
        // `o[..w]` and `k[..w]` in order (`put` panics past `n`).
        assert_eq!(w, n, "re-keying lost count of the entries");
        // SAFETY: `out` and `keys` have capacity for `n` elements (reserved above), and their
        // first `n` elements were initialized by `put` (`w == n` writes at indices 0, 1, ...).
        #[allow(unsafe_code)]
        unsafe {
            out.set_len(n);
            keys.set_len(n);
        }
        keys.resize(n + PAD, i32::MAX);
        self.sorted = core::mem::replace(&mut self.entries, out);
    }
}
