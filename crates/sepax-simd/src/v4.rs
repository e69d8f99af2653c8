//! Four lanes of `Real` (wide's safe wrappers: SSE on x86-64, NEON on aarch64, scalar
//! elsewhere) for the box kernels that work on the three components of a vector, or on three
//! SAT axes, at once (lanes 0..2 hold the data; lane 3 is padding that callers mask out), or on
//! four pairs. Every operation is the IEEE operation per lane (no fused multiply-add, no
//! approximations), so lane `k` equals the scalar code it replaces.

use crate::{Lane, LaneMask, Real};

#[cfg(not(feature = "f64"))]
type Lanes = wide::f32x4;
#[cfg(feature = "f64")]
type Lanes = wide::f64x4;

/// Four lanes of `Real`. Besides the [`Lane`] operations, the shuffles and reductions of the
/// one-pair box kernels.
#[derive(Clone, Copy, Debug)]
pub struct V4(Lanes);

impl V4 {
    /// The lanes `[x, y, z, w]`.
    #[inline(always)]
    pub fn new(x: Real, y: Real, z: Real, w: Real) -> V4 {
        V4(Lanes::new([x, y, z, w]))
    }
    /// Every lane `x`.
    #[inline(always)]
    pub fn splat(x: Real) -> V4 {
        V4(Lanes::splat(x))
    }
    /// `|x|` per lane (exact).
    #[inline(always)]
    pub fn abs(self) -> V4 {
        V4(self.0.abs())
    }
    /// The correctly rounded square root per lane.
    #[inline(always)]
    pub fn sqrt(self) -> V4 {
        V4(self.0.sqrt())
    }
    /// Lane-wise minimum (which lane wins on NaN is unspecified: callers keep NaN out).
    #[inline(always)]
    pub fn min(self, o: V4) -> V4 {
        V4(self.0.fast_min(o.0))
    }
    /// The four lanes.
    #[inline(always)]
    pub fn lanes(self) -> [Real; 4] {
        self.0.to_array()
    }
    /// Lane-wise maximum (which lane wins on NaN is unspecified: callers keep NaN out).
    #[inline(always)]
    pub fn max(self, o: V4) -> V4 {
        V4(self.0.fast_max(o.0))
    }
    /// `self` in the lanes where `key < bound`, `other` in the others.
    #[inline(always)]
    pub fn where_lt(self, key: V4, bound: Real, other: V4) -> V4 {
        let m = key.0.simd_lt(Lanes::splat(bound));
        V4(m.bitselect(self.0, other.0))
    }
    /// `other` in the lanes where `key == k`, `self` in the others.
    #[inline(always)]
    pub fn unless_eq(self, key: V4, k: Real, other: V4) -> V4 {
        let m = key.0.simd_eq(Lanes::splat(k));
        V4(m.bitselect(other.0, self.0))
    }
    /// The least of lanes 0..2 (plain comparisons, which compile to `minss`; callers keep NaN
    /// out).
    #[inline(always)]
    pub fn hmin3(self) -> Real {
        let [x, y, z, _] = self.lanes();
        let m = if y < x { y } else { x };
        if z < m {
            z
        } else {
            m
        }
    }
    /// Lane `k` takes lane `(k + 1) % 3` (lane 3 kept).
    #[inline(always)]
    pub fn rot1(self) -> V4 {
        let [x, y, z, w] = self.lanes();
        V4::new(y, z, x, w)
    }
    /// Lane `k` takes lane `(k + 2) % 3` (lane 3 kept).
    #[inline(always)]
    pub fn rot2(self) -> V4 {
        let [x, y, z, w] = self.lanes();
        V4::new(z, x, y, w)
    }
    /// A lane mask (all ones or all zeros per lane, for [`V4::select`], [`V4::and`] and
    /// [`V4::bits`]): set where lane `k` of `self == o`.
    #[inline(always)]
    pub fn eq(self, o: V4) -> V4 {
        V4(self.0.simd_eq(o.0))
    }
    /// `a` in the lanes where the mask `self` is set, `b` in the others.
    #[inline(always)]
    pub fn select(self, a: V4, b: V4) -> V4 {
        V4(self.0.bitselect(a.0, b.0))
    }
    /// A lane mask: set where lane `k` of `self >= o`.
    #[inline(always)]
    pub fn ge(self, o: V4) -> V4 {
        V4(self.0.simd_ge(o.0))
    }
    /// A lane mask: set where lane `k` of `self > o`.
    #[inline(always)]
    pub fn gt(self, o: V4) -> V4 {
        V4(self.0.simd_gt(o.0))
    }
    /// A lane mask: set where lane `k` of `self < o`.
    #[inline(always)]
    pub fn lt(self, o: V4) -> V4 {
        V4(self.0.simd_lt(o.0))
    }
    /// A lane mask: set where lane `k` of `self <= o`.
    #[inline(always)]
    pub fn le(self, o: V4) -> V4 {
        V4(self.0.simd_le(o.0))
    }
    /// Bit `k` set where lane `k` of the mask `self` is set.
    #[inline(always)]
    pub fn bits(self) -> u32 {
        self.0.to_bitmask()
    }
    /// `+1` where lane `k` of `self >= 0` (`-0` included), `-1` elsewhere (NaN included).
    #[inline(always)]
    pub fn sign_ge0(self) -> V4 {
        let ge = self.0.simd_ge(Lanes::splat(0.0));
        V4((!ge & Lanes::splat(-0.0)) | Lanes::splat(1.0))
    }
    /// Bitwise and: with a lane mask, `self` where it is set and `+0` elsewhere.
    #[inline(always)]
    pub fn and(self, o: V4) -> V4 {
        V4(self.0 & o.0)
    }
    /// Bitwise and-not: `self` where the mask `m` is clear, `+0` where it is set.
    #[inline(always)]
    pub fn and_not(self, m: V4) -> V4 {
        V4(!m.0 & self.0)
    }
    /// Bitwise or (of values masked into disjoint lanes).
    #[inline(always)]
    pub fn or(self, o: V4) -> V4 {
        V4(self.0 | o.0)
    }
    /// Bit `k` set where lane `k` of `self < o`.
    #[inline(always)]
    pub fn lt_mask(self, o: V4) -> u32 {
        self.0.simd_lt(o.0).to_bitmask()
    }
    /// Bit `k` set where lane `k` of `self > o`.
    #[inline(always)]
    pub fn gt_mask(self, o: V4) -> u32 {
        self.0.simd_gt(o.0).to_bitmask()
    }
    /// Bit `k` set where lane `k` of `self <= o`.
    #[inline(always)]
    pub fn le_mask(self, o: V4) -> u32 {
        self.0.simd_le(o.0).to_bitmask()
    }
    /// Bit `k` set where lane `k` of `self >= o`.
    #[inline(always)]
    pub fn ge_mask(self, o: V4) -> u32 {
        self.0.simd_ge(o.0).to_bitmask()
    }
    /// Bit `k` set where lane `k` of `self == o`.
    #[inline(always)]
    pub fn eq_mask(self, o: V4) -> u32 {
        self.0.simd_eq(o.0).to_bitmask()
    }
    /// The greatest of the four lanes in every lane (two lane swaps and maxima, no trip through
    /// a scalar; which of `-0` and `+0` wins a tie is unspecified; callers keep NaN out).
    #[inline(always)]
    pub fn all_max(self) -> V4 {
        let [x, y, z, w] = self.lanes();
        let m = self.max(V4::new(z, w, x, y));
        let [x, y, z, w] = m.lanes();
        m.max(V4::new(y, x, w, z))
    }
    /// The least of the four lanes in every lane (as [`V4::all_max`]).
    #[inline(always)]
    pub fn all_min(self) -> V4 {
        let [x, y, z, w] = self.lanes();
        let m = self.min(V4::new(z, w, x, y));
        let [x, y, z, w] = m.lanes();
        m.min(V4::new(y, x, w, z))
    }
    /// Lane 0.
    #[inline(always)]
    pub fn first(self) -> Real {
        self.lanes()[0]
    }
}

impl V4 {
    /// Lanes 0, 1 and 2, each broadcast to all four lanes, by unpacks (register moves only,
    /// every bit kept: no round trip through memory).
    /// (`f64`: `wide`'s `f64x4` has no unpacks, the lanes are read out.)
    #[inline(always)]
    pub fn splat012(self) -> [V4; 3] {
        #[cfg(not(feature = "f64"))]
        {
            let v = self.0;
            let (lo, hi) = (v.unpack_lo(v), v.unpack_hi(v));
            [
                V4(lo.unpack_lo(lo)),
                V4(lo.unpack_hi(lo)),
                V4(hi.unpack_lo(hi)),
            ]
        }
        #[cfg(feature = "f64")]
        {
            let [x, y, z, _] = self.lanes();
            [V4::splat(x), V4::splat(y), V4::splat(z)]
        }
    }

    /// The 4x4 transpose: lane `k` of output `j` is lane `j` of input `k` (shuffles only, every
    /// bit kept).
    #[inline(always)]
    pub fn transpose(rows: [V4; 4]) -> [V4; 4] {
        let [a, b, c, d] = Lanes::transpose([rows[0].0, rows[1].0, rows[2].0, rows[3].0]);
        [V4(a), V4(b), V4(c), V4(d)]
    }
}

impl core::ops::Add for V4 {
    type Output = V4;
    #[inline(always)]
    fn add(self, o: V4) -> V4 {
        V4(self.0 + o.0)
    }
}

impl core::ops::Sub for V4 {
    type Output = V4;
    #[inline(always)]
    fn sub(self, o: V4) -> V4 {
        V4(self.0 - o.0)
    }
}

impl core::ops::Mul for V4 {
    type Output = V4;
    #[inline(always)]
    fn mul(self, o: V4) -> V4 {
        V4(self.0 * o.0)
    }
}

impl core::ops::Div for V4 {
    type Output = V4;
    #[inline(always)]
    fn div(self, o: V4) -> V4 {
        V4(self.0 / o.0)
    }
}

impl core::ops::Neg for V4 {
    type Output = V4;
    #[inline(always)]
    fn neg(self) -> V4 {
        V4(-self.0)
    }
}

impl Lane for V4 {
    type Array = [Real; 4];
    #[inline(always)]
    fn splat(x: Real) -> V4 {
        V4::splat(x)
    }
    #[inline(always)]
    fn load(a: &[Real; 4]) -> V4 {
        V4(Lanes::from(*a))
    }
    #[inline(always)]
    fn to_array(self) -> [Real; 4] {
        self.lanes()
    }
    #[inline(always)]
    fn abs(self) -> V4 {
        V4::abs(self)
    }
    #[inline(always)]
    fn sqrt(self) -> V4 {
        V4::sqrt(self)
    }
    #[inline(always)]
    fn min(self, o: V4) -> V4 {
        V4::min(self, o)
    }
    #[inline(always)]
    fn max(self, o: V4) -> V4 {
        V4::max(self, o)
    }
    #[inline(always)]
    fn eq(self, o: V4) -> V4 {
        V4::eq(self, o)
    }
    #[inline(always)]
    fn ge(self, o: V4) -> V4 {
        V4::ge(self, o)
    }
    #[inline(always)]
    fn gt(self, o: V4) -> V4 {
        V4::gt(self, o)
    }
    #[inline(always)]
    fn lt(self, o: V4) -> V4 {
        V4::lt(self, o)
    }
    #[inline(always)]
    fn le(self, o: V4) -> V4 {
        V4::le(self, o)
    }
    #[inline(always)]
    fn select(self, a: V4, b: V4) -> V4 {
        V4::select(self, a, b)
    }
    #[inline(always)]
    fn bits(self) -> LaneMask {
        V4::bits(self)
    }
    #[inline(always)]
    fn sign_ge0(self) -> V4 {
        V4::sign_ge0(self)
    }
    #[inline(always)]
    fn and(self, o: V4) -> V4 {
        V4::and(self, o)
    }
    #[inline(always)]
    fn and_not(self, m: V4) -> V4 {
        V4::and_not(self, m)
    }
    #[inline(always)]
    fn lt_mask(self, o: V4) -> LaneMask {
        V4::lt_mask(self, o)
    }
    #[inline(always)]
    fn le_mask(self, o: V4) -> LaneMask {
        V4::le_mask(self, o)
    }
    #[inline(always)]
    fn gt_mask(self, o: V4) -> LaneMask {
        V4::gt_mask(self, o)
    }
}
