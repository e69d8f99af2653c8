//! The lane operations of the batch selection, on four lanes or (AVX2 build) eight.

use super::*;

/// The lane operations of the selection beyond those of the axis formulas ([`axes::SatLane`]), on four lanes ([`V4`]) or, in the AVX2 build, eight:
/// each the same IEEE operation per lane (see [`V4`]'s methods, whose meaning they keep).
/// Lane masks (all ones or all zeros per lane) come from the comparisons, and from `and` of
/// two masks; `select` is only given such masks.
pub(super) trait Lane:
    axes::SatLane + core::ops::Div<Output = Self> + core::ops::Neg<Output = Self>
{
    /// The correctly rounded square root per lane.
    fn sqrt(self) -> Self;
    /// `minps` per lane: `self` where `self < o`, else `o`.
    fn min(self, o: Self) -> Self;
    /// `maxps` per lane: `self` where `self > o`, else `o`.
    fn max(self, o: Self) -> Self;
    /// Mask: `self == o` (ordered).
    fn eq(self, o: Self) -> Self;
    /// Mask: `self >= o` (ordered).
    fn ge(self, o: Self) -> Self;
    /// Mask: `self > o` (ordered).
    fn gt(self, o: Self) -> Self;
    /// Mask: `self < o` (ordered).
    fn lt(self, o: Self) -> Self;
    /// `a` where the mask `self` is set, `b` elsewhere.
    fn select(self, a: Self, b: Self) -> Self;
    /// Bit `k` set where lane `k` of the mask `self` is set.
    fn bits(self) -> u32;
    /// `+1` where `self >= 0` (`-0` included), `-1` elsewhere.
    fn sign_ge0(self) -> Self;
    /// Bitwise and.
    fn and(self, o: Self) -> Self;
    /// `self` where the mask `m` is clear, `+0` where it is set.
    fn and_not(self, m: Self) -> Self;
}

impl Lane for V4 {
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
    fn select(self, a: V4, b: V4) -> V4 {
        V4::select(self, a, b)
    }
    #[inline(always)]
    fn bits(self) -> u32 {
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
}

/// `b` where `b < a`, else `a` ([`min_nn`] per lane).
#[inline(always)]
pub(super) fn min_l<L: Lane>(a: L, b: L) -> L {
    b.lt(a).select(b, a)
}

/// `b` where `b > a`, else `a` ([`max_nn`] per lane).
#[inline(always)]
pub(super) fn max_l<L: Lane>(a: L, b: L) -> L {
    b.gt(a).select(b, a)
}
