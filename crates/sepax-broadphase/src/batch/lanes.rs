//! A lane vector of `Real`s on `wide` (SSE2 on a default x86-64 build; the `#[target_feature]`
//! wrappers of [`super::avx2`] let LLVM re-encode the same operations with AVX). Every operation
//! is one IEEE operation per lane, never fused or reordered, so every lane computes exactly
//! what the scalar code computes.

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

/// `LANES` values of `Real`, one per pair in the step, on `wide`'s safe SIMD types (each
/// operation is one IEEE operation per lane, never fused or reordered, so every lane computes
/// exactly what the scalar code computes).
#[derive(Clone, Copy, Debug)]
pub struct V(Lanes);

/// What the kernels need of a lane vector: one IEEE operation per lane, never fused, so that
/// every implementation computes exactly what the scalar code computes. Implemented by the
/// portable [`V`] and by the AVX2 vector of [`super::avx2`].
pub(crate) trait Lane:
    Copy + core::ops::Add<Output = Self> + core::ops::Sub<Output = Self> + core::ops::Mul<Output = Self>
{
    /// Every lane `x`.
    fn splat(x: Real) -> Self;
    /// The lanes of an array.
    fn from_array(a: [Real; LANES]) -> Self;
    /// `|x|` per lane (exact).
    fn abs(self) -> Self;
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
    /// Every lane `x`.
    #[inline(always)]
    fn splat(x: Real) -> V {
        V(Lanes::splat(x))
    }
    #[inline(always)]
    fn from_array(a: [Real; LANES]) -> V {
        V(Lanes::from(a))
    }
    /// `|x|` per lane (exact).
    #[inline(always)]
    fn abs(self) -> V {
        V(self.0.abs())
    }
    /// `self` where `self < b`, else `b` (the `minps` rule; inputs of the kernels are never
    /// NaN where a minimum is read, and signed zeros compare equal, so the choice never changes
    /// a verdict).
    #[inline(always)]
    fn min(self, b: V) -> V {
        V(self.0.fast_min(b.0))
    }
    /// `self` where `self > b`, else `b` (the `maxps` rule).
    #[inline(always)]
    fn max(self, b: V) -> V {
        V(self.0.fast_max(b.0))
    }
    /// Bit `k` set where `self[k] < b[k]` (false for NaN).
    #[inline(always)]
    fn lt(self, b: V) -> LaneMask {
        self.0.simd_lt(b.0).to_bitmask() as LaneMask
    }
    /// Bit `k` set where `self[k] <= b[k]` (false for NaN).
    #[inline(always)]
    fn le(self, b: V) -> LaneMask {
        self.0.simd_le(b.0).to_bitmask() as LaneMask
    }
    /// Bit `k` set where `self[k] > b[k]` (false for NaN).
    #[inline(always)]
    fn gt(self, b: V) -> LaneMask {
        self.0.simd_gt(b.0).to_bitmask() as LaneMask
    }
}

/// `arr3!(k => e)` is `[e, e, e]` with `k` = 0, 1, 2: written out, because closures (of
/// `core::array::from_fn` or our own) are not always inlined, and in the kernels that turned
/// every field load into a call.
macro_rules! arr3 {
    ($k:ident => $e:expr) => {
        [
            {
                let $k = 0usize;
                $e
            },
            {
                let $k = 1usize;
                $e
            },
            {
                let $k = 2usize;
                $e
            },
        ]
    };
}
pub(crate) use arr3;

/// The mask of the first `n` lanes (all lanes when `n >= LANES`).
#[inline(always)]
pub fn first_lanes(n: usize) -> LaneMask {
    if n >= LANES {
        ((1u64 << LANES) - 1) as LaneMask
    } else {
        ((1u64 << n) - 1) as LaneMask
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

/// Loads `LANES` values from `v` at `start`, padding past the end with `pad`.
#[inline(always)]
pub fn load<L: Lane>(v: &[Real], start: usize, pad: Real) -> L {
    match v.get(start..start + LANES) {
        Some(s) => {
            let mut r = [0.0 as Real; LANES];
            r.copy_from_slice(s);
            L::from_array(r)
        }
        None => {
            let mut r = [pad; LANES];
            let tail = &v[start.min(v.len())..];
            r[..tail.len()].copy_from_slice(tail);
            L::from_array(r)
        }
    }
}

/// Gathers `v[idx[k]]` into lane `k`.
#[inline(always)]
pub fn gather<L: Lane>(v: &[Real], idx: &[usize; LANES]) -> L {
    let mut r = [0.0 as Real; LANES];
    for k in 0..LANES {
        r[k] = v[idx[k]];
    }
    L::from_array(r)
}
