//! # sepax-shapes
//!
//! The primitives of sepax and their single-shape queries: axis-aligned and oriented boxes,
//! spheres, capsules, rays, segments, planes, triangles, frusta, and 2D boxes. Pure geometry: no
//! notion of worlds or pairs (those live in `sepax-narrowphase`).
//!
//! Shapes are small `Copy` values with private fields; checked constructors return
//! [`ShapeError`] naming the shape, the field and the problem.

pub mod error;
pub mod math;
pub mod shape;
pub mod tolerance;

pub use error::ShapeError;
pub use shape::*;
