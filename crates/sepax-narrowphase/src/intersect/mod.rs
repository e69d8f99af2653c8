//! Boolean overlap tests. One file per shape pair; the dispatch table at the bottom maps
//! `[ShapeKind][ShapeKind]` to them.

pub mod aabb_aabb;
pub mod obb_obb;

// --- pair modules for spheres, capsules and triangles (one file per pair) ---
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
