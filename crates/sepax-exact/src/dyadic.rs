//! Dyadic rationals `m · 2^e` with a big-integer mantissa: the exact number type of this crate.
//!
//! Every finite `f64` is a dyadic rational, and sums, differences and products of dyadics are
//! dyadic again, so every polynomial predicate on float inputs can be evaluated exactly without
//! a single division or gcd. Values are not normalised (the mantissa may be even); equality and
//! ordering are by value.

use std::cmp::Ordering;
use std::ops::{Add, Mul, Neg, Sub};

use num_bigint::{BigInt, BigUint, Sign};
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// An exact dyadic rational `mantissa · 2^exponent`.
#[derive(Clone, Debug, Default)]
pub struct Dyadic {
    m: BigInt,
    e: i64,
}

impl Dyadic {
    /// The value zero.
    #[must_use]
    pub fn zero() -> Self {
        Self {
            m: BigInt::zero(),
            e: 0,
        }
    }

    /// The value one.
    #[must_use]
    pub fn one() -> Self {
        Self {
            m: BigInt::one(),
            e: 0,
        }
    }

    /// `mantissa · 2^exponent`.
    #[must_use]
    pub fn from_parts(mantissa: BigInt, exponent: i64) -> Self {
        Self {
            m: mantissa,
            e: exponent,
        }
    }

    /// Exact value of a finite `f64`; `None` for NaN and infinities.
    #[must_use]
    pub fn try_from_f64(x: f64) -> Option<Self> {
        if !x.is_finite() {
            return None;
        }
        if x == 0.0 {
            return Some(Self::zero());
        }
        let bits = x.to_bits();
        let neg = bits >> 63 == 1;
        let biased = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (mut m, mut e) = if biased == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), biased - 1075)
        };
        let tz = m.trailing_zeros();
        m >>= tz;
        e += i64::from(tz);
        let m = BigInt::from(m);
        Some(Self {
            m: if neg { -m } else { m },
            e,
        })
    }

    /// Exact value of a finite `f64`.
    ///
    /// # Panics
    /// On NaN or infinity: the exact reference has no meaning for them.
    #[must_use]
    pub fn from_f64(x: f64) -> Self {
        Self::try_from_f64(x).unwrap_or_else(|| panic!("sepax-exact: non-finite input {x}"))
    }

    /// True when the value is zero.
    #[must_use]
    pub fn is_zero(&self) -> bool {
        self.m.is_zero()
    }

    /// Sign of the value: `Less`, `Equal` or `Greater` than zero.
    #[must_use]
    pub fn sign(&self) -> Ordering {
        match self.m.sign() {
            Sign::Minus => Ordering::Less,
            Sign::NoSign => Ordering::Equal,
            Sign::Plus => Ordering::Greater,
        }
    }

    /// True when the value is strictly negative.
    #[must_use]
    pub fn is_negative(&self) -> bool {
        self.m.sign() == Sign::Minus
    }

    /// Absolute value.
    #[must_use]
    pub fn abs(&self) -> Self {
        Self {
            m: self.m.abs(),
            e: self.e,
        }
    }

    /// `self · 2^k`, exact.
    #[must_use]
    pub fn mul_pow2(&self, k: i64) -> Self {
        Self {
            m: self.m.clone(),
            e: self.e + k,
        }
    }

    /// The square `self · self`.
    #[must_use]
    pub fn square(&self) -> Self {
        Self {
            m: &self.m * &self.m,
            e: 2 * self.e,
        }
    }

    /// Exact conversion to a (normalised) big rational.
    #[must_use]
    pub fn to_rational(&self) -> BigRational {
        if self.e >= 0 {
            BigRational::from_integer(&self.m << exp_usize(self.e))
        } else {
            BigRational::new(self.m.clone(), BigInt::one() << exp_usize(-self.e))
        }
    }

    /// Nearest-ish `f64` (relative error below 1.2e-16 in the normal range; overflow gives an
    /// infinity, values below the normal range lose relative precision gradually down to 0).
    #[must_use]
    pub fn to_f64(&self) -> f64 {
        if self.m.is_zero() {
            return 0.0;
        }
        let mag = self.m.magnitude();
        let bits = mag.bits();
        let (top, shift) = if bits > 64 {
            ((mag >> (bits - 64)).to_u64().unwrap_or(u64::MAX), bits - 64)
        } else {
            (mag.to_u64().unwrap_or(u64::MAX), 0)
        };
        // `bits` is far below i64::MAX: a BigUint cannot hold 2^63 bits.
        let v = ldexp(top as f64, self.e.saturating_add(shift as i64));
        if self.m.sign() == Sign::Minus {
            -v
        } else {
            v
        }
    }

    /// Nearest-ish `f64` to `num / den` (relative error below 1.3e-16 in the normal range).
    ///
    /// # Panics
    /// If `den` is zero.
    #[must_use]
    pub fn ratio_to_f64(num: &Self, den: &Self) -> f64 {
        let (q, e) = Self::ratio_parts(num, den);
        ldexp(q.to_f64(), e)
    }

    /// `num / den ≈ q · 2^e` with `q` an integer-valued dyadic of at least 66 significant bits
    /// (truncated quotient: relative error below 2^-65).
    pub(crate) fn ratio_parts(num: &Self, den: &Self) -> (Self, i64) {
        assert!(!den.is_zero(), "sepax-exact: division by zero");
        if num.is_zero() {
            return (Self::zero(), 0);
        }
        let a = num.m.magnitude();
        let b = den.m.magnitude();
        let k = (66 + b.bits()).saturating_sub(a.bits());
        let q: BigUint = (a << k) / b;
        let neg = (num.m.sign() == Sign::Minus) != (den.m.sign() == Sign::Minus);
        let q = BigInt::from_biguint(if neg { Sign::Minus } else { Sign::Plus }, q);
        (Self { m: q, e: 0 }, num.e - den.e - k as i64)
    }

    fn aligned_add(a: &Self, b: &Self, negate_b: bool) -> Self {
        if b.m.is_zero() {
            return a.clone();
        }
        if a.m.is_zero() {
            return if negate_b { -b } else { b.clone() };
        }
        let (am, bm, e) = match a.e.cmp(&b.e) {
            Ordering::Equal => return Self::combine(&a.m, &b.m, a.e, negate_b),
            Ordering::Greater => (&a.m << exp_usize(a.e - b.e), b.m.clone(), b.e),
            Ordering::Less => (a.m.clone(), &b.m << exp_usize(b.e - a.e), a.e),
        };
        Self::combine(&am, &bm, e, negate_b)
    }

    fn combine(a: &BigInt, b: &BigInt, e: i64, negate_b: bool) -> Self {
        let m = if negate_b { a - b } else { a + b };
        Self { m, e }
    }
}

fn exp_usize(k: i64) -> usize {
    usize::try_from(k).expect("sepax-exact: exponent gap out of range")
}

/// `x · 2^e` with overflow to infinity and gradual underflow; exact whenever the result is normal.
pub(crate) fn ldexp(mut x: f64, mut e: i64) -> f64 {
    let pow2 = |k: i64| f64::from_bits(((k + 1023) as u64) << 52);
    e = e.clamp(-4000, 4000);
    while e > 1000 {
        x *= pow2(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= pow2(-1000);
        e += 1000;
    }
    x * pow2(e)
}

impl PartialEq for Dyadic {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Dyadic {}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Self) -> Ordering {
        let (sa, sb) = (self.sign(), other.sign());
        if sa != sb {
            return sa.cmp(&sb);
        }
        if sa == Ordering::Equal {
            return Ordering::Equal;
        }
        Self::aligned_add(self, other, true).sign()
    }
}

impl Neg for &Dyadic {
    type Output = Dyadic;
    fn neg(self) -> Dyadic {
        Dyadic {
            m: -&self.m,
            e: self.e,
        }
    }
}

impl Neg for Dyadic {
    type Output = Dyadic;
    fn neg(self) -> Dyadic {
        Dyadic {
            m: -self.m,
            e: self.e,
        }
    }
}

impl Add<&Dyadic> for &Dyadic {
    type Output = Dyadic;
    fn add(self, rhs: &Dyadic) -> Dyadic {
        Dyadic::aligned_add(self, rhs, false)
    }
}

impl Sub<&Dyadic> for &Dyadic {
    type Output = Dyadic;
    fn sub(self, rhs: &Dyadic) -> Dyadic {
        Dyadic::aligned_add(self, rhs, true)
    }
}

impl Mul<&Dyadic> for &Dyadic {
    type Output = Dyadic;
    fn mul(self, rhs: &Dyadic) -> Dyadic {
        if self.m.is_zero() || rhs.m.is_zero() {
            return Dyadic::zero();
        }
        Dyadic {
            m: &self.m * &rhs.m,
            e: self.e + rhs.e,
        }
    }
}

macro_rules! owned_ops {
    ($($tr:ident $f:ident),*) => {$(
        impl $tr<Dyadic> for Dyadic {
            type Output = Dyadic;
            fn $f(self, rhs: Dyadic) -> Dyadic {
                (&self).$f(&rhs)
            }
        }
        impl $tr<&Dyadic> for Dyadic {
            type Output = Dyadic;
            fn $f(self, rhs: &Dyadic) -> Dyadic {
                (&self).$f(rhs)
            }
        }
        impl $tr<Dyadic> for &Dyadic {
            type Output = Dyadic;
            fn $f(self, rhs: Dyadic) -> Dyadic {
                self.$f(&rhs)
            }
        }
    )*};
}
owned_ops!(Add add, Sub sub, Mul mul);

impl From<f64> for Dyadic {
    fn from(x: f64) -> Self {
        Self::from_f64(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(x: f64) -> Dyadic {
        Dyadic::from_f64(x)
    }

    #[test]
    fn round_trip_of_floats_is_exact() {
        for &x in &[
            0.0,
            -0.0,
            1.0,
            -1.5,
            0.1,
            1e-30,
            1e30,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            -3.0e-310,
            123_456_789.123,
        ] {
            assert_eq!(d(x).to_f64().to_bits(), (x + 0.0).to_bits(), "{x}");
        }
        assert!(Dyadic::try_from_f64(f64::NAN).is_none());
        assert!(Dyadic::try_from_f64(f64::INFINITY).is_none());
    }

    #[test]
    fn arithmetic_is_exact_where_floats_round() {
        // 0.1 + 0.2 != 0.3 in floats, and the exact sum of the float values is neither.
        let s = d(0.1) + d(0.2);
        assert_ne!(s, d(0.3));
        assert_eq!(s.to_rational(), d(0.1).to_rational() + d(0.2).to_rational());
        // Cancellation of huge and tiny parts is exact.
        let big = d(1e30);
        let tiny = d(1e-30);
        let x = &(&big + &tiny) - &big;
        assert_eq!(x, tiny);
        assert_eq!((d(3.0) * d(-0.5)).to_f64(), -1.5);
        assert_eq!(d(2.0).mul_pow2(-3), d(0.25));
        assert!(d(-1e-300) < d(1e-300));
        assert!(d(1e300) > d(1e299));
        assert_eq!(d(-2.0).abs(), d(2.0));
        assert_eq!(d(-2.0).sign(), Ordering::Less);
        assert_eq!((-d(2.0)).to_f64(), -2.0);
    }

    #[test]
    fn conversions_handle_extreme_exponents() {
        let huge = d(1e300) * d(1e300);
        assert_eq!(huge.to_f64(), f64::INFINITY);
        let tiny = d(1e-300) * d(1e-300);
        assert_eq!(tiny.to_f64(), 0.0);
        let r = Dyadic::ratio_to_f64(&huge, &(d(1e300) * d(3e299)));
        assert!((r - 1.0 / 0.3).abs() <= 1e-15 * (1.0 / 0.3), "{r}");
        let r = Dyadic::ratio_to_f64(&tiny, &(d(1e-300) * d(-7e-301)));
        assert!((r + 1.0 / 0.7).abs() <= 1e-15 / 0.7, "{r}");
        let third = Dyadic::ratio_to_f64(&d(1.0), &d(3.0));
        assert_eq!(third, 1.0 / 3.0);
        assert_eq!(d(0.75).to_rational(), BigRational::new(3.into(), 4.into()));
        assert_eq!(
            d(1024.0).to_rational(),
            BigRational::from_integer(1024.into())
        );
    }
}
