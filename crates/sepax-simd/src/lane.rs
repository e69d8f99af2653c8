//! The one lane trait, [`Lane`], and the portable lane vector [`V`]: [`LANES`] (8) values of
//! `Real` (8 × f32 is one 256-bit register, 8 × f64 two) on `wide` (SSE2 on a default x86-64
//! build, NEON on aarch64, scalar elsewhere). The other implementations are `Real` itself (one
//! lane: the one-pair SAT), [`crate::V4`] (four lanes: three axes or components and a padding
//! lane, or four pairs) and, on x86-64, the AVX register that [`crate::Avx::run`] hands to a
//! [`crate::LaneKernel`]. Every operation is one IEEE operation per lane, never fused or
//! reordered, so every implementation, and every lane, computes exactly what the scalar code
//! computes.

use crate::Real;

/// Lanes per kernel step: 8 in both precisions (one 256-bit register of f32, two of f64).
///
/// Why 8 in f64 too: the wide tree's nodes have `LANES` children, and 8-wide f64 nodes visit
/// the nodes of the f32 tree (about 14 instead of 20 per ray with 4-wide ones), which took the
/// f64 world's batch rays from 4.9 to 5.6 M/s on the Python benchmark's scene; the OBB batch
/// kernels with AVX2 run 12-20% fewer instructions per pair, the portable (SSE2) ones 5-13%
/// more (`docs/benchmarks.md`, batch box kernels).
pub const LANES: usize = 8;

/// A bit per lane (bit `k` = lane `k`).
pub type LaneMask = u32;

/// What the kernels need of a lane vector: IEEE arithmetic per lane (never fused), the exact
/// `|x|`, comparisons, lane masks and selection. Lane masks (all ones or all zeros per lane)
/// come from the comparisons, and from `and` of two masks; `select` and `bits` are only given
/// such masks.
pub trait Lane:
    Copy
    + core::ops::Add<Output = Self>
    + core::ops::Sub<Output = Self>
    + core::ops::Mul<Output = Self>
    + core::ops::Div<Output = Self>
    + core::ops::Neg<Output = Self>
{
    /// The lanes as an array: `[Real; n]` for `n` lanes.
    type Array: Copy;
    /// Every lane `x`.
    fn splat(x: Real) -> Self;
    /// The lanes of an array.
    fn load(a: &Self::Array) -> Self;
    /// The lanes of an array (by value).
    #[inline(always)]
    fn from_array(a: Self::Array) -> Self {
        Self::load(&a)
    }
    /// The lanes as an array.
    fn to_array(self) -> Self::Array;
    /// `|x|` per lane (exact: the sign bit cleared).
    fn abs(self) -> Self;
    /// The correctly rounded square root per lane.
    fn sqrt(self) -> Self;
    /// `self` where `self < b`, else `b` (the `minps` rule).
    fn min(self, b: Self) -> Self;
    /// `self` where `self > b`, else `b` (the `maxps` rule).
    fn max(self, b: Self) -> Self;
    /// Mask: `self == o` (ordered: false for NaN).
    fn eq(self, o: Self) -> Self;
    /// Mask: `self >= o` (ordered).
    fn ge(self, o: Self) -> Self;
    /// Mask: `self > o` (ordered).
    fn gt(self, o: Self) -> Self;
    /// Mask: `self < o` (ordered).
    fn lt(self, o: Self) -> Self;
    /// Mask: `self <= o` (ordered).
    fn le(self, o: Self) -> Self;
    /// `a` where the mask `self` is set, `b` elsewhere.
    fn select(self, a: Self, b: Self) -> Self;
    /// Bit `k` set where lane `k` of the mask `self` is set.
    fn bits(self) -> LaneMask;
    /// `+1` where `self >= 0` (`-0` included), `-1` elsewhere (NaN included).
    fn sign_ge0(self) -> Self;
    /// Bitwise and (of a value and a mask: the value where the mask is set, `+0` elsewhere).
    fn and(self, o: Self) -> Self;
    /// `self` where the mask `m` is clear, `+0` where it is set.
    fn and_not(self, m: Self) -> Self;
    /// Bit `k` set where `self[k] < b[k]` (false for NaN).
    #[inline(always)]
    fn lt_mask(self, b: Self) -> LaneMask {
        self.lt(b).bits()
    }
    /// Bit `k` set where `self[k] <= b[k]` (false for NaN).
    #[inline(always)]
    fn le_mask(self, b: Self) -> LaneMask {
        self.le(b).bits()
    }
    /// Bit `k` set where `self[k] > b[k]` (false for NaN).
    #[inline(always)]
    fn gt_mask(self, b: Self) -> LaneMask {
        self.gt(b).bits()
    }
}

/// A [`Lane`] that holds [`LANES`] values (one 256-bit register's worth), loaded from and
/// stored to `[Real; LANES]`: a name for that bound, not a second trait (every such `Lane` is
/// one, nothing to implement).
pub trait Lane256: Lane<Array = [Real; LANES]> {}

impl<L: Lane<Array = [Real; LANES]>> Lane256 for L {}

/// All ones: the set lane of a mask.
const ONES: Real = Real::from_bits(!0);

/// One lane: the scalar code (the one-pair SAT) is the same source as the lane kernels.
impl Lane for Real {
    type Array = [Real; 1];
    #[inline(always)]
    fn splat(x: Real) -> Real {
        x
    }
    #[inline(always)]
    fn load(a: &[Real; 1]) -> Real {
        a[0]
    }
    #[inline(always)]
    fn to_array(self) -> [Real; 1] {
        [self]
    }
    #[inline(always)]
    fn abs(self) -> Real {
        Real::abs(self)
    }
    #[inline(always)]
    fn sqrt(self) -> Real {
        Real::sqrt(self)
    }
    #[inline(always)]
    fn min(self, b: Real) -> Real {
        if self < b {
            self
        } else {
            b
        }
    }
    #[inline(always)]
    fn max(self, b: Real) -> Real {
        if self > b {
            self
        } else {
            b
        }
    }
    #[inline(always)]
    fn eq(self, o: Real) -> Real {
        mask(self == o)
    }
    #[inline(always)]
    fn ge(self, o: Real) -> Real {
        mask(self >= o)
    }
    #[inline(always)]
    fn gt(self, o: Real) -> Real {
        mask(self > o)
    }
    #[inline(always)]
    fn lt(self, o: Real) -> Real {
        mask(self < o)
    }
    #[inline(always)]
    fn le(self, o: Real) -> Real {
        mask(self <= o)
    }
    #[inline(always)]
    fn select(self, a: Real, b: Real) -> Real {
        if self.to_bits() != 0 {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn bits(self) -> LaneMask {
        LaneMask::from(self.to_bits() != 0)
    }
    #[inline(always)]
    fn sign_ge0(self) -> Real {
        if self >= 0.0 {
            1.0
        } else {
            -1.0
        }
    }
    #[inline(always)]
    fn and(self, o: Real) -> Real {
        Real::from_bits(self.to_bits() & o.to_bits())
    }
    #[inline(always)]
    fn and_not(self, m: Real) -> Real {
        Real::from_bits(self.to_bits() & !m.to_bits())
    }
}

/// The one-lane mask of `b`.
#[inline(always)]
fn mask(b: bool) -> Real {
    if b {
        ONES
    } else {
        0.0
    }
}

#[cfg(not(feature = "f64"))]
type Lanes = wide::f32x8;
#[cfg(feature = "f64")]
type Lanes = wide::f64x8;

/// `LANES` values of `Real` on `wide`'s safe SIMD types: the portable [`Lane256`].
#[derive(Clone, Copy, Debug)]
pub struct V(Lanes);

impl Lane for V {
    type Array = [Real; LANES];
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
    fn sqrt(self) -> V {
        V(self.0.sqrt())
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
    fn eq(self, o: V) -> V {
        V(self.0.simd_eq(o.0))
    }
    #[inline(always)]
    fn ge(self, o: V) -> V {
        V(self.0.simd_ge(o.0))
    }
    #[inline(always)]
    fn gt(self, o: V) -> V {
        V(self.0.simd_gt(o.0))
    }
    #[inline(always)]
    fn lt(self, o: V) -> V {
        V(self.0.simd_lt(o.0))
    }
    #[inline(always)]
    fn le(self, o: V) -> V {
        V(self.0.simd_le(o.0))
    }
    #[inline(always)]
    fn select(self, a: V, b: V) -> V {
        V(self.0.bitselect(a.0, b.0))
    }
    #[inline(always)]
    fn bits(self) -> LaneMask {
        self.0.to_bitmask() as LaneMask
    }
    #[inline(always)]
    fn sign_ge0(self) -> V {
        let ge = self.0.simd_ge(Lanes::splat(0.0));
        V((!ge & Lanes::splat(-0.0)) | Lanes::splat(1.0))
    }
    #[inline(always)]
    fn and(self, o: V) -> V {
        V(self.0 & o.0)
    }
    #[inline(always)]
    fn and_not(self, m: V) -> V {
        V(!m.0 & self.0)
    }
    #[inline(always)]
    fn lt_mask(self, b: V) -> LaneMask {
        self.0.simd_lt(b.0).to_bitmask() as LaneMask
    }
    #[inline(always)]
    fn le_mask(self, b: V) -> LaneMask {
        self.0.simd_le(b.0).to_bitmask() as LaneMask
    }
    #[inline(always)]
    fn gt_mask(self, b: V) -> LaneMask {
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

impl core::ops::Div for V {
    type Output = V;
    #[inline(always)]
    fn div(self, b: V) -> V {
        V(self.0 / b.0)
    }
}

impl core::ops::Neg for V {
    type Output = V;
    #[inline(always)]
    fn neg(self) -> V {
        V(-self.0)
    }
}

/// Two 4-lane vectors as one of [`LANES`] (8) lanes: the f64 AVX vector (two registers).
/// Every operation is the half's operation on each half (the `*_mask` forms are the trait's
/// defaults: the comparison's halves, then `bits`).
#[cfg(feature = "f64")]
#[derive(Clone, Copy)]
pub(crate) struct Pair<L>(L, L);

#[cfg(feature = "f64")]
macro_rules! halves {
    ($a:expr, $f:ident $(, $b:expr)*) => {
        Pair($a.0.$f($($b.0),*), $a.1.$f($($b.1),*))
    };
}

#[cfg(feature = "f64")]
impl<L: Lane<Array = [Real; 4]>> Lane for Pair<L> {
    type Array = [Real; LANES];
    #[inline(always)]
    fn splat(x: Real) -> Self {
        Pair(L::splat(x), L::splat(x))
    }
    #[inline(always)]
    fn load(a: &[Real; LANES]) -> Self {
        let (lo, hi) = a.split_at(4);
        Pair(
            L::load(lo.try_into().expect("4 lanes")),
            L::load(hi.try_into().expect("4 lanes")),
        )
    }
    #[inline(always)]
    fn to_array(self) -> [Real; LANES] {
        let (lo, hi) = (self.0.to_array(), self.1.to_array());
        [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]]
    }
    #[inline(always)]
    fn abs(self) -> Self {
        halves!(self, abs)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        halves!(self, sqrt)
    }
    #[inline(always)]
    fn min(self, b: Self) -> Self {
        halves!(self, min, b)
    }
    #[inline(always)]
    fn max(self, b: Self) -> Self {
        halves!(self, max, b)
    }
    #[inline(always)]
    fn eq(self, o: Self) -> Self {
        halves!(self, eq, o)
    }
    #[inline(always)]
    fn ge(self, o: Self) -> Self {
        halves!(self, ge, o)
    }
    #[inline(always)]
    fn gt(self, o: Self) -> Self {
        halves!(self, gt, o)
    }
    #[inline(always)]
    fn lt(self, o: Self) -> Self {
        halves!(self, lt, o)
    }
    #[inline(always)]
    fn le(self, o: Self) -> Self {
        halves!(self, le, o)
    }
    #[inline(always)]
    fn select(self, a: Self, b: Self) -> Self {
        halves!(self, select, a, b)
    }
    #[inline(always)]
    fn bits(self) -> LaneMask {
        self.0.bits() | (self.1.bits() << 4)
    }
    #[inline(always)]
    fn sign_ge0(self) -> Self {
        halves!(self, sign_ge0)
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        halves!(self, and, o)
    }
    #[inline(always)]
    fn and_not(self, m: Self) -> Self {
        halves!(self, and_not, m)
    }
}

#[cfg(feature = "f64")]
macro_rules! pair_op {
    ($tr:ident, $f:ident) => {
        impl<L: Lane> core::ops::$tr for Pair<L> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, b: Self) -> Self {
                Pair(self.0.$f(b.0), self.1.$f(b.1))
            }
        }
    };
}
#[cfg(feature = "f64")]
pair_op!(Add, add);
#[cfg(feature = "f64")]
pair_op!(Sub, sub);
#[cfg(feature = "f64")]
pair_op!(Mul, mul);
#[cfg(feature = "f64")]
pair_op!(Div, div);

#[cfg(feature = "f64")]
impl<L: Lane> core::ops::Neg for Pair<L> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Pair(-self.0, -self.1)
    }
}
