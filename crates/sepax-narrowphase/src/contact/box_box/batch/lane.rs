//! The lane operations of the batch selection, on four lanes ([`V4`](sepax_simd::V4)) or (AVX2 build) eight:
//! the floor's one lane trait ([`Lane`]: each the same IEEE operation per lane, see `V4`'s
//! methods, whose meaning they keep), and the minimum and maximum of the scalar code.

pub(super) use sepax_simd::Lane;

/// `b` where `b < a`, else `a` ([`min_nn`](super::super::min_nn) per lane).
#[inline(always)]
pub(super) fn min_l<L: Lane>(a: L, b: L) -> L {
    b.lt(a).select(b, a)
}

/// `b` where `b > a`, else `a` ([`max_nn`](super::super::max_nn) per lane).
#[inline(always)]
pub(super) fn max_l<L: Lane>(a: L, b: L) -> L {
    b.gt(a).select(b, a)
}
