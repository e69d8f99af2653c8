//! Runtime selection of AVX2: the drivers of [`super::drive`] compiled a second time inside
//! the floor's `Avx2::run`, with its 256-bit lane vector. `wide` (the portable
//! [`super::lanes::V`]) picks its instruction set when it is compiled, so inside an AVX2
//! function its 8-lane type stays two SSE halves (measured: no faster than SSE2), and LLVM does
//! not vectorise plain lane arrays in functions this large.
//!
//! Soundness: the token and the AVX register are `sepax-simd`'s (its `# Soundness` section);
//! no `unsafe` here. Each AVX lane operation is the same IEEE operation as the portable lane
//! operation, so the answers equal the portable ones bit for bit; the tests run both.

use super::soa::Batch;
use super::{drive, BatchStats, PairKernel};
use core::marker::PhantomData;
use sepax_simd::{Avx2, Lane256, LaneKernel};

type ItemA<K> = <<K as PairKernel>::A as Batch>::Item;

/// A driver as the kernel that `Avx2::run` runs on the AVX register (its arguments passed one
/// by one, `()` for a fourth it lacks), and the AVX2 build of the driver.
macro_rules! avx2_driver {
    ($name:ident, $Kernel:ident, <$x:lifetime, $K:ident>, ($($arg:ident : $ty:ty),*),
     [$($pad:tt)*]) => {
        /// The driver of the same name.
        struct $Kernel<$K>(PhantomData<$K>);
        impl<$x, $K: PairKernel> LaneKernel<$($ty),*> for $Kernel<$K> {
            type Output = BatchStats;
            #[inline(always)]
            fn run<L: Lane256>(self, $($arg: $ty,)* $($pad: (),)*) -> BatchStats {
                drive::$name::<$K, L>($($arg),*)
            }
        }
        /// The AVX2 build of the driver of the same name.
        pub(crate) fn $name<$x, $K: PairKernel>(cpu: Avx2, $($arg: $ty),*) -> BatchStats {
            cpu.run($Kernel::<$K>(PhantomData), $($arg,)* $({ let $pad = (); $pad },)*)
        }
    };
}

avx2_driver!(one_vs_n_mask, OneVsNMask, <'x, K>,
    (q: &'x ItemA<K>, b: &'x K::B, mask: &'x mut Vec<u64>), [_pad]);
avx2_driver!(one_vs_n_indices, OneVsNIndices, <'x, K>,
    (q: &'x ItemA<K>, b: &'x K::B, out: &'x mut Vec<u32>), [_pad]);
avx2_driver!(n_by_m, NByM, <'x, K>,
    (a: &'x K::A, b: &'x K::B, out: &'x mut Vec<(u32, u32)>), [_pad]);
avx2_driver!(filter_pairs, FilterPairs, <'x, K>,
    (a: &'x K::A, b: &'x K::B, candidates: &'x [(u32, u32)], out: &'x mut Vec<(u32, u32)>), []);
avx2_driver!(filter_indices, FilterIndices, <'x, K>,
    (q: &'x ItemA<K>, b: &'x K::B, candidates: &'x [u32], out: &'x mut Vec<u32>), []);
