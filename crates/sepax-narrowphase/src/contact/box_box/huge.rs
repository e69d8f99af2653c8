//! Box pairs too large for the direct arithmetic: computed on the pair scaled by a power of two.
//!
//! The direct path forms products of up to four lengths (the edge contact's closest points),
//! so it runs only while the pair's scale `S = sum h_A + sum h_B + |t|_1` is below
//! [`SCALE_LIMIT`] (`2^28` in `f32`, `2^252` in `f64`: `S^4` stays finite). Its points are then
//! finite too: a point is `c + offset` with `|offset|` a few `S`, far below half an ulp of the
//! largest finite number, so the sum of a finite centre and the offset cannot round to
//! infinity; and an offset `c_B - c_A` that overflows makes `S` infinite. Any other pair (AABBs
//! near `±3e38`, boxes of size `1e30`, or a scale that overflowed to infinity or NaN) is scaled
//! by `2^-k` (exact, barring numbers far below the pair's rounding error that become
//! subnormal), so that its size is about `2^20`, computed by the direct path on boxes of the
//! same kinds, and scaled back by `2^k`: the result is the scaled pair's, scaled back, bit for
//! bit. The points lie on the
//! boxes, which are finite, so they come back finite (a coordinate a rounding beyond the
//! largest finite number is clamped to it); a depth larger than the largest finite number
//! (two boxes of size `3e38` overlapping fully) is reported as `Real::MAX`.

use super::*;

/// The largest pair scale the direct path takes: `2^(E/4 - 4)` for the largest exponent `E`.
pub(super) const SCALE_LIMIT: Real = pow2(Real::MAX_EXP / 4 - 4);

/// `2^e` for `0 <= e < MAX_EXP`.
const fn pow2(e: i32) -> Real {
    let mut x: Real = 1.0;
    let mut k = 0;
    while k < e {
        x *= 2.0;
        k += 1;
    }
    x
}

/// The exponent `e` with `2^e <= x < 2^(e+1)` of a finite `x >= 1`.
#[inline]
fn exponent(x: Real) -> i32 {
    #[cfg(not(feature = "f64"))]
    let e = ((x.to_bits() >> 23) & 0xff) as i32 - 127;
    #[cfg(feature = "f64")]
    let e = ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    e
}

/// `2^e` for `|e| < MAX_EXP - 2` (a normal number).
#[inline]
fn pow2i(e: i32) -> Real {
    #[cfg(not(feature = "f64"))]
    let x = Real::from_bits(((e + 127) as u32) << 23);
    #[cfg(feature = "f64")]
    let x = Real::from_bits(((e + 1023) as u64) << 52);
    x
}

/// The exponent `k >= 1` of the scale `2^-k` that brings the pair within the limit, from an
/// overflow-free bound `m` of its lengths: `S <= 12 m`, so `S 2^-k < 2^25` with
/// `k = e(m) - 20`.
#[inline]
fn shrink<A: LeanBox, B: LeanBox>(a: &A, b: &B) -> i32 {
    let (ha, hb) = (a.half(), b.half());
    let (ca, cb) = (world_center(a), world_center(b));
    let mut m: Real = 1.0;
    for k in 0..3 {
        m = m
            .max(ha[k])
            .max(hb[k])
            .max((0.5 * cb[k] - 0.5 * ca[k]).abs());
    }
    (exponent(m) - 20).max(1)
}

/// `x * f` (`f` a power of two), clamped to the finite range.
#[inline]
fn grow(x: Real, f: Real) -> Real {
    (x * f).clamp(-Real::MAX, Real::MAX)
}

/// [`manifold_into_lean`] for a pair outside the direct path's limits.
#[cold]
#[inline(never)]
pub(super) fn manifold_into<A: LeanBox, B: LeanBox>(
    a: &A,
    b: &B,
    config: &ContactConfig,
    out: &mut ContactManifold,
    flip: bool,
) -> bool {
    let k = shrink(a, b);
    let (down, up) = (pow2i(-k), pow2i(k));
    let (sa, sb) = (a.scaled(down), b.scaled(down));
    let cfg = ContactConfig {
        margin: config.effective_margin() * down,
    };
    let l = Local::new(&sa, &sb);
    debug_assert!(l.fits, "scaled pair still outside the limits");
    let choice = l.axis();
    if !finish_into(&l, &choice, &cfg, out, flip) {
        return false;
    }
    out.depth = grow(out.depth, up);
    for p in &mut out.points {
        p.point_a.coords = p.point_a.coords.map(|x| grow(x, up));
        p.point_b.coords = p.point_b.coords.map(|x| grow(x, up));
        p.depth = grow(p.depth, up);
    }
    true
}

/// [`penetration`]'s axis for a pair outside the direct path's limits.
#[cold]
#[inline(never)]
pub(super) fn penetration<A: LeanBox, B: LeanBox>(a: &A, b: &B) -> BoxPenetration {
    let k = shrink(a, b);
    let (down, up) = (pow2i(-k), pow2i(k));
    let (sa, sb) = (a.scaled(down), b.scaled(down));
    let l = Local::new(&sa, &sb);
    let c = l.axis();
    BoxPenetration {
        normal: world_normal(&sa, &sb, &c),
        depth: grow(c.least, up),
        axis: c.axis,
    }
}
