//! Lane helpers of the batch kernels: padded loads, gathers, lane masks, `arr3!`. The lane
//! vector itself (the portable [`V`], the AVX2 one, and the [`Lane256`] bound they meet) is
//! the SIMD floor's (`sepax-simd`).

use sepax_shapes::math::Real;

pub use sepax_simd::LANES;
pub(crate) use sepax_simd::{Lane256, LaneMask, V};

/// `arr3!(k => e)` is `[e, e, e]` with `k` = 0, 1, 2: written out, because closures (of
/// `core::array::from_fn` or our own) are not always inlined, and in the kernels that turned
/// every field load into a call.
macro_rules! arr3 {
    ($k:ident => $e:expr) => {
        [
            {
                let $k = 0usize;
                $e
            },
            {
                let $k = 1usize;
                $e
            },
            {
                let $k = 2usize;
                $e
            },
        ]
    };
}
pub(crate) use arr3;

/// The mask of the first `n` lanes (all lanes when `n >= LANES`).
#[inline(always)]
pub fn first_lanes(n: usize) -> LaneMask {
    if n >= LANES {
        ((1u64 << LANES) - 1) as LaneMask
    } else {
        ((1u64 << n) - 1) as LaneMask
    }
}

/// Loads `LANES` values from `v` at `start`, padding past the end with `pad`.
#[inline(always)]
pub fn load<L: Lane256>(v: &[Real], start: usize, pad: Real) -> L {
    match v.get(start..start + LANES) {
        Some(s) => {
            let mut r = [0.0 as Real; LANES];
            r.copy_from_slice(s);
            L::from_array(r)
        }
        None => {
            let mut r = [pad; LANES];
            let tail = &v[start.min(v.len())..];
            r[..tail.len()].copy_from_slice(tail);
            L::from_array(r)
        }
    }
}

/// Gathers `v[idx[k]]` into lane `k`.
#[inline(always)]
pub fn gather<L: Lane256>(v: &[Real], idx: &[usize; LANES]) -> L {
    let mut r = [0.0 as Real; LANES];
    for k in 0..LANES {
        r[k] = v[idx[k]];
    }
    L::from_array(r)
}
