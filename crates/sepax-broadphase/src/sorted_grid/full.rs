//! The full build: every live proxy sorted into the entries (or the oversize list), with a
//! layout chosen from the box of occupied home cells.

use super::changes::{Home, NOWHERE, OVERSIZE, REGULAR};
use super::entry::Entry;
use super::layout::{dense_key, dense_layout, Layout};
use super::sort::radix_sort;
use super::SortedGrid;

impl SortedGrid {
    /// Refreshes the key column and the entry index of every regular slot (dense layout).
    pub(super) fn fill_columns(&mut self) {
        self.columns.fill(&self.entries);
        for (i, e) in self.entries.iter().enumerate() {
            self.home[e.slot() as usize] = Home {
                pos: i as u32,
                key: e.key(),
            };
        }
    }

    /// Sorts every live proxy into the entries (regular) or the oversize list, choosing the
    /// layout from the box of occupied home cells.
    #[inline(never)]
    pub(super) fn build_full(&mut self) {
        self.oversize.clear();
        self.place.fill(NOWHERE);
        // Pass 1 (slot order, sequential): regular proxies into `items`, oversize ones to
        // their list; the box of occupied home cells picks the layout.
        let mut items = core::mem::take(&mut self.sorted);
        items.clear();
        let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
        for (id, p) in self.proxies.iter() {
            match self.home(&p.aabb) {
                Some(c) => {
                    for k in 0..3 {
                        lo[k] = lo[k].min(c[k]);
                        hi[k] = hi[k].max(c[k]);
                    }
                    items.push(Entry::new(&p.aabb, id.index, 0));
                    self.place[id.index as usize] = REGULAR;
                }
                None => {
                    self.oversize.push(id.index);
                    self.place[id.index as usize] = OVERSIZE;
                }
            }
        }
        let regular = items.len();
        let dense = if regular > 0 {
            dense_layout(lo, hi)
        } else {
            None
        };
        let bound = match dense {
            Some((origin, dims)) => {
                self.layout = Layout::Dense { origin, dims };
                for e in items.iter_mut() {
                    // Every home cell lies in the layout.
                    e.set_key(dense_key(self.home_cell(&e.aabb()), origin, dims).unwrap_or(0));
                }
                dims[0] as usize * (dims[1] as usize + 1) * (dims[2] as usize + 1)
            }
            None => {
                let buckets = (2 * regular).next_power_of_two().max(16);
                let mask = (buckets - 1) as u32;
                self.layout = Layout::Hashed { mask };
                for e in items.iter_mut() {
                    e.set_key(Self::hash_bucket(self.home_cell(&e.aabb()), mask) as u32);
                }
                buckets
            }
        };
        // Stable LSD radix sort by key, 11 bits per pass (2048 counters stay in L1 cache, and
        // the scatter writes 2048 sequential streams).
        let mut other = core::mem::take(&mut self.entries);
        radix_sort(&mut items, &mut other, bound);
        self.entries = items;
        self.sorted = other;
        match self.layout {
            Layout::Dense { .. } => self.fill_columns(),
            Layout::Hashed { .. } => {
                // Bucket starts; `entries[start[b]..start[b + 1]]` is bucket `b`.
                let start = &mut self.start;
                start.clear();
                start.resize(bound + 1, 0);
                let mut next = 0;
                for (i, e) in self.entries.iter().enumerate() {
                    let b = e.key() as usize;
                    if next <= b {
                        start[next..=b].fill(i as u32);
                        next = b + 1;
                    }
                }
                start[next..].fill(self.entries.len() as u32);
            }
        }
    }
}
