//! Accurate small kernels: a difference of products and a cross product whose every component
//! is correct to a couple of ulps *relative to itself*, even under heavy cancellation.
//!
//! Why: the naive cross product of two nearly parallel vectors has an error of order
//! `u |a| |b|` per component while its size is `|a| |b| sin(theta)`; every test that divides by
//! it or projects onto it (segment–segment closest points, near-degenerate triangle normals,
//! SAT axes from near-parallel edges) then loses `1 / sin(theta)` digits. With the accurate
//! version the relative error stays `O(u)` for the rounded inputs, which is what makes the
//! closest-point routines of this module backward stable.

use sepax_shapes::math::{Real, Vector3};

/// `a * b - c * d` with a relative error of at most `2u` (Kahan's algorithm with a fused
/// multiply-add; the bound is Jeannerod, Louvet and Muller, "Further analysis of Kahan's
/// algorithm for the accurate computation of 2x2 determinants", Math. Comp. 2013).
///
/// The fma recovers the exact rounding error of `c * d`, so the only roundings left are those
/// of the final two operations. Overflow and underflow are outside the bound (inputs of
/// magnitude between about `1e-9` and `1e9` in `f32` are safe).
#[inline]
pub fn diff_of_products(a: Real, b: Real, c: Real, d: Real) -> Real {
    let cd = c * d;
    // cd - c*d exactly: the rounding error of the product.
    let err = (-c).mul_add(d, cd);
    let dop = a.mul_add(b, -cd);
    dop + err
}

/// `a x b` with every component correct to `2u` relative to itself (three
/// [`diff_of_products`]). Exactly zero if and only if the (rounded) inputs are exactly parallel
/// or one of them is zero, barring underflow.
#[inline]
pub fn cross_accurate(a: &Vector3, b: &Vector3) -> Vector3 {
    Vector3::new(
        diff_of_products(a.y, b.z, a.z, b.y),
        diff_of_products(a.z, b.x, a.x, b.z),
        diff_of_products(a.x, b.y, a.y, b.x),
    )
}

/// Sum of absolute components (the 1-norm): a cheap upper bound on the Euclidean norm used to
/// size rounding allowances.
#[inline]
pub fn norm1(v: &Vector3) -> Real {
    v.x.abs() + v.y.abs() + v.z.abs()
}

/// A power of two `k` for a pair whose largest coordinate or size (relative to its base point)
/// is `m`: 1 when `m` is moderate (within `2^-40 .. 2^40`), zero or not finite; otherwise `k`
/// with `m * k` in `[1/32, 1/16)`, so that sums of a dozen such terms stay below 1. Multiplying
/// the pair by `k` is exact (barring subnormal components, negligible against the scale) and
/// keeps squared distances away from overflow and underflow.
#[inline]
pub(crate) fn unit_scale(m: Real) -> Real {
    pow2_scale(m, (1u64 << 40) as Real)
}

/// A power of two `k` with `m * k` in `[1/32, 1/16)` when the magnitude `m` lies outside the
/// window `1 / limit .. limit`; 1 inside it, for `m` zero, negative or not finite, and when
/// `k` itself would leave the normal range (possible in `f64` only for `m` near the ends of
/// the range). Every step scales by a power of two, so `x == m * k` exactly throughout and
/// `k` is the one power of two that lands `m` in `[1/32, 1/16)`, whatever the coarse step.
pub(crate) fn pow2_scale(m: Real, limit: Real) -> Real {
    if !(m > 0.0 && m.is_finite()) || (m < limit && m > 1.0 / limit) {
        return 1.0;
    }
    const STEP: Real = 65536.0;
    let (mut x, mut k): (Real, Real) = (m, 1.0);
    while x >= STEP {
        x /= STEP;
        k /= STEP;
    }
    while x < 1.0 / STEP {
        x *= STEP;
        k *= STEP;
    }
    while x >= 1.0 / 16.0 {
        x *= 0.5;
        k *= 0.5;
    }
    while x < 1.0 / 32.0 {
        x *= 2.0;
        k *= 2.0;
    }
    if k == 0.0 || !k.is_finite() {
        1.0
    } else {
        k
    }
}

/// `x / k` for a power of two `k` from [`pow2_scale`] (exact, barring overflow of the result,
/// which saturates at `±Real::MAX`). `1 / k` itself overflows for the smallest `k` (`f32`
/// pairs near `Real::MAX` get `k = 2^-132`, subnormal), so it is then applied in two steps.
#[inline]
pub(crate) fn unscale(x: Real, k: Real) -> Real {
    const STEP: Real = 4_294_967_296.0; // 2^32
    let inv = 1.0 / k;
    let y = if inv.is_finite() {
        x * inv
    } else {
        x * (1.0 / (k * STEP)) * STEP
    };
    y.clamp(-Real::MAX, Real::MAX)
}

/// The largest absolute component among `vectors` and `sizes` (never overflows).
#[inline]
pub(crate) fn max_abs(vectors: &[&Vector3], sizes: &[Real]) -> Real {
    let v = vectors.iter().fold(0.0 as Real, |m, v| m.max(v.amax()));
    sizes.iter().fold(v, |m, s| m.max(s.abs()))
}

/// Whether a squared distance `dist_sq` is within `reach` (a radius plus a rounding allowance).
/// `reach * reach` is rounded up by one relative `2u`, which the callers' allowances include.
#[inline]
pub(crate) fn within_reach(dist_sq: Real, reach: Real) -> bool {
    dist_sq <= reach * reach * (1.0 + 2.0 * sepax_shapes::tolerance::UNIT_ROUNDOFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_of_parallel_vectors_is_exactly_zero() {
        let a = Vector3::new(0.1, 0.2, 0.3);
        let b = a * 4.0;
        assert_eq!(cross_accurate(&a, &b), Vector3::zeros());
    }

    #[test]
    fn cross_near_parallel_keeps_relative_accuracy() {
        // b = 3a + tiny perpendicular part: the naive cross product cancels catastrophically.
        let a = Vector3::new(1.0, 1.0 / 3.0, 0.0);
        let tiny = Real::EPSILON * 4.0;
        let b = Vector3::new(3.0, 1.0 + tiny, 0.0);
        let c = cross_accurate(&a, &b);
        assert!(c.z != 0.0);
        // For f32 inputs the products are exact in f64, so f64 gives the reference.
        #[cfg(not(feature = "f64"))]
        {
            let exact = (a.x as f64) * (b.y as f64) - (a.y as f64) * (b.x as f64);
            assert!(((c.z as f64) - exact).abs() <= 4.0 * (Real::EPSILON as f64) * exact.abs());
        }
    }

    #[test]
    fn diff_of_products_exact_cases() {
        assert_eq!(diff_of_products(3.0, 4.0, 2.0, 6.0), 0.0);
        assert_eq!(diff_of_products(1.5, 2.0, 0.5, 2.0), 2.0);
    }
}
