//! The loops shared by every pair kernel: one-vs-N (bitmask or indices), N×M, and candidate
//! filtering. All are `#[inline(always)]` so that each is compiled into the portable entry
//! points and, separately, into the AVX2 wrappers of [`super::avx2`].

use super::lanes::{first_lanes, Lane256, LaneMask, LANES};
use super::soa::Batch;
use super::{BatchStats, PairKernel};

/// Boxes of `B` per tile of the N×M loop: each tile is read from memory once and then tested
/// against every element of `A` from cache (4096 OBBs in f32 are 256 KiB, within L2).
pub(crate) const TILE: usize = 4096;

type ItemA<K> = <<K as PairKernel>::A as Batch>::Item;

/// Lane results after the scalar fallback: the hit lanes among `valid`.
#[inline(always)]
fn resolve(
    (hit, undecided): (LaneMask, LaneMask),
    valid: LaneMask,
    stats: &mut BatchStats,
    mut scalar: impl FnMut(usize) -> bool,
) -> LaneMask {
    let mut hit = hit & valid;
    let mut undecided = undecided & valid;
    stats.tested += valid.count_ones() as usize;
    stats.fallbacks += undecided.count_ones() as usize;
    while undecided != 0 {
        let k = undecided.trailing_zeros() as usize;
        if scalar(k) {
            hit |= 1 << k;
        }
        undecided &= undecided - 1;
    }
    stats.hits += hit.count_ones() as usize;
    hit
}

/// Calls `f(k)` for every set bit `k` of `m`, ascending.
#[inline(always)]
fn for_each_bit(mut m: LaneMask, mut f: impl FnMut(usize)) {
    while m != 0 {
        f(m.trailing_zeros() as usize);
        m &= m - 1;
    }
}

/// Bit `j` of `mask` (word `j / 64`) set iff `q` meets `b[j]`.
#[inline(always)]
pub(crate) fn one_vs_n_mask<K: PairKernel, L: Lane256>(
    q: &ItemA<K>,
    b: &K::B,
    mask: &mut Vec<u64>,
) -> BatchStats {
    let n = b.count();
    mask.clear();
    mask.resize(n.div_ceil(64), 0);
    let qa = K::A::splat::<L>(q);
    let mut stats = BatchStats::default();
    for start in (0..n).step_by(LANES) {
        let r = K::lanes::<L>(&qa, &b.load(start));
        let hit = resolve(r, first_lanes(n - start), &mut stats, |k| {
            K::scalar(q, &b.item(start + k))
        });
        // LANES divides 64, so a step never straddles two words.
        mask[start / 64] |= (hit as u64) << (start % 64);
    }
    stats
}

/// Appends to `out` (after clearing it) the indices `j` with `q` meeting `b[j]`, ascending.
#[inline(always)]
pub(crate) fn one_vs_n_indices<K: PairKernel, L: Lane256>(
    q: &ItemA<K>,
    b: &K::B,
    out: &mut Vec<u32>,
) -> BatchStats {
    let n = b.count();
    out.clear();
    let qa = K::A::splat::<L>(q);
    let mut stats = BatchStats::default();
    for start in (0..n).step_by(LANES) {
        let r = K::lanes::<L>(&qa, &b.load(start));
        let hit = resolve(r, first_lanes(n - start), &mut stats, |k| {
            K::scalar(q, &b.item(start + k))
        });
        for_each_bit(hit, |k| out.push((start + k) as u32));
    }
    stats
}

/// Every pair `(i, j)` with `a[i]` meeting `b[j]`, into `out` (cleared first), sorted.
#[inline(always)]
pub(crate) fn n_by_m<K: PairKernel, L: Lane256>(
    a: &K::A,
    b: &K::B,
    out: &mut Vec<(u32, u32)>,
) -> BatchStats {
    let (na, nb) = (a.count(), b.count());
    out.clear();
    let mut stats = BatchStats::default();
    for tile in (0..nb).step_by(TILE) {
        let end = (tile + TILE).min(nb);
        for i in 0..na {
            let qa = a.splat_at::<L>(i);
            for start in (tile..end).step_by(LANES) {
                let r = K::lanes::<L>(&qa, &b.load(start));
                let hit = resolve(r, first_lanes(end - start), &mut stats, |k| {
                    K::scalar(&a.item(i), &b.item(start + k))
                });
                for_each_bit(hit, |k| out.push((i as u32, (start + k) as u32)));
            }
        }
    }
    if nb > TILE {
        // Tiles emit (tile, i, j) order; the contract is (i, j).
        out.sort_unstable();
    }
    stats
}

/// The candidates `(i, j)` with `a[i]` meeting `b[j]`, into `out` (cleared first), in
/// candidate order.
#[inline(always)]
pub(crate) fn filter_pairs<K: PairKernel, L: Lane256>(
    a: &K::A,
    b: &K::B,
    candidates: &[(u32, u32)],
    out: &mut Vec<(u32, u32)>,
) -> BatchStats {
    out.clear();
    let (na, nb) = (a.count(), b.count());
    let mut stats = BatchStats::default();
    for chunk in candidates.chunks(LANES) {
        // Out-of-range indices panic here, before any lane work (the tail repeats lane 0).
        let mut ia = [0usize; LANES];
        let mut ib = [0usize; LANES];
        for (k, &(i, j)) in chunk.iter().enumerate() {
            let (i, j) = (i as usize, j as usize);
            assert!(i < na && j < nb, "candidate ({i}, {j}) out of range");
            ia[k] = i;
            ib[k] = j;
        }
        for k in chunk.len()..LANES {
            ia[k] = ia[0];
            ib[k] = ib[0];
        }
        let r = K::lanes::<L>(&a.gather(&ia), &b.gather(&ib));
        let hit = resolve(r, first_lanes(chunk.len()), &mut stats, |k| {
            K::scalar(&a.item(ia[k]), &b.item(ib[k]))
        });
        for_each_bit(hit, |k| out.push(chunk[k]));
    }
    stats
}

/// The candidate indices `j` with `q` meeting `b[j]`, into `out` (cleared first), in
/// candidate order.
#[inline(always)]
pub(crate) fn filter_indices<K: PairKernel, L: Lane256>(
    q: &ItemA<K>,
    b: &K::B,
    candidates: &[u32],
    out: &mut Vec<u32>,
) -> BatchStats {
    out.clear();
    let nb = b.count();
    let qa = K::A::splat::<L>(q);
    let mut stats = BatchStats::default();
    for chunk in candidates.chunks(LANES) {
        let mut ib = [0usize; LANES];
        for (k, &j) in chunk.iter().enumerate() {
            assert!((j as usize) < nb, "candidate {j} out of range");
            ib[k] = j as usize;
        }
        for k in chunk.len()..LANES {
            ib[k] = ib[0];
        }
        let r = K::lanes::<L>(&qa, &b.gather(&ib));
        let hit = resolve(r, first_lanes(chunk.len()), &mut stats, |k| {
            K::scalar(q, &b.item(ib[k]))
        });
        for_each_bit(hit, |k| out.push(chunk[k]));
    }
    stats
}
