//! Runtime selection of AVX2 for the pair search and the re-keying, after the pattern of
//! `batch/avx2.rs`: `dense_pairs_body` and `SortedGrid::rekey_body` (safe code, bounds
//! checked) compiled a second time inside `#[target_feature(enable = "avx2")]` functions, so
//! that LLVM encodes the same operations in VEX form (three operands, unaligned loads folded
//! into other instructions).
//!
//! Soundness: a `#[target_feature(enable = "avx2")]` function may only run on a CPU with AVX2.
//! They are private to this module, and their only callers, the wrappers `avx2::dense_pairs`
//! and `avx2::rekey`, take a [`crate::simd::Avx2`] token, which only `Avx2::detect` makes,
//! after `is_x86_feature_detected!("avx2")` returned true (rule 1 of `simd.rs`). Only the
//! instruction encoding changes: no fused multiply-add is enabled, and the code's products
//! (`p * inv_cell`) and comparisons are the same IEEE operations in either encoding, so the
//! answers are the portable ones bit for bit; the tests run both.
#![allow(unsafe_code)]

use super::entry::Entry;
use super::layout::DenseGeom;
use super::sorted::Sorted;
use super::SortedGrid;

pub(super) use crate::simd::Avx2;

#[target_feature(enable = "avx2")]
fn dense_pairs_avx2(c: &Sorted<'_>, dims: [i64; 3], out: &mut Vec<u64>) {
    super::search::dense_pairs_body(c, dims, out);
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

/// The AVX2 build of [`super::search::dense_pairs_body`].
#[inline(never)]
pub(super) fn dense_pairs(_cpu: Avx2, c: &Sorted<'_>, dims: [i64; 3], out: &mut Vec<u64>) {
    // SAFETY: `_cpu` exists only if `is_x86_feature_detected!("avx2")` returned true on
    // this machine (see `Avx2::detect`), which is the one precondition of calling a
    // function compiled with `#[target_feature(enable = "avx2")]`.
    unsafe { dense_pairs_avx2(c, dims, out) }
}
