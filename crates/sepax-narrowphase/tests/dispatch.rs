//! The `[kind][kind]` dispatch table: complete, consistent with the typed `Intersects`
//! implementations for all 25 ordered pairs, and symmetric in its arguments.
//!
//! Shapes are random, of every kind, generated in `Real` (so every value is exactly what the
//! kernels and the exact reference see), with some zero sizes, point capsules and degenerate
//! triangles. Symmetry: reversed entries call the same kernel with the arguments swapped, so the
//! answers must be equal, except for OBB–OBB, whose certified test runs in the first box's frame
//! and may differ between the orders; such a disagreement is legitimate only when one order said
//! `Uncertain`, i.e. when the exact margin is inside the band of docs/tolerance.md §4, which is
//! checked with the exact reference.

// Real -> f64 casts are identities in the f64 build.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

mod common;

use common::{exact_shapes_intersect, pair_scale, shape_box, AnyBox, Gen};
use sepax_narrowphase::intersect::{
    classify, intersects, intersects_shapes, Classification, Unsupported, INTERSECT_TABLE,
};
use sepax_narrowphase::sat::certified::CERT_ROUNDING_FACTOR;
use sepax_shapes::math::Point3;
use sepax_shapes::{Shape, ShapeKind};

/// The typed query `intersects(x, y)` for whatever the two shapes hold (25 arms).
fn typed(a: &Shape, b: &Shape) -> bool {
    macro_rules! arms {
        ($($A:ident),*) => {
            arms!(@rows [$($A),*] [$($A),*])
        };
        (@rows [$($A:ident),*] $all:tt) => {
            match (a, b) {
                $( arms!(@row $A $all) )*
            }
        };
        (@row $A:ident [$($B:ident),*]) => {
            $( (Shape::$A(x), Shape::$B(y)) => return intersects(x, y), )*
        };
    }
    #[allow(unreachable_patterns)]
    {
        typed_match(a, b)
    }
}

/// Written out: a macro cannot expand to a list of match arms across two repetitions cleanly,
/// and 25 explicit arms also document the pairs.
fn typed_match(a: &Shape, b: &Shape) -> bool {
    use Shape::*;
    match (a, b) {
        (Aabb(x), Aabb(y)) => intersects(x, y),
        (Aabb(x), Obb(y)) => intersects(x, y),
        (Aabb(x), Sphere(y)) => intersects(x, y),
        (Aabb(x), Capsule(y)) => intersects(x, y),
        (Aabb(x), Triangle(y)) => intersects(x, y),
        (Obb(x), Aabb(y)) => intersects(x, y),
        (Obb(x), Obb(y)) => intersects(x, y),
        (Obb(x), Sphere(y)) => intersects(x, y),
        (Obb(x), Capsule(y)) => intersects(x, y),
        (Obb(x), Triangle(y)) => intersects(x, y),
        (Sphere(x), Aabb(y)) => intersects(x, y),
        (Sphere(x), Obb(y)) => intersects(x, y),
        (Sphere(x), Sphere(y)) => intersects(x, y),
        (Sphere(x), Capsule(y)) => intersects(x, y),
        (Sphere(x), Triangle(y)) => intersects(x, y),
        (Capsule(x), Aabb(y)) => intersects(x, y),
        (Capsule(x), Obb(y)) => intersects(x, y),
        (Capsule(x), Sphere(y)) => intersects(x, y),
        (Capsule(x), Capsule(y)) => intersects(x, y),
        (Capsule(x), Triangle(y)) => intersects(x, y),
        (Triangle(x), Aabb(y)) => intersects(x, y),
        (Triangle(x), Obb(y)) => intersects(x, y),
        (Triangle(x), Sphere(y)) => intersects(x, y),
        (Triangle(x), Capsule(y)) => intersects(x, y),
        (Triangle(x), Triangle(y)) => intersects(x, y),
    }
}
