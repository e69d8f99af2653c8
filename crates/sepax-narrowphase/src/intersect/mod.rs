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

mod dispatch;

pub use crate::sat::{Classification, SatAxis};
pub use dispatch::{intersects_shapes, IntersectFn, Unsupported, INTERSECT_TABLE};
pub use obb_obb::{classify, explain, BoxRef, BoxShape, BoxWitness};

use sepax_shapes::{Aabb, Capsule, Obb, Sphere, Triangle};

/// A shape type that has an overlap test against `B`. Implemented for every ordered pair of
/// [`Aabb`], [`Obb`], [`Sphere`], [`Capsule`] and [`Triangle`]; reversed pairs call the same
/// kernel with the arguments swapped, so the answer never depends on argument order.
pub trait Intersects<B: ?Sized> {
    /// Whether the two closed shapes share a point (touching counts).
    fn intersects(&self, other: &B) -> bool;
}

/// Whether two shapes intersect (closed sets: touching counts).
///
/// Box pairs (AABB, OBB) are certified: an intersecting pair is never reported as separated, and
/// a pair reported as intersecting that is not lies within the band of docs/tolerance.md. The
/// other pairs follow the same contract with the bands documented in their files.
#[inline(always)]
pub fn intersects<A: Intersects<B> + ?Sized, B: ?Sized>(a: &A, b: &B) -> bool {
    a.intersects(b)
}

macro_rules! pair {
    ($A:ty, $B:ty, $f:path) => {
        impl Intersects<$B> for $A {
            #[inline(always)]
            fn intersects(&self, other: &$B) -> bool {
                $f(self, other)
            }
        }
    };
    ($A:ty, $B:ty, $f:path, swapped) => {
        impl Intersects<$B> for $A {
            #[inline(always)]
            fn intersects(&self, other: &$B) -> bool {
                $f(other, self)
            }
        }
    };
}

// Boxes.
pair!(Aabb, Aabb, aabb_aabb::intersects);
pair!(Aabb, Obb, obb_obb::intersects);
pair!(Obb, Aabb, obb_obb::intersects);
pair!(Obb, Obb, obb_obb::intersects);
// Spheres.
pair!(Sphere, Sphere, sphere_sphere::intersects);
pair!(Sphere, Aabb, sphere_aabb::intersects);
pair!(Aabb, Sphere, sphere_aabb::intersects, swapped);
pair!(Sphere, Obb, sphere_obb::intersects);
pair!(Obb, Sphere, sphere_obb::intersects, swapped);
pair!(Sphere, Capsule, sphere_capsule::intersects);
pair!(Capsule, Sphere, sphere_capsule::intersects, swapped);
pair!(Sphere, Triangle, sphere_triangle::intersects);
pair!(Triangle, Sphere, sphere_triangle::intersects, swapped);
// Capsules.
pair!(Capsule, Capsule, capsule_capsule::intersects);
pair!(Capsule, Aabb, capsule_aabb::intersects);
pair!(Aabb, Capsule, capsule_aabb::intersects, swapped);
pair!(Capsule, Obb, capsule_obb::intersects);
pair!(Obb, Capsule, capsule_obb::intersects, swapped);
pair!(Capsule, Triangle, capsule_triangle::intersects);
pair!(Triangle, Capsule, capsule_triangle::intersects, swapped);
// Triangles.
pair!(Triangle, Triangle, triangle_triangle::intersects);
pair!(Triangle, Aabb, triangle_aabb::intersects);
pair!(Aabb, Triangle, triangle_aabb::intersects, swapped);
pair!(Triangle, Obb, triangle_obb::intersects);
pair!(Obb, Triangle, triangle_obb::intersects, swapped);
