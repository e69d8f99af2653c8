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

// Casts between `Real` and `f64` are needed in the default `f32` build and are no-ops with `f64`.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

pub mod geometry;
pub mod intersect;
pub mod sat;
