//! Runtime selection of AVX2: the drivers of [`super::drive`] compiled a second time inside
//! `#[target_feature(enable = "avx2")]` functions, where LLVM vectorises the lane arrays
//! into 256-bit registers (the portable build of x86-64 only has SSE2, and `wide` picks its
//! instruction set at compile time, so it cannot do this).
//!
//! Soundness: a `#[target_feature]` function may only run on a CPU with the feature. The
//! wrappers below take an [`Avx2`] token, which can only be made by [`Avx2::detect`] after
//! `is_x86_feature_detected!("avx2")` returned true; so every `unsafe` call here runs on a CPU
//! with AVX2. Nothing else in this module is unsafe. IEEE results do not depend on the
//! register width (no fused multiply-add is enabled or emitted), so the answers equal the
//! portable ones bit for bit; the tests run both.
#![allow(unsafe_code)]

use super::soa::Batch;
use super::{drive, BatchStats, PairKernel};

/// Proof that the running CPU has AVX2 (only [`Avx2::detect`] makes one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The token, when the CPU has AVX2.
    pub(crate) fn detect() -> Option<Avx2> {
        if std::is_x86_feature_detected!("avx2") {
            Some(Avx2(()))
        } else {
            None
        }
    }
}

type ItemA<K> = <<K as PairKernel>::A as Batch>::Item;

macro_rules! avx2_driver {
    ($name:ident, $inner:ident, <$K:ident>, ($($arg:ident : $ty:ty),*)) => {
        #[target_feature(enable = "avx2")]
        fn $inner<$K: PairKernel>($($arg: $ty),*) -> BatchStats {
            drive::$name::<$K>($($arg),*)
        }
        /// The AVX2 build of the driver of the same name.
        pub(crate) fn $name<$K: PairKernel>(_cpu: Avx2, $($arg: $ty),*) -> BatchStats {
            // SAFETY: `_cpu` exists only if `is_x86_feature_detected!("avx2")` returned true
            // on this machine (see `Avx2::detect`), which is the one precondition of calling a
            // function compiled with `#[target_feature(enable = "avx2")]`.
            unsafe { $inner::<$K>($($arg),*) }
        }
    };
}

avx2_driver!(one_vs_n_mask, one_vs_n_mask_avx2, <K>, (q: &ItemA<K>, b: &K::B, mask: &mut Vec<u64>));
avx2_driver!(one_vs_n_indices, one_vs_n_indices_avx2, <K>, (q: &ItemA<K>, b: &K::B, out: &mut Vec<u32>));
avx2_driver!(n_by_m, n_by_m_avx2, <K>, (a: &K::A, b: &K::B, out: &mut Vec<(u32, u32)>));
avx2_driver!(filter_pairs, filter_pairs_avx2, <K>,
    (a: &K::A, b: &K::B, candidates: &[(u32, u32)], out: &mut Vec<(u32, u32)>));
avx2_driver!(filter_indices, filter_indices_avx2, <K>,
    (q: &ItemA<K>, b: &K::B, candidates: &[u32], out: &mut Vec<u32>));
