//! Sorting the update's candidate pairs: a least-significant-digit radix sort on the two
//! colliders' slot indices, which orders exactly as `PairKey`'s `Ord` does.
//!
//! `ColliderId` orders by slot index, then generation, and every candidate is made of live
//! colliders, of which there is one per slot: so the order of `(a.index(), b.index())` is the
//! order of the keys, and two keys with the same indices are the same key. A stable radix sort
//! on the indices thus gives the very sequence `sort_unstable` gives, in a few linear passes
//! instead of `n log n` comparisons.

use crate::id::PairKey;

/// Bits per digit (2^11 counters per pass).
const DIGIT: u32 = 11;
/// At most this many digits: two 32-bit indices.
const MAX_PASSES: usize = (64 / DIGIT as usize) + 1;
/// Below this many keys a comparison sort is cheaper than clearing the counters.
const SMALL: usize = 512;

/// Sorts `keys` (pairs of live colliders) as `sort_unstable` would; `tmp` is scratch.
pub(crate) fn sort_pairs(keys: &mut Vec<PairKey>, tmp: &mut Vec<PairKey>) {
    if keys.len() < SMALL {
        keys.sort_unstable();
        return;
    }
    let top = keys
        .iter()
        .map(|k| k.0.index().max(k.1.index()))
        .max()
        .unwrap_or(0);
    let bits = u32::BITS - top.leading_zeros();
    let packed = |k: &PairKey| (u64::from(k.0.index()) << bits) | u64::from(k.1.index());
    let passes = (2 * bits).div_ceil(DIGIT) as usize;
    let mask = (1u64 << DIGIT) - 1;
    let mut counts = [[0u32; 1 << DIGIT]; MAX_PASSES];
    for k in keys.iter() {
        let p = packed(k);
        for (d, c) in counts[..passes].iter_mut().enumerate() {
            c[((p >> (d as u32 * DIGIT)) & mask) as usize] += 1;
        }
    }
    tmp.clear();
    tmp.resize(keys.len(), PairKey(keys[0].0, keys[0].0));
    let (mut src, mut dst) = (&mut *keys, &mut *tmp);
    let mut moves = 0;
    for (d, c) in counts[..passes].iter_mut().enumerate() {
        let shift = d as u32 * DIGIT;
        // A digit shared by every key moves nothing: skip the pass.
        if c.iter().any(|&n| n as usize == src.len()) {
            continue;
        }
        let mut sum = 0;
        for n in c.iter_mut() {
            let here = *n;
            *n = sum;
            sum += here;
        }
        for k in src.iter() {
            let slot = &mut c[((packed(k) >> shift) & mask) as usize];
            dst[*slot as usize] = *k;
            *slot += 1;
        }
        core::mem::swap(&mut src, &mut dst);
        moves += 1;
    }
    // After an odd number of moves the sorted keys are in `tmp`'s buffer.
    if moves % 2 == 1 {
        core::mem::swap(keys, tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::ColliderId;
    use slotmap::SlotMap;

    /// Random live pairs of a slotmap with reused slots (generations above 1), with repeats:
    /// the radix order is `sort_unstable`'s.
    #[test]
    fn radix_order_is_the_keys_order() {
        let mut map: SlotMap<ColliderId, ()> = SlotMap::with_key();
        let mut ids: Vec<ColliderId> = (0..5000).map(|_| map.insert(())).collect();
        for k in (0..5000).step_by(3) {
            map.remove(ids[k]);
        }
        for k in (0..5000).step_by(3) {
            ids[k] = map.insert(());
        }
        let mut x = 12345u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [0, 1, 511, 512, 3000, 20000] {
            let mut keys: Vec<PairKey> = (0..n)
                .map(|_| {
                    let a = ids[(next() % 5000) as usize];
                    let b = ids[(next() % 5000) as usize];
                    PairKey::new(a, b)
                })
                .collect();
            keys.extend_from_within(..n / 10);
            let mut want = keys.clone();
            want.sort_unstable();
            let mut tmp = Vec::new();
            sort_pairs(&mut keys, &mut tmp);
            assert_eq!(keys, want, "{n} keys");
        }
    }
}
