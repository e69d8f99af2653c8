//! The lane vector the SIMD kernels are written against: [`LANES`] values of `Real` (one
//! 256-bit register: 8 × f32, or 4 × f64), behind the [`Lane`] trait. Two implementations:
//! the portable [`V`] on `wide` (SSE2 on a default x86-64 build, NEON on aarch64, scalar
//! elsewhere) and, on x86-64, the AVX register `simd::V256`, used by the kernels compiled a
//! second time for AVX/AVX2 and chosen at run time (the batch box kernels, the wide BVH's ray
//! casts). Every operation is one IEEE operation per lane, never fused or reordered, so every
//! implementation, and every lane, computes exactly what the scalar code computes.

use sepax_shapes::math::Real;

/// Lanes per kernel step: one 256-bit register of `Real` (8 × f32 or 4 × f64).
#[cfg(not(feature = "f64"))]
pub const LANES: usize = 8;
/// Lanes per kernel step: one 256-bit register of `Real` (8 × f32 or 4 × f64).
#[cfg(feature = "f64")]
pub const LANES: usize = 4;

/// A bit per lane (bit `k` = lane `k`).
pub type LaneMask = u32;

#[cfg(not(feature = "f64"))]
type Lanes = wide::f32x8;
#[cfg(feature = "f64")]
type Lanes = wide::f64x4;

/// `LANES` values of `Real` on `wide`'s safe SIMD types: the portable [`Lane`].
#[derive(Clone, Copy, Debug)]
pub struct V(Lanes);

/// What the kernels need of a lane vector: one IEEE operation per lane, never fused, so that
/// every implementation computes exactly what the scalar code computes.
pub(crate) trait Lane:
    Copy + core::ops::Add<Output = Self> + core::ops::Sub<Output = Self> + core::ops::Mul<Output = Self>
{
    /// Every lane `x`.
    fn splat(x: Real) -> Self;
    /// The lanes of an array.
    fn load(a: &[Real; LANES]) -> Self;
    /// The lanes of an array (by value).
    #[inline(always)]
    fn from_array(a: [Real; LANES]) -> Self {
        Self::load(&a)
    }
    /// The lanes as an array.
    fn to_array(self) -> [Real; LANES];
    /// `|x|` per lane (exact).
    fn abs(self) -> Self;
    /// `self / b` per lane (correctly rounded, like the scalar division).
    fn div(self, b: Self) -> Self;
    /// `self` where `self < b`, else `b` (the `minps` rule).
    fn min(self, b: Self) -> Self;
    /// `self` where `self > b`, else `b` (the `maxps` rule).
    fn max(self, b: Self) -> Self;
    /// Bit `k` set where `self[k] < b[k]` (false for NaN).
    fn lt(self, b: Self) -> LaneMask;
    /// Bit `k` set where `self[k] <= b[k]` (false for NaN).
    fn le(self, b: Self) -> LaneMask;
    /// Bit `k` set where `self[k] > b[k]` (false for NaN).
    fn gt(self, b: Self) -> LaneMask;
}

impl Lane for V {
    #[inline(always)]
    fn splat(x: Real) -> V {
        V(Lanes::splat(x))
    }
    #[inline(always)]
    fn load(a: &[Real; LANES]) -> V {
        V(Lanes::from(*a))
    }
    #[inline(always)]
    fn to_array(self) -> [Real; LANES] {
        self.0.to_array()
    }
    #[inline(always)]
    fn abs(self) -> V {
        V(self.0.abs())
    }
    #[inline(always)]
    fn div(self, b: V) -> V {
        V(self.0 / b.0)
    }
    /// `self` where `self < b`, else `b` (the `minps` rule; the kernels never read a minimum
    /// of NaN inputs, and signed zeros compare equal, so the choice never changes a verdict).
    #[inline(always)]
    fn min(self, b: V) -> V {
        V(self.0.fast_min(b.0))
    }
    #[inline(always)]
    fn max(self, b: V) -> V {
        V(self.0.fast_max(b.0))
    }
    #[inline(always)]
    fn lt(self, b: V) -> LaneMask {
        self.0.simd_lt(b.0).to_bitmask() as LaneMask
    }
    #[inline(always)]
    fn le(self, b: V) -> LaneMask {
        self.0.simd_le(b.0).to_bitmask() as LaneMask
    }
    #[inline(always)]
    fn gt(self, b: V) -> LaneMask {
        self.0.simd_gt(b.0).to_bitmask() as LaneMask
    }
}

impl core::ops::Add for V {
    type Output = V;
    #[inline(always)]
    fn add(self, b: V) -> V {
        V(self.0 + b.0)
    }
}

impl core::ops::Sub for V {
    type Output = V;
    #[inline(always)]
    fn sub(self, b: V) -> V {
        V(self.0 - b.0)
    }
}

impl core::ops::Mul for V {
    type Output = V;
    #[inline(always)]
    fn mul(self, b: V) -> V {
        V(self.0 * b.0)
    }
}
