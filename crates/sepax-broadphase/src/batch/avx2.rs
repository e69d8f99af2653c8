//! Runtime selection of AVX2: the drivers of [`super::drive`] compiled a second time inside
//! `#[target_feature(enable = "avx2")]` functions, with the 256-bit lane vector
//! [`crate::simd::V256`] (`std::arch` intrinsics). `wide` (the portable [`super::lanes::V`])
//! picks its instruction set when it is compiled, so inside an AVX2 function its 8-lane type
//! stays two SSE halves (measured: no faster than SSE2), and LLVM does not vectorise plain lane
//! arrays in functions this large.
//!
//! Soundness: the rules of [`crate::simd`]. The wrappers below take an [`Avx2`] token (which
//! only `Avx2::detect` makes, after `is_x86_feature_detected!("avx2")` returned true) before
//! calling their `#[target_feature(enable = "avx2")]` function, and `V256` is only used by the
//! driver code instantiated in those functions (AVX2 implies AVX, all `V256` needs). Each
//! `V256` operation is the same IEEE operation as the portable lane operation, so the answers
//! equal the portable ones bit for bit; the tests run both.
#![allow(unsafe_code)]

use super::lanes::LANES;
use super::soa::Batch;
use super::{drive, BatchStats, PairKernel};
use crate::simd::Avx2;
use crate::simd::V256;

const _: () = assert!(LANES == crate::simd::LANES);

type ItemA<K> = <<K as PairKernel>::A as Batch>::Item;

macro_rules! avx2_driver {
    ($name:ident, $inner:ident, <$K:ident>, ($($arg:ident : $ty:ty),*)) => {
        #[target_feature(enable = "avx2")]
        fn $inner<$K: PairKernel>($($arg: $ty),*) -> BatchStats {
            drive::$name::<$K, V256>($($arg),*)
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
