//! A uniform grid whose entries are kept sorted by cell: the broad phase for many moving boxes
//! of similar size (particles, debris, crowds), where every frame most boxes move and an
//! incremental structure spends its time on bookkeeping.
//!
//! Every box no wider than one cell on each axis (a *regular* box) is listed once, in the cell
//! of its lower corner (its *home* cell); wider boxes go to an *oversize* list tested against
//! everything. Two regular boxes that share a point have home cells at most one apart on each
//! axis, so each pair is found from one home cell by looking at that cell and 13 of its 26
//! neighbours (the "forward half", so that each pair of cells is looked at once).
//!
//! The usual layout is *dense*: a cell's key is its x-major index in a box of cells holding
//! every home cell (plus slack, so that drifting boxes rarely force a new layout) with one empty
//! padding cell at the high end of y and z. In key order the 13 forward neighbours of a cell
//! are five key ranges: the next cell on z, and the rows `(x, y + 1)`, `(x + 1, y - 1)`,
//! `(x + 1, y)`, `(x + 1, y + 1)`, three cells each (`z - 1 ..= z + 1`). A neighbour off the
//! layout's y or z range lands on a padding cell, which holds nothing, so no range wraps into
//! another row or plane. When the keys would not fit below `i32::MAX` (huge sparse worlds) the
//! layout is *hashed* instead: `hash(cell)` buckets, a bucket-start table, 13 bucket lookups
//! per entry that skip other cells' entries, rebuilt from scratch every frame.
//!
//! ```text
//! update_pairs (dense layout, entries sorted by key since the last frame):
//!   for each proxy changed since the last frame (listed by update/insert/remove), in that
//!   list's order (the slot table and the per-slot `home` record, entry index and key, are
//!   read in that order; the entries only receive stores):
//!       cell = floor(min * inv_cell) per axis; regular iff floor(max * inv_cell) - cell <= 1
//!       key unchanged: the new box is stored into the entry in place (boxes move a little:
//!       about 93% of the keys stay per frame in the benchmark's scene)
//!       key changed or new: to the `moved` list; removed or oversize: the old entry is
//!       marked dead
//!   sort `moved` by key (radix); one pass merges it with the live entries into the second
//!   buffer, writing the key column (sentinel keys after, for the search's key loads) and
//!   each slot's `home` record as it goes
//!   (a home cell outside the layout: a new layout and a full radix sort instead)
//!   for each entry e in key order (home key k), reading keys only:
//!       four cursors, one per row, move forward to the first key >= k + row offset - 1
//!       list (e, f) as candidates for the 4 entries f after e and the 4 from each cursor
//!       (unconditional four-lane stores; the list grows by those whose key is in the range:
//!       keys <= k + 1 after e, keys <= that row's last key from a cursor)
//!       a range with more than 4 entries (rare): the rest tested at once, one at a time
//!       every 1024 candidates: test their boxes, report (e, f) when they overlap (exact)
//!   oversize proxies: against every proxy (each pair once)
//!   sort the pair keys
//! ```
//!
//! The pair search is on the CPU's best path: on x86-64 with AVX2 (detected at run time) the
//! same code compiled for AVX2; the build's own target features (SSE2) otherwise.
//!
//! The range starts only grow with the home key, so the cursors move `O(n)` steps in all: no
//! per-cell table, no walk over empty cells, and the cost does not depend on how sparse the
//! layout is.
//!
//! Why the neighbourhood suffices, with rounding: `x -> floor(fl(x * inv_cell))` is monotone,
//! so if `a.min <= b.max` then `cell(a.min) <= cell(b.max) <= cell(b.min) + 1` (the last step
//! is the definition of regular), and symmetrically; two overlapping regular boxes therefore
//! have home cells that differ by at most one on each axis. Hash collisions only add entries
//! that the home-cell comparison skips. Cell coordinates saturate at the ends of the `i32`
//! range (still monotone, so the argument holds); a hashed neighbour past the end is skipped,
//! as no home cell lies there, and a dense layout only holds cells that exist. Every cell of
//! the grid comes from one function (`cells4`), so the build and the queries agree.
//!
//! Boxes are stored as given (no fattening), so the pairs are exactly the overlapping boxes.
//! The work per frame is `O(n + pairs)` whatever moved (`O(changed)` more for the keys that
//! changed); nothing is allocated once the buffers have grown. Queries between an update and
//! the next [`BroadPhase::update_pairs`] stay complete: proxies inserted, moved or removed
//! since the last build are kept in a short list (tested directly) and skipped in the sorted
//! entries.

#[cfg(target_arch = "x86_64")]
mod avx2;
mod cells;
mod changes;
mod coherent;
mod entry;
mod full;
mod hashed;
mod layout;
mod merge;
mod query;
mod search;
mod sort;
mod sorted;
#[cfg(test)]
mod tests;

use sepax_shapes::math::{Real, Vector3};
use sepax_shapes::Aabb;

use crate::proxies::{pair_key, table_accessors, ProxyTable};
use crate::{BroadPhase, ProxyId, QueryStats, Visit};
use changes::Home;
use entry::Entry;
use layout::Layout;
use search::dense_pairs;
use sorted::{Columns, Sorted};

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
    proxies: ProxyTable,
    /// Slots inserted, moved or removed since the last build (each once).
    dirty: Vec<u32>,
    /// Per slot: whether it is in `dirty` (kept across removal, so a reused slot is not listed
    /// twice).
    listed: Vec<bool>,
    /// Per slot: where the last build listed it (`NOWHERE`, `REGULAR` or `OVERSIZE`).
    place: Vec<u8>,
    /// Per slot listed `REGULAR` by the last build of a dense layout: its entry's index and key
    /// (so that the re-keying visits the dirty slots in their own order, reading this table and
    /// the slot table in that order, and only stores into the entries).
    home: Vec<Home>,
    /// Regular proxies of the last build, sorted by key.
    entries: Vec<Entry>,
    /// The entries in columns, for the pair search and queries (dense layout only).
    columns: Columns,
    /// Entries whose key changed (or new ones) during a coherent build (scratch).
    moved: Vec<Entry>,
    /// The second buffer of the radix sort.
    sorted: Vec<Entry>,
    /// Hashed layout: `entries[start[b]..start[b + 1]]` is bucket `b` (`buckets + 1` values).
    start: Vec<u32>,
    /// How cells map to keys in the last build.
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
            proxies: ProxyTable::default(),
            dirty: Vec::new(),
            listed: Vec::new(),
            place: Vec::new(),
            home: Vec::new(),
            entries: Vec::new(),
            columns: Columns::default(),
            moved: Vec::new(),
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
            + self.place.capacity()
            + self.home.capacity() * size_of::<Home>()
            + (self.entries.capacity() + self.moved.capacity() + self.sorted.capacity())
                * size_of::<Entry>()
            + self.columns.capacity_bytes()
            + (self.start.capacity() + self.oversize.capacity()) * size_of::<u32>()
            + self.keys.capacity() * size_of::<u64>()
    }
}

impl BroadPhase for SortedGrid {
    fn insert(&mut self, aabb: Aabb, user: u64) -> ProxyId {
        let id = self.proxies.insert(aabb, user, ());
        self.mark_dirty(id.index);
        id
    }

    fn remove(&mut self, id: ProxyId) -> bool {
        // The sorted arrays may still list the slot: queries skip slots that are no longer
        // live, or listed as dirty (a newer proxy in the same slot); the next build drops it.
        let removed = self.proxies.remove(id).is_some();
        if removed {
            self.mark_dirty(id.index);
        }
        removed
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb, _displacement: Vector3) -> bool {
        let live = self.proxies.set_aabb(id, aabb);
        if live {
            self.mark_dirty(id.index);
        }
        live
    }

    table_accessors!();

    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> Visit) -> QueryStats {
        self.query(aabb, f)
    }

    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        self.build();
        let mut keys = core::mem::take(&mut self.keys);
        keys.clear();
        let entries = &self.entries;
        match self.layout {
            Layout::Dense { dims, .. } => {
                let c = Sorted::new(&self.columns.keys, entries);
                dense_pairs(&c, dims, &mut keys)
            }
            Layout::Hashed { mask } => self.hashed_pairs(mask, &mut keys),
        }
        // Oversize proxies against everything; two oversize ones only once (lower slot first).
        for (k, &i) in self.oversize.iter().enumerate() {
            let Some(a) = self.proxies.at(i) else {
                continue;
            };
            for e in entries {
                if a.aabb.intersects(&e.aabb()) {
                    keys.push(pair_key(i, e.slot()));
                }
            }
            for &j in &self.oversize[k + 1..] {
                if let Some(b) = self.proxies.at(j) {
                    if a.aabb.intersects(&b.aabb) {
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
