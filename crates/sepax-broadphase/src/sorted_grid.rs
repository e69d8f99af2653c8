//! A uniform grid rebuilt from scratch every frame by a counting sort: the broad phase for many
//! moving boxes of similar size (particles, debris, crowds), where every frame most boxes move
//! and an incremental structure spends its time on bookkeeping.
//!
//! Every box no wider than one cell on each axis (a *regular* box) is listed once, in the cell
//! of its lower corner (its *home* cell); wider boxes go to an *oversize* list tested against
//! everything. Two regular boxes that share a point have home cells at most one apart on each
//! axis, so each pair is found from one home cell by looking at that cell and 13 of its 26
//! neighbours (the "forward half", so that each pair of cells is looked at once):
//!
//! ```text
//! update_pairs:
//!   for each live proxy: cell = floor(min * inv_cell) per axis; regular iff
//!       floor(max * inv_cell) - cell <= 1 on every axis
//!   counting sort of the regular proxies by cell: one bucket per cell of the box of occupied
//!   cells in x-major order when that box has at most 16 cells per proxy (neighbouring cells
//!   are then near each other in memory), else by hash(cell) into 2^k buckets
//!   (k from their number)
//!   for each entry e (home cell c):
//!       same cell: the entries after e in c's bucket with home cell c
//!       each forward offset o: the entries of bucket(c + o) with home cell c + o
//!       report (e, f) when the two boxes overlap (exact comparisons)
//!   oversize proxies: against every proxy (each pair once)
//!   sort the pair keys
//! ```
//!
//! Why the neighbourhood suffices, with rounding: `x -> floor(fl(x * inv_cell))` is monotone,
//! so if `a.min <= b.max` then `cell(a.min) <= cell(b.max) <= cell(b.min) + 1` (the last step
//! is the definition of regular), and symmetrically; two overlapping regular boxes therefore
//! have home cells that differ by at most one on each axis. Hash collisions only add entries
//! that the home-cell comparison skips. Cell coordinates saturate at the ends of the `i32`
//! range (still monotone, so the argument holds); a neighbour past the end is skipped, as no
//! home cell lies there.
//!
//! Boxes are stored as given (no fattening), so the pairs are exactly the overlapping boxes.
//! The work per frame is `O(n + pairs)` whatever moved; nothing is allocated once the buffers
//! have grown. Queries between an update and the next [`BroadPhase::update_pairs`] stay
//! complete: proxies inserted or moved since the last build are kept in a short list and tested
//! directly.

use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::Aabb;

use crate::brute::{overlaps, pair_key, Slots};
use crate::{BroadPhase, ProxyId, QueryStats, Visit};

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
/// its inverse overflows).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellSizeError(pub f64);

impl core::fmt::Display for CellSizeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "sorted grid cell_size must be finite and positive, got {}",
            self.0
        )
    }
}

impl std::error::Error for CellSizeError {}

/// How the last build maps cells to buckets.
#[derive(Debug, Clone, Copy)]
enum Layout {
    /// One bucket per cell of the box `origin .. origin + dims` of occupied home cells, in
    /// x-major order.
    Dense { origin: [i64; 3], dims: [i64; 3] },
    /// `hash(cell) & mask`.
    Hashed { mask: u32 },
}

/// Dense layouts are used up to this many cells per regular proxy.
const DENSE_CELLS_PER_PROXY: i64 = 16;

/// A stored proxy.
#[derive(Debug, Clone, Copy)]
struct Proxy {
    aabb: Aabb,
    user: u64,
}

/// A regular proxy in the sorted arrays: its box (copied, so the pair loop reads memory in
/// order), slot and bucket (32 bytes in f32). The home cell is recomputed from the box where a
/// hashed layout needs it (the dense layout never does: a bucket is a cell).
#[derive(Debug, Clone, Copy)]
struct Entry {
    aabb: Aabb,
    slot: u32,
    /// Bucket of the home cell in the last build's layout.
    bucket: u32,
}

/// Sorts `items` by bucket (stable), using `tmp` as the second buffer; `buckets` bounds the
/// keys. Least significant digit first, 11 bits per pass.
fn radix_sort(items: &mut Vec<Entry>, tmp: &mut Vec<Entry>, buckets: usize) {
    const BITS: u32 = 11;
    const DIGITS: usize = 1 << BITS;
    let key_bits = usize::BITS - buckets.saturating_sub(1).leading_zeros();
    let mut shift = 0;
    while shift < key_bits.max(1) {
        let mut count = [0u32; DIGITS + 1];
        for e in items.iter() {
            count[((e.bucket >> shift) as usize & (DIGITS - 1)) + 1] += 1;
        }
        for d in 1..=DIGITS {
            count[d] += count[d - 1];
        }
        tmp.clear();
        tmp.resize(items.len(), empty_entry());
        for e in items.iter() {
            let d = (e.bucket >> shift) as usize & (DIGITS - 1);
            tmp[count[d] as usize] = *e;
            count[d] += 1;
        }
        core::mem::swap(items, tmp);
        shift += BITS;
    }
}

/// A placeholder entry.
fn empty_entry() -> Entry {
    Entry {
        aabb: Aabb::new_unchecked(Default::default(), Default::default()),
        slot: 0,
        bucket: 0,
    }
}

/// The sorted-cell uniform grid. See the [module documentation](self).
///
/// ```
/// use sepax_broadphase::sorted_grid::SortedGrid;
/// use sepax_broadphase::BroadPhase;
/// use sepax_shapes::math::Point3;
/// use sepax_shapes::Aabb;
///
/// let mut grid = SortedGrid::new(1.0).unwrap();
/// let unit = |x| Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x + 0.5, 0.5, 0.5)).unwrap();
/// let a = grid.insert(unit(0.0), 1);
/// let b = grid.insert(unit(0.5), 2);
/// let _far = grid.insert(unit(10.0), 3);
/// let mut pairs = Vec::new();
/// grid.update_pairs(&mut pairs);
/// assert_eq!(pairs, vec![(a, b)]);
/// ```
#[derive(Debug, Clone)]
pub struct SortedGrid {
    cell_size: Real,
    inv_cell: Real,
    proxies: Slots<Proxy>,
    /// Slots inserted or moved since the last build (each once).
    dirty: Vec<u32>,
    /// Per slot: whether it is in `dirty` (kept across removal, so a reused slot is not listed
    /// twice).
    listed: Vec<bool>,
    /// Regular proxies of the last build, grouped by bucket.
    entries: Vec<Entry>,
    /// The second buffer of the radix sort.
    sorted: Vec<Entry>,
    /// `entries[start[b]..start[b + 1]]` is bucket `b` (`buckets + 1` values).
    start: Vec<u32>,
    /// How cells map to buckets in the last build.
    layout: Layout,
    /// Slots of the oversize proxies of the last build.
    oversize: Vec<u32>,
    /// Pair keys of the last frame (scratch).
    keys: Vec<u64>,
}

impl Default for SortedGrid {
    /// Cells of 1 unit.
    fn default() -> Self {
        Self::with_valid_cell(1.0)
    }
}

impl SortedGrid {
    /// An empty grid with cells of `cell_size` (make it the largest extent of a typical box:
    /// wider boxes are tested against everything).
    pub fn new(cell_size: Real) -> Result<Self, CellSizeError> {
        let s = cell_size;
        if !(s.is_finite() && s > 0.0 && (1.0 / s).is_finite()) {
            return Err(CellSizeError(s as f64));
        }
        Ok(Self::with_valid_cell(s))
    }

    fn with_valid_cell(cell_size: Real) -> Self {
        Self {
            cell_size,
            inv_cell: 1.0 / cell_size,
            proxies: Slots::default(),
            dirty: Vec::new(),
            listed: Vec::new(),
            entries: Vec::new(),
            sorted: Vec::new(),
            start: vec![0, 0],
            layout: Layout::Hashed { mask: 0 },
            oversize: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The cell size.
    pub fn cell_size(&self) -> Real {
        self.cell_size
    }

    /// Proxies in the oversize list at the last [`BroadPhase::update_pairs`].
    pub fn oversize_len(&self) -> usize {
        self.oversize.len()
    }

    /// Bytes of heap memory held (capacities of every table and buffer).
    pub fn memory_bytes(&self) -> usize {
        use core::mem::size_of;
        self.proxies.capacity_bytes()
            + self.dirty.capacity() * size_of::<u32>()
            + self.listed.capacity()
            + (self.entries.capacity() + self.sorted.capacity()) * size_of::<Entry>()
            + self.start.capacity() * size_of::<u32>()
            + self.oversize.capacity() * size_of::<u32>()
            + self.keys.capacity() * size_of::<u64>()
    }

    /// The cell coordinate of `x`: `floor(x * inv_cell)`, monotone in `x`, saturating at the
    /// ends of `i32`. (Truncation then a correction, rather than `floor`, which is a library
    /// call on baseline x86-64.)
    #[inline(always)]
    fn coord(&self, x: Real) -> i32 {
        let t = x * self.inv_cell;
        let i = t as i32;
        if (i as Real) > t {
            i.saturating_sub(1)
        } else {
            i
        }
    }

    /// The cell of a box's lower corner (its home cell when it is regular).
    #[inline(always)]
    fn home_cell(&self, b: &Aabb) -> [i32; 3] {
        let lo = b.min();
        [self.coord(lo.x), self.coord(lo.y), self.coord(lo.z)]
    }

    /// Home cell of a box, or `None` when it is oversize.
    #[inline(always)]
    fn home(&self, b: &Aabb) -> Option<[i32; 3]> {
        let (lo, hi) = (b.min(), b.max());
        let c = [self.coord(lo.x), self.coord(lo.y), self.coord(lo.z)];
        let h = [self.coord(hi.x), self.coord(hi.y), self.coord(hi.z)];
        (0..3)
            .all(|k| i64::from(h[k]) - i64::from(c[k]) <= 1)
            .then_some(c)
    }

    /// The bucket of a cell, or `None` for a cell outside the dense layout (no entries).
    #[inline(always)]
    fn bucket(&self, c: [i32; 3]) -> Option<usize> {
        match self.layout {
            Layout::Dense { origin, dims } => {
                let mut index = 0i64;
                for k in 0..3 {
                    let r = i64::from(c[k]) - origin[k];
                    if !(0..dims[k]).contains(&r) {
                        return None;
                    }
                    index = index * dims[k] + r;
                }
                Some(index as usize)
            }
            Layout::Hashed { mask } => {
                // Three-prime XOR hash, then a multiply-xorshift.
                let [x, y, z] = c.map(|v| v as u32 as u64);
                let mut h = x.wrapping_mul(73_856_093)
                    ^ y.wrapping_mul(19_349_663)
                    ^ z.wrapping_mul(83_492_791);
                h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                h ^= h >> 32;
                Some((h as u32 & mask) as usize)
            }
        }
    }

    /// The entries of the bucket of `cell` (cells of other buckets' entries are skipped by the
    /// callers' home-cell comparison).
    #[inline(always)]
    fn bucket_entries(&self, cell: [i32; 3]) -> &[Entry] {
        match self.bucket(cell) {
            Some(b) => &self.entries[self.start[b] as usize..self.start[b + 1] as usize],
            None => &[],
        }
    }

    /// Marks a slot as changed since the last build.
    fn mark_dirty(&mut self, slot: u32) {
        let s = slot as usize;
        if self.listed.len() <= s {
            self.listed.resize(s + 1, false);
        }
        if !self.listed[s] {
            self.listed[s] = true;
            self.dirty.push(slot);
        }
    }

    /// Whether slot `slot` holds a live proxy that the last build listed as it is now.
    #[inline(always)]
    fn current(&self, slot: u32) -> bool {
        self.proxies.at(slot).is_some() && !self.listed.get(slot as usize).copied().unwrap_or(false)
    }

    /// Counting sort of every live proxy into the buckets (regular) or the oversize list.
    fn build(&mut self) {
        self.oversize.clear();
        for &slot in &self.dirty {
            self.listed[slot as usize] = false;
        }
        self.dirty.clear();
        // Pass 1 (slot order, sequential): regular proxies into `sorted` with their home cell,
        // oversize ones to their list; the box of occupied home cells picks the layout.
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
                    items.push(Entry {
                        aabb: p.aabb,
                        slot: id.index,
                        bucket: 0,
                    });
                }
                None => self.oversize.push(id.index),
            }
        }
        let regular = items.len() as i64;
        let dims = [0, 1, 2].map(|k| (i64::from(hi[k]) - i64::from(lo[k]) + 1).max(1));
        let cells = dims[0]
            .checked_mul(dims[1])
            .and_then(|c| c.checked_mul(dims[2]));
        let budget = DENSE_CELLS_PER_PROXY * regular + 1024;
        let buckets = match cells {
            Some(cells) if regular > 0 && cells <= budget => {
                self.layout = Layout::Dense {
                    origin: lo.map(i64::from),
                    dims,
                };
                cells as usize
            }
            _ => {
                let buckets = (2 * regular as usize).next_power_of_two().max(16);
                self.layout = Layout::Hashed {
                    mask: (buckets - 1) as u32,
                };
                buckets
            }
        };
        // Pass 2 (sequential): bucket of each item.
        for e in items.iter_mut() {
            // Every home cell lies in the dense box, and every hash in the table.
            e.bucket = self.bucket(self.home_cell(&e.aabb)).unwrap_or(0) as u32;
        }
        // Pass 3: stable LSD radix sort by bucket, 11 bits per pass (2048 counters stay in L1
        // cache, and the scatter writes 2048 sequential streams): far fewer cache misses than
        // counting into one counter per cell in slot order.
        let mut other = core::mem::take(&mut self.entries);
        radix_sort(&mut items, &mut other, buckets);
        self.entries = items;
        self.sorted = other;
        // Pass 4 (sequential): bucket starts; `entries[start[b]..start[b + 1]]` is bucket `b`.
        let start = &mut self.start;
        start.clear();
        start.resize(buckets + 1, 0);
        let mut next = 0;
        for (i, e) in self.entries.iter().enumerate() {
            let b = e.bucket as usize;
            if next <= b {
                start[next..=b].fill(i as u32);
                next = b + 1;
            }
        }
        start[next..].fill(self.entries.len() as u32);
    }

    /// The regular pairs of a dense layout. Cells are buckets, in x-major order, so the three
    /// cells `(x + dx, y + dy, z - 1 ..= z + 1)` of a forward neighbour row are one contiguous
    /// range of entries: five ranges (the rest of the cell, the next cell on z, three rows)
    /// instead of thirteen cell lookups, clamped to the grid so no row wraps into another.
    fn dense_pairs(&self, dims: [i64; 3], keys: &mut Vec<u64>) {
        let [sx, sy, sz] = dims.map(|d| d as usize);
        let entries = &self.entries;
        let start = &self.start;
        // Entries of cells `row + z0 ..= row + z1`.
        let range = |row: usize, z0: usize, z1: usize| {
            &entries[start[row + z0] as usize..start[row + z1 + 1] as usize]
        };
        let mut test = |a: &Entry, others: &[Entry]| {
            for o in others {
                if overlaps(&a.aabb, &o.aabb) {
                    keys.push(pair_key(a.slot, o.slot));
                }
            }
        };
        for x in 0..sx {
            for y in 0..sy {
                let row = (x * sy + y) * sz;
                for z in 0..sz {
                    let b = row + z;
                    let (s, e) = (start[b] as usize, start[b + 1] as usize);
                    if s == e {
                        continue;
                    }
                    let (z0, z1) = (z.saturating_sub(1), (z + 1).min(sz - 1));
                    for i in s..e {
                        let a = &entries[i];
                        test(a, &entries[i + 1..e]);
                        if z + 1 < sz {
                            test(a, range(row, z + 1, z + 1));
                        }
                        if y + 1 < sy {
                            test(a, range(row + sz, z0, z1));
                        }
                        if x + 1 < sx {
                            let next = row + sy * sz;
                            if y > 0 {
                                test(a, range(next - sz, z0, z1));
                            }
                            test(a, range(next, z0, z1));
                            if y + 1 < sy {
                                test(a, range(next + sz, z0, z1));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The regular pairs of a hashed layout: per entry, the rest of its cell and the 13 forward
    /// neighbour cells, skipping entries of other cells that share a bucket.
    fn hashed_pairs(&self, keys: &mut Vec<u64>) {
        let entries = &self.entries;
        for b in 0..self.start.len() - 1 {
            let (s, e) = (self.start[b] as usize, self.start[b + 1] as usize);
            for i in s..e {
                let a = &entries[i];
                let cell = self.home_cell(&a.aabb);
                for other in &entries[i + 1..e] {
                    if self.home_cell(&other.aabb) == cell && overlaps(&a.aabb, &other.aabb) {
                        keys.push(pair_key(a.slot, other.slot));
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
                    for other in self.bucket_entries(c) {
                        if self.home_cell(&other.aabb) == c && overlaps(&a.aabb, &other.aabb) {
                            keys.push(pair_key(a.slot, other.slot));
                        }
                    }
                }
            }
        }
    }
}

impl BroadPhase for SortedGrid {
    fn insert(&mut self, aabb: Aabb, user: u64) -> ProxyId {
        let id = self.proxies.insert(Proxy { aabb, user });
        self.mark_dirty(id.index);
        id
    }

    fn remove(&mut self, id: ProxyId) -> bool {
        // The sorted arrays may still list the slot: queries skip slots that are no longer
        // live, or listed as dirty (a newer proxy in the same slot).
        self.proxies.remove(id).is_some()
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb, _displacement: Vector3) -> bool {
        match self.proxies.get_mut(id) {
            Some(p) => {
                p.aabb = aabb;
                self.mark_dirty(id.index);
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
        let mut report = |slot: u32, b: &Aabb, stats: &mut QueryStats| -> bool {
            stats.leaves_tested += 1;
            if overlaps(b, aabb) {
                stats.hits += 1;
                if f(self.proxies.id_at(slot)) == Visit::Stop {
                    return false;
                }
            }
            true
        };
        // Regular boxes meeting the query have home cells in [cell(q.min) - 1, cell(q.max)]
        // (clamped: no home cell lies below i32::MIN).
        let (qlo, qhi) = (aabb.min(), aabb.max());
        let lo = [qlo.x, qlo.y, qlo.z].map(|x| self.coord(x).saturating_sub(1));
        let hi = [qhi.x, qhi.y, qhi.z].map(|x| self.coord(x));
        let cells = (0..3)
            .map(|k| (i64::from(hi[k]) - i64::from(lo[k]) + 1) as u128)
            .product::<u128>();
        if cells <= self.entries.len() as u128 {
            for x in lo[0]..=hi[0] {
                for y in lo[1]..=hi[1] {
                    for z in lo[2]..=hi[2] {
                        let c = [x, y, z];
                        stats.nodes_visited += 1;
                        for e in self.bucket_entries(c) {
                            if self.home_cell(&e.aabb) == c
                                && self.current(e.slot)
                                && !report(e.slot, &e.aabb, &mut stats)
                            {
                                return stats;
                            }
                        }
                    }
                }
            }
        } else {
            stats.nodes_visited += 1;
            for e in &self.entries {
                if self.current(e.slot) && !report(e.slot, &e.aabb, &mut stats) {
                    return stats;
                }
            }
        }
        for &slot in &self.oversize {
            if let Some(p) = self.proxies.at(slot).filter(|_| self.current(slot)) {
                if !report(slot, &p.aabb, &mut stats) {
                    return stats;
                }
            }
        }
        for &slot in &self.dirty {
            if let Some(p) = self.proxies.at(slot) {
                if !report(slot, &p.aabb, &mut stats) {
                    return stats;
                }
            }
        }
        stats
    }

    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        self.build();
        let mut keys = core::mem::take(&mut self.keys);
        keys.clear();
        let entries = &self.entries;
        match self.layout {
            Layout::Dense { dims, .. } => self.dense_pairs(dims, &mut keys),
            Layout::Hashed { .. } => self.hashed_pairs(&mut keys),
        }
        // Oversize proxies against everything; two oversize ones only once (lower slot first).
        for (k, &i) in self.oversize.iter().enumerate() {
            let Some(a) = self.proxies.at(i) else {
                continue;
            };
            for e in entries {
                if overlaps(&a.aabb, &e.aabb) {
                    keys.push(pair_key(i, e.slot));
                }
            }
            for &j in &self.oversize[k + 1..] {
                if let Some(b) = self.proxies.at(j) {
                    if overlaps(&a.aabb, &b.aabb) {
                        keys.push(pair_key(i, j));
                    }
                }
            }
        }
        keys.sort_unstable();
        self.proxies.keys_to_pairs(&keys, out);
        self.keys = keys;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brute::BruteForce;
    use sepax_shapes::math::Point3;

    fn b(lo: [Real; 3], hi: [Real; 3]) -> Aabb {
        Aabb::new(Point3::from(lo), Point3::from(hi)).expect("valid box")
    }

    /// Cells past the `i32` range saturate; pairs there (and across the saturation boundary)
    /// are still found exactly once, and queries agree.
    #[test]
    fn saturated_cells_match_brute_force() {
        let big: Real = 1e30;
        let boxes = [
            b([big, big, big], [big * 1.5, big, big]),
            b([big * 1.2, big, big], [big * 2.0, big, big]),
            b([big, big, big], [big, big, big]),
            b([-big, -big, -big], [-big, -big, -big]),
            b([-big * 2.0, -big, -big], [-big, -big, -big]),
            b([2.1e9, 0.0, 0.0], [2.2e9, 1.0, 1.0]),
            b([2.15e9, 0.5, 0.5], [2.3e9, 2.0, 2.0]),
            b([0.0, 0.0, 0.0], [0.5, 0.5, 0.5]),
            b([0.5, 0.5, 0.5], [1.0, 1.0, 1.0]),
        ];
        let mut grid = SortedGrid::default();
        let mut brute = BruteForce::new();
        for (u, bx) in boxes.iter().enumerate() {
            grid.insert(*bx, u as u64);
            brute.insert(*bx, u as u64);
        }
        let (mut p, mut q) = (Vec::new(), Vec::new());
        grid.update_pairs(&mut p);
        brute.update_pairs(&mut q);
        assert_eq!(p, q);
        assert!(!p.is_empty());
        for bx in &boxes {
            let (mut a, mut c) = (Vec::new(), Vec::new());
            grid.query_aabb(bx, &mut |id| {
                a.push(id);
                Visit::Continue
            });
            brute.query_aabb(bx, &mut |id| {
                c.push(id);
                Visit::Continue
            });
            a.sort_unstable();
            c.sort_unstable();
            assert_eq!(a, c);
        }
    }

    #[test]
    fn cell_size_is_checked() {
        assert!(SortedGrid::new(0.0).is_err());
        assert!(SortedGrid::new(Real::NAN).is_err());
        assert!(SortedGrid::new(-1.0).is_err());
        assert!(SortedGrid::new(Real::INFINITY).is_err());
        assert!(SortedGrid::new(0.25).is_ok());
    }

    /// Random moving scenes in both layouts (a far box forces the hashed one), against brute
    /// force after every frame, queries also before the pair update.
    #[test]
    fn both_layouts_match_brute_force() {
        use rand::{Rng, SeedableRng};
        for far in [false, true] {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5 + far as u64);
            let mut grid = SortedGrid::new(1.0).expect("valid");
            let mut brute = BruteForce::new();
            let mut ids = Vec::new();
            let mut r = |lo: Real, hi: Real| rng.random_range(lo..hi);
            let mut boxes = Vec::new();
            for u in 0..400 {
                let c = [r(-6.0, 6.0), r(-6.0, 6.0), r(-6.0, 6.0)];
                let h = [r(0.0, 0.7), r(0.0, 0.7), r(0.0, 0.7)];
                boxes.push((c, h));
                let bx = b(
                    [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
                    [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
                );
                ids.push((grid.insert(bx, u), brute.insert(bx, u)));
            }
            if far {
                let bx = b([1e7, 0.0, 0.0], [1e7 + 0.5, 0.5, 0.5]);
                grid.insert(bx, 999);
                brute.insert(bx, 999);
            }
            for frame in 0..30 {
                for (k, (c, h)) in boxes.iter_mut().enumerate() {
                    for x in c.iter_mut() {
                        *x += r(-0.2, 0.2);
                    }
                    let bx = b(
                        [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
                        [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
                    );
                    grid.update(ids[k].0, bx, Vector3::zeros());
                    brute.update(ids[k].1, bx, Vector3::zeros());
                }
                let q = b([-3.0, -3.0, -3.0], [3.0 + frame as Real * 0.1, 3.0, 3.0]);
                for pass in 0..2 {
                    let (mut a, mut c) = (Vec::new(), Vec::new());
                    grid.query_aabb(&q, &mut |id| {
                        a.push(id.index);
                        Visit::Continue
                    });
                    brute.query_aabb(&q, &mut |id| {
                        c.push(id.index);
                        Visit::Continue
                    });
                    a.sort_unstable();
                    c.sort_unstable();
                    assert_eq!(a, c, "query, frame {frame}, pass {pass}");
                    let (mut p, mut pb) = (Vec::new(), Vec::new());
                    grid.update_pairs(&mut p);
                    brute.update_pairs(&mut pb);
                    let key = |v: &[(ProxyId, ProxyId)]| {
                        v.iter()
                            .map(|(x, y)| (x.index, y.index))
                            .collect::<Vec<_>>()
                    };
                    assert_eq!(key(&p), key(&pb), "pairs, frame {frame}");
                }
                assert_eq!(
                    matches!(grid.layout, Layout::Hashed { .. }),
                    far,
                    "layout with far = {far}"
                );
            }
        }
    }
}
