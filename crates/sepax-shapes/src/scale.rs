//! Exact power-of-two rescaling and outward rounding.
//!
//! Shapes may hold any finite numbers, including ones near `Real::MAX` or in the subnormal range.
//! Queries that square or multiply coordinates first divide every input by a power of two `s`
//! close to their largest magnitude. Dividing by a power of two only changes the exponent, so it
//! is exact (barring underflow of numbers far below the largest, whose loss is below the roundoff
//! of the largest): the query then runs on numbers in `[0, 2)` where nothing overflows, and its
//! result is multiplied back by `s`.

use crate::math::{Point3, Real, Vector3};

#[cfg(not(feature = "f64"))]
mod bits {
    pub(super) const MANTISSA: u32 = 23;
    pub(super) const EXP_MASK: u32 = 0xff;
    pub(super) const BIAS: i32 = 127;
}
#[cfg(feature = "f64")]
mod bits {
    pub(super) const MANTISSA: u32 = 52;
    pub(super) const EXP_MASK: u64 = 0x7ff;
    pub(super) const BIAS: i32 = 1023;
}

/// The unbiased binary exponent of a finite, non-negative `x` (`-BIAS` for zero and subnormals).
fn exponent(x: Real) -> i32 {
    ((x.to_bits() >> bits::MANTISSA) & bits::EXP_MASK) as i32 - bits::BIAS
}

/// A power of two `s` with `m / s < 2` and `s` a normal number; 1 when `m` is zero or not finite.
pub(crate) fn pow2_scale(m: Real) -> Real {
    if !(m.is_finite() && m > 0.0) {
        return 1.0;
    }
    let e = exponent(m).max(Real::MIN_EXP - 1);
    // `2^e` built from its bits (`e` is in the normal range `[MIN_EXP - 1, MAX_EXP - 1]`):
    // the value `powi` gives, without its call (it sits in every box ray cast).
    Real::from_bits(((e + bits::BIAS) as BitsOf) << bits::MANTISSA)
}

#[cfg(not(feature = "f64"))]
type BitsOf = u32;
#[cfg(feature = "f64")]
type BitsOf = u64;

/// The largest absolute coordinate of the points.
pub(crate) fn max_abs(points: &[Point3]) -> Real {
    points
        .iter()
        .flat_map(|p| p.coords.iter())
        .fold(0.0, |m: Real, v| m.max(v.abs()))
}

/// The power-of-two scale of a set of points (see [`pow2_scale`]).
pub(crate) fn scale_of(points: &[Point3]) -> Real {
    pow2_scale(max_abs(points))
}

/// `p / s` for a power of two `s` (exact).
#[inline]
pub(crate) fn down(p: &Point3, s: Real) -> Point3 {
    Point3::from(p.coords / s)
}

/// `|a - b|` without overflow or underflow (may be `inf` only when the true distance exceeds
/// `Real::MAX`).
pub(crate) fn distance(a: &Point3, b: &Point3) -> Real {
    let s = scale_of(&[*a, *b]);
    (down(a, s) - down(b, s)).norm() * s
}

/// The unit vector from `a` toward `b`, `None` when they coincide.
pub(crate) fn unit_from_to(a: &Point3, b: &Point3) -> Option<Vector3> {
    let s = scale_of(&[*a, *b]);
    let v = down(b, s) - down(a, s);
    let n = v.norm();
    (n > 0.0).then(|| v / n)
}

/// Checks that `center ± radius` stays finite on every axis (a shape must fit in the finite range
/// so that its bounds and closest points are finite).
pub(crate) fn check_reach(
    shape: &'static str,
    field: &'static str,
    center: &Point3,
    radius: Real,
) -> Result<(), crate::ShapeError> {
    if center.coords.iter().all(|c| (c.abs() + radius).is_finite()) {
        Ok(())
    } else {
        Err(crate::ShapeError::Degenerate {
            shape,
            field,
            reason: "center ± radius overflows the finite range",
        })
    }
}

/// The Euclidean norm without overflow or underflow of the squares.
pub(crate) fn safe_norm(v: &Vector3) -> Real {
    let s = pow2_scale(v.amax());
    (v / s).norm() * s
}

/// The next representable number above `x` (finite `x`); stays finite at `Real::MAX`.
pub(crate) fn next_up(x: Real) -> Real {
    if x == Real::MAX || x.is_nan() || x == Real::INFINITY {
        return x;
    }
    if x == 0.0 {
        return Real::from_bits(1);
    }
    let b = x.to_bits();
    Real::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

/// The next representable number below `x` (finite `x`); stays finite at `-Real::MAX`.
pub(crate) fn next_down(x: Real) -> Real {
    -next_up(-x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_is_a_power_of_two_bracketing_m() {
        for m in [
            1.0,
            3.0,
            0.1,
            Real::MAX,
            Real::MIN_POSITIVE,
            Real::from_bits(1),
            1e20,
        ] {
            let s = pow2_scale(m);
            assert!(s.is_normal() && m / s < 2.0, "m = {m}, s = {s}");
            assert_eq!(s.to_bits() & ((1 << bits::MANTISSA) - 1), 0);
        }
        assert_eq!(pow2_scale(0.0), 1.0);
    }

    /// The bit-built power of two is `powi`'s, at every exponent reachable (subnormal `m`
    /// included), and at the two ends of each binade.
    #[test]
    fn scale_equals_powi() {
        let mut m = Real::from_bits(1);
        while m.is_finite() {
            // `m * 1.5` overflows in the top binade; a non-finite input has its own rule.
            for x in [m, m * 1.5, m * 2.0 - m * Real::EPSILON]
                .into_iter()
                .filter(|x| x.is_finite())
            {
                let e = exponent(x).max(Real::MIN_EXP - 1);
                assert_eq!(
                    pow2_scale(x).to_bits(),
                    (2.0 as Real).powi(e).to_bits(),
                    "{x}"
                );
            }
            m *= 2.0;
        }
        assert_eq!(pow2_scale(Real::INFINITY), 1.0);
        assert_eq!(pow2_scale(Real::NAN), 1.0);
    }

    #[test]
    fn next_up_down() {
        assert!(next_up(1.0) > 1.0 && next_down(1.0) < 1.0);
        assert!(next_up(-1.0) > -1.0 && next_down(0.0) < 0.0);
        assert_eq!(next_up(Real::MAX), Real::MAX);
        assert_eq!(next_down(-Real::MAX), -Real::MAX);
        assert_eq!(
            safe_norm(&Vector3::new(Real::MAX, Real::MAX, 0.0)),
            Real::INFINITY
        );
        assert!(safe_norm(&Vector3::new(1e-30, 0.0, 0.0)) > 0.0);
    }
}
