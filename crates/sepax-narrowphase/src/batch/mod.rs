//! Structure-of-arrays batches and SIMD kernels for many box tests at once.
//!
//! Batches ([`AabbSoa`], [`ObbSoa`], [`SphereSoa`]) keep one array per scalar field;
//! [`ObbBlocks`] keeps OBBs in blocks of [`LANES`] boxes with all their fields contiguous (one
//! memory stream per pass: the layout for one-vs-N passes over batches larger than the caches,
//! the `obb_blocks_*` methods). Every kernel has four forms, for AABB–AABB, OBB–OBB and
//! sphere–AABB:
//!
//! | form | input | output |
//! | --- | --- | --- |
//! | `*_query_mask` | one shape, a batch of `N` | a bitmask of `N` bits |
//! | `*_query` | one shape, a batch | the indices of the hits, ascending |
//! | `*_pairs` | two batches (`N × M`) | the pairs `(i, j)` that meet, sorted |
//! | `*_filter_pairs`, `*_filter` | candidate pairs or indices | those that meet, in order |
//!
//! **The answers are the scalar answers**: each kernel is the scalar test of
//! [`crate::intersect`] evaluated lane-wise with the same operations in the same
//! order, so each lane is bit-identical to it; where the scalar test has a slow path (the
//! certified f64 stage of OBB–OBB for pairs its filter leaves undecided, the rescale of
//! sphere–AABB for extreme magnitudes) the lane calls the scalar function itself. The tests
//! check the answers against the scalar functions on random and adversarial data, in f32 and
//! f64, for both instruction sets.
//!
//! ```text
//! for each step of LANES (8) pairs:
//!     load LANES boxes of the batch (one vector load per field), the query splatted
//!     (hit, undecided) = kernel(query, boxes)      // scalar filter, lane-wise
//!     for each undecided lane: hit = scalar intersects(query, box)
//! ```
//!
//! Instruction set: [`Kernels::new`] picks AVX2 at run time when the CPU has it (one
//! `is_x86_feature_detected!` at construction), otherwise the portable build (SSE2 on
//! x86-64). Both are built from the same source; see `avx2.rs` for why (the token and the AVX
//! register are the SIMD floor's, `sepax-simd`: no `unsafe` here).

mod aabb;
#[cfg(target_arch = "x86_64")]
mod avx2;
mod blocks;
mod drive;
mod lanes;
mod obb;
mod soa;
mod sphere_aabb;

pub use blocks::ObbBlocks;
pub use lanes::LANES;
pub use soa::{AabbSoa, ObbSoa, SphereSoa};

use lanes::{Lane256, LaneMask};
use sepax_shapes::{Aabb, Obb, Sphere};
use soa::Batch;

/// A pair test, lane-wise, with its scalar reference.
pub(crate) trait PairKernel {
    /// The batch of first shapes.
    type A: Batch;
    /// The batch of second shapes.
    type B: Batch;
    /// `(hit, undecided)` lane masks; a lane is never in both.
    fn lanes<L: Lane256>(
        a: &<Self::A as Batch>::Lanes<L>,
        b: &<Self::B as Batch>::Lanes<L>,
    ) -> (LaneMask, LaneMask);
    /// The scalar test, for undecided lanes.
    fn scalar(a: &<Self::A as Batch>::Item, b: &<Self::B as Batch>::Item) -> bool;
}

/// What a kernel call did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BatchStats {
    /// Pairs tested.
    pub tested: usize,
    /// Pairs the lanes left to the scalar function (the OBB filter's undecided pairs, or
    /// sphere–AABB pairs of extreme magnitude).
    pub fallbacks: usize,
    /// Pairs that meet.
    pub hits: usize,
}

/// The instruction set the kernels run with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isa {
    /// The build's own target features (SSE2 on a default x86-64 build).
    Portable,
    /// AVX2, selected at run time.
    Avx2,
}

/// The batch kernels, bound to an instruction set. `Kernels::default()` is [`Kernels::new`].
#[derive(Debug, Clone, Copy)]
pub struct Kernels {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<sepax_simd::Avx2>,
}

impl Default for Kernels {
    fn default() -> Self {
        Self::new()
    }
}

impl Kernels {
    /// The best instruction set of the running CPU.
    pub fn new() -> Self {
        Kernels {
            #[cfg(target_arch = "x86_64")]
            avx2: sepax_simd::Avx2::detect(),
        }
    }
    /// The portable build only (for comparison and tests).
    pub fn portable() -> Self {
        Kernels {
            #[cfg(target_arch = "x86_64")]
            avx2: None,
        }
    }
    /// The kernels for `isa`, or `None` when the running CPU does not have it.
    pub fn with_isa(isa: Isa) -> Option<Self> {
        match isa {
            Isa::Portable => Some(Self::portable()),
            Isa::Avx2 => {
                let k = Self::new();
                (k.isa() == Isa::Avx2).then_some(k)
            }
        }
    }
    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        #[cfg(target_arch = "x86_64")]
        if self.avx2.is_some() {
            return Isa::Avx2;
        }
        Isa::Portable
    }
}

macro_rules! dispatch {
    ($self:ident, $driver:ident::<$K:ty>($($arg:expr),*)) => {{
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = $self.avx2 {
            return avx2::$driver::<$K>(cpu, $($arg),*);
        }
        drive::$driver::<$K, lanes::V>($($arg),*)
    }};
}

macro_rules! kernel_methods {
    ($K:ty, $What:literal, $Q:ty, $A:ty, $B:ty,
     $mask:ident, $query:ident, $pairs:ident, $filter_pairs:ident, $filter:ident) => {
        #[doc = concat!($What, ": bit `j` of `mask` (word `j / 64`, resized to `N` bits) is set")]
        /// iff `q` meets `b[j]`.
        pub fn $mask(&self, q: &$Q, b: &$B, mask: &mut Vec<u64>) -> BatchStats {
            dispatch!(self, one_vs_n_mask::<$K>(q, b, mask))
        }
        #[doc = concat!($What, ": clears `out` and fills it with every `j` where `q` meets `b[j]`,")]
        /// ascending.
        pub fn $query(&self, q: &$Q, b: &$B, out: &mut Vec<u32>) -> BatchStats {
            dispatch!(self, one_vs_n_indices::<$K>(q, b, out))
        }
        #[doc = concat!($What, ": clears `out` and fills it with every pair `(i, j)` where `a[i]`")]
        /// meets `b[j]`, sorted ascending. `b` is processed in cache-sized tiles, each read
        /// from memory once.
        pub fn $pairs(&self, a: &$A, b: &$B, out: &mut Vec<(u32, u32)>) -> BatchStats {
            dispatch!(self, n_by_m::<$K>(a, b, out))
        }
        #[doc = concat!($What, ": clears `out` and fills it with the candidates `(i, j)` where")]
        /// `a[i]` meets `b[j]`, in candidate order. Panics on an index out of range.
        pub fn $filter_pairs(
            &self,
            a: &$A,
            b: &$B,
            candidates: &[(u32, u32)],
            out: &mut Vec<(u32, u32)>,
        ) -> BatchStats {
            dispatch!(self, filter_pairs::<$K>(a, b, candidates, out))
        }
        #[doc = concat!($What, ": clears `out` and fills it with the candidates `j` where `q`")]
        /// meets `b[j]`, in candidate order. Panics on an index out of range.
        pub fn $filter(
            &self,
            q: &$Q,
            b: &$B,
            candidates: &[u32],
            out: &mut Vec<u32>,
        ) -> BatchStats {
            dispatch!(self, filter_indices::<$K>(q, b, candidates, out))
        }
    };
}

impl Kernels {
    kernel_methods!(
        aabb::AabbAabb,
        "AABB–AABB (exact)",
        Aabb,
        AabbSoa,
        AabbSoa,
        aabb_query_mask,
        aabb_query,
        aabb_pairs,
        aabb_filter_pairs,
        aabb_filter
    );
    kernel_methods!(
        obb::ObbObb,
        "OBB–OBB (certified, as the scalar `intersects`)",
        Obb,
        ObbSoa,
        ObbSoa,
        obb_query_mask,
        obb_query,
        obb_pairs,
        obb_filter_pairs,
        obb_filter
    );
    kernel_methods!(
        obb::ObbObbBlocks,
        "OBB–OBB on blocks (the answers of the `obb_*` methods)",
        Obb,
        ObbBlocks,
        ObbBlocks,
        obb_blocks_query_mask,
        obb_blocks_query,
        obb_blocks_pairs,
        obb_blocks_filter_pairs,
        obb_blocks_filter
    );
    kernel_methods!(
        sphere_aabb::SphereAabb,
        "Sphere–AABB (as the scalar `intersects`)",
        Sphere,
        SphereSoa,
        AabbSoa,
        sphere_aabb_query_mask,
        sphere_aabb_query,
        sphere_aabb_pairs,
        sphere_aabb_filter_pairs,
        sphere_aabb_filter
    );
}
