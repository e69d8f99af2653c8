//! Run-time selection of AVX/AVX2, shared by the batch kernels (`batch/avx2.rs`) and the wide
//! BVH's ray casts (`bvh/wide/avx.rs`): the CPU tokens, the 256-bit lane vector [`V256`], and
//! a prefetch hint.
//!
//! Why: `wide` picks its instruction set when it is compiled, so on a default x86-64 build its
//! 8-lane f32 vector is two SSE halves, even inside a `#[target_feature(enable = "avx")]`
//! function (twice the instructions, and fewer constants fit in the registers). The hot loops
//! are therefore compiled a second time inside such a function, generic over their lane
//! vector, with [`V256`] (`std::arch` intrinsics) as the vector.
//!
//! # Soundness
//!
//! A `#[target_feature]` function, and an AVX intrinsic, may only run on a CPU with the
//! feature. The rules that make every `unsafe` block here, and the callers' one `unsafe` call
//! per `#[target_feature]` function, sound:
//!
//! 1. [`Avx`] and [`Avx2`] are tokens with a private field: only [`Avx::detect`] and
//!    [`Avx2::detect`] make them, after `is_x86_feature_detected!` returned true for the
//!    feature. A `#[target_feature(enable = "avx")]` (or `"avx2"`) function is only called by
//!    a wrapper that takes the matching token (AVX2 implies AVX).
//! 2. [`V256`] needs AVX for every operation. It is named only by the code that those
//!    `#[target_feature]` functions instantiate (`drive::*::<K, V256>` in `batch/avx2.rs` and
//!    `WideBvh::cast::<V256, _>` in `bvh/wide/avx.rs`): no other module makes or uses one. So
//!    every `V256` operation runs on a CPU with AVX. (A new user must keep this rule: make
//!    `V256` values only inside a `#[target_feature]` function reached with a token.)
//! 3. Loads and stores read or write exactly the [`LANES`] elements of an array of `LANES`
//!    elements (unaligned forms: no alignment assumed).
//!
//! Results: each operation is the same IEEE operation per lane as the portable lane vectors
//! (`minps`/`maxps` rules, ordered quiet comparisons that are false for NaN, correctly rounded
//! arithmetic), and no fused multiply-add is enabled, so the results equal the portable ones
//! bit for bit; the tests run both.
//!
//! Tests: with the crate's unit tests, `PORTABLE` set on a thread makes both `detect`s answer
//! `None` there, so that the portable builds run on an AVX2 machine too.
#![allow(unsafe_code)]

use core::arch::x86_64 as arch;
use sepax_shapes::math::Real;

/// `Real`s per 256-bit register: 8 in f32, 4 in f64.
pub(crate) const LANES: usize = 32 / core::mem::size_of::<Real>();

#[cfg(test)]
thread_local! {
    /// Tests only: when set, [`Avx::detect`] and [`Avx2::detect`] answer `None` on this
    /// thread, so that the portable builds run on a CPU with AVX2 too.
    pub(crate) static PORTABLE: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Whether the test switch `PORTABLE` is set on this thread (always false outside tests).
#[inline]
fn forced_portable() -> bool {
    #[cfg(test)]
    return PORTABLE.with(|p| p.get());
    #[cfg(not(test))]
    false
}

/// Proof that the running CPU has AVX (see the module's soundness rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Avx(());

impl Avx {
    /// The token, when the CPU has AVX (`std` caches the detection).
    #[inline]
    pub(crate) fn detect() -> Option<Avx> {
        if forced_portable() {
            return None;
        }
        std::arch::is_x86_feature_detected!("avx").then_some(Avx(()))
    }
}

/// Proof that the running CPU has AVX2 (see the module's soundness rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The token, when the CPU has AVX2 (`std` caches the detection).
    #[inline]
    pub(crate) fn detect() -> Option<Avx2> {
        if forced_portable() {
            return None;
        }
        std::arch::is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }
}

/// Asks the processor to start loading the cache lines of `*r` (the lines of its first
/// `size_of::<T>()` bytes, rounded up to whole 64-byte lines from its address). A hint: no
/// effect on results.
#[inline(always)]
pub(crate) fn prefetch<T>(r: &T) {
    use arch::{_mm_prefetch, _MM_HINT_T0};
    let p = (r as *const T).cast::<i8>();
    for line in 0..core::mem::size_of::<T>().div_ceil(64).max(1) {
        // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has (it is in the
        // target's baseline), and it never faults or reads into the program: a prefetch is a
        // hint, valid for any address. (`wrapping_add` forms the address without asserting it
        // is in bounds.)
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(line * 64));
        }
    }
}

#[cfg(not(feature = "f64"))]
type Reg = arch::__m256;
#[cfg(feature = "f64")]
type Reg = arch::__m256d;

/// [`LANES`] values of `Real` in one AVX register (8 × f32, or 4 × f64 with the `f64`
/// feature). Only for code running under an [`Avx`] (or [`Avx2`]) token: see the module's
/// soundness rules.
#[derive(Clone, Copy)]
pub(crate) struct V256(Reg);

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

const _: () = assert!(LANES * core::mem::size_of::<Real>() == 32);

/// The lane mask of the ordered, quiet comparison `OP` (false for NaN lanes).
#[inline(always)]
fn compare<const OP: i32>(a: Reg, b: Reg) -> u32 {
    // SAFETY: AVX is present (module soundness rule 2).
    unsafe {
        #[cfg(not(feature = "f64"))]
        let m = arch::_mm256_movemask_ps(arch::_mm256_cmp_ps::<OP>(a, b));
        #[cfg(feature = "f64")]
        let m = arch::_mm256_movemask_pd(arch::_mm256_cmp_pd::<OP>(a, b));
        m as u32
    }
}

impl V256 {
    /// Every lane `x`.
    #[inline(always)]
    pub(crate) fn splat(x: Real) -> V256 {
        // SAFETY: AVX is present (module soundness rule 2).
        V256(unsafe { avx!(_mm256_set1_ps, _mm256_set1_pd)(x) })
    }
    /// The lanes of `a`.
    #[inline(always)]
    pub(crate) fn load(a: &[Real; LANES]) -> V256 {
        // SAFETY: AVX is present (rule 2); the unaligned load reads the `LANES` elements of
        // `a`, exactly one register (rule 3).
        V256(unsafe { avx!(_mm256_loadu_ps, _mm256_loadu_pd)(a.as_ptr()) })
    }
    /// The lanes.
    #[inline(always)]
    pub(crate) fn to_array(self) -> [Real; LANES] {
        let mut out = [0.0 as Real; LANES];
        // SAFETY: AVX is present (rule 2); the unaligned store writes the `LANES` elements of
        // `out` (rule 3).
        unsafe { avx!(_mm256_storeu_ps, _mm256_storeu_pd)(out.as_mut_ptr(), self.0) };
        out
    }
    /// `self / b` per lane (correctly rounded).
    #[inline(always)]
    pub(crate) fn div(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness rule 2).
        V256(unsafe { avx!(_mm256_div_ps, _mm256_div_pd)(self.0, b.0) })
    }
    /// `|x|` per lane (exact: the sign bit cleared, `andnot(-0.0, x)`).
    #[inline(always)]
    pub(crate) fn abs(self) -> V256 {
        // SAFETY: AVX is present (module soundness rule 2).
        V256(unsafe {
            avx!(_mm256_andnot_ps, _mm256_andnot_pd)(
                avx!(_mm256_set1_ps, _mm256_set1_pd)(-0.0),
                self.0,
            )
        })
    }
    /// `self` where `self < b`, else `b` (the `minps` rule).
    #[inline(always)]
    pub(crate) fn min(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness rule 2).
        V256(unsafe { avx!(_mm256_min_ps, _mm256_min_pd)(self.0, b.0) })
    }
    /// `self` where `self > b`, else `b` (the `maxps` rule).
    #[inline(always)]
    pub(crate) fn max(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness rule 2).
        V256(unsafe { avx!(_mm256_max_ps, _mm256_max_pd)(self.0, b.0) })
    }
    /// Bit `j` set where `self[j] < b[j]` (false for NaN).
    #[inline(always)]
    pub(crate) fn lt(self, b: V256) -> u32 {
        compare::<{ arch::_CMP_LT_OQ }>(self.0, b.0)
    }
    /// Bit `j` set where `self[j] <= b[j]` (false for NaN).
    #[inline(always)]
    pub(crate) fn le(self, b: V256) -> u32 {
        compare::<{ arch::_CMP_LE_OQ }>(self.0, b.0)
    }
    /// Bit `j` set where `self[j] > b[j]` (false for NaN).
    #[inline(always)]
    pub(crate) fn gt(self, b: V256) -> u32 {
        compare::<{ arch::_CMP_GT_OQ }>(self.0, b.0)
    }
}

impl core::ops::Add for V256 {
    type Output = V256;
    #[inline(always)]
    fn add(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness rule 2).
        V256(unsafe { avx!(_mm256_add_ps, _mm256_add_pd)(self.0, b.0) })
    }
}

impl core::ops::Sub for V256 {
    type Output = V256;
    #[inline(always)]
    fn sub(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness rule 2).
        V256(unsafe { avx!(_mm256_sub_ps, _mm256_sub_pd)(self.0, b.0) })
    }
}

impl core::ops::Mul for V256 {
    type Output = V256;
    #[inline(always)]
    fn mul(self, b: V256) -> V256 {
        // SAFETY: AVX is present (module soundness rule 2).
        V256(unsafe { avx!(_mm256_mul_ps, _mm256_mul_pd)(self.0, b.0) })
    }
}

impl crate::lanes::Lane for V256 {
    #[inline(always)]
    fn splat(x: Real) -> V256 {
        V256::splat(x)
    }
    #[inline(always)]
    fn load(a: &[Real; LANES]) -> V256 {
        V256::load(a)
    }
    #[inline(always)]
    fn to_array(self) -> [Real; LANES] {
        V256::to_array(self)
    }
    #[inline(always)]
    fn abs(self) -> V256 {
        V256::abs(self)
    }
    #[inline(always)]
    fn div(self, b: V256) -> V256 {
        V256::div(self, b)
    }
    #[inline(always)]
    fn min(self, b: V256) -> V256 {
        V256::min(self, b)
    }
    #[inline(always)]
    fn max(self, b: V256) -> V256 {
        V256::max(self, b)
    }
    #[inline(always)]
    fn lt(self, b: V256) -> u32 {
        V256::lt(self, b)
    }
    #[inline(always)]
    fn le(self, b: V256) -> u32 {
        V256::le(self, b)
    }
    #[inline(always)]
    fn gt(self, b: V256) -> u32 {
        V256::gt(self, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_switch_hides_the_tokens() {
        PORTABLE.with(|p| p.set(true));
        assert_eq!(Avx::detect(), None);
        assert_eq!(Avx2::detect(), None);
        PORTABLE.with(|p| p.set(false));
        assert_eq!(
            Avx::detect().is_some(),
            std::arch::is_x86_feature_detected!("avx")
        );
        assert_eq!(
            Avx2::detect().is_some(),
            std::arch::is_x86_feature_detected!("avx2")
        );
    }

    /// Each lane operation against the scalar operation, bit for bit, with the `minps`/`maxps`
    /// rules on signed zeros and NaN, and comparisons false for NaN.
    #[test]
    fn lanes_equal_scalar_operations() {
        // Only with AVX present (rule 2 of the soundness note: the token is checked first).
        let Some(_cpu) = Avx::detect() else { return };
        let pool: [Real; 8] = [
            1.5,
            -0.0,
            0.0,
            Real::NAN,
            -3.25,
            Real::INFINITY,
            1e-30,
            -7.0,
        ];
        let mut a = [0.0 as Real; LANES];
        let mut b = [0.0 as Real; LANES];
        for shift in 0..pool.len() {
            for j in 0..LANES {
                a[j] = pool[(j + shift) % pool.len()];
                b[j] = pool[(3 * j + 1) % pool.len()];
            }
            let (va, vb) = (V256::load(&a), V256::load(&b));
            let bits = |v: [Real; LANES]| v.map(|x| x.to_bits());
            let lanes = |f: fn(Real, Real) -> Real| {
                let mut out = [0.0 as Real; LANES];
                for j in 0..LANES {
                    out[j] = f(a[j], b[j]);
                }
                bits(out)
            };
            let mask = |f: fn(Real, Real) -> bool| {
                (0..LANES).fold(0u32, |m, j| m | (u32::from(f(a[j], b[j])) << j))
            };
            assert_eq!(bits((va + vb).to_array()), lanes(|x, y| x + y));
            assert_eq!(bits((va - vb).to_array()), lanes(|x, y| x - y));
            assert_eq!(bits((va * vb).to_array()), lanes(|x, y| x * y));
            assert_eq!(bits(va.div(vb).to_array()), lanes(|x, y| x / y));
            assert_eq!(bits(va.abs().to_array()), lanes(|x, _| x.abs()));
            assert_eq!(
                bits(va.min(vb).to_array()),
                lanes(|x, y| if x < y { x } else { y })
            );
            assert_eq!(
                bits(va.max(vb).to_array()),
                lanes(|x, y| if x > y { x } else { y })
            );
            assert_eq!(va.lt(vb), mask(|x, y| x < y));
            assert_eq!(va.le(vb), mask(|x, y| x <= y));
            assert_eq!(va.gt(vb), mask(|x, y| x > y));
            assert_eq!(bits(V256::splat(a[0]).to_array()), bits([a[0]; LANES]));
        }
    }
}
