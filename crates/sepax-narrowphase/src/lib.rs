//! # sepax-narrowphase
//!
//! Pair queries between shapes. Kernels work in the first shape's frame with the second's pose
//! relative to it; results are certified against a proven floating-point error bound where the
//! docs say so (see `docs/tolerance.md` at the workspace root).
//!
//! - [`intersect`]: boolean overlap tests for every pair of [`sepax_shapes::ShapeKind`]s through
//!   one `[kind][kind]` dispatch table, plus certified [`intersect::classify`] and the
//!   [`intersect::explain`] witness for box pairs.
//! - [`sat`]: the one separating-axis test of box pairs (the 15 axis formulas written once,
//!   generic over the lane type), shared by intersect, classify, explain, the contact manifold,
//!   the batch kernels and the box sweep of [`toi`].
//! - [`geometry`]: closest-point building blocks (segments, triangles) shared by the pair tests.
//! - [`contact`]: penetration (minimum translation) and contact manifolds (up to 4 points with
//!   feature ids) for every pair through one `[kind][kind]` table; box pairs by the exact
//!   least-penetration SAT axis and face clipping.
//! - [`distance`]: distances and closest points for every pair (closed forms, GJK for the
//!   polytope pairs) through one `[kind][kind]` table, and point–shape queries.
//! - [`gjk`]: GJK with the signed-volume sub-algorithm, generic over support maps.
//! - [`toi`]: time of impact: swept AABBs, linear casts and rotating motions by conservative
//!   advancement with a proven motion bound.
//! - [`batch`]: structure-of-arrays SIMD kernels for many box pair tests at once (AABB–AABB,
//!   OBB–OBB, sphere–AABB), each lane the scalar test of [`intersect`], on the lane types of
//!   the SIMD floor (`sepax-simd`).

// Casts between `Real` and `f64` are needed in the default `f32` build and are no-ops with `f64`.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

/// Generates a `[ShapeKind][ShapeKind]` dispatch table: one `fn(&Shape, &Shape, extra...) ->
/// Result<R, Unsupported>` per ordered pair of kinds, in [`sepax_shapes::ShapeKind::ALL`] order,
/// whose body is `$pair!(KindA, KindB, x, y, extra...)` on the unwrapped shapes. Shared by the
/// intersect, distance and contact tables, so that they cannot drift apart; each module keeps a
/// test that every entry is present.
macro_rules! kind_table {
    (
        $(#[$meta:meta])*
        $vis:vis static $name:ident: $fn_ty:ident = ($query:literal, fn($($p:ident: $t:ty),*) -> $r:ty, $pair:ident);
    ) => {
        $(#[$meta])*
        $vis static $name: [[Option<$fn_ty>; ::sepax_shapes::ShapeKind::COUNT];
            ::sepax_shapes::ShapeKind::COUNT] = [
            kind_table!(@row $fn_ty, $query, ($($p: $t),*), $r, $pair, Aabb),
            kind_table!(@row $fn_ty, $query, ($($p: $t),*), $r, $pair, Obb),
            kind_table!(@row $fn_ty, $query, ($($p: $t),*), $r, $pair, Sphere),
            kind_table!(@row $fn_ty, $query, ($($p: $t),*), $r, $pair, Capsule),
            kind_table!(@row $fn_ty, $query, ($($p: $t),*), $r, $pair, Triangle),
        ];
    };
    (@row $fn_ty:ident, $query:literal, ($($p:ident: $t:ty),*), $r:ty, $pair:ident, $a:ident) => {
        [
            kind_table!(@entry $fn_ty, $query, ($($p: $t),*), $r, $pair, $a, Aabb),
            kind_table!(@entry $fn_ty, $query, ($($p: $t),*), $r, $pair, $a, Obb),
            kind_table!(@entry $fn_ty, $query, ($($p: $t),*), $r, $pair, $a, Sphere),
            kind_table!(@entry $fn_ty, $query, ($($p: $t),*), $r, $pair, $a, Capsule),
            kind_table!(@entry $fn_ty, $query, ($($p: $t),*), $r, $pair, $a, Triangle),
        ]
    };
    (@entry $fn_ty:ident, $query:literal, ($($p:ident: $t:ty),*), $r:ty, $pair:ident, $a:ident,
     $b:ident) => {{
        fn f(
            a: &::sepax_shapes::Shape,
            b: &::sepax_shapes::Shape
            $(, $p: $t)*
        ) -> Result<$r, $crate::intersect::Unsupported> {
            match (a, b) {
                (::sepax_shapes::Shape::$a(x), ::sepax_shapes::Shape::$b(y)) => {
                    Ok($pair!($a, $b, x, y $(, $p)*))
                }
                // Unreachable through the table's callers, which index by kind.
                _ => Err($crate::intersect::Unsupported {
                    query: $query,
                    a: a.kind(),
                    b: b.kind(),
                }),
            }
        }
        Some(f as $fn_ty)
    }};
}

pub mod batch;
pub mod contact;
pub mod distance;
pub mod geometry;
pub mod gjk;
pub mod intersect;
pub mod sat;
pub mod toi;
