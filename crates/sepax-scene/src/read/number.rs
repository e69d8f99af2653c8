//! Numbers, read from their decimal text with one correct rounding to `Real`.
//!
//! serde_json (with `float_roundtrip`) rounds a number correctly to f64; in the f32 build,
//! rounding that f64 again to f32 is a double rounding that is wrong for decimals lying just off
//! the midpoint between two f32 values (the f64 lands exactly on the midpoint, and ties-to-even
//! may then pick the wrong side). So the text of each number is kept ([`RawValue`]) and parsed by
//! `str::parse::<Real>`, which rounds correctly, in both builds.

use sepax_shapes::math::Real;
use serde_json::value::RawValue;

use super::raw::{exactly, kind, Kind};

/// The build's precision, for messages.
#[cfg(not(feature = "f64"))]
pub(super) const PRECISION: &str = "f32";
/// The build's precision, for messages.
#[cfg(feature = "f64")]
pub(super) const PRECISION: &str = "f64";

/// Why a value is not a usable number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Problem {
    /// Not a number (or an array of the wrong length, or with non-numbers in it).
    Shape,
    /// A number too large for `Real`: it would round to infinity.
    Range,
}

/// A JSON number rounded correctly to `Real`; numbers beyond the finite range are an error
/// (never infinity). Numbers too small for `Real` round to zero or a subnormal, as they must.
pub(super) fn real(raw: &RawValue) -> Result<Real, Problem> {
    if kind(raw) != Kind::Number {
        return Err(Problem::Shape);
    }
    // JSON number syntax (checked by serde_json) is a subset of what `parse` accepts.
    match raw.get().trim().parse::<Real>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(Problem::Range),
        Err(_) => Err(Problem::Shape),
    }
}

/// An array of exactly `N` numbers.
pub(super) fn reals<const N: usize>(raw: &RawValue) -> Result<[Real; N], Problem> {
    let items = exactly::<N>(raw).ok_or(Problem::Shape)?;
    let mut out = [0.0; N];
    let mut range = false;
    for (slot, item) in out.iter_mut().zip(items) {
        match real(item.ok_or(Problem::Shape)?) {
            Ok(v) => *slot = v,
            Err(Problem::Range) => range = true,
            Err(Problem::Shape) => return Err(Problem::Shape),
        }
    }
    if range {
        Err(Problem::Range)
    } else {
        Ok(out)
    }
}

/// A `u32` written as a plain JSON integer (no fraction, no exponent).
pub(super) fn integer_u32(raw: &RawValue) -> Option<u32> {
    let text = raw.get().trim();
    if kind(raw) != Kind::Number || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u32>().ok()
}

/// "within the f32 range (magnitude at most 3.4028235e38)", for messages.
pub(super) fn range_note() -> String {
    format!(
        "within the {PRECISION} range (magnitude at most {:e})",
        Real::MAX
    )
}
