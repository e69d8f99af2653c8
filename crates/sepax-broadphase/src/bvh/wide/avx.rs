//! Runtime selection of AVX for ray casts: the traversal of `ordered.rs` compiled a second time
//! inside a `#[target_feature(enable = "avx")]` function, with the 256-bit register
//! [`crate::simd::V256`] as its lane vector (8 × f32, or 4 × f64 with the `f64` feature: always
//! [`WIDTH`] lanes).
//!
//! Soundness: the rules of [`crate::simd`]. [`cast_ray`] takes an [`Avx`] token (which only
//! `Avx::detect` makes, after `is_x86_feature_detected!("avx")` returned true) before calling
//! [`cast_avx`], and `V256` is only used by the traversal instantiated there. Each `V256`
//! operation is the same IEEE operation as the portable lane operation, so the results equal
//! the portable ones bit for bit; the tests run both.
#![allow(unsafe_code)]

use super::ray_lanes::RayLanes;
use super::{WideBvh, WIDTH};
use crate::bvh::RayStep;
use crate::simd::Avx;
use crate::simd::V256;
use crate::QueryStats;
use sepax_shapes::math::Real;
use sepax_shapes::Ray;

const _: () = assert!(WIDTH == crate::simd::LANES);

/// [`WideBvh::cast_ray`] (`EXACT`) or `cast_ray_candidates` with AVX (on a non-empty tree).
#[inline]
pub(crate) fn cast_ray<const EXACT: bool>(
    token: Avx,
    tree: &WideBvh,
    ray: &Ray,
    f: impl FnMut(u32, Real) -> RayStep,
) -> QueryStats {
    let _ = token;
    // SAFETY: the token proves that the CPU has AVX, the only requirement of `cast_avx`.
    unsafe { cast_avx::<EXACT>(tree, ray, f) }
}

/// The traversal compiled with AVX enabled.
///
/// # Safety
/// The CPU must have AVX.
#[target_feature(enable = "avx")]
unsafe fn cast_avx<const EXACT: bool>(
    tree: &WideBvh,
    ray: &Ray,
    f: impl FnMut(u32, Real) -> RayStep,
) -> QueryStats {
    match RayLanes::<V256>::regular(ray) {
        Some(lanes) => tree.cast_ordered::<V256, true, EXACT>(ray, &lanes, f),
        None => tree.cast_ordered::<V256, false, EXACT>(ray, &RayLanes::new(ray), f),
    }
}
