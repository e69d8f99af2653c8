//! Closest-point building blocks shared by the pair tests (and by distances later).
//!
//! Every routine here is written to be backward stable: its answer is the exact answer for
//! inputs moved by a few units of roundoff times their magnitude, so the pair tests can bound
//! their error by `k u S` (S a magnitude of the inputs) and stay conservative. The key tool is
//! [`robust::cross_accurate`], which keeps near-zero cross products (nearly parallel edges,
//! sliver triangles) accurate relative to their own size.

pub mod robust;
pub mod segment;
pub mod segment_box;
pub mod triangle;

#[cfg_attr(not(feature = "bench-internals"), allow(unused_imports))]
pub use robust::{cross_accurate, diff_of_products};
#[cfg_attr(not(feature = "bench-internals"), allow(unused_imports))]
pub use segment::{
    closest_point_on_segment, point_segment_distance_squared, segment_segment_closest,
    segment_segment_distance_squared, SegmentSegmentClosest,
};
#[cfg_attr(not(feature = "bench-internals"), allow(unused_imports))]
pub use segment_box::{
    point_local_box_distance_squared, segment_local_box_distance_squared,
    segment_obb_distance_squared,
};
#[cfg_attr(not(feature = "bench-internals"), allow(unused_imports))]
pub use triangle::{
    closest_point_on_triangle, point_triangle_distance_squared, segment_crosses_triangle,
    segment_triangle_distance_squared,
};
