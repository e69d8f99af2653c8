//! A lane vector of `Real`s as a plain array, so that one kernel source compiles to SSE2 in the
//! portable build and to AVX2 inside the `#[target_feature]` wrappers of [`super::avx2`]
//! (LLVM vectorises the fixed-length loops; it never reorders or fuses IEEE operations, so
//! every lane computes exactly what the scalar code computes).

use sepax_shapes::math::Real;

/// Lanes per kernel step: one 256-bit register of `Real` (8 × f32 or 4 × f64).
#[cfg(not(feature = "f64"))]
pub const LANES: usize = 8;
/// Lanes per kernel step: one 256-bit register of `Real` (8 × f32 or 4 × f64).
#[cfg(feature = "f64")]
pub const LANES: usize = 4;

/// A bit per lane (bit `k` = lane `k`).
pub type LaneMask = u32;

/// `LANES` values of `Real`, one per pair in the step.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub struct V(pub [Real; LANES]);

macro_rules! lanewise {
    ($a:expr, |$k:ident| $e:expr) => {{
        let _ = &$a;
        let mut r = [0.0 as Real; LANES];
        for $k in 0..LANES {
            r[$k] = $e;
        }
        V(r)
    }};
}

impl V {
    /// Every lane `x`.
    #[inline(always)]
    pub fn splat(x: Real) -> V {
        V([x; LANES])
    }
    /// `|x|` per lane (exact).
    #[inline(always)]
    pub fn abs(self) -> V {
        lanewise!(self, |k| self.0[k].abs())
    }
    /// The smaller per lane (`b` when equal; inputs of the kernels are never NaN where a
    /// minimum is read, and signed zeros compare equal, so the choice never changes a verdict).
    #[inline(always)]
    pub fn min(self, b: V) -> V {
        lanewise!(self, |k| if self.0[k] < b.0[k] {
            self.0[k]
        } else {
            b.0[k]
        })
    }
    /// The larger per lane, as `f32::max` / `f64::max` on non-NaN inputs.
    #[inline(always)]
    pub fn max(self, b: V) -> V {
        lanewise!(self, |k| if self.0[k] > b.0[k] {
            self.0[k]
        } else {
            b.0[k]
        })
    }
    /// Bit `k` set where `self[k] < b[k]` (false for NaN).
    #[inline(always)]
    pub fn lt(self, b: V) -> LaneMask {
        mask(|k| self.0[k] < b.0[k])
    }
    /// Bit `k` set where `self[k] <= b[k]` (false for NaN).
    #[inline(always)]
    pub fn le(self, b: V) -> LaneMask {
        mask(|k| self.0[k] <= b.0[k])
    }
    /// Bit `k` set where `self[k] > b[k]` (false for NaN).
    #[inline(always)]
    pub fn gt(self, b: V) -> LaneMask {
        mask(|k| self.0[k] > b.0[k])
    }
}

/// Packs a per-lane predicate into a [`LaneMask`].
#[inline(always)]
pub fn mask(f: impl Fn(usize) -> bool) -> LaneMask {
    let mut m = 0;
    for k in 0..LANES {
        m |= (f(k) as LaneMask) << k;
    }
    m
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
        lanewise!(self, |k| self.0[k] + b.0[k])
    }
}

impl core::ops::Sub for V {
    type Output = V;
    #[inline(always)]
    fn sub(self, b: V) -> V {
        lanewise!(self, |k| self.0[k] - b.0[k])
    }
}

impl core::ops::Mul for V {
    type Output = V;
    #[inline(always)]
    fn mul(self, b: V) -> V {
        lanewise!(self, |k| self.0[k] * b.0[k])
    }
}

/// Loads `LANES` values from `v` at `start`, padding past the end with `pad`.
#[inline(always)]
pub fn load(v: &[Real], start: usize, pad: Real) -> V {
    match v.get(start..start + LANES) {
        Some(s) => {
            let mut r = [0.0 as Real; LANES];
            r.copy_from_slice(s);
            V(r)
        }
        None => {
            let mut r = [pad; LANES];
            let tail = &v[start.min(v.len())..];
            r[..tail.len()].copy_from_slice(tail);
            V(r)
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
    V(r)
}
