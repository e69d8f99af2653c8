//! Exact 3-vectors of dyadics, and exact ratios used for distances and margins.

use std::cmp::Ordering;

use num_rational::BigRational;

use crate::dyadic::Dyadic;

/// An exact 3-vector.
pub(crate) type DVec = [Dyadic; 3];

pub(crate) fn dvec(v: [f64; 3]) -> DVec {
    v.map(Dyadic::from_f64)
}

pub(crate) fn add(a: &DVec, b: &DVec) -> DVec {
    [&a[0] + &b[0], &a[1] + &b[1], &a[2] + &b[2]]
}

pub(crate) fn sub(a: &DVec, b: &DVec) -> DVec {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}

pub(crate) fn scale(a: &DVec, k: &Dyadic) -> DVec {
    [&a[0] * k, &a[1] * k, &a[2] * k]
}

pub(crate) fn half(a: &DVec) -> DVec {
    [a[0].mul_pow2(-1), a[1].mul_pow2(-1), a[2].mul_pow2(-1)]
}

pub(crate) fn dot(a: &DVec, b: &DVec) -> Dyadic {
    &(&(&a[0] * &b[0]) + &(&a[1] * &b[1])) + &(&a[2] * &b[2])
}

pub(crate) fn cross(a: &DVec, b: &DVec) -> DVec {
    [
        &(&a[1] * &b[2]) - &(&a[2] * &b[1]),
        &(&a[2] * &b[0]) - &(&a[0] * &b[2]),
        &(&a[0] * &b[1]) - &(&a[1] * &b[0]),
    ]
}

pub(crate) fn norm2(a: &DVec) -> Dyadic {
    dot(a, a)
}

pub(crate) fn is_zero(a: &DVec) -> bool {
    a.iter().all(Dyadic::is_zero)
}

/// Unit `f64` vector along `v` (zero vector for zero `v`), computed without overflow.
pub(crate) fn unit_f64(v: &DVec) -> [f64; 3] {
    let n2 = norm2(v);
    if n2.is_zero() {
        return [0.0; 3];
    }
    // v_c / |v| = sign(v_c) · sqrt(v_c² / |v|²): each ratio is in [0, 1], so nothing overflows.
    let mut out = [0.0; 3];
    for c in 0..3 {
        let r = Dyadic::ratio_to_f64(&v[c].square(), &n2).sqrt();
        out[c] = if v[c].is_negative() { -r } else { r };
    }
    out
}

/// An exact signed value `± sqrt(num_sq / den_sq)` (`num_sq >= 0`, `den_sq > 0`): the form of
/// every distance, gap and margin in this crate (a dot product over a vector length).
#[derive(Clone, Debug)]
pub(crate) struct SignedRoot {
    neg: bool,
    num_sq: Dyadic,
    den_sq: Dyadic,
}

impl SignedRoot {
    pub(crate) fn zero() -> Self {
        Self {
            neg: false,
            num_sq: Dyadic::zero(),
            den_sq: Dyadic::one(),
        }
    }

    /// `s / sqrt(den_sq)`.
    pub(crate) fn over_root(s: &Dyadic, den_sq: Dyadic) -> Self {
        Self {
            neg: s.is_negative(),
            num_sq: s.square(),
            den_sq,
        }
    }

    /// `sign · sqrt(num_sq / den_sq)` with `sign` negative when `neg`.
    pub(crate) fn from_squares(neg: bool, num_sq: Dyadic, den_sq: Dyadic) -> Self {
        Self {
            neg: neg && !num_sq.is_zero(),
            num_sq,
            den_sq,
        }
    }

    pub(crate) fn negated(&self) -> Self {
        Self {
            neg: !self.neg && !self.num_sq.is_zero(),
            ..self.clone()
        }
    }

    fn sign(&self) -> Ordering {
        if self.num_sq.is_zero() {
            Ordering::Equal
        } else if self.neg {
            Ordering::Less
        } else {
            Ordering::Greater
        }
    }

    /// Exact comparison by value.
    pub(crate) fn cmp_value(&self, other: &Self) -> Ordering {
        let (sa, sb) = (self.sign(), other.sign());
        if sa != sb || sa == Ordering::Equal {
            return sa.cmp(&sb);
        }
        let mag = (&self.num_sq * &other.den_sq).cmp(&(&other.num_sq * &self.den_sq));
        if sa == Ordering::Less {
            mag.reverse()
        } else {
            mag
        }
    }

    /// Is `|value| > t` (exactly)? Any negative `t` gives true.
    pub(crate) fn abs_exceeds(&self, t: f64) -> bool {
        if t < 0.0 {
            return true;
        }
        let t = Dyadic::from_f64(t);
        self.num_sq > &t.square() * &self.den_sq
    }

    /// The exact square of the value, signed like the value.
    pub(crate) fn signed_square_rational(&self) -> BigRational {
        let q = self.num_sq.to_rational() / self.den_sq.to_rational();
        if self.neg {
            -q
        } else {
            q
        }
    }

    pub(crate) fn to_f64(&self) -> f64 {
        if self.num_sq.is_zero() {
            return 0.0;
        }
        // Square root of the ratio taken on `q · 2^e` with even `e`, so that values whose square
        // leaves the f64 range (margins of 1e-300, say) still convert accurately.
        let (q, e) = Dyadic::ratio_parts(&self.num_sq, &self.den_sq);
        let (q, e) = if e % 2 == 0 {
            (q, e)
        } else {
            (q.mul_pow2(1), e - 1)
        };
        let r = crate::dyadic::ldexp(q.to_f64().sqrt(), e / 2);
        if self.neg {
            -r
        } else {
            r
        }
    }
}

/// An exact non-negative squared distance `num / den` (`den > 0`), kept unreduced (no gcd).
#[derive(Clone, Debug)]
pub struct SqDistance {
    num: Dyadic,
    den: Dyadic,
}

impl SqDistance {
    pub(crate) fn new(num: Dyadic, den: Dyadic) -> Self {
        debug_assert!(den.sign() == Ordering::Greater && num.sign() != Ordering::Less);
        Self { num, den }
    }

    pub(crate) fn from_dyadic(num: Dyadic) -> Self {
        Self {
            num,
            den: Dyadic::one(),
        }
    }

    /// Zero distance.
    #[must_use]
    pub fn zero() -> Self {
        Self::from_dyadic(Dyadic::zero())
    }

    /// True when the distance is exactly zero (the sets touch or overlap).
    #[must_use]
    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }

    /// Exact comparison with another squared distance.
    #[must_use]
    pub fn cmp_exact(&self, other: &Self) -> Ordering {
        (&self.num * &other.den).cmp(&(&other.num * &self.den))
    }

    /// Exact comparison of the squared distance with `r²` (so of the distance with `|r|`).
    #[must_use]
    pub fn cmp_radius(&self, r: f64) -> Ordering {
        self.cmp_dyadic_sq(&Dyadic::from_f64(r))
    }

    pub(crate) fn cmp_dyadic_sq(&self, r: &Dyadic) -> Ordering {
        self.num.cmp(&(&r.square() * &self.den))
    }

    /// The smaller of two squared distances (the first on ties).
    #[must_use]
    pub fn min(self, other: Self) -> Self {
        if other.cmp_exact(&self) == Ordering::Less {
            other
        } else {
            self
        }
    }

    /// Exact value as a big rational.
    #[must_use]
    pub fn to_rational(&self) -> BigRational {
        self.num.to_rational() / self.den.to_rational()
    }

    /// Nearly-rounded `f64` value (relative error below 2e-16 in the normal range).
    #[must_use]
    pub fn to_f64(&self) -> f64 {
        Dyadic::ratio_to_f64(&self.num, &self.den)
    }
}
