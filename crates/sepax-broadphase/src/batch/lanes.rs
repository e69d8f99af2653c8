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

impl V {
    /// Every lane `x`.
    #[inline(always)]
    pub fn splat(x: Real) -> V {
        V(Lanes::splat(x))
    }
    /// `|x|` per lane (exact).
    #[inline(always)]
    pub fn abs(self) -> V {
        V(self.0.abs())
    }
    /// `self` where `self < b`, else `b` (the `minps` rule; inputs of the kernels are never
    /// NaN where a minimum is read, and signed zeros compare equal, so the choice never changes
    /// a verdict).
    #[inline(always)]
    pub fn min(self, b: V) -> V {
        V(self.0.fast_min(b.0))
    }
    /// `self` where `self > b`, else `b` (the `maxps` rule).
    #[inline(always)]
    pub fn max(self, b: V) -> V {
        V(self.0.fast_max(b.0))
    }
    /// Bit `k` set where `self[k] < b[k]` (false for NaN).
    #[inline(always)]
    pub fn lt(self, b: V) -> LaneMask {
        self.0.simd_lt(b.0).to_bitmask() as LaneMask
    }
    /// Bit `k` set where `self[k] <= b[k]` (false for NaN).
    #[inline(always)]
    pub fn le(self, b: V) -> LaneMask {
        self.0.simd_le(b.0).to_bitmask() as LaneMask
    }
    /// Bit `k` set where `self[k] > b[k]` (false for NaN).
    #[inline(always)]
    pub fn gt(self, b: V) -> LaneMask {
        self.0.simd_gt(b.0).to_bitmask() as LaneMask
    }
}

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
pub fn load(v: &[Real], start: usize, pad: Real) -> V {
    match v.get(start..start + LANES) {
        Some(s) => {
            let mut r = [0.0 as Real; LANES];
            r.copy_from_slice(s);
            V(Lanes::from(r))
        }
        None => {
            let mut r = [pad; LANES];
            let tail = &v[start.min(v.len())..];
            r[..tail.len()].copy_from_slice(tail);
            V(Lanes::from(r))
        }
    }
}

/// Gathers `v[idx[k]]` into lane `k`.
#[inline(always)]
pub fn gather(v: &[Real], idx: &[usize; LANES]) -> V {
    let mut r = [0.0 as Real; LANES];
    for k in 0..LANES {
        r[k] = v[idx[k]];
    }
    V(Lanes::from(r))
}
