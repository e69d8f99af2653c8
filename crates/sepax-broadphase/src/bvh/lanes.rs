//! The lane tests the dynamic tree's pair searches share: the lane vector of one search (AVX
//! when the CPU has it, chosen once per search, else portable), boxes in lanes, and the six
//! closed-set comparisons of [`Aabb::intersects`] on them, so that every build finds the same
//! pairs. Used by the flat runs of the whole-tree search (`runs.rs`) and the packet walks of
//! the incremental one (`packet.rs`).
//!
//! Soundness: the token and the AVX register are `sepax-simd`'s (its `# Soundness` section); no
//! `unsafe` here.

use sepax_shapes::Aabb;
use sepax_simd::{Avx, Lane256, LaneKernel, LaneMask, LANES, V};

/// Bit `k` set when lane `k` of the boxes `a` overlaps lane `k` of `b` (each as `min x, y, z,
/// max x, y, z`): the six closed comparisons of [`Aabb::intersects`].
#[inline(always)]
pub(crate) fn overlap_lanes<L: Lane256>(a: &[L; 6], b: &[L; 6]) -> LaneMask {
    let m = a[0].le(b[3]);
    let m = m.and(b[0].le(a[3]));
    let m = m.and(a[1].le(b[4]));
    let m = m.and(b[1].le(a[4]));
    let m = m.and(a[2].le(b[5]));
    m.and(b[2].le(a[5])).bits()
}

/// The lane vector of one search: AVX when the CPU has it, else portable.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lanes(Option<Avx>);

impl Lanes {
    /// AVX when the running CPU has it.
    pub(crate) fn detect() -> Lanes {
        Lanes(Avx::detect())
    }

    /// `k` run on the chosen lane vector (compiled with AVX for the AVX one).
    #[inline]
    pub(crate) fn run<K: LaneKernel<A, B, C>, A, B, C>(self, k: K, a: A, b: B, c: C) -> K::Output {
        match self.0 {
            Some(avx) => avx.run(k, a, b, c, ()),
            None => k.run::<V>(a, b, c, ()),
        }
    }
}

/// The lowest `n` bits (`n <= LANES`).
#[inline(always)]
pub(crate) fn first(n: u32) -> LaneMask {
    debug_assert!(n as usize <= LANES);
    ((1u64 << n) - 1) as LaneMask
}

/// `b` splatted across the lanes, coordinate by coordinate (`min x, y, z, max x, y, z`).
#[inline(always)]
pub(crate) fn splat<L: Lane256>(b: &Aabb) -> [L; 6] {
    let (lo, hi) = (b.min(), b.max());
    [lo.x, lo.y, lo.z, hi.x, hi.y, hi.z].map(L::splat)
}
