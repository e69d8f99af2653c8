//! sepax's SIMD floor: everything the other crates need to run one source on several lane
//! widths and instruction sets, and the only place in sepax with intrinsics (`core::arch`) and
//! SIMD `unsafe`.
//!
//! - [`Real`]: `f32`, or `f64` with the `f64` feature (the shapes crate re-exports it).
//! - [`Lane`]: the one lane trait, IEEE operations per lane, never fused; implemented by
//!   `Real` (one lane), [`V4`] (four lanes), [`V`] (the portable [`LANES`]-lane vector on
//!   `wide`) and, on x86-64, the AVX register that only [`Avx::run`] hands out.
//!   [`Lane256`] names the lane types of [`LANES`] lanes.
//! - On x86-64, [`Avx`] and [`Avx2`]: zero-sized tokens made only by run-time detection, whose
//!   `run` calls a [`LaneKernel`] on the AVX register inside a function compiled for the
//!   feature; [`prefetch`], a cache hint (a no-op elsewhere).
//!
//! Every lane operation is the same IEEE operation per lane on every implementation, and no
//! fused multiply-add is enabled anywhere, so a kernel gives the same bits on every lane type
//! and instruction set; the tests of the crates above run both builds.
//!
//! # Soundness
//!
//! Every `unsafe` block of this crate (each marked `// SAFETY:` with the rule it relies on)
//! is sound by these four rules:
//!
//! 1. **Tokens prove the feature.** A `#[target_feature]` function, and a `core::arch`
//!    intrinsic of a feature, may only run on a CPU with the feature. [`Avx`] and [`Avx2`]
//!    have a private field: only [`Avx::detect`] and [`Avx2::detect`] make them (and
//!    [`Avx2::avx`], since AVX2 implies AVX), after `is_x86_feature_detected!` returned true
//!    for the feature on this machine. The only `#[target_feature]` functions are the private
//!    `inner` functions of the tokens' `run`, which takes the token by value: they run only
//!    on a CPU with the feature.
//! 2. **The AVX register exists only behind a token.** The AVX register (`avx::R256`) needs
//!    AVX for every operation; the AVX lane vector (`avx::V256`) is one of them in f32 and a
//!    pair (`lane::Pair`) in f64. It is private to this crate, and the only place that
//!    names it outside its own module is the tokens' `run`, which instantiates the caller's
//!    [`LaneKernel::run`] with it after a token was made. Any `V256` value, wherever a kernel
//!    moves it, was therefore made on a machine whose CPU has AVX, and every operation on it
//!    runs on that CPU. (Whether an operation runs inside a `#[target_feature]` function
//!    matters for speed, not for soundness.)
//! 3. **Loads and stores stay in their array.** `R256`'s load and store read or write exactly
//!    the elements of an array of one register's lanes (unaligned forms: no alignment
//!    assumed); that the array is 32 bytes is asserted at compile time. (The f64 pair loads
//!    and stores its two halves through safe slices.)
//! 4. **Prefetch is a hint.** `_mm_prefetch` needs SSE, which is in the x86-64 baseline, and
//!    never faults or reads into the program, for any address; [`prefetch`] forms its
//!    addresses with `wrapping_add`, never asserting they are in bounds.
//!
//! No other crate of sepax calls an intrinsic or a `#[target_feature]` function; the few
//! `unsafe` blocks left outside this crate are unchecked memory accesses, not SIMD (listed in
//! docs/ARCHITECTURE.md with the reason each stays).
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

#[cfg(target_arch = "x86_64")]
mod avx;
#[cfg(target_arch = "x86_64")]
mod cpu;
mod lane;
mod v4;

#[cfg(all(target_arch = "x86_64", feature = "bench-internals"))]
pub use cpu::force_portable;
#[cfg(target_arch = "x86_64")]
pub use cpu::{prefetch, Avx, Avx2, LaneKernel};
pub use lane::{Lane, Lane256, LaneMask, LANES, V};
pub use v4::V4;

/// The scalar type of every shape and query: `f32` by default, `f64` with the `f64` feature.
#[cfg(not(feature = "f64"))]
pub type Real = f32;
/// The scalar type of every shape and query: `f32` by default, `f64` with the `f64` feature.
#[cfg(feature = "f64")]
pub type Real = f64;

/// Asks the processor to start loading the cache lines of `*r`: a hint, no effect on results
/// (nothing off x86-64).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub fn prefetch<T>(r: &T) {
    let _ = r;
}
