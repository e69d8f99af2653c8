//! Runtime selection of AVX for ray casts: the traversal of `query.rs` compiled a second time
//! inside a `#[target_feature(enable = "avx")]` function, with the 256-bit register [`V256`]
//! as its lane vector (8 × f32, or 4 × f64 with the `f64` feature: always [`WIDTH`] lanes).
//! `wide` picks its instruction set when it is compiled, so on a default x86-64 build its
//! 8-lane f32 vector is two SSE halves (twice the instructions, and the ray's constants no longer
//! fit in the registers); the same pattern as `batch/avx2.rs`, which explains it.
//!
//! Soundness: a `#[target_feature]` function, and an AVX intrinsic, may only run on a CPU with
//! the feature. [`cast_ray`] takes an [`Avx`] token, which only [`Avx::detect`] makes, after
//! `is_x86_feature_detected!("avx")` returned true. [`V256`] is private to this module and is
//! only made and used by the traversal instantiated in [`cast_avx`], which runs only with that
//! token; so every `unsafe` block here runs on a CPU with AVX. Loads and stores read or write
//! exactly `WIDTH` elements of arrays of `WIDTH` elements (unaligned forms, no alignment
//! assumed). Each intrinsic is the same IEEE operation as the portable lane operation
//! (`minps`/`maxps` rules, ordered comparisons false for NaN), no fused multiply-add is
//! enabled, so the results equal the portable ones bit for bit; the tests run both.
#![allow(unsafe_code)]

use super::query::{RayLanes, RayVec};
use super::{WideBvh, WIDTH};
use crate::bvh::RayStep;
use crate::QueryStats;
use core::arch::x86_64 as arch;
use sepax_shapes::math::Real;
use sepax_shapes::Ray;

/// Proof that the CPU has AVX (see the module's soundness note).
#[derive(Clone, Copy)]
pub(crate) struct Avx(());

impl Avx {
    /// The token, when the CPU has AVX (the detection is cached by `std`).
    #[inline]
    pub(crate) fn detect() -> Option<Avx> {
        std::arch::is_x86_feature_detected!("avx").then_some(Avx(()))
    }
}

#[cfg(not(feature = "f64"))]
type Reg = arch::__m256;
#[cfg(feature = "f64")]
type Reg = arch::__m256d;

/// [`WIDTH`] values of `Real` in one AVX register. Only used inside [`cast_avx`].
#[derive(Clone, Copy)]
struct V256(Reg);

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

const _: () = assert!(WIDTH * core::mem::size_of::<Real>() == 32);

impl RayVec for V256 {
    #[inline(always)]
    fn load(a: &[Real; WIDTH]) -> V256 {
        // SAFETY: AVX is present (module soundness note); reads the 32 bytes of `a`.
        V256(unsafe { avx!(_mm256_loadu_ps, _mm256_loadu_pd)(a.as_ptr()) })
    }
    #[inline(always)]
    fn splat(x: Real) -> V256 {
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe { avx!(_mm256_set1_ps, _mm256_set1_pd)(x) })
    }
    #[inline(always)]
    fn sub(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe { avx!(_mm256_sub_ps, _mm256_sub_pd)(self.0, b.0) })
    }
    #[inline(always)]
    fn mul(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe { avx!(_mm256_mul_ps, _mm256_mul_pd)(self.0, b.0) })
    }
    #[inline(always)]
    fn div(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe { avx!(_mm256_div_ps, _mm256_div_pd)(self.0, b.0) })
    }
    #[inline(always)]
    fn min(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe { avx!(_mm256_min_ps, _mm256_min_pd)(self.0, b.0) })
    }
    #[inline(always)]
    fn max(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness note).
        V256(unsafe { avx!(_mm256_max_ps, _mm256_max_pd)(self.0, b.0) })
    }
    #[inline(always)]
    fn le(self, b: V256) -> u32 {
        // SAFETY: AVX is present (module soundness note). `_CMP_LE_OQ`: ordered, quiet, false
        // for NaN, like `cmpleps`.
        unsafe {
            #[cfg(not(feature = "f64"))]
            let m =
                arch::_mm256_movemask_ps(arch::_mm256_cmp_ps::<{ arch::_CMP_LE_OQ }>(self.0, b.0));
            #[cfg(feature = "f64")]
            let m =
                arch::_mm256_movemask_pd(arch::_mm256_cmp_pd::<{ arch::_CMP_LE_OQ }>(self.0, b.0));
            m as u32
        }
    }
    #[inline(always)]
    fn lt(self, b: V256) -> u32 {
        // SAFETY: AVX is present (module soundness note). `_CMP_LT_OQ`: ordered, quiet, false
        // for NaN, like `cmpltps`.
        unsafe {
            #[cfg(not(feature = "f64"))]
            let m =
                arch::_mm256_movemask_ps(arch::_mm256_cmp_ps::<{ arch::_CMP_LT_OQ }>(self.0, b.0));
            #[cfg(feature = "f64")]
            let m =
                arch::_mm256_movemask_pd(arch::_mm256_cmp_pd::<{ arch::_CMP_LT_OQ }>(self.0, b.0));
            m as u32
        }
    }
    #[inline(always)]
    fn to_array(self) -> [Real; WIDTH] {
        let mut out = [0.0 as Real; WIDTH];
        // SAFETY: AVX is present (module soundness note); writes the 32 bytes of `out`.
        unsafe { avx!(_mm256_storeu_ps, _mm256_storeu_pd)(out.as_mut_ptr(), self.0) };
        out
    }
}

/// [`WideBvh::cast_ray`] with AVX (on a non-empty tree).
#[inline]
pub(crate) fn cast_ray(
    token: Avx,
    tree: &WideBvh,
    ray: &Ray,
    f: impl FnMut(u32, Real) -> RayStep,
) -> QueryStats {
    let _ = token;
    // SAFETY: the token proves that the CPU has AVX, the only requirement of `cast_avx`.
    unsafe { cast_avx(tree, ray, f) }
}

/// The traversal compiled with AVX enabled.
///
/// # Safety
/// The CPU must have AVX.
#[target_feature(enable = "avx")]
unsafe fn cast_avx(tree: &WideBvh, ray: &Ray, f: impl FnMut(u32, Real) -> RayStep) -> QueryStats {
    match RayLanes::<V256>::regular(ray) {
        Some(lanes) => tree.cast::<V256, true>(ray, &lanes, f),
        None => tree.cast::<V256, false>(ray, &RayLanes::new(ray), f),
    }
}
