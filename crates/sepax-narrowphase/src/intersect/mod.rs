//! Boolean overlap tests. One file per shape pair; the dispatch table at the bottom maps
//! `[ShapeKind][ShapeKind]` to them.

pub mod aabb_aabb;
pub mod obb_obb;

// --- pair modules for spheres, capsules and triangles (one file per pair) ---
pub mod capsule_aabb;
pub mod capsule_capsule;
pub mod capsule_obb;
pub mod capsule_triangle;
pub mod sphere_aabb;
pub mod sphere_capsule;
pub mod sphere_obb;
pub mod sphere_sphere;
pub mod sphere_triangle;
pub mod triangle_aabb;
pub mod triangle_obb;
pub mod triangle_triangle;
// --- end of pair modules ---

pub use crate::sat::{Classification, SatAxis};
pub use obb_obb::{classify, explain, BoxShape, BoxWitness};

/// Whether two boxes intersect (closed sets: touching counts). Box pairs are certified: an
/// intersecting pair is never reported as separated, and a pair reported as intersecting is
/// within the documented band of touching when it is not.
#[inline]
pub fn intersects<A: BoxShape, B: BoxShape>(a: &A, b: &B) -> bool {
    obb_obb::intersects(a, b)
}
