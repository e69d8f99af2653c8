//! The flat runs of the whole-tree pair search (`sweep.rs`) tested in lanes: one box against
//! [`LANES`] boxes of a run at a time, read from a structure of arrays of the boxes per sorted
//! position (the lane tests in `lanes.rs`).

use super::lanes::{first, overlap_lanes, splat};
use sepax_shapes::math::Real;
use sepax_shapes::Aabb;
use sepax_simd::{Lane256, LaneMask, LANES};

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

/// Pushes the pair of slots `a`, `b` (distinct) as one ordered key.
#[inline(always)]
fn push(found: &mut Vec<u64>, a: u32, b: u32) {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    found.push(((lo as u64) << 32) | hi as u64);
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
