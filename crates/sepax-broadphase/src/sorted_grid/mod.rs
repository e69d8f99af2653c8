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
//! as no home cell lies there, and a dense layout only holds cells that exist. Every cell in
//! this module comes from one function (`cells4`), so the build and the queries agree.
//!
//! Boxes are stored as given (no fattening), so the pairs are exactly the overlapping boxes.
//! The work per frame is `O(n + pairs)` whatever moved (`O(changed)` more for the keys that
//! changed); nothing is allocated once the buffers have grown. Queries between an update and
//! the next [`BroadPhase::update_pairs`] stay complete: proxies inserted, moved or removed
//! since the last build are kept in a short list (tested directly) and skipped in the sorted
//! entries.

use sepax_shapes::math::{Point3, Real, Vector3};
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

/// How the entries are keyed.
#[derive(Debug, Clone, Copy)]
enum Layout {
    /// Home cells in the box `origin .. origin + dims` (the occupied cells plus some slack),
    /// keyed in x-major order with one empty padding cell at the high end of y and z:
    /// `key = (rx * py + ry) * pz + rz` with `r = cell - origin`, `py = dims[1] + 1`,
    /// `pz = dims[2] + 1`. Entries are kept sorted by key across frames.
    Dense { origin: [i64; 3], dims: [i64; 3] },
    /// `hash(cell) & mask`; rebuilt from scratch every frame, with a bucket-start table.
    Hashed { mask: u32 },
}

/// Where a slot is listed by the last build.
const NOWHERE: u8 = 0;
/// In `entries`.
const REGULAR: u8 = 1;
/// In `oversize`.
const OVERSIZE: u8 = 2;

/// The key of an entry that leaves its place (removed, re-keyed or now oversize), during a
/// coherent build (dense keys are below `i32::MAX`).
const DEAD: u32 = u32::MAX;

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

/// How many dirty slots ahead the re-keying prefetches the entry it will store into.
const PREFETCH_AHEAD: usize = 16;

/// Asks the processor to start loading the cache line of `e` (a hint: no effect on results;
/// nothing off x86-64).
#[inline(always)]
fn prefetch(e: &Entry) {
    #[cfg(target_arch = "x86_64")]
    crate::simd::prefetch(e);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = e;
}

/// Below this many re-keyed entries a comparison sort beats the radix sort's fixed cost.
const RADIX_MIN: usize = 256;

/// A stored proxy.
#[derive(Debug, Clone, Copy)]
struct Proxy {
    aabb: Aabb,
    user: u64,
}

/// A regular proxy in the sorted arrays: its box (copied, so the pair loop reads memory in
/// order), slot and key. In `f32`, two four-lane corners: `lo` is the lower corner with the
/// slot's bits in lane 3, `hi` the upper corner with the key's bits in lane 3, so that the pair
/// test loads each corner as one vector and compares lanes 0 to 2 (32 bytes, aligned to 32 so
/// that no entry straddles two cache lines: the re-keying stores into the entries in slot
/// order, one line each).
#[cfg(not(feature = "f64"))]
#[derive(Debug, Clone, Copy)]
#[repr(align(32))]
struct Entry {
    lo: R4,
    hi: R4,
}

/// A regular proxy in the sorted arrays (see the `f32` version). In `f64` the box, slot and
/// key as fields (56 bytes): the four-lane corners would take 64, and the extra memory traffic
/// cost more time than the corner loads saved (measured: `update_pairs` +9% at 100k moving).
#[cfg(feature = "f64")]
#[derive(Debug, Clone, Copy)]
struct Entry {
    aabb: Aabb,
    slot: u32,
    key: u32,
}

/// A `u32` carried in an `f32` lane: bit copies only, never arithmetic (copies through SSE or
/// NEON registers keep every bit pattern, NaNs included; only an x87-only 32-bit target could
/// quiet a signalling-NaN pattern, a slot or key of at least `0x7F80_0001`).
#[cfg(not(feature = "f64"))]
#[inline(always)]
fn from_bits(x: u32) -> f32 {
    f32::from_bits(x)
}

#[cfg(not(feature = "f64"))]
impl Entry {
    /// The entry of box `b` with its slot and key.
    #[inline(always)]
    fn new(b: &Aabb, slot: u32, key: u32) -> Self {
        let (lo, hi) = (b.min(), b.max());
        Entry {
            lo: R4::new([lo.x, lo.y, lo.z, from_bits(slot)]),
            hi: R4::new([hi.x, hi.y, hi.z, from_bits(key)]),
        }
    }

    /// The slot.
    #[inline(always)]
    fn slot(&self) -> u32 {
        self.lo.as_array()[3].to_bits()
    }

    /// Dense key or hash bucket of the home cell in the last build's layout.
    #[inline(always)]
    fn key(&self) -> u32 {
        self.hi.as_array()[3].to_bits()
    }

    /// Sets the key.
    #[inline(always)]
    fn set_key(&mut self, key: u32) {
        self.hi.as_mut_array()[3] = from_bits(key);
    }

    /// The box.
    #[inline(always)]
    fn aabb(&self) -> Aabb {
        let (l, h) = (self.lo.as_array(), self.hi.as_array());
        Aabb::new_unchecked(Point3::new(l[0], l[1], l[2]), Point3::new(h[0], h[1], h[2]))
    }

    /// The corners in four lanes (lane 3 carries other bits: only lanes 0 to 2 are
    /// coordinates).
    #[inline(always)]
    fn corners(&self) -> (R4, R4) {
        (self.lo, self.hi)
    }
}

#[cfg(feature = "f64")]
impl Entry {
    /// The entry of box `b` with its slot and key.
    #[inline(always)]
    fn new(b: &Aabb, slot: u32, key: u32) -> Self {
        Entry {
            aabb: *b,
            slot,
            key,
        }
    }

    /// The slot.
    #[inline(always)]
    fn slot(&self) -> u32 {
        self.slot
    }

    /// Dense key or hash bucket of the home cell in the last build's layout.
    #[inline(always)]
    fn key(&self) -> u32 {
        self.key
    }

    /// Sets the key.
    #[inline(always)]
    fn set_key(&mut self, key: u32) {
        self.key = key;
    }

    /// The box.
    #[inline(always)]
    fn aabb(&self) -> Aabb {
        self.aabb
    }

    /// The corners in four lanes (only lanes 0 to 2 are coordinates).
    #[inline(always)]
    fn corners(&self) -> (R4, R4) {
        let v = |p: Point3| R4::new([p.x, p.y, p.z, 0.0]);
        (v(self.aabb.min()), v(self.aabb.max()))
    }
}

/// Where a regular slot's entry is, and its key (dense layout).
#[derive(Debug, Clone, Copy, Default)]
struct Home {
    pos: u32,
    key: u32,
}

/// What a box is in a dense layout.
enum Class {
    /// Regular, with this key.
    Key(u32),
    /// Wider than one cell on some axis.
    Oversize,
    /// Regular, but its home cell lies outside the layout.
    Outside,
}

/// Sorts `items` by key (stable), using `tmp` as the second buffer; `bound` bounds the keys.
/// Least significant digit first, 11 bits per pass.
fn radix_sort(items: &mut Vec<Entry>, tmp: &mut Vec<Entry>, bound: usize) {
    const BITS: u32 = 11;
    const DIGITS: usize = 1 << BITS;
    let key_bits = usize::BITS - bound.saturating_sub(1).leading_zeros();
    let mut shift = 0;
    while shift < key_bits.max(1) {
        let mut count = [0u32; DIGITS + 1];
        for e in items.iter() {
            count[((e.key() >> shift) as usize & (DIGITS - 1)) + 1] += 1;
        }
        for d in 1..=DIGITS {
            count[d] += count[d - 1];
        }
        tmp.clear();
        tmp.resize(items.len(), empty_entry());
        for e in items.iter() {
            let d = (e.key() >> shift) as usize & (DIGITS - 1);
            tmp[count[d] as usize] = *e;
            count[d] += 1;
        }
        core::mem::swap(items, tmp);
        shift += BITS;
    }
}

/// A placeholder entry.
fn empty_entry() -> Entry {
    Entry::new(
        &Aabb::new_unchecked(Default::default(), Default::default()),
        0,
        0,
    )
}

/// The cell coordinates of a point: `floor(p * inv)` per axis, saturating near the ends of
/// `i32` (at `i32::MIN` and, in `f32`, at `2^31 - 128`, the largest `f32` below `2^31`);
/// monotone in each coordinate. Every cell in this module comes from here, so the build and
/// the queries agree exactly. Truncation and a branch-free correction (`floor` is a library
/// call on baseline x86-64), four lanes at once; clamping to `[-2^31, 2^31 - 128]` first keeps
/// the truncation in range and the correction from overflowing (a NaN lands on some cell; it
/// overlaps nothing anyway).
#[cfg(not(feature = "f64"))]
#[inline(always)]
fn cells4(inv: Real, p: Point3) -> wide::i32x4 {
    use wide::{f32x4, i32x4};
    /// The largest `f32` below `2^31`.
    const HIGH: f32 = 2_147_483_520.0;
    let t = f32x4::new([p.x, p.y, p.z, 0.0]) * f32x4::splat(inv);
    // `maxps`, `minps`: the clamp (on x86-64 a NaN lane becomes the lower bound).
    let t = t
        .fast_max(f32x4::splat(i32::MIN as f32))
        .fast_min(f32x4::splat(HIGH));
    // In range (and integral at the bounds): the plain truncation (`cvttps2dq`) is exact, with
    // no fix-up for overflow (`fast_trunc_int` is `trunc_int`, saturating, off SSE2).
    let i = t.fast_trunc_int();
    // All ones (-1) where the truncation rounded up, that is, for negative non-integers.
    let above: i32x4 = wide::bytemuck::cast(f32x4::from_i32x4(i).simd_gt(t));
    i + above
}

/// The cell coordinates of a point (see the `f32` version); scalar in `f64`.
#[cfg(feature = "f64")]
#[inline(always)]
fn cells4(inv: Real, p: Point3) -> wide::i32x4 {
    const LOW: Real = i32::MIN as Real;
    let c = [p.x, p.y, p.z].map(|x| {
        let t = x * inv;
        // A NaN becomes the bound, as in the `f32` version.
        let t = if t >= LOW { t } else { LOW };
        let i = t as i32;
        i - ((i as Real) > t) as i32
    });
    wide::i32x4::new([c[0], c[1], c[2], 0])
}

/// The cell coordinates of a point (see [`cells4`]).
#[inline(always)]
fn cells(inv: Real, p: Point3) -> [i32; 3] {
    let c = cells4(inv, p).to_array();
    [c[0], c[1], c[2]]
}

/// A dense layout prepared for classifying boxes four lanes at a time.
struct DenseGeom {
    /// The lowest and highest home cell of the layout (lane 3: the whole range).
    first: wide::i32x4,
    last: wide::i32x4,
    /// The origin, wrapped to `i32` (`cell - origin` wraps back to the exact offset for every
    /// cell of the layout, as offsets are below `2^31`).
    origin: wide::i32x4,
    py: i32,
    pz: i32,
}

impl DenseGeom {
    fn new(origin: [i64; 3], dims: [i64; 3]) -> Self {
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        let first = [0, 1, 2].map(|k| clamp(origin[k]));
        let last = [0, 1, 2].map(|k| clamp(origin[k] + dims[k] - 1));
        DenseGeom {
            first: wide::i32x4::new([first[0], first[1], first[2], i32::MIN]),
            last: wide::i32x4::new([last[0], last[1], last[2], i32::MAX]),
            origin: wide::i32x4::new([origin[0] as i32, origin[1] as i32, origin[2] as i32, 0]),
            py: (dims[1] + 1) as i32,
            pz: (dims[2] + 1) as i32,
        }
    }

    /// A box's class in a dense layout (the same answers as [`SortedGrid::home`] and
    /// [`dense_key`], four lanes at a time).
    #[inline(always)]
    fn classify(&self, inv: Real, b: &Aabb) -> Class {
        use wide::i32x4;
        let c = cells4(inv, b.min());
        let h = cells4(inv, b.max());
        // `h >= c` (monotone), so the wrapped difference is the true one: regular iff it is
        // 0 or 1 on every axis.
        let regular = ((h - c) & i32x4::splat(!1))
            .simd_eq(i32x4::splat(0))
            .to_bitmask();
        if regular != 0xF {
            return Class::Oversize;
        }
        let outside = (self.first.simd_gt(c) | c.simd_gt(self.last)).to_bitmask();
        if outside != 0 {
            return Class::Outside;
        }
        let r = (c - self.origin).to_array();
        Class::Key(((r[0] * self.py + r[1]) * self.pz + r[2]) as u32)
    }
}

/// The dense key of home cell `c`, or `None` outside the layout.
#[inline(always)]
fn dense_key(c: [i32; 3], origin: [i64; 3], dims: [i64; 3]) -> Option<u32> {
    let r = [0, 1, 2].map(|k| i64::from(c[k]) - origin[k]);
    let inside = ((r[0] as u64) < dims[0] as u64)
        & ((r[1] as u64) < dims[1] as u64)
        & ((r[2] as u64) < dims[2] as u64);
    inside.then(|| ((r[0] * (dims[1] + 1) + r[1]) * (dims[2] + 1) + r[2]) as u32)
}

/// A dense layout holding home cells `lo ..= hi` with some slack around them (so that boxes
/// drifting out of the box of occupied cells rarely force a new layout), or `None` when its
/// keys, and the largest key bound the pair search forms, would not fit below `i32::MAX`.
fn dense_layout(lo: [i32; 3], hi: [i32; 3]) -> Option<([i64; 3], [i64; 3])> {
    let extent = [0, 1, 2].map(|k| i64::from(hi[k]) - i64::from(lo[k]) + 1);
    [true, false].into_iter().find_map(|slack| {
        let s = extent.map(|e| if slack { (e / 4).max(2) } else { 0 });
        let origin = [0, 1, 2].map(|k| i64::from(lo[k]) - s[k]);
        let dims = [0, 1, 2].map(|k| extent[k] + 2 * s[k]);
        let (py, pz) = (dims[1] as u128 + 1, dims[2] as u128 + 1);
        let cells = dims[0] as u128 * py * pz;
        // Keys are below `cells`; the search bounds reach `key + py * pz + pz + 1`, and
        // `i32::MAX` is the sentinel above every bound.
        (cells + py * pz + pz + 1 < i32::MAX as u128).then_some((origin, dims))
    })
}

/// Four lanes of `Real`s (SSE2 on a baseline x86-64 build).
#[cfg(not(feature = "f64"))]
type R4 = wide::f32x4;
/// Four lanes of `Real`s (SSE2 on a baseline x86-64 build).
#[cfg(feature = "f64")]
type R4 = wide::f64x4;

/// Sentinel keys after the last entry in [`Columns`], so that a four-lane load of keys starting
/// at any index up to the number of entries stays in bounds.
const PAD: usize = 4;

/// The dense layout's keys in key order, as the pair search reads them four lanes at a time,
/// followed by `PAD` sentinels `i32::MAX` (above every key and bound).
#[derive(Debug, Clone, Default)]
struct Columns {
    keys: Vec<i32>,
}

impl Columns {
    /// Copies the keys of the entries (below `i32::MAX`) and appends the sentinels.
    fn fill(&mut self, entries: &[Entry]) {
        let n = entries.len();
        self.keys.resize(n + PAD, i32::MAX);
        self.keys[n..].fill(i32::MAX);
        for (k, e) in self.keys[..n].iter_mut().zip(entries) {
            *k = e.key() as i32;
        }
    }

    /// Bytes held.
    fn capacity_bytes(&self) -> usize {
        self.keys.capacity() * 4
    }
}

use sorted::Sorted;

/// The pair search's view of the entries, in a module of its own so that its fields (and the
/// length relation that [`Sorted::keys4`] relies on) are set only by [`Sorted::new`].
mod sorted {
    use super::{pair_key, Entry, PAD};

    /// What the pair search reads: the keys with their sentinels (the columns) and the entries
    /// (boxes and slots), in the same order.
    pub(super) struct Sorted<'a> {
        /// `entries.len() + PAD` keys, the last `PAD` of them `i32::MAX` (checked by
        /// [`Sorted::new`]).
        keys: &'a [i32],
        entries: &'a [Entry],
    }

    impl<'a> Sorted<'a> {
        /// The view of `entries` and their key column `keys` (with its `PAD` sentinels).
        ///
        /// # Panics
        ///
        /// When `keys` does not hold exactly `entries.len() + PAD` keys, the last `PAD` of
        /// them `i32::MAX`.
        pub(super) fn new(keys: &'a [i32], entries: &'a [Entry]) -> Self {
            let n = entries.len();
            assert_eq!(keys.len(), n + PAD, "key column out of step");
            assert!(
                keys[n..].iter().all(|&k| k == i32::MAX),
                "key column without its sentinels"
            );
            Sorted { keys, entries }
        }

        /// The largest key of an entry (`i32::MIN` when there is none).
        pub(super) fn max_key(&self) -> i32 {
            let n = self.entries.len();
            self.keys[..n].iter().copied().fold(i32::MIN, i32::max)
        }

        /// The number of entries.
        #[inline(always)]
        pub(super) fn len(&self) -> usize {
            self.entries.len()
        }

        /// The key of entry `i` (or a sentinel, `i32::MAX`, for `i` in `n .. n + PAD`).
        #[inline(always)]
        pub(super) fn key(&self, i: usize) -> i32 {
            self.keys[i]
        }

        /// Four keys from index `s`, without a bounds check (measured: the checks of these
        /// loads, six per entry at the heart of the pair search, cost about 10% of its
        /// instructions).
        ///
        /// # Safety
        ///
        /// `s <= self.len()`.
        #[allow(unsafe_code)]
        #[inline(always)]
        pub(super) unsafe fn keys4(&self, s: usize) -> wide::i32x4 {
            // SAFETY: `s <= n` (the caller's promise, `n = entries.len()`) and
            // `keys.len() == n + PAD` with `PAD == 4` (asserted by `new`, the only constructor:
            // the fields are private to this module), so `s + 4 <= keys.len()` (no overflow)
            // and `s .. s + 4` lies in the slice.
            let k = unsafe { self.keys.get_unchecked(s..s + PAD) };
            wide::i32x4::new([k[0], k[1], k[2], k[3]])
        }

        /// Whether entries `i` and `j` overlap (closed boxes, exact comparisons; false when a
        /// coordinate is NaN, as in [`super::overlaps`]).
        #[inline(always)]
        pub(super) fn overlap(&self, i: usize, j: usize) -> bool {
            let (a, b) = (self.entries[i].corners(), self.entries[j].corners());
            // Lane 3 is no coordinate: left out of the answer.
            let m = a.0.simd_le(b.1) & b.0.simd_le(a.1);
            m.to_bitmask() & 7 == 7
        }

        /// The pair key of entries `i` and `j`.
        #[inline(always)]
        pub(super) fn pair(&self, i: usize, j: usize) -> u64 {
            pair_key(self.entries[i].slot(), self.entries[j].slot())
        }
    }
}

/// Moves cursor `s` to the first entry whose key is at least `first` (`f`: in four lanes; it
/// only ever moves forward: `first` grows with the home key).
///
/// # Safety
///
/// `*s <= c.len()`; it stays so: the sentinel key at index `c.len()` is never below `first`
/// (nothing is above `i32::MAX`), so the run of lanes below `first` that `s` skips stops at
/// the latest there, and the loop goes on only when all four lanes were below, that is,
/// before the sentinel.
#[allow(unsafe_code)]
#[inline(always)]
unsafe fn advance(c: &Sorted<'_>, s: &mut usize, f: wide::i32x4) {
    loop {
        // The keys below `first` are a prefix: skip it (the leading lanes below `first`).
        // SAFETY: `*s <= c.len()`, the precondition, kept by every step (see above).
        let below = f.simd_gt(unsafe { c.keys4(*s) }).to_bitmask();
        *s += (below + 1).trailing_zeros() as usize;
        if below != 0xF {
            break;
        }
    }
}

/// Candidate pairs held before they are tested (room for 1024 and one entry's five ranges of
/// four).
const CANDIDATES: usize = 1024 + 20;

/// Candidate pairs `(i[t], j[t])` of entry indices, found by key ranges and not yet tested; on
/// the stack (8 KiB), so the search allocates nothing but the pairs. The length is kept by the
/// caller (in a register).
struct Candidates {
    i: [u32; CANDIDATES],
    j: [u32; CANDIDATES],
}

/// The lane offsets `0, 1, 2, 3`.
const IOTA: [u32; 4] = [0, 1, 2, 3];

impl Candidates {
    /// Writes the four candidates `(i, s + t)`, `t < 4`, at `w .. w + 4` (unconditional
    /// stores; the caller counts those that are real).
    #[inline(always)]
    fn list(&mut self, w: usize, i: wide::u32x4, s: usize) {
        let js = wide::u32x4::splat(s as u32) + wide::u32x4::new(IOTA);
        self.j[w..w + 4].copy_from_slice(&js.to_array());
        self.i[w..w + 4].copy_from_slice(&i.to_array());
    }

    /// Lists entry `i` (`iv`: `i` in four lanes) against the entries of a key range starting at
    /// index `s` (every key from `s` on is at least the range's first key) and ending at key
    /// `last` (`lastv` in four lanes): the first four at `w`, returning the new length; more in
    /// range are tested at once, out of line. Keys are sorted, so the lanes in range are a
    /// prefix.
    ///
    /// # Safety
    ///
    /// `s <= c.len()`.
    #[allow(clippy::too_many_arguments, unsafe_code)]
    #[inline(always)]
    unsafe fn range(
        &mut self,
        c: &Sorted<'_>,
        w: usize,
        (i, iv): (usize, wide::u32x4),
        s: usize,
        (last, lastv): (i32, wide::i32x4),
        out: &mut Vec<u64>,
    ) -> usize {
        // SAFETY: `s <= c.len()`, the precondition.
        let above = unsafe { c.keys4(s) }.simd_gt(lastv).to_bitmask();
        self.list(w, iv, s);
        if above == 0 {
            long_range(c, i, s + 4, last, out);
        }
        w + (above | 0x10).trailing_zeros() as usize
    }

    /// Moves `cursor` to the first entry whose key is at least `first = k + d` (it only ever
    /// moves forward: `first` grows with the home key `k`) and lists entry `i` against the
    /// range of keys `first ..= first + 2` from there, as [`Self::range`] does (`kv` is `k` in
    /// four lanes, `dv` is `d`). One four-lane load usually does both (the cursor moves about
    /// one entry per home entry, and the four entries from the old cursor reach past the
    /// range); otherwise [`advance`] and [`Self::range`].
    ///
    /// # Safety
    ///
    /// `*cursor <= c.len()`, `d >= 0` and `k + d <= i32::MAX`; the cursor then stays at most
    /// `c.len()` (as in [`advance`]: the sentinel key `i32::MAX` at `c.len()` is not below
    /// `first = k + d`, and the cursor only skips lanes below `first`).
    #[allow(clippy::too_many_arguments, unsafe_code)]
    #[inline(always)]
    unsafe fn row(
        &mut self,
        c: &Sorted<'_>,
        w: usize,
        i: (usize, wide::u32x4),
        cursor: &mut usize,
        (k, kv, kv2): (i32, wide::i32x4, wide::i32x4),
        (d, dv): (i32, wide::i32x4),
        out: &mut Vec<u64>,
    ) -> usize {
        let s = *cursor;
        // SAFETY: `s <= c.len()`, the precondition.
        let rel = unsafe { c.keys4(s) } - dv;
        // Keys are sorted: the lanes below `first` are a prefix, those above `first + 2` a
        // suffix. The keys are compared after subtracting `d`, against the home key's lanes,
        // which are broadcast once per home entry (no overflow for a sentinel: `d >= 0`; and
        // none is below: `k + d <= i32::MAX`).
        let below = kv.simd_gt(rel).to_bitmask();
        let above = rel.simd_gt(kv2).to_bitmask();
        if above == 0 {
            // The range may go on past these four lanes, or start after them (rare).
            let mut s = s;
            // SAFETY: `s <= c.len()`; `advance` keeps it so, and so does `range` need it.
            unsafe {
                advance(c, &mut s, kv + dv);
                *cursor = s;
                let last = k + d + 2;
                return self.range(c, w, i, s, (last, wide::i32x4::splat(last)), out);
            }
        }
        // Some lane is above the range, hence not below it: the range starts at lane `b` and
        // ends before the first lane above it, both within the four. `s + b <= c.len()`: the
        // lanes before `b` are below `first`, which a sentinel never is.
        let b = (below + 1).trailing_zeros();
        let s = s + b as usize;
        *cursor = s;
        self.list(w, i.1, s);
        w + (above.trailing_zeros() - b) as usize
    }

    /// Tests the `n` listed candidates and pushes the overlapping pairs.
    #[inline(always)]
    fn flush(&self, n: usize, c: &Sorted<'_>, out: &mut Vec<u64>) {
        for (&i, &j) in self.i[..n].iter().zip(&self.j[..n]) {
            let (i, j) = (i as usize, j as usize);
            if c.overlap(i, j) {
                out.push(c.pair(i, j));
            }
        }
    }
}

/// The entries from index `j` on with keys up to `last` (a range holding more than four: rare
/// with a cell size near the box size), tested against entry `i` one at a time.
#[cold]
#[inline(never)]
fn long_range(c: &Sorted<'_>, i: usize, mut j: usize, last: i32, out: &mut Vec<u64>) {
    // The sentinel keys stop the walk.
    while c.key(j) <= last {
        if c.overlap(i, j) {
            out.push(c.pair(i, j));
        }
        j += 1;
    }
}

/// The regular pairs of a dense layout. In key order, the 13 forward neighbour cells of a home
/// cell are five key ranges: the rest of the home cell with the next cell on z, and the rows
/// `(x, y + 1)`, `(x + 1, y - 1)`, `(x + 1, y)`, `(x + 1, y + 1)`, three cells each
/// (`z - 1 ..= z + 1`); a neighbour off the layout's y or z range is a padding cell, which
/// holds no entry. The range starts only grow with the home key, so four cursors that only
/// move forward find them: `O(n + pairs)` with no per-cell work.
///
/// Two passes over small batches: the first only reads keys, moving the cursors and listing
/// the first four entries of each range as candidates (four lanes at a time, no branch per
/// range); the second tests the candidates' boxes, read from the entries (one lane vector
/// per corner). With about one box per eight cells most ranges are empty, so this tests ~1.7
/// candidates per entry where testing every range four lanes wide tests 20 lanes; and only
/// the keys are copied out of the entries each frame (a box column cost more in memory
/// traffic than it saved in loads, measured).
///
/// On a CPU with AVX2 the same code runs compiled for AVX2 (see [`avx2`]): the same operations
/// in VEX encoding (three-operand forms, loads folded into other instructions), so the same
/// pairs.
#[inline(never)]
fn dense_pairs(c: &Sorted<'_>, dims: [i64; 3], out: &mut Vec<u64>) {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = avx2::Avx2::detect() {
        return avx2::dense_pairs(cpu, c, dims, out);
    }
    dense_pairs_body(c, dims, out);
}

/// The body of [`dense_pairs`], instantiated for the build's own target features and for
/// AVX2.
#[inline(always)]
fn dense_pairs_body(c: &Sorted<'_>, dims: [i64; 3], out: &mut Vec<u64>) {
    let n = c.len();
    let (py, pz) = ((dims[1] + 1) as i32, (dims[2] + 1) as i32);
    let plane = py * pz;
    // First keys of the four forward rows relative to the home key.
    let (d1, d2, d3, d4) = (pz - 1, plane - pz - 1, plane - 1, plane + pz - 1);
    // The layout keeps every key plus every offset at most `i32::MAX` (see `dense_layout`);
    // checked here once per search (one pass over the keys), as the cursors' bounds rest on
    // it (see `row`).
    let kmax = c.max_key();
    assert!(
        [d1, d2, d3, d4]
            .iter()
            .all(|&d| d >= 0 && kmax <= i32::MAX - d),
        "dense layout offsets out of range"
    );
    // Cursors (entry indices).
    let (mut c1, mut c2, mut c3, mut c4) = (0usize, 0usize, 0usize, 0usize);
    let mut cand = Candidates {
        i: [0; CANDIDATES],
        j: [0; CANDIDATES],
    };
    let mut w = 0;
    let splat = wide::i32x4::splat;
    let (r1, r2, r3, r4) = (
        (d1, splat(d1)),
        (d2, splat(d2)),
        (d3, splat(d3)),
        (d4, splat(d4)),
    );
    // An index loop: `i` is also a cursor value (measured: a few instructions per entry
    // fewer than iterating the keys).
    #[allow(clippy::needless_range_loop)]
    for i in 0..n {
        let k = c.key(i);
        let kv = splat(k);
        let home = (k, kv, kv + splat(2));
        let iv = (i, wide::u32x4::splat(i as u32));
        // The rest of the home cell and the next cell on z, then the four rows.
        // SAFETY: `i + 1 <= n` (`i < n`); the cursors are at most `n`: they start at 0 and
        // only `row` moves them, which keeps them so as every `d` is at least 0 and
        // `k + d <= kmax + d <= i32::MAX` (asserted above).
        #[allow(unsafe_code)]
        unsafe {
            w = cand.range(c, w, iv, i + 1, (k + 1, kv + splat(1)), out);
            w = cand.row(c, w, iv, &mut c1, home, r1, out);
            w = cand.row(c, w, iv, &mut c2, home, r2, out);
            w = cand.row(c, w, iv, &mut c3, home, r3, out);
            w = cand.row(c, w, iv, &mut c4, home, r4, out);
        }
        if w > CANDIDATES - 20 {
            cand.flush(w, c, out);
            w = 0;
        }
    }
    cand.flush(w, c, out);
}

/// Runtime selection of AVX2 for the pair search and the re-keying, after the pattern of
/// `batch/avx2.rs`: `dense_pairs_body` and `SortedGrid::rekey_body` (safe code, bounds
/// checked) compiled a second time inside `#[target_feature(enable = "avx2")]` functions, so
/// that LLVM encodes the same operations in VEX form (three operands, unaligned loads folded
/// into other instructions).
///
/// Soundness: a `#[target_feature(enable = "avx2")]` function may only run on a CPU with AVX2.
/// They are private to this module, and their only callers, the wrappers `avx2::dense_pairs`
/// and `avx2::rekey`, take a [`crate::simd::Avx2`] token, which only `Avx2::detect` makes,
/// after `is_x86_feature_detected!("avx2")` returned true (rule 1 of `simd.rs`). Only the instruction encoding changes: no
/// fused multiply-add is enabled, and the code's products (`p * inv_cell`) and comparisons are
/// the same IEEE operations in either encoding, so the answers are the portable ones bit for
/// bit; the tests run both.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use super::{DenseGeom, Entry, Sorted, SortedGrid};

    pub(super) use crate::simd::Avx2;

    #[target_feature(enable = "avx2")]
    fn dense_pairs_avx2(c: &Sorted<'_>, dims: [i64; 3], out: &mut Vec<u64>) {
        super::dense_pairs_body(c, dims, out);
    }

    #[target_feature(enable = "avx2")]
    fn rekey_avx2(grid: &mut SortedGrid, moved: &mut Vec<Entry>, g: &DenseGeom) -> Option<usize> {
        grid.rekey_body(moved, g)
    }

    /// The AVX2 build of [`SortedGrid::rekey_body`].
    #[inline(never)]
    pub(super) fn rekey(
        _cpu: Avx2,
        grid: &mut SortedGrid,
        moved: &mut Vec<Entry>,
        g: &DenseGeom,
    ) -> Option<usize> {
        // SAFETY: as in `dense_pairs` below.
        unsafe { rekey_avx2(grid, moved, g) }
    }

    /// The AVX2 build of [`super::dense_pairs_body`].
    #[inline(never)]
    pub(super) fn dense_pairs(_cpu: Avx2, c: &Sorted<'_>, dims: [i64; 3], out: &mut Vec<u64>) {
        // SAFETY: `_cpu` exists only if `is_x86_feature_detected!("avx2")` returned true on
        // this machine (see `Avx2::detect`), which is the one precondition of calling a
        // function compiled with `#[target_feature(enable = "avx2")]`.
        unsafe { dense_pairs_avx2(c, dims, out) }
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
            proxies: Slots::default(),
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

    /// The cell of a box's lower corner (its home cell when it is regular).
    #[inline(always)]
    fn home_cell(&self, b: &Aabb) -> [i32; 3] {
        cells(self.inv_cell, b.min())
    }

    /// Home cell of a box, or `None` when it is oversize.
    #[inline(always)]
    fn home(&self, b: &Aabb) -> Option<[i32; 3]> {
        let c = cells(self.inv_cell, b.min());
        let h = cells(self.inv_cell, b.max());
        // `h >= c` (monotone), so the wrapped difference is the true one.
        let regular = (h[0].wrapping_sub(c[0]) as u32 <= 1)
            & (h[1].wrapping_sub(c[1]) as u32 <= 1)
            & (h[2].wrapping_sub(c[2]) as u32 <= 1);
        regular.then_some(c)
    }

    /// The hash bucket of a cell.
    #[inline(always)]
    fn hash_bucket(c: [i32; 3], mask: u32) -> usize {
        // Three-prime XOR hash, then a multiply-xorshift.
        let [x, y, z] = c.map(|v| v as u32 as u64);
        let mut h =
            x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663) ^ z.wrapping_mul(83_492_791);
        h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 32;
        (h as u32 & mask) as usize
    }

    /// The entries of the bucket of `cell` in a hashed layout (cells of other buckets' entries
    /// are skipped by the callers' home-cell comparison).
    #[inline(always)]
    fn bucket_entries(&self, cell: [i32; 3], mask: u32) -> &[Entry] {
        let b = Self::hash_bucket(cell, mask);
        &self.entries[self.start[b] as usize..self.start[b + 1] as usize]
    }

    /// Marks a slot as changed since the last build.
    #[inline]
    fn mark_dirty(&mut self, slot: u32) {
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
    fn grow_slot_tables(&mut self, len: usize) {
        self.listed.resize(len, false);
        self.place.resize(len, NOWHERE);
        self.home.resize(len, Home::default());
    }

    /// Forgets the dirty list (after a build).
    fn clear_dirty(&mut self) {
        for &slot in &self.dirty {
            self.listed[slot as usize] = false;
        }
        self.dirty.clear();
    }

    /// Whether slot `slot` holds a live proxy that the last build listed as it is now.
    #[inline(always)]
    fn current(&self, slot: u32) -> bool {
        self.proxies.at(slot).is_some() && !self.listed.get(slot as usize).copied().unwrap_or(false)
    }

    /// Brings the sorted entries up to date.
    fn build(&mut self) {
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
    fn build_coherent(&mut self, origin: [i64; 3], dims: [i64; 3]) -> bool {
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
    fn rekey(&mut self, moved: &mut Vec<Entry>, g: &DenseGeom) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = avx2::Avx2::detect() {
            return avx2::rekey(cpu, self, moved, g);
        }
        self.rekey_body(moved, g)
    }

    /// The body of [`Self::rekey`], instantiated for the build's own target features and for
    /// AVX2.
    #[inline(always)]
    fn rekey_body(&mut self, moved: &mut Vec<Entry>, g: &DenseGeom) -> Option<usize> {
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

    /// Sorts `moved` by key (keys below `bound`) and merges it with the entries not marked
    /// `DEAD` (`dead` of them are) into the second buffer, in one pass that also refreshes the
    /// key column and `home`.
    #[inline(never)]
    fn merge(&mut self, moved: &mut Vec<Entry>, bound: usize, dead: usize) {
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

    /// Refreshes the key column and the entry index of every regular slot (dense layout).
    fn fill_columns(&mut self) {
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
    fn build_full(&mut self) {
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

    /// The regular pairs of a hashed layout: per entry, the rest of its cell and the 13 forward
    /// neighbour cells, skipping entries of other cells that share a bucket.
    fn hashed_pairs(&self, mask: u32, keys: &mut Vec<u64>) {
        let entries = &self.entries;
        for b in 0..self.start.len() - 1 {
            let (s, e) = (self.start[b] as usize, self.start[b + 1] as usize);
            for i in s..e {
                let a = &entries[i];
                let cell = self.home_cell(&a.aabb());
                for other in &entries[i + 1..e] {
                    if self.home_cell(&other.aabb()) == cell && overlaps(&a.aabb(), &other.aabb()) {
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
                        if self.home_cell(&other.aabb()) == c && overlaps(&a.aabb(), &other.aabb())
                        {
                            keys.push(pair_key(a.slot(), other.slot()));
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
        // live, or listed as dirty (a newer proxy in the same slot); the next build drops it.
        let removed = self.proxies.remove(id).is_some();
        if removed {
            self.mark_dirty(id.index);
        }
        removed
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
        let lo = cells(self.inv_cell, qlo).map(|c| c.saturating_sub(1));
        let hi = cells(self.inv_cell, qhi);
        let n = self.entries.len();
        let mut scan_all = true;
        match self.layout {
            Layout::Dense { origin, dims } => {
                // Rows (x, y) of the layout that the range meets, each one key range.
                let r = |k: usize| {
                    let a = (i64::from(lo[k]) - origin[k]).max(0);
                    let b = (i64::from(hi[k]) - origin[k]).min(dims[k] - 1);
                    (a, b)
                };
                let (rx, ry, rz) = (r(0), r(1), r(2));
                let empty = rx.0 > rx.1 || ry.0 > ry.1 || rz.0 > rz.1;
                let rows = if empty {
                    0
                } else {
                    (rx.1 - rx.0 + 1) as u128 * (ry.1 - ry.0 + 1) as u128
                };
                // A row costs a binary search: scan everything instead when that is cheaper.
                if empty {
                    scan_all = false;
                } else if rows * 16 <= n as u128 {
                    scan_all = false;
                    let (py, pz) = (dims[1] + 1, dims[2] + 1);
                    let keys = &self.columns.keys[..n];
                    for x in rx.0..=rx.1 {
                        for y in ry.0..=ry.1 {
                            stats.nodes_visited += 1;
                            let row = (x * py + y) * pz;
                            let (k0, k1) = ((row + rz.0) as i32, (row + rz.1) as i32);
                            let mut j = keys.partition_point(|&k| k < k0);
                            while j < n && keys[j] <= k1 {
                                let e = &self.entries[j];
                                if self.current(e.slot())
                                    && !report(e.slot(), &e.aabb(), &mut stats)
                                {
                                    return stats;
                                }
                                j += 1;
                            }
                        }
                    }
                }
            }
            Layout::Hashed { mask } => {
                let cells = (0..3)
                    .map(|k| (i64::from(hi[k]) - i64::from(lo[k]) + 1) as u128)
                    .product::<u128>();
                if cells <= n as u128 {
                    scan_all = false;
                    for x in lo[0]..=hi[0] {
                        for y in lo[1]..=hi[1] {
                            for z in lo[2]..=hi[2] {
                                let c = [x, y, z];
                                stats.nodes_visited += 1;
                                for e in self.bucket_entries(c, mask) {
                                    if self.home_cell(&e.aabb()) == c
                                        && self.current(e.slot())
                                        && !report(e.slot(), &e.aabb(), &mut stats)
                                    {
                                        return stats;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if scan_all {
            stats.nodes_visited += 1;
            for e in &self.entries {
                if self.current(e.slot()) && !report(e.slot(), &e.aabb(), &mut stats) {
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
                if overlaps(&a.aabb, &e.aabb()) {
                    keys.push(pair_key(i, e.slot()));
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

    /// Random moving scenes in both layouts (a box at 1e6 makes the dense layout sparse, one at
    /// 1e9 makes its keys overflow and forces the hashed layout), against brute
    /// force after every frame, queries also before the pair update.
    #[test]
    fn both_layouts_match_brute_force() {
        both_layouts();
    }

    fn both_layouts() {
        use rand::{Rng, SeedableRng};
        for (seed, far) in [(5, None), (6, Some(1e9)), (7, Some(1e6))] {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
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
            if let Some(x) = far {
                let bx = b([x, 0.0, 0.0], [x + 0.5, 0.5, 0.5]);
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
                    assert_same_query(&grid, &brute, &q, &format!("frame {frame}, pass {pass}"));
                    let (mut p, mut pb) = (Vec::new(), Vec::new());
                    grid.update_pairs(&mut p);
                    brute.update_pairs(&mut pb);
                    assert_eq!(slot_pairs(&p), slot_pairs(&pb), "pairs, frame {frame}");
                }
                assert_eq!(
                    matches!(grid.layout, Layout::Hashed { .. }),
                    far == Some(1e9),
                    "layout with far = {far:?}"
                );
            }
        }
    }

    /// The pair search's portable build and its AVX2 build (where the CPU has it) give the
    /// same pairs as brute force, on a scene large enough that the candidate list is flushed
    /// many times, with crowded cells (long ranges) mixed in.
    #[test]
    fn pair_search_builds_agree() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut grid = SortedGrid::new(1.0).expect("valid");
        let mut brute = BruteForce::new();
        for u in 0..4000 {
            let crowd = u % 10 == 0;
            let spread: Real = if crowd { 1.5 } else { 8.0 };
            let c: [Real; 3] = [0; 3].map(|_| rng.random_range(-spread..spread));
            let h: [Real; 3] = [0; 3].map(|_| rng.random_range(0.05..0.5));
            let bx = b(
                [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
                [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
            );
            grid.insert(bx, u);
            brute.insert(bx, u);
        }
        let (mut p, mut q) = (Vec::new(), Vec::new());
        grid.update_pairs(&mut p);
        brute.update_pairs(&mut q);
        assert_eq!(p, q);
        let Layout::Dense { dims, .. } = grid.layout else {
            panic!("dense layout expected");
        };
        let c = Sorted::new(&grid.columns.keys, &grid.entries);
        let mut portable = Vec::new();
        dense_pairs_body(&c, dims, &mut portable);
        portable.sort_unstable();
        assert_eq!(portable.len(), q.len());
        let mut dispatched = Vec::new();
        dense_pairs(&c, dims, &mut dispatched);
        dispatched.sort_unstable();
        assert_eq!(portable, dispatched);
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = avx2::Avx2::detect() {
            let mut wide = Vec::new();
            avx2::dense_pairs(cpu, &c, dims, &mut wide);
            wide.sort_unstable();
            assert_eq!(portable, wide);
        }
    }

    /// The pairs as slot indices (grid and brute force give equal slots to equal inserts).
    fn slot_pairs(v: &[(ProxyId, ProxyId)]) -> Vec<(u32, u32)> {
        v.iter().map(|(x, y)| (x.index, y.index)).collect()
    }

    /// `grid` and `brute` report the same slots for the query box `q`.
    fn assert_same_query(grid: &SortedGrid, brute: &BruteForce, q: &Aabb, what: &str) {
        let (mut a, mut c) = (Vec::new(), Vec::new());
        grid.query_aabb(q, &mut |id| {
            a.push(id.index);
            Visit::Continue
        });
        brute.query_aabb(q, &mut |id| {
            c.push(id.index);
            Visit::Continue
        });
        a.sort_unstable();
        c.sort_unstable();
        assert_eq!(a, c, "query, {what}");
    }

    /// Pairs and a few queries of `grid` against `brute` (same slots in both).
    fn assert_same(grid: &mut SortedGrid, brute: &mut BruteForce, what: &str) {
        for q in [
            b([-2.0, -2.0, -2.0], [2.0, 2.0, 2.0]),
            b([0.5, -9.0, 0.25], [0.5, 9.0, 0.25]),
            b([-50.0, -50.0, -50.0], [50.0, 50.0, 50.0]),
        ] {
            assert_same_query(grid, brute, &q, &format!("before the pairs, {what}"));
        }
        let (mut p, mut q) = (Vec::new(), Vec::new());
        grid.update_pairs(&mut p);
        brute.update_pairs(&mut q);
        assert_eq!(slot_pairs(&p), slot_pairs(&q), "pairs, {what}");
    }

    /// The coherent build (entries kept sorted across frames) under churn: small steps (few
    /// keys change), teleports (many change, some leave the layout and force a new one),
    /// removals, insertions into reused slots, a slot removed and refilled in one frame, boxes
    /// growing oversize and shrinking back, identical boxes and boxes on cell boundaries.
    #[test]
    fn coherent_builds_match_brute_force_under_churn() {
        churn();
    }

    /// The same with the portable builds of the search and the re-keying (which the dispatch
    /// skips on a CPU with AVX2).
    #[test]
    fn portable_builds_match_brute_force_under_churn() {
        #[cfg(target_arch = "x86_64")]
        crate::simd::PORTABLE.with(|p| p.set(true));
        churn();
        both_layouts();
    }

    fn churn() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut grid = SortedGrid::new(1.0).expect("valid");
        let mut brute = BruteForce::new();
        let mut live: Vec<(ProxyId, ProxyId, Aabb)> = Vec::new();
        let make = |rng: &mut rand_chacha::ChaCha8Rng, spread: Real| {
            let c: [Real; 3] = [0; 3].map(|_| rng.random_range(-spread..spread));
            let h: [Real; 3] = [0; 3].map(|_| rng.random_range(0.0..0.5));
            if rng.random_bool(0.1) {
                // On cell boundaries exactly.
                let c = c.map(Real::round);
                b([c[0], c[1], c[2]], [c[0] + 1.0, c[1] + 1.0, c[2] + 1.0])
            } else {
                b(
                    [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
                    [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
                )
            }
        };
        for u in 0..300 {
            let bx = make(&mut rng, 5.0);
            live.push((grid.insert(bx, u), brute.insert(bx, u), bx));
        }
        // Identical boxes.
        for u in 0..6 {
            let bx = b([0.2, 0.2, 0.2], [0.7, 0.7, 0.7]);
            live.push((grid.insert(bx, 900 + u), brute.insert(bx, 900 + u), bx));
        }
        assert_same(&mut grid, &mut brute, "first build");
        assert!(matches!(grid.layout, Layout::Dense { .. }));
        let dense = |grid: &SortedGrid| match grid.layout {
            Layout::Dense { origin, dims } => Some((origin, dims)),
            Layout::Hashed { .. } => None,
        };
        let mut layouts = vec![dense(&grid)];
        for frame in 0..60 {
            let teleport = frame % 10 == 9;
            for entry in live.iter_mut() {
                let (g, br, bx) = *entry;
                let moved = if teleport && rng.random_bool(0.5) {
                    // Far enough, at times, to leave the layout.
                    make(&mut rng, if frame % 20 == 19 { 40.0 } else { 6.0 })
                } else if rng.random_bool(0.02) {
                    // Oversize for a while.
                    b(
                        [bx.min().x - 1.5, bx.min().y, bx.min().z],
                        [bx.max().x + 1.5, bx.max().y, bx.max().z],
                    )
                } else {
                    let d: [Real; 3] = [0; 3].map(|_| rng.random_range(-0.15..0.15));
                    let (lo, hi) = (bx.min(), bx.max());
                    let w = (hi.x - lo.x).min(1.0);
                    b(
                        [lo.x + d[0], lo.y + d[1], lo.z + d[2]],
                        [lo.x + d[0] + w, hi.y + d[1], hi.z + d[2]],
                    )
                };
                assert!(grid.update(g, moved, Vector3::zeros()));
                brute.update(br, moved, Vector3::zeros());
                entry.2 = moved;
            }
            // Removals, then insertions (which reuse the freed slots).
            for _ in 0..rng.random_range(0..8) {
                if live.is_empty() {
                    break;
                }
                let (g, br, _) = live.swap_remove(rng.random_range(0..live.len()));
                assert!(grid.remove(g));
                assert!(brute.remove(br));
            }
            for u in 0..rng.random_range(0..8) {
                let bx = make(&mut rng, 5.0);
                live.push((grid.insert(bx, u), brute.insert(bx, u), bx));
            }
            // A slot emptied and refilled within the frame.
            if frame % 3 == 0 && !live.is_empty() {
                let (g, br, _) = live.swap_remove(0);
                assert!(grid.remove(g));
                assert!(brute.remove(br));
                let bx = make(&mut rng, 5.0);
                let (g2, br2) = (grid.insert(bx, 7), brute.insert(bx, 7));
                assert_eq!(g2.index, g.index, "the freed slot is reused");
                // The stale handle is refused; the new proxy moves within the same frame (its
                // slot's entry of the last build is the removed proxy's).
                assert!(!grid.update(g, bx, Vector3::zeros()));
                let bx = if frame % 2 == 0 {
                    make(&mut rng, 5.0)
                } else {
                    bx
                };
                assert!(grid.update(g2, bx, Vector3::zeros()));
                brute.update(br2, bx, Vector3::zeros());
                live.push((g2, br2, bx));
            }
            assert_same(&mut grid, &mut brute, &format!("frame {frame}"));
            // A second call without changes: the coherent build with nothing listed.
            assert_same(&mut grid, &mut brute, &format!("frame {frame}, again"));
            let layout = dense(&grid);
            assert!(layout.is_some(), "dense layout, frame {frame}");
            if !layouts.contains(&layout) {
                layouts.push(layout);
            }
        }
        // The far teleports left the first layout (and the full build took over).
        assert!(layouts.len() > 1, "layouts seen: {layouts:?}");
    }

    /// The key ranges of a dense layout never wrap from one row or plane into the next: long
    /// thin scenes (one cell wide on two axes, so that the padding cells are all that
    /// separates the rows), boxes along every edge and corner of a small block, and crowded
    /// cells (more than four entries per range, the pair search's slow path).
    #[test]
    fn dense_edges_and_crowds_match_brute_force() {
        let mut scenes: Vec<Vec<Aabb>> = Vec::new();
        for axis in 0..3 {
            scenes.push(
                (0..40)
                    .map(|i| {
                        let mut lo = [0.25; 3];
                        lo[axis] = i as Real * 0.5;
                        b(lo, lo.map(|v| v + 0.6))
                    })
                    .collect(),
            );
        }
        let mut corners = Vec::new();
        for x in 0..4 {
            for y in 0..4 {
                for z in 0..4 {
                    let lo = [x, y, z].map(|v| v as Real * 0.999);
                    corners.push(b(lo, lo.map(|v| v + 0.9)));
                    corners.push(b(lo.map(|v| v + 0.5), lo.map(|v| v + 1.0)));
                }
            }
        }
        scenes.push(corners);
        let crowd = (0..30)
            .map(|i| {
                let t = (i % 7) as Real * 0.1;
                b([t, 0.1, 0.9 - t], [t + 0.3, 0.5, 1.0 - t])
            })
            .collect();
        scenes.push(crowd);
        for (k, boxes) in scenes.iter().enumerate() {
            let mut grid = SortedGrid::new(1.0).expect("valid");
            let mut brute = BruteForce::new();
            let mut ids = Vec::new();
            for (u, bx) in boxes.iter().enumerate() {
                ids.push((grid.insert(*bx, u as u64), brute.insert(*bx, u as u64)));
            }
            assert_same(&mut grid, &mut brute, &format!("scene {k}"));
            assert!(matches!(grid.layout, Layout::Dense { .. }), "scene {k}");
            // Shift everything by a cell and a half: every key changes.
            for (bx, (g, br)) in boxes.iter().zip(&ids) {
                let (lo, hi) = (bx.min(), bx.max());
                let d = 1.5;
                let moved = b(
                    [lo.x + d, lo.y - d, lo.z + d],
                    [hi.x + d, hi.y - d, hi.z + d],
                );
                grid.update(*g, moved, Vector3::zeros());
                brute.update(*br, moved, Vector3::zeros());
            }
            assert_same(&mut grid, &mut brute, &format!("scene {k} shifted"));
        }
    }
}
