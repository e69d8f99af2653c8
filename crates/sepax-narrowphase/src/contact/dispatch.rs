//! The `[ShapeKind][ShapeKind]` contact table for heterogeneous shapes ([`Shape`]).
//!
//! One entry per ordered pair of kinds; a test checks that every entry is present and that the
//! swapped pair gives the flipped normal. A missing pair would answer [`Unsupported`].

use super::rounded::{self, Core, Rounded};
use super::{box_box, ContactConfig, ContactManifold, Penetration};
use crate::intersect::{intersects, BoxShape, Intersects, Unsupported};
use sepax_shapes::math::Real;
use sepax_shapes::tolerance::SEPARATION_TOLERANCE;
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

/// Box pairs by the least-penetration SAT axis and face clipping ([`boxes`]); every other pair
/// through the core-plus-radius form, which consults the pair's overlap test near the margin.
macro_rules! contact_pair {
    (Aabb, Aabb, $x:ident, $y:ident, $c:ident) => {
        boxes($x, $y, $c)
    };
    (Aabb, Obb, $x:ident, $y:ident, $c:ident) => {
        boxes($x, $y, $c)
    };
    (Obb, Aabb, $x:ident, $y:ident, $c:ident) => {
        boxes($x, $y, $c)
    };
    (Obb, Obb, $x:ident, $y:ident, $c:ident) => {
        boxes($x, $y, $c)
    };
    ($a:ident, $b:ident, $x:ident, $y:ident, $c:ident) => {
        rounded::manifold(&Rounded::from($x), &Rounded::from($y), $c, || {
            intersects($x, $y)
        })
    };
}

/// A box pair through the table: [`box_box::contact_manifold`], made to agree with the
/// certified overlap test ([`crate::intersect::classify`]) at the margin. The box kernel keeps
/// pairs up to `SEPARATION_TOLERANCE * S` beyond the margin (so that touching pairs are not lost
/// to its rounding); such a manifold, and with margin 0 any of depth within twice that of 0,
/// is kept only when the boxes are not certified separated. An intersecting pair for which the
/// box kernel finds no point (degenerate boxes whose clipped faces come out empty) gets the
/// manifold of the general core SAT ([`rounded`]), as does a pair whose box-kernel result
/// holds a non-finite number (overflow near the top of the range).
fn boxes<A, B>(x: &A, y: &B, config: &ContactConfig) -> Option<ContactManifold>
where
    A: BoxShape + Intersects<B>,
    B: BoxShape,
    for<'r> Rounded: From<&'r A> + From<&'r B>,
{
    let margin = config.effective_margin();
    let general = || {
        rounded::manifold(&Rounded::from(x), &Rounded::from(y), config, || {
            intersects(x, y)
        })
    };
    match box_box::contact_manifold(x, y, config) {
        // Overflow inside the box kernel (coordinates near the top of the range): the general
        // path computes on rescaled numbers.
        Some(m) if !finite(&m) => general(),
        Some(m) => {
            let keep = if margin > 0.0 {
                m.depth >= -margin
            } else {
                m.depth
                    > 2.0 * SEPARATION_TOLERANCE * box_scale(&Rounded::from(x), &Rounded::from(y))
            };
            (keep || intersects(x, y)).then_some(m)
        }
        None if intersects(x, y) => {
            rounded::manifold(&Rounded::from(x), &Rounded::from(y), config, || true)
        }
        None => None,
    }
}

/// Whether every number of `m` is finite.
fn finite(m: &ContactManifold) -> bool {
    m.normal.iter().all(|x| x.is_finite())
        && m.depth.is_finite()
        && m.points.iter().all(|p| {
            p.depth.is_finite()
                && p.point_a.iter().all(|x| x.is_finite())
                && p.point_b.iter().all(|x| x.is_finite())
        })
}

/// `S = sum h_A + sum h_B + |c_B - c_A|_1`, computed in halves (no overflow near `Real::MAX`).
fn box_scale(x: &Rounded, y: &Rounded) -> Real {
    let (Core::Box(a), Core::Box(b)) = (&x.core, &y.core) else {
        return 0.0;
    };
    let d = b.center().coords * 0.5 - a.center().coords * 0.5;
    let h = (a.half_extents().sum() + b.half_extents().sum()) * 0.5;
    (h + d.abs().sum()).min(Real::MAX / 2.0) * 2.0
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
