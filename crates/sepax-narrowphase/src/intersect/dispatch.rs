//! The `[ShapeKind][ShapeKind]` dispatch table for heterogeneous shapes ([`Shape`]).
//!
//! One entry per ordered pair of kinds; a test checks that every entry is present and agrees with
//! the typed [`Intersects`] implementations. A missing pair would answer [`Unsupported`], never a
//! silent `false`.

use super::Intersects;
use sepax_shapes::{Shape, ShapeKind};

/// Why a pair query could not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("no {query} test for the pair ({}, {})", .a.name(), .b.name())]
pub struct Unsupported {
    /// The query that was asked.
    pub query: &'static str,
    /// The first shape's kind.
    pub a: ShapeKind,
    /// The second shape's kind.
    pub b: ShapeKind,
}

/// A table entry: the overlap test for one ordered pair of kinds.
pub type IntersectFn = fn(&Shape, &Shape) -> Result<bool, Unsupported>;

macro_rules! intersect_pair {
    ($a:ident, $b:ident, $x:ident, $y:ident) => {
        Intersects::intersects($x, $y)
    };
}

kind_table! {
    /// The overlap tests, indexed `[a.kind() as usize][b.kind() as usize]` in
    /// [`ShapeKind::ALL`] order.
    pub static INTERSECT_TABLE: IntersectFn = ("intersects", fn() -> bool, intersect_pair);
}

/// Whether two shapes of any kinds intersect, through [`INTERSECT_TABLE`].
pub fn intersects_shapes(a: &Shape, b: &Shape) -> Result<bool, Unsupported> {
    match INTERSECT_TABLE[a.kind() as usize][b.kind() as usize] {
        Some(f) => f(a, b),
        None => Err(Unsupported {
            query: "intersects",
            a: a.kind(),
            b: b.kind(),
        }),
    }
}
