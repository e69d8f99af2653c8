//! The `[ShapeKind][ShapeKind]` contact table for heterogeneous shapes ([`Shape`]).
//!
//! One entry per ordered pair of kinds; a test checks that every entry is present and that the
//! swapped pair gives the flipped normal. A missing pair would answer [`Unsupported`].

use super::rounded::{self, Rounded};
use super::{box_box, ContactConfig, ContactManifold, Penetration};
use crate::intersect::Unsupported;
use sepax_shapes::Shape;

/// A table entry: the contact manifold for one ordered pair of kinds.
pub type ContactFn =
    fn(&Shape, &Shape, &ContactConfig) -> Result<Option<ContactManifold>, Unsupported>;

fn mismatch(a: &Shape, b: &Shape) -> Unsupported {
    Unsupported {
        query: "contact_manifold",
        a: a.kind(),
        b: b.kind(),
    }
}

/// Box pairs by the least-penetration SAT axis and face clipping; every other pair through the
/// core-plus-radius form.
macro_rules! contact_pair {
    (Aabb, Aabb, $x:ident, $y:ident, $c:ident) => {
        box_box::contact_manifold($x, $y, $c)
    };
    (Aabb, Obb, $x:ident, $y:ident, $c:ident) => {
        box_box::contact_manifold($x, $y, $c)
    };
    (Obb, Aabb, $x:ident, $y:ident, $c:ident) => {
        box_box::contact_manifold($x, $y, $c)
    };
    (Obb, Obb, $x:ident, $y:ident, $c:ident) => {
        box_box::contact_manifold($x, $y, $c)
    };
    ($a:ident, $b:ident, $x:ident, $y:ident, $c:ident) => {
        rounded::manifold(&Rounded::from($x), &Rounded::from($y), $c)
    };
}

kind_table! {
    /// The contact manifolds, indexed `[a.kind() as usize][b.kind() as usize]` in
    /// [`sepax_shapes::ShapeKind::ALL`] order.
    pub static CONTACT_TABLE: ContactFn = (
        "contact_manifold",
        fn(config: &ContactConfig) -> Option<ContactManifold>,
        contact_pair
    );
}

/// The contact manifold of two shapes of any kinds, through [`CONTACT_TABLE`]: `Ok(None)` when
/// they are farther apart than `config.margin`.
pub fn contact_manifold(
    a: &Shape,
    b: &Shape,
    config: &ContactConfig,
) -> Result<Option<ContactManifold>, Unsupported> {
    match CONTACT_TABLE[a.kind() as usize][b.kind() as usize] {
        Some(f) => f(a, b, config),
        None => Err(mismatch(a, b)),
    }
}

/// The minimum translation of two intersecting shapes of any kinds (normal from `a` toward `b`,
/// depth `>= 0`); `Ok(None)` when they are disjoint. Box pairs use the least-penetration SAT axis
/// ([`box_box::penetration`]); the rest the manifold's normal and depth.
pub fn penetration(a: &Shape, b: &Shape) -> Result<Option<Penetration>, Unsupported> {
    let boxed = |p: box_box::BoxPenetration| (p.depth >= 0.0).then(|| p.penetration());
    match (a, b) {
        (Shape::Aabb(x), Shape::Aabb(y)) => Ok(boxed(box_box::penetration(x, y))),
        (Shape::Aabb(x), Shape::Obb(y)) => Ok(boxed(box_box::penetration(x, y))),
        (Shape::Obb(x), Shape::Aabb(y)) => Ok(boxed(box_box::penetration(x, y))),
        (Shape::Obb(x), Shape::Obb(y)) => Ok(boxed(box_box::penetration(x, y))),
        _ => Ok(contact_manifold(a, b, &ContactConfig::default())?
            .map(|m| m.penetration())
            .filter(|p| p.depth >= 0.0)),
    }
}
