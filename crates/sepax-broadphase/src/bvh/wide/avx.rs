//! Runtime selection of AVX for ray casts: the traversal of `ordered.rs` compiled a second time
//! inside the floor's `Avx::run`, with its AVX lane vector (one register of 8 × f32, or two
//! of 4 × f64 with the `f64` feature: always [`WIDTH`] lanes).
//!
//! Soundness: the token and the AVX register are `sepax-simd`'s (its `# Soundness` section);
//! no `unsafe` here. Each AVX lane operation is the same IEEE operation as the portable lane
//! operation, so the results equal the portable ones bit for bit; the tests run both.

use super::ray_lanes::RayLanes;
use super::{WideBvh, WIDTH};
use crate::bvh::RayStep;
use crate::QueryStats;
use sepax_shapes::math::Real;
use sepax_shapes::Ray;
use sepax_simd::{Avx, Lane256, LaneKernel};

const _: () = assert!(WIDTH == sepax_simd::LANES);

/// [`WideBvh::cast_ray`] (`EXACT`) or `cast_ray_candidates` with AVX (on a non-empty tree).
#[inline]
pub(crate) fn cast_ray<const EXACT: bool>(
    token: Avx,
    tree: &WideBvh,
    ray: &Ray,
    f: impl FnMut(u32, Real) -> RayStep,
) -> QueryStats {
    token.run(Cast::<EXACT>, tree, ray, f, ())
}

/// The traversal, as the kernel that the token runs on its register.
struct Cast<const EXACT: bool>;

impl<'a, F: FnMut(u32, Real) -> RayStep, const EXACT: bool> LaneKernel<&'a WideBvh, &'a Ray, F>
    for Cast<EXACT>
{
    type Output = QueryStats;
    /// The traversal on the lane vector `V` (the AVX register, compiled with AVX enabled).
    #[inline(always)]
    fn run<V: Lane256>(self, tree: &'a WideBvh, ray: &'a Ray, f: F, _: ()) -> QueryStats {
        match RayLanes::<V>::regular(ray) {
            Some(lanes) => tree.cast_ordered::<V, true, EXACT>(ray, &lanes, f),
            None => tree.cast_ordered::<V, false, EXACT>(ray, &RayLanes::new(ray), f),
        }
    }
}
