//! The radix sort of entries by key.

use super::entry::{empty_entry, Entry};

/// Below this many re-keyed entries a comparison sort beats the radix sort's fixed cost.
pub(super) const RADIX_MIN: usize = 256;

/// Sorts `items` by key (stable), using `tmp` as the second buffer; `bound` bounds the keys.
/// Least significant digit first, 11 bits per pass.
pub(super) fn radix_sort(items: &mut Vec<Entry>, tmp: &mut Vec<Entry>, bound: usize) {
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
