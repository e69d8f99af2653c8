//! # sepax-shapes
//!
//! The primitives of sepax and their single-shape queries: axis-aligned and oriented boxes,
//! spheres, capsules, rays, segments, planes, triangles, frusta, and 2D boxes. Pure geometry: no
//! notion of worlds or pairs (those live in `sepax-narrowphase`).
//!
//! Shapes are small `Copy` values with private fields; checked constructors return
//! [`ShapeError`] naming the shape, the field and the problem. [`math`] fixes `Real` (`f32`, or
//! `f64` with the `f64` feature) and the nalgebra types; [`tolerance`] holds every tolerance
//! constant of the workspace; [`fit`] fits boxes to point sets.

// Casts between `Real` and `f64` are needed in the default `f32` build and are no-ops with `f64`.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

pub mod cast;
pub mod cull;
pub mod error;
pub mod fit;
pub mod math;
mod scale;
pub mod shape;
pub mod tolerance;

pub use cast::RayHit;
pub use cull::{CullMode, PlaneSide, Visibility};
pub use error::ShapeError;
pub use shape::*;
