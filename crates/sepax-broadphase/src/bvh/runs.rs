//! The flat runs of the whole-tree pair search (`sweep.rs`) tested in lanes: one box against
//! [`LANES`] boxes of a run at a time, read from a structure of arrays of the boxes per sorted
//! position. The lane vector is the AVX register when the CPU has AVX (chosen once per search,
//! [`Lanes::detect`]) and the portable one otherwise; every lane test is the same six exact
//! comparisons as [`Aabb::intersects`], so both find the same pairs.
//!
//! Soundness: the token and the AVX register are `sepax-simd`'s (its `# Soundness` section); no
//! `unsafe` here.

use super::packet::splat;
use sepax_shapes::math::Real;
use sepax_shapes::Aabb;
use sepax_simd::{Avx, Lane256, LaneKernel, LaneMask, LANES, V};

/// The boxes per sorted position as six coordinate columns, each padded with [`LANES`] zeros so
/// that a load of `LANES` values starting at any position is in bounds.
#[derive(Debug, Clone, Default)]
pub(crate) struct BoxColumns {
    /// `min x, min y, min z, max x, max y, max z`.
    cols: [Vec<Real>; 6],
}

impl BoxColumns {
    /// Refills the columns from `boxes`.
    pub(crate) fn fill(&mut self, boxes: &[Aabb]) {
        for (k, col) in self.cols.iter_mut().enumerate() {
            col.clear();
            col.reserve(boxes.len() + LANES);
            let (axis, upper) = (k % 3, k >= 3);
            col.extend(
                boxes
                    .iter()
                    .map(|b| if upper { b.max()[axis] } else { b.min()[axis] }),
            );
            col.extend([0.0; LANES]);
        }
    }

    /// Heap bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.cols.iter().map(|c| c.capacity()).sum::<usize>() * core::mem::size_of::<Real>()
    }

    #[inline(always)]
    fn load<L: Lane256>(&self, k: usize, at: usize) -> L {
        let s: &[Real; LANES] = self.cols[k][at..at + LANES]
            .try_into()
            .expect("a slice of LANES values");
        L::load(s)
    }

    /// Bit `k` set when box `q` overlaps the box at position `at + k` (closed sets), for the
    /// `LANES` positions from `at`.
    #[inline(always)]
    fn overlap_bits<L: Lane256>(&self, q: &[L; 6], at: usize) -> LaneMask {
        overlap_lanes(q, &core::array::from_fn(|k| self.load::<L>(k, at)))
    }
}

/// Bit `k` set when lane `k` of the boxes `a` overlaps lane `k` of `b` (each as `min x, y, z,
/// max x, y, z`): the six closed comparisons of [`Aabb::intersects`].
#[inline(always)]
pub(crate) fn overlap_lanes<L: Lane256>(a: &[L; 6], b: &[L; 6]) -> LaneMask {
    let m = a[0].le(b[3]);
    let m = m.and(b[0].le(a[3]));
    let m = m.and(a[1].le(b[4]));
    let m = m.and(b[1].le(a[4]));
    let m = m.and(a[2].le(b[5]));
    m.and(b[2].le(a[5])).bits()
}

/// The lane vector of one search: AVX when the CPU has it, else portable.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lanes(Option<Avx>);

impl Lanes {
    /// AVX when the running CPU has it.
    pub(crate) fn detect() -> Lanes {
        Lanes(Avx::detect())
    }

    /// `k` run on the chosen lane vector (compiled with AVX for the AVX one).
    #[inline]
    pub(crate) fn run<K: LaneKernel<A, B, C>, A, B, C>(self, k: K, a: A, b: B, c: C) -> K::Output {
        match self.0 {
            Some(avx) => avx.run(k, a, b, c, ()),
            None => k.run::<V>(a, b, c, ()),
        }
    }
}

/// Pushes the pair of slots `a`, `b` (distinct) as one ordered key.
#[inline(always)]
fn push(found: &mut Vec<u64>, a: u32, b: u32) {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    found.push(((lo as u64) << 32) | hi as u64);
}

/// The lowest `n` bits (`n <= LANES`).
#[inline(always)]
fn first(n: u32) -> LaneMask {
    debug_assert!(n as usize <= LANES);
    ((1u64 << n) - 1) as LaneMask
}

/// The pairs of `bi` (the box at position `i`, slot `order[i]`) with the positions `from..to`
/// that it overlaps.
#[inline(always)]
fn against<L: Lane256>(
    cols: &BoxColumns,
    order: &[u32],
    i: u32,
    q: &[L; 6],
    (from, to): (u32, u32),
    found: &mut Vec<u64>,
) {
    let mut at = from;
    while at < to {
        let mut bits = cols.overlap_bits::<L>(q, at as usize) & first((to - at).min(LANES as u32));
        while bits != 0 {
            let k = bits.trailing_zeros();
            bits &= bits - 1;
            push(found, order[i as usize], order[(at + k) as usize]);
        }
        at += LANES as u32;
    }
}

/// The pairs inside one run of sorted positions.
#[inline(always)]
pub(crate) fn self_run<L: Lane256>(
    boxes: &[Aabb],
    cols: &BoxColumns,
    order: &[u32],
    r: (u32, u32),
    found: &mut Vec<u64>,
) {
    for i in r.0..r.1.saturating_sub(1) {
        let q = splat::<L>(&boxes[i as usize]);
        against(cols, order, i, &q, (i + 1, r.1), found);
    }
}

/// The pairs between two disjoint runs; leaves of the first that miss `bb` (the second run's
/// box) are skipped.
#[inline(always)]
pub(crate) fn cross_runs<L: Lane256>(
    boxes: &[Aabb],
    cols: &BoxColumns,
    order: &[u32],
    ra: (u32, u32),
    rb: (u32, u32),
    bb: &Aabb,
    found: &mut Vec<u64>,
) {
    for i in ra.0..ra.1 {
        let bi = &boxes[i as usize];
        if bi.intersects(bb) {
            against(cols, order, i, &splat::<L>(bi), rb, found);
        }
    }
}
