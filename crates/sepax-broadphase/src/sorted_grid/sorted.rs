//! What the pair search reads: the key column and the pair search's view of the entries, in a
//! module of their own so that the view's fields (and the length relation that
//! [`Sorted::keys4`] relies on) are set only by [`Sorted::new`].

use crate::proxies::pair_key;

use super::entry::Entry;

/// Sentinel keys after the last entry in [`Columns`], so that a four-lane load of keys starting
/// at any index up to the number of entries stays in bounds.
pub(super) const PAD: usize = 4;

/// The dense layout's keys in key order, as the pair search reads them four lanes at a time,
/// followed by `PAD` sentinels `i32::MAX` (above every key and bound).
#[derive(Debug, Clone, Default)]
pub(super) struct Columns {
    pub(super) keys: Vec<i32>,
}

impl Columns {
    /// Copies the keys of the entries (below `i32::MAX`) and appends the sentinels.
    pub(super) fn fill(&mut self, entries: &[Entry]) {
        let n = entries.len();
        self.keys.resize(n + PAD, i32::MAX);
        self.keys[n..].fill(i32::MAX);
        for (k, e) in self.keys[..n].iter_mut().zip(entries) {
            *k = e.key() as i32;
        }
    }

    /// Bytes held.
    pub(super) fn capacity_bytes(&self) -> usize {
        self.keys.capacity() * 4
    }
}

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
    /// coordinate is NaN, as in [`sepax_shapes::Aabb::intersects`]).
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
