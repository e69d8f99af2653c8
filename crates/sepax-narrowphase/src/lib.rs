//! # sepax-narrowphase
//!
//! Pair queries between shapes. Kernels work in the first shape's frame with the second's pose
//! relative to it; results are certified against a proven floating-point error bound where the
//! docs say so (see `docs/tolerance.md` at the workspace root).
//!
//! - [`intersect`]: boolean overlap tests for every pair of [`sepax_shapes::ShapeKind`]s through
//!   one exhaustive match on the pair of kinds, plus certified [`intersect::classify`] and the
//!   [`intersect::explain`] witness for box pairs.
//! - [`sat`]: the one separating-axis test of box pairs (the 15 axis formulas written once,
//!   generic over the lane type), shared by intersect, classify, explain, the contact manifold,
//!   the batch kernels and the box sweep of [`toi`].
//! - `geometry/`: closest-point building blocks (segments, triangles) shared by the pair tests.
//! - [`contact`]: penetration (minimum translation) and contact manifolds (up to 4 points with
//!   feature ids) for every pair through one exhaustive match on the pair of kinds; box pairs by
//!   the exact least-penetration SAT axis and face clipping.
//! - [`distance`]: distances and closest points for every pair (closed forms, GJK for the
//!   polytope pairs) through one exhaustive match on the pair of kinds, and point–shape queries.
//! - [`gjk`]: GJK with the signed-volume sub-algorithm, generic over support maps.
//! - [`toi`]: time of impact: swept AABBs, linear casts and rotating motions by conservative
//!   advancement with a proven motion bound.
//! - [`batch`]: structure-of-arrays SIMD kernels for many box pair tests at once (AABB–AABB,
//!   OBB–OBB, sphere–AABB), each lane the scalar test of [`intersect`], on the lane types of
//!   the SIMD floor (`sepax-simd`).

// Casts between `Real` and `f64` are needed in the default `f32` build and are no-ops with `f64`.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

/// Dispatches a pair query on two [`sepax_shapes::Shape`]s: expands to one `match (a, b)` with
/// an arm per ordered pair of kinds (all 25, in [`sepax_shapes::ShapeKind::ALL`] order, no
/// wildcard, so the compiler proves it exhaustive), whose body is
/// `$pair!(KindA, KindB, x, y, extra...)` on the unwrapped shapes. Shared by the intersect,
/// distance and contact queries, so that they cannot drift apart.
macro_rules! kind_match {
    (($a:expr, $b:expr) => $pair:ident($($p:ident),*)) => {
        kind_match!(@rows ($a, $b) $pair ($($p),*) [Aabb Obb Sphere Capsule Triangle] [])
    };
    (@rows $ab:tt $pair:ident ($($p:ident),*) [$k:ident $($rest:ident)*] [$($arms:tt)*]) => {
        kind_match!(@rows $ab $pair ($($p),*) [$($rest)*] [
            $($arms)*
            (::sepax_shapes::Shape::$k(x), ::sepax_shapes::Shape::Aabb(y)) => {
                $pair!($k, Aabb, x, y $(, $p)*)
            }
            (::sepax_shapes::Shape::$k(x), ::sepax_shapes::Shape::Obb(y)) => {
                $pair!($k, Obb, x, y $(, $p)*)
            }
            (::sepax_shapes::Shape::$k(x), ::sepax_shapes::Shape::Sphere(y)) => {
                $pair!($k, Sphere, x, y $(, $p)*)
            }
            (::sepax_shapes::Shape::$k(x), ::sepax_shapes::Shape::Capsule(y)) => {
                $pair!($k, Capsule, x, y $(, $p)*)
            }
            (::sepax_shapes::Shape::$k(x), ::sepax_shapes::Shape::Triangle(y)) => {
                $pair!($k, Triangle, x, y $(, $p)*)
            }
        ])
    };
    (@rows ($a:expr, $b:expr) $pair:ident ($($p:ident),*) [] [$($arms:tt)*]) => {
        match ($a, $b) {
            $($arms)*
        }
    };
}

pub mod batch;
pub mod contact;
pub mod distance;
// Closest-point building blocks and robust arithmetic of the pair tests: internals, public
// (hidden from the docs) only with the `bench-internals` feature.
#[cfg(feature = "bench-internals")]
#[doc(hidden)]
pub mod geometry;
#[cfg(not(feature = "bench-internals"))]
pub(crate) mod geometry;
pub mod gjk;
pub mod intersect;
pub mod sat;
pub mod toi;
