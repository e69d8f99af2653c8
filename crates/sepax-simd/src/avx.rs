//! [`V256`]: [`crate::LANES`] (8) values of `Real` in AVX registers (one of 8 × f32, or with the
//! `f64` feature two of 4 × f64), the [`Lane`] that the tokens' `run` hands to a
//! [`crate::LaneKernel`].
//!
//! Why: `wide` picks its instruction set when it is compiled, so on a default x86-64 build its
//! 8-lane f32 vector is two SSE halves, even inside a `#[target_feature(enable = "avx")]`
//! function (twice the instructions, and fewer constants fit in the registers). The hot loops
//! are therefore compiled a second time inside such a function, generic over their lane
//! vector, with `V256` (`core::arch` intrinsics) as the vector.
//!
//! `V256` is private to this crate: no other crate can name it, make one or call its
//! operations except through the code that the tokens' `run` instantiates with it (soundness rule 2
//! of the crate docs).
#![allow(unsafe_code)]

use crate::{Lane, LaneMask, Real};
use core::arch::x86_64 as arch;

#[cfg(not(feature = "f64"))]
type Reg = arch::__m256;
#[cfg(feature = "f64")]
type Reg = arch::__m256d;

/// Lanes of one AVX register.
const REG_LANES: usize = 32 / core::mem::size_of::<Real>();

/// [`REG_LANES`] values of `Real` in one AVX register. Only made and used by code that runs
/// after an `Avx` (or `Avx2`) token was made: see the crate's soundness rules.
#[derive(Clone, Copy)]
pub(crate) struct R256(Reg);

/// The AVX lane vector of [`LANES`] lanes: one register in f32, two in f64.
#[cfg(not(feature = "f64"))]
pub(crate) type V256 = R256;
/// The AVX lane vector of [`LANES`] lanes: one register in f32, two in f64.
#[cfg(feature = "f64")]
pub(crate) type V256 = crate::lane::Pair<R256>;

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

/// A `R256` from an AVX operation: `v256!(ps_name, pd_name)(args)`.
macro_rules! v256 {
    ($ps:ident, $pd:ident ($($arg:expr),*)) => {
        // SAFETY: AVX is present (crate soundness rule 2: `R256` values, and so its
        // operations, exist only after a token proved the CPU has AVX).
        R256(unsafe { avx!($ps, $pd)($($arg),*) })
    };
}

const _: () = assert!(REG_LANES * core::mem::size_of::<Real>() == 32);

/// The lanes of the ordered, quiet comparison `OP` (all ones where true, false for NaN).
#[inline(always)]
fn compare<const OP: i32>(a: Reg, b: Reg) -> Reg {
    // SAFETY: AVX is present (crate soundness rule 2).
    unsafe {
        #[cfg(not(feature = "f64"))]
        let m = arch::_mm256_cmp_ps::<OP>(a, b);
        #[cfg(feature = "f64")]
        let m = arch::_mm256_cmp_pd::<OP>(a, b);
        m
    }
}

/// The sign bit of each lane of `m`, as a [`LaneMask`].
#[inline(always)]
fn movemask(m: Reg) -> LaneMask {
    // SAFETY: AVX is present (crate soundness rule 2).
    unsafe { avx!(_mm256_movemask_ps, _mm256_movemask_pd)(m) as LaneMask }
}

/// Every lane `x`, as a register.
#[inline(always)]
fn set1(x: Real) -> Reg {
    // SAFETY: AVX is present (crate soundness rule 2).
    unsafe { avx!(_mm256_set1_ps, _mm256_set1_pd)(x) }
}

impl Lane for R256 {
    type Array = [Real; REG_LANES];
    #[inline(always)]
    fn splat(x: Real) -> R256 {
        R256(set1(x))
    }
    #[inline(always)]
    fn load(a: &[Real; REG_LANES]) -> R256 {
        // SAFETY: AVX is present (rule 2); the unaligned load reads the `REG_LANES` elements of
        // `a`, exactly one register (rule 3).
        R256(unsafe { avx!(_mm256_loadu_ps, _mm256_loadu_pd)(a.as_ptr()) })
    }
    #[inline(always)]
    fn to_array(self) -> [Real; REG_LANES] {
        let mut out = [0.0 as Real; REG_LANES];
        // SAFETY: AVX is present (rule 2); the unaligned store writes the `REG_LANES` elements of
        // `out` (rule 3).
        unsafe { avx!(_mm256_storeu_ps, _mm256_storeu_pd)(out.as_mut_ptr(), self.0) };
        out
    }
    /// `|x|` per lane (exact: the sign bit cleared, `andnot(-0.0, x)`).
    #[inline(always)]
    fn abs(self) -> R256 {
        v256!(_mm256_andnot_ps, _mm256_andnot_pd(set1(-0.0), self.0))
    }
    #[inline(always)]
    fn sqrt(self) -> R256 {
        v256!(_mm256_sqrt_ps, _mm256_sqrt_pd(self.0))
    }
    #[inline(always)]
    fn min(self, b: R256) -> R256 {
        v256!(_mm256_min_ps, _mm256_min_pd(self.0, b.0))
    }
    #[inline(always)]
    fn max(self, b: R256) -> R256 {
        v256!(_mm256_max_ps, _mm256_max_pd(self.0, b.0))
    }
    #[inline(always)]
    fn eq(self, o: R256) -> R256 {
        R256(compare::<{ arch::_CMP_EQ_OQ }>(self.0, o.0))
    }
    #[inline(always)]
    fn ge(self, o: R256) -> R256 {
        R256(compare::<{ arch::_CMP_GE_OQ }>(self.0, o.0))
    }
    #[inline(always)]
    fn gt(self, o: R256) -> R256 {
        R256(compare::<{ arch::_CMP_GT_OQ }>(self.0, o.0))
    }
    #[inline(always)]
    fn lt(self, o: R256) -> R256 {
        R256(compare::<{ arch::_CMP_LT_OQ }>(self.0, o.0))
    }
    #[inline(always)]
    fn le(self, o: R256) -> R256 {
        R256(compare::<{ arch::_CMP_LE_OQ }>(self.0, o.0))
    }
    /// A blend on the mask's sign bits: the same lanes as the bitwise select for the full
    /// lane masks that [`Lane::select`] is given.
    #[inline(always)]
    fn select(self, a: R256, b: R256) -> R256 {
        v256!(_mm256_blendv_ps, _mm256_blendv_pd(b.0, a.0, self.0))
    }
    #[inline(always)]
    fn bits(self) -> LaneMask {
        movemask(self.0)
    }
    #[inline(always)]
    fn sign_ge0(self) -> R256 {
        let ge = self.ge(R256::splat(0.0));
        v256!(
            _mm256_or_ps,
            _mm256_or_pd(
                avx!(_mm256_andnot_ps, _mm256_andnot_pd)(ge.0, set1(-0.0)),
                set1(1.0)
            )
        )
    }
    #[inline(always)]
    fn and(self, o: R256) -> R256 {
        v256!(_mm256_and_ps, _mm256_and_pd(self.0, o.0))
    }
    #[inline(always)]
    fn and_not(self, m: R256) -> R256 {
        v256!(_mm256_andnot_ps, _mm256_andnot_pd(m.0, self.0))
    }
    #[inline(always)]
    fn lt_mask(self, b: R256) -> LaneMask {
        movemask(compare::<{ arch::_CMP_LT_OQ }>(self.0, b.0))
    }
    #[inline(always)]
    fn le_mask(self, b: R256) -> LaneMask {
        movemask(compare::<{ arch::_CMP_LE_OQ }>(self.0, b.0))
    }
    #[inline(always)]
    fn gt_mask(self, b: R256) -> LaneMask {
        movemask(compare::<{ arch::_CMP_GT_OQ }>(self.0, b.0))
    }
}

impl core::ops::Add for R256 {
    type Output = R256;
    #[inline(always)]
    fn add(self, b: R256) -> R256 {
        v256!(_mm256_add_ps, _mm256_add_pd(self.0, b.0))
    }
}

impl core::ops::Sub for R256 {
    type Output = R256;
    #[inline(always)]
    fn sub(self, b: R256) -> R256 {
        v256!(_mm256_sub_ps, _mm256_sub_pd(self.0, b.0))
    }
}

impl core::ops::Mul for R256 {
    type Output = R256;
    #[inline(always)]
    fn mul(self, b: R256) -> R256 {
        v256!(_mm256_mul_ps, _mm256_mul_pd(self.0, b.0))
    }
}

impl core::ops::Div for R256 {
    type Output = R256;
    /// `self / b` per lane (correctly rounded).
    #[inline(always)]
    fn div(self, b: R256) -> R256 {
        v256!(_mm256_div_ps, _mm256_div_pd(self.0, b.0))
    }
}

impl core::ops::Neg for R256 {
    type Output = R256;
    /// The sign bit flipped (`xor` with `-0.0`).
    #[inline(always)]
    fn neg(self) -> R256 {
        v256!(_mm256_xor_ps, _mm256_xor_pd(self.0, set1(-0.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LANES;

    /// Each lane operation against the scalar operation, bit for bit, with the `minps`/`maxps`
    /// rules on signed zeros and NaN, and comparisons false for NaN.
    #[test]
    fn lanes_equal_scalar_operations() {
        // Only with AVX present (rule 1 of the soundness rules: the token is checked first).
        let Some(_cpu) = crate::Avx::detect() else {
            return;
        };
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
            assert_eq!(bits((va / vb).to_array()), lanes(|x, y| x / y));
            assert_eq!(bits((-va).to_array()), lanes(|x, _| -x));
            assert_eq!(bits(va.abs().to_array()), lanes(|x, _| x.abs()));
            assert_eq!(bits(va.sqrt().to_array()), lanes(|x, _| x.sqrt()));
            assert_eq!(
                bits(va.min(vb).to_array()),
                lanes(|x, y| if x < y { x } else { y })
            );
            assert_eq!(
                bits(va.max(vb).to_array()),
                lanes(|x, y| if x > y { x } else { y })
            );
            assert_eq!(va.lt_mask(vb), mask(|x, y| x < y));
            assert_eq!(va.le_mask(vb), mask(|x, y| x <= y));
            assert_eq!(va.gt_mask(vb), mask(|x, y| x > y));
            assert_eq!(va.lt(vb).bits(), mask(|x, y| x < y));
            assert_eq!(va.le(vb).bits(), mask(|x, y| x <= y));
            assert_eq!(va.gt(vb).bits(), mask(|x, y| x > y));
            assert_eq!(va.ge(vb).bits(), mask(|x, y| x >= y));
            assert_eq!(va.eq(vb).bits(), mask(|x, y| x == y));
            let lt = va.lt(vb);
            assert_eq!(
                bits(lt.select(va, vb).to_array()),
                lanes(|x, y| if x < y { x } else { y })
            );
            assert_eq!(
                bits(va.and(lt).to_array()),
                lanes(|x, y| if x < y { x } else { 0.0 })
            );
            assert_eq!(
                bits(va.and_not(lt).to_array()),
                lanes(|x, y| if x < y { 0.0 } else { x })
            );
            assert_eq!(
                bits(va.sign_ge0().to_array()),
                lanes(|x, _| if x >= 0.0 { 1.0 } else { -1.0 })
            );
            assert_eq!(bits(V256::splat(a[0]).to_array()), bits([a[0]; LANES]));
        }
    }
}
