//! Runtime selection of AVX2: the drivers of [`super::drive`] compiled a second time inside
//! `#[target_feature(enable = "avx2")]` functions, with the 256-bit lane vector [`V256`] of
//! this module (`std::arch` intrinsics). A SIMD crate cannot do this for us: `wide` (the
//! portable [`super::lanes::V`]) picks its instruction set when it is compiled, so inside an
//! AVX2 function its 8-lane type stays two SSE halves (measured: no faster than SSE2), and LLVM
//! does not vectorise plain lane arrays in functions this large.
//!
//! Soundness: a `#[target_feature]` function, and an AVX intrinsic, may only run on a CPU with
//! the feature. The wrappers below take an [`Avx2`] token, which can only be made by
//! [`Avx2::detect`] after `is_x86_feature_detected!("avx2")` returned true. [`V256`] is private
//! to this module, and the only code that makes or uses one is the driver code instantiated in
//! the `#[target_feature(enable = "avx2")]` functions below, which run only with that token; so
//! every `unsafe` block here runs on a CPU with AVX2. Loads read exactly `LANES` elements of an
//! array of `LANES` elements. IEEE results do not depend on the register width (no fused
//! multiply-add is enabled or emitted), and each intrinsic is the same IEEE operation as the
//! portable lane operation (`minps`/`maxps` rules, ordered comparisons that are false for NaN),
//! so the answers equal the portable ones bit for bit; the tests run both.
#![allow(unsafe_code)]

use super::lanes::{Lane, LaneMask, LANES};
use super::soa::Batch;
use super::{drive, BatchStats, PairKernel};
use core::arch::x86_64 as arch;
use sepax_shapes::math::Real;

/// `LANES` values of `Real` in one 256-bit register (8 × f32, or 4 × f64 with the `f64`
/// feature). Only used inside the AVX2 drivers (see the module's soundness note).
#[derive(Clone, Copy)]
struct V256(Reg);

#[cfg(not(feature = "f64"))]
type Reg = arch::__m256;
#[cfg(feature = "f64")]
type Reg = arch::__m256d;

/// One AVX intrinsic per precision: `avx!(ps_name, pd_name)(args)`.
macro_rules! avx {
    ($ps:ident, $pd:ident) => {{
        #[cfg(feature = "f64")]
        use arch::$pd as f;
        #[cfg(not(feature = "f64"))]
        use arch::$ps as f;
        f
    }};
}

impl core::ops::Add for V256 {
    type Output = V256;
    #[inline(always)]
    fn add(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe { avx!(_mm256_add_ps, _mm256_add_pd)(self.0, b.0) })
    }
}

impl core::ops::Sub for V256 {
    type Output = V256;
    #[inline(always)]
    fn sub(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe { avx!(_mm256_sub_ps, _mm256_sub_pd)(self.0, b.0) })
    }
}

impl core::ops::Mul for V256 {
    type Output = V256;
    #[inline(always)]
    fn mul(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe { avx!(_mm256_mul_ps, _mm256_mul_pd)(self.0, b.0) })
    }
}

/// The lane mask of the ordered, quiet comparison `OP` (false for NaN lanes).
#[inline(always)]
fn compare<const OP: i32>(a: Reg, b: Reg) -> LaneMask {
    // SAFETY: AVX is present (module soundness note).
    unsafe {
        #[cfg(not(feature = "f64"))]
        let m = arch::_mm256_movemask_ps(arch::_mm256_cmp_ps::<OP>(a, b));
        #[cfg(feature = "f64")]
        let m = arch::_mm256_movemask_pd(arch::_mm256_cmp_pd::<OP>(a, b));
        m as LaneMask
    }
}

impl Lane for V256 {
    #[inline(always)]
    fn splat(x: Real) -> V256 {
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe { avx!(_mm256_set1_ps, _mm256_set1_pd)(x) })
    }
    #[inline(always)]
    fn from_array(a: [Real; LANES]) -> V256 {
        // SAFETY: AVX is present (module soundness note); the unaligned load reads the
        // `LANES` elements of `a`, exactly one register.
        V256(unsafe { avx!(_mm256_loadu_ps, _mm256_loadu_pd)(a.as_ptr()) })
    }
    #[inline(always)]
    fn abs(self) -> V256 {
        // Clearing the sign bit: `andnot(-0.0, x)`.
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe {
            avx!(_mm256_andnot_ps, _mm256_andnot_pd)(
                avx!(_mm256_set1_ps, _mm256_set1_pd)(-0.0),
                self.0,
            )
        })
    }
    #[inline(always)]
    fn min(self, b: V256) -> V256 {
        // `vminps`: `self < b ? self : b`, as the portable `minps`.
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe { avx!(_mm256_min_ps, _mm256_min_pd)(self.0, b.0) })
    }
    #[inline(always)]
    fn max(self, b: V256) -> V256 {
        // `vmaxps`: `self > b ? self : b`, as the portable `maxps`.
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe { avx!(_mm256_max_ps, _mm256_max_pd)(self.0, b.0) })
    }
    #[inline(always)]
    fn lt(self, b: V256) -> LaneMask {
        compare::<{ arch::_CMP_LT_OQ }>(self.0, b.0)
    }
    #[inline(always)]
    fn le(self, b: V256) -> LaneMask {
        compare::<{ arch::_CMP_LE_OQ }>(self.0, b.0)
    }
    #[inline(always)]
    fn gt(self, b: V256) -> LaneMask {
        compare::<{ arch::_CMP_GT_OQ }>(self.0, b.0)
    }
}

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
