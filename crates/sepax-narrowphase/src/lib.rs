//! # sepax-narrowphase
//!
//! Pair queries between shapes. Kernels work in the first shape's frame with the second's pose
//! relative to it; results are certified against a proven floating-point error bound where the
//! docs say so (see `docs/tolerance.md` at the workspace root).
//!
//! - [`intersect`]: boolean overlap tests for every pair of [`sepax_shapes::ShapeKind`]s through
//!   one `[kind][kind]` dispatch table, plus certified [`intersect::classify`] and the
//!   [`intersect::explain`] witness for box pairs.
//! - [`sat`]: the separating-axis kernels for box pairs, shared by intersect and explain (and by
//!   contacts later).
//! - [`geometry`]: closest-point building blocks (segments, triangles) shared by the pair tests.
//! - [`contact`]: penetration (minimum translation) and contact manifolds (up to 4 points with
//!   feature ids) for every pair through one `[kind][kind]` table; box pairs by the exact
//!   least-penetration SAT axis and face clipping.
//! - [`distance`]: distances and closest points for every pair (closed forms, GJK for the
//!   polytope pairs) through one `[kind][kind]` table, and point–shape queries.
//! - [`gjk`]: GJK with the signed-volume sub-algorithm, generic over support maps.
//! - [`toi`]: time of impact: swept AABBs, linear casts and rotating motions by conservative
//!   advancement with a proven motion bound.

// Casts between `Real` and `f64` are needed in the default `f32` build and are no-ops with `f64`.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

pub mod contact;
pub mod distance;
pub mod geometry;
pub mod gjk;
pub mod intersect;
pub mod sat;
pub mod toi;
