//! Numbers are read exactly as written, rounded once and correctly to the build's precision.
//!
//! The hard cases are decimals a hair above or below the midpoint between two neighbouring
//! `Real` values. Parsing to f64 first rounds such a decimal onto the midpoint itself, and
//! rounding that midpoint to f32 then goes to the even neighbour, which is the wrong one half of
//! the time. The reader must agree with `str::parse::<Real>()` (correctly rounded) on all of them.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sepax_scene::{read_scene, SceneError};
use sepax_shapes::math::Real;
use sepax_shapes::Shape;

/// Reads `text` as the radius of a sphere and as the three centre coordinates.
fn read_number(text: &str) -> Result<Real, SceneError> {
    let json = format!(
        r#"{{"shapes": [{{"id": "s", "type": "sphere", "center": [{text}, 0, 0], "radius": 0}},
                        {{"id": "t", "type": "sphere", "center": [0, 0, 0], "radius": {t}}}]}}"#,
        t = text.trim_start_matches('-')
    );
    let scene = read_scene(&json)?;
    let (Shape::Sphere(a), Shape::Sphere(b)) = (&scene.shapes[0].shape, &scene.shapes[1].shape)
    else {
        panic!("not spheres");
    };
    assert_eq!(a.center().x.abs().to_bits(), b.radius().to_bits());
    Ok(a.center().x)
}

const MANTISSA_BITS: u32 = Real::MANTISSA_DIGITS - 1;
const TOTAL_BITS: u32 = 8 * std::mem::size_of::<Real>() as u32;
const BIAS: i32 = Real::MAX_EXP - 1;

/// `x = m * 2^e` exactly, for finite `x >= 0`.
fn decode(x: Real) -> (u128, i32) {
    let bits = x.to_bits() as u128;
    let frac = bits & ((1u128 << MANTISSA_BITS) - 1);
    let field =
        ((bits >> MANTISSA_BITS) & ((1u128 << (TOTAL_BITS - MANTISSA_BITS - 1)) - 1)) as i32;
    if field == 0 {
        (frac, 1 - BIAS - MANTISSA_BITS as i32)
    } else {
        (
            frac | (1u128 << MANTISSA_BITS),
            field - BIAS - MANTISSA_BITS as i32,
        )
    }
}

/// The exact decimal expansion of `m * 2^e` (a dyadic rational), with a decimal point.
fn exact_decimal(m: u128, e: i32) -> String {
    // Little-endian limbs in base 1e9.
    const BASE: u64 = 1_000_000_000;
    let mut limbs: Vec<u64> = Vec::new();
    let mut v = m;
    while v > 0 {
        limbs.push((v % BASE as u128) as u64);
        v /= BASE as u128;
    }
    let mul = |limbs: &mut Vec<u64>, f: u64| {
        let mut carry = 0u64;
        for l in limbs.iter_mut() {
            let t = *l * f + carry;
            *l = t % BASE;
            carry = t / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    };
    // m * 2^e = m * 5^-e / 10^-e for e < 0.
    let (factor, step, mut count) = if e >= 0 {
        (2u64, 1 << 30, e)
    } else {
        (5u64, 1_220_703_125, -e)
    };
    while count >= if e >= 0 { 30 } else { 13 } {
        mul(&mut limbs, step);
        count -= if e >= 0 { 30 } else { 13 };
    }
    for _ in 0..count {
        mul(&mut limbs, factor);
    }
    let mut digits = match limbs.last() {
        Some(top) => top.to_string(),
        None => "0".to_string(),
    };
    for l in limbs.iter().rev().skip(1) {
        digits.push_str(&format!("{l:09}"));
    }
    let frac_digits = if e >= 0 { 0 } else { (-e) as usize };
    if digits.len() <= frac_digits {
        digits = "0".repeat(frac_digits + 1 - digits.len()) + &digits;
    }
    let point = digits.len() - frac_digits;
    format!(
        "{}.{}",
        &digits[..point],
        if frac_digits == 0 {
            "0"
        } else {
            &digits[point..]
        }
    )
}

/// The decimal `d` moved by one unit in its 10th extra decimal place, up or down.
fn nudge(d: &str, up: bool) -> String {
    let mut s: Vec<u8> = format!("{d}0000000000").into_bytes();
    if up {
        *s.last_mut().unwrap() = b'1';
        return String::from_utf8(s).unwrap();
    }
    // Subtract one unit in the last place, borrowing across the decimal point.
    for i in (0..s.len()).rev() {
        match s[i] {
            b'.' => continue,
            b'0' => s[i] = b'9',
            c => {
                s[i] = c - 1;
                break;
            }
        }
    }
    String::from_utf8(s).unwrap()
}

#[test]
fn decimal_helpers_are_exact() {
    assert_eq!(exact_decimal(3, -2), "0.75");
    assert_eq!(exact_decimal(5, 3), "40.0");
    assert_eq!(exact_decimal(1, -24), "0.000000059604644775390625");
    assert_eq!(nudge("1.5", true), "1.50000000001");
    assert_eq!(nudge("1.5", false), "1.49999999999");
    assert_eq!(nudge("2.0", false), "1.99999999999");
    assert_eq!(
        decode(1.0),
        (1u128 << MANTISSA_BITS, -(MANTISSA_BITS as i32))
    );
}

/// A classic: just above the midpoint between 1 and the next f32 (1 + 2^-24, exact in f64).
#[test]
fn classic_double_rounding_case() {
    let text = "1.000000059604644775390626";
    assert_eq!(read_number(text).unwrap(), text.parse::<Real>().unwrap());
    #[cfg(not(feature = "f64"))]
    {
        let correct = 1.0f32 + f32::EPSILON;
        assert_eq!(read_number(text).unwrap(), correct);
        // The f64 detour lands on the midpoint and ties to even: 1.0, the wrong answer.
        assert_eq!(text.parse::<f64>().unwrap() as f32, 1.0);
    }
}

/// Decimals just above and just below the midpoints of random neighbours `x < y`, over the whole
/// range (subnormals included): the reader rounds each to the right neighbour.
#[test]
fn near_midpoint_decimals_round_correctly() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5ca1e);
    let max_bits = Real::MAX.to_bits();
    let cases = 3000;
    let mut double_rounding_wrong = 0;
    for _ in 0..cases {
        let x = Real::from_bits(rng.random_range(0..max_bits));
        let y = Real::from_bits(x.to_bits() + 1);
        let (m, e) = decode(x);
        // The midpoint (x + y) / 2 = (2m + 1) 2^(e-1): exact as a decimal.
        let mid = exact_decimal(2 * m + 1, e - 1);
        for (text, want) in [(nudge(&mid, true), y), (nudge(&mid, false), x)] {
            let correct: Real = text.parse().unwrap();
            assert_eq!(correct, want, "std parse of {text}");
            let got = read_number(&text).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{text}");
            let negated = read_number(&format!("-{text}")).unwrap();
            assert_eq!(negated.to_bits(), (-want).to_bits(), "-{text}");
            if (text.parse::<f64>().unwrap() as Real) != want {
                double_rounding_wrong += 1;
            }
        }
    }
    println!(
        "{} near-midpoint decimals read correctly; f64-then-{} would get {double_rounding_wrong} wrong",
        2 * cases,
        std::any::type_name::<Real>()
    );
    // In the f32 build about half of them defeat the f64 detour, so the test has teeth.
    #[cfg(not(feature = "f64"))]
    assert!(double_rounding_wrong > cases / 2, "{double_rounding_wrong}");
}

/// Exactly representable values, written in every JSON spelling, read back bit for bit.
#[test]
fn spellings_of_the_same_number() {
    for text in [
        "0.5",
        "5e-1",
        "5E-1",
        "0.50000",
        "50e-2",
        "0.0000005e6",
        "5.0E-1",
    ] {
        assert_eq!(read_number(text).unwrap(), 0.5, "{text}");
    }
    assert_eq!(
        read_number("-0").unwrap().to_bits(),
        (-0.0 as Real).to_bits()
    );
    assert_eq!(read_number("0.1").unwrap(), "0.1".parse::<Real>().unwrap());
    // A long mantissa is still rounded once, correctly.
    let long = format!("0.{}1", "3".repeat(2000));
    assert_eq!(read_number(&long).unwrap(), long.parse::<Real>().unwrap());
}

#[test]
fn tiny_numbers_round_to_zero_or_subnormal() {
    let tiny = Real::from_bits(1);
    assert_eq!(read_number(&format!("{tiny:e}")).unwrap(), tiny);
    assert_eq!(read_number("1e-5000").unwrap(), 0.0);
}

#[test]
fn numbers_beyond_the_range_are_errors_not_infinity() {
    // The largest finite value, and the decimal halfway to the next power of two, which rounds
    // (ties to even) to infinity.
    let max = Real::MAX;
    assert_eq!(read_number(&format!("{max:e}")).unwrap(), max);
    let (m, e) = decode(max);
    let overflow_mid = exact_decimal(2 * m + 1, e - 1);
    let just_below = nudge(&overflow_mid, false);
    assert_eq!(read_number(&just_below).unwrap(), max);
    for text in [overflow_mid.as_str(), "1e400", "-1e400", "1e99999"] {
        let e = read_number(text).unwrap_err().to_string();
        assert!(e.contains("field \"center\""), "{e}");
        assert!(e.contains("range"), "{e}");
    }
    #[cfg(not(feature = "f64"))]
    {
        let e = read_number("1e39").unwrap_err().to_string();
        assert!(
            e.ends_with("field \"center\": expected 3 numbers within the f32 range (magnitude at most 3.4028235e38), found [1e39, 0, 0]"),
            "{e}"
        );
    }
}
