//! The regular pairs of a hashed layout: per entry, its own cell and the 13 forward
//! neighbour cells, by bucket lookups.

use crate::proxies::pair_key;

use super::entry::Entry;
use super::SortedGrid;

/// The 13 neighbour offsets of the forward half: `(dx, dy, dz)` lexicographically positive.
const FORWARD: [[i32; 3]; 13] = [
    [1, -1, -1],
    [1, -1, 0],
    [1, -1, 1],
    [1, 0, -1],
    [1, 0, 0],
    [1, 0, 1],
    [1, 1, -1],
    [1, 1, 0],
    [1, 1, 1],
    [0, 1, -1],
    [0, 1, 0],
    [0, 1, 1],
    [0, 0, 1],
];

/// Why a [`SortedGrid`] cell size was refused: it is not finite and positive (or so small that
impl SortedGrid {
    /// The entries of the bucket of `cell` in a hashed layout (cells of other buckets' entries
    /// are skipped by the callers' home-cell comparison).
    #[inline(always)]
    pub(super) fn bucket_entries(&self, cell: [i32; 3], mask: u32) -> &[Entry] {
        let b = Self::hash_bucket(cell, mask);
        &self.entries[self.start[b] as usize..self.start[b + 1] as usize]
    }

    /// The regular pairs of a hashed layout: per entry, the rest of its cell and the 13 forward
    /// neighbour cells, skipping entries of other cells that share a bucket.
    pub(super) fn hashed_pairs(&self, mask: u32, keys: &mut Vec<u64>) {
        let entries = &self.entries;
        for b in 0..self.start.len() - 1 {
            let (s, e) = (self.start[b] as usize, self.start[b + 1] as usize);
            for i in s..e {
                let a = &entries[i];
                let cell = self.home_cell(&a.aabb());
                for other in &entries[i + 1..e] {
                    if self.home_cell(&other.aabb()) == cell && a.aabb().intersects(&other.aabb()) {
                        keys.push(pair_key(a.slot(), other.slot()));
                    }
                }
                for o in FORWARD {
                    // A neighbour past the end of the i32 range holds no home cell (those
                    // saturate onto the last cell, covered by the other passes).
                    let (Some(x), Some(y), Some(z)) = (
                        cell[0].checked_add(o[0]),
                        cell[1].checked_add(o[1]),
                        cell[2].checked_add(o[2]),
                    ) else {
                        continue;
                    };
                    let c = [x, y, z];
                    for other in self.bucket_entries(c, mask) {
                        if self.home_cell(&other.aabb()) == c && a.aabb().intersects(&other.aabb())
                        {
                            keys.push(pair_key(a.slot(), other.slot()));
                        }
                    }
                }
            }
        }
    }
}
