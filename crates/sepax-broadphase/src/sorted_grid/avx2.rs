//! Runtime selection of AVX2 for the pair search and the re-keying, after the pattern of the
//! narrow phase's batch kernels: `dense_pairs_body` and `SortedGrid::rekey_body` (safe code,
//! bounds checked) compiled a second time inside the floor's `Avx2::run` (as kernels that ignore the lane
//! type), so that LLVM encodes
//! the same operations in VEX form (three operands, unaligned loads folded into other
//! instructions).
//!
//! Soundness: the token is `sepax-simd`'s (its `# Soundness` section); no `unsafe` here. Only
//! the instruction encoding changes: no fused multiply-add is enabled, and the code's products
//! (`p * inv_cell`) and comparisons are the same IEEE operations in either encoding, so the
//! answers are the portable ones bit for bit; the tests run both.

use super::entry::Entry;
use super::layout::DenseGeom;
use super::sorted::Sorted;
use super::SortedGrid;

pub(super) use sepax_simd::Avx2;
use sepax_simd::{Lane256, LaneKernel};

/// The AVX2 build of [`SortedGrid::rekey_body`].
#[inline(never)]
pub(super) fn rekey(
    cpu: Avx2,
    grid: &mut SortedGrid,
    moved: &mut Vec<Entry>,
    g: &DenseGeom,
) -> Option<usize> {
    cpu.run(Rekey, grid, moved, g, ())
}

/// The AVX2 build of [`super::search::dense_pairs_body`].
#[inline(never)]
pub(super) fn dense_pairs(cpu: Avx2, c: &Sorted<'_>, dims: [i64; 3], out: &mut Vec<u64>) {
    cpu.run(DensePairs, c, dims, out, ())
}

/// [`SortedGrid::rekey_body`] as a kernel for the token (it uses no lane vector).
struct Rekey;

impl<'a> LaneKernel<&'a mut SortedGrid, &'a mut Vec<Entry>, &'a DenseGeom> for Rekey {
    type Output = Option<usize>;
    #[inline(always)]
    fn run<L: Lane256>(
        self,
        grid: &'a mut SortedGrid,
        moved: &'a mut Vec<Entry>,
        g: &'a DenseGeom,
        _: (),
    ) -> Option<usize> {
        grid.rekey_body(moved, g)
    }
}

/// [`super::search::dense_pairs_body`] as a kernel for the token (it uses no lane vector).
struct DensePairs;

impl<'a, 's> LaneKernel<&'a Sorted<'s>, [i64; 3], &'a mut Vec<u64>> for DensePairs {
    type Output = ();
    #[inline(always)]
    fn run<L: Lane256>(self, c: &'a Sorted<'s>, dims: [i64; 3], out: &'a mut Vec<u64>, _: ()) {
        super::search::dense_pairs_body(c, dims, out);
    }
}
