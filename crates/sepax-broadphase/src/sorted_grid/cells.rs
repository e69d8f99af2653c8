//! Cell coordinates: every cell of the sorted grid comes from [`cells4`], so that the builds
//! and the queries agree exactly.

use sepax_shapes::math::{Point3, Real};
use sepax_shapes::Aabb;

use super::SortedGrid;

/// The cell coordinates of a point: `floor(p * inv)` per axis, saturating near the ends of
/// `i32` (at `i32::MIN` and, in `f32`, at `2^31 - 128`, the largest `f32` below `2^31`);
/// monotone in each coordinate. Every cell of the grid comes from here, so the build and
/// the queries agree exactly. Truncation and a branch-free correction (`floor` is a library
/// call on baseline x86-64), four lanes at once; clamping to `[-2^31, 2^31 - 128]` first keeps
/// the truncation in range and the correction from overflowing (a NaN lands on some cell; it
/// overlaps nothing anyway).
#[cfg(not(feature = "f64"))]
#[inline(always)]
pub(super) fn cells4(inv: Real, p: Point3) -> wide::i32x4 {
    use wide::{f32x4, i32x4};
    /// The largest `f32` below `2^31`.
    const HIGH: f32 = 2_147_483_520.0;
    let t = f32x4::new([p.x, p.y, p.z, 0.0]) * f32x4::splat(inv);
    // `maxps`, `minps`: the clamp (on x86-64 a NaN lane becomes the lower bound).
    let t = t
        .fast_max(f32x4::splat(i32::MIN as f32))
        .fast_min(f32x4::splat(HIGH));
    // In range (and integral at the bounds): the plain truncation (`cvttps2dq`) is exact, with
    // no fix-up for overflow (`fast_trunc_int` is `trunc_int`, saturating, off SSE2).
    let i = t.fast_trunc_int();
    // All ones (-1) where the truncation rounded up, that is, for negative non-integers.
    let above: i32x4 = wide::bytemuck::cast(f32x4::from_i32x4(i).simd_gt(t));
    i + above
}

/// The cell coordinates of a point (see the `f32` version); scalar in `f64`.
#[cfg(feature = "f64")]
#[inline(always)]
pub(super) fn cells4(inv: Real, p: Point3) -> wide::i32x4 {
    const LOW: Real = i32::MIN as Real;
    let c = [p.x, p.y, p.z].map(|x| {
        let t = x * inv;
        // A NaN becomes the bound, as in the `f32` version.
        let t = if t >= LOW { t } else { LOW };
        let i = t as i32;
        i - ((i as Real) > t) as i32
    });
    wide::i32x4::new([c[0], c[1], c[2], 0])
}

/// The cell coordinates of a point (see [`cells4`]).
#[inline(always)]
pub(super) fn cells(inv: Real, p: Point3) -> [i32; 3] {
    let c = cells4(inv, p).to_array();
    [c[0], c[1], c[2]]
}

impl SortedGrid {
    /// The cell of a box's lower corner (its home cell when it is regular).
    #[inline(always)]
    pub(super) fn home_cell(&self, b: &Aabb) -> [i32; 3] {
        cells(self.inv_cell, b.min())
    }

    /// Home cell of a box, or `None` when it is oversize.
    #[inline(always)]
    pub(super) fn home(&self, b: &Aabb) -> Option<[i32; 3]> {
        let c = cells(self.inv_cell, b.min());
        let h = cells(self.inv_cell, b.max());
        // `h >= c` (monotone), so the wrapped difference is the true one.
        let regular = (h[0].wrapping_sub(c[0]) as u32 <= 1)
            & (h[1].wrapping_sub(c[1]) as u32 <= 1)
            & (h[2].wrapping_sub(c[2]) as u32 <= 1);
        regular.then_some(c)
    }

    /// The hash bucket of a cell.
    #[inline(always)]
    pub(super) fn hash_bucket(c: [i32; 3], mask: u32) -> usize {
        // Three-prime XOR hash, then a multiply-xorshift.
        let [x, y, z] = c.map(|v| v as u32 as u64);
        let mut h =
            x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663) ^ z.wrapping_mul(83_492_791);
        h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 32;
        (h as u32 & mask) as usize
    }
}
