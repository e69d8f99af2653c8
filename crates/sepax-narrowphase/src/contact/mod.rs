//! Penetration (minimum translation) and contact manifolds for every pair of
//! [`sepax_shapes::ShapeKind`]s: [`contact_manifold`] and [`penetration`] on two shape types
//! ([`ContactWith`]), [`contact_manifold_shapes`] and [`penetration_shapes`] on two [`Shape`]s
//! (one exhaustive `match` on the pair of kinds, calling the typed ones).
//!
//! Conventions (the same for every pair):
//! - the normal is a unit vector from the first shape `A` toward the second `B`: translating `B`
//!   by `depth * normal` makes the two shapes touch;
//! - `depth > 0` is penetration, `depth < 0` a gap (speculative contact, reported only while the
//!   gap is at most [`ContactConfig::margin`]); through [`contact_manifold`] with margin 0, a
//!   pair has a manifold exactly when [`crate::intersect::intersects`] reports it
//!   intersecting (box pairs: when [`crate::intersect::classify`] does not certify a gap);
//! - every number is finite for finite shapes; a penetration deeper than `Real::MAX` (shapes
//!   spanning most of the range) is reported as `Real::MAX`;
//! - each [`ContactPoint`] has a point on `A`'s surface, a point on `B`'s surface, its own signed
//!   depth `(point_a - point_b) . normal`, and a [`FeatureId`] naming the features that touch, so
//!   that a solver can carry impulses from one frame to the next.
//!
//! Box pairs ([`box_box`]) take the least-penetration axis among the 15 SAT axes, with a stable
//! tie-break, and build up to 4 points by clipping the incident face against the reference face
//! (or one point from the closest points of two edges). Spheres and capsules are handled in
//! closed form; every shape is a convex *core* (point, segment, box, triangle) grown by a radius,
//! and pairs whose cores overlap fall back to a separating-axis search over the cores
//! (`rounded.rs`).

mod aabb_aabb;
pub mod box_box;
mod dispatch;
mod rounded;

pub use aabb_aabb::aabb_min_translation;
pub use dispatch::{
    contact_manifold, contact_manifold_shapes, penetration, penetration_shapes, ContactWith,
};

use arrayvec::ArrayVec;
use sepax_shapes::math::{Point3, Real, Vector3};
#[cfg(doc)]
use sepax_shapes::Shape;

/// Settings of the contact queries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactConfig {
    /// Largest gap (`>= 0`, world units) at which a separated pair still gets a (speculative)
    /// manifold whose points have negative depth. `0` reports touching and penetrating pairs only.
    pub margin: Real,
}

impl Default for ContactConfig {
    /// `margin = 0`: touching and penetrating pairs only.
    fn default() -> Self {
        Self { margin: 0.0 }
    }
}

impl ContactConfig {
    /// Settings with the speculative margin `margin` (negative or NaN values count as 0).
    #[must_use]
    pub fn with_margin(margin: Real) -> Self {
        Self {
            margin: if margin > 0.0 { margin } else { 0.0 },
        }
    }

    /// The margin as used by the queries: `max(margin, 0)`, and 0 for NaN.
    #[inline]
    pub(crate) fn effective_margin(&self) -> Real {
        if self.margin > 0.0 {
            self.margin
        } else {
            0.0
        }
    }
}

/// The pair of features (vertex, edge, face) that a contact point comes from. Equal ids in two
/// frames mean the same features touch, so a solver may reuse the point's impulse. The encoding
/// is opaque but stable: it depends only on which features touch, not on positions.
///
/// Box–box ids name the features by the boxes' roles (`A` is the first argument), and the
/// box–box queries are symmetric: swapping the arguments gives each point the *mirrored* id
/// ([`box_box::mirror_id`]: the reference face's box takes the other role, or `A`'s and `B`'s
/// edges exchange places), so a solver that caches by `(a, b, id)` finds the same contacts
/// whichever order a pair is queried in, after mirroring the ids of the swapped order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FeatureId(pub u32);

/// One contact point.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct ContactPoint {
    /// The point on `A`'s surface.
    pub point_a: Point3,
    /// The point on `B`'s surface.
    pub point_b: Point3,
    /// Signed depth along the manifold normal: `> 0` penetrating, `< 0` speculative.
    pub depth: Real,
    /// The touching features.
    pub id: FeatureId,
}

impl ContactPoint {
    /// The midpoint of the two surface points (where a solver applies the impulse).
    #[inline]
    pub fn midpoint(&self) -> Point3 {
        // Halved before the sum: the same bits as `(a + b) / 2` wherever that does not
        // overflow (halving is exact above the subnormals), and finite near `Real::MAX`.
        Point3::from(self.point_a.coords * 0.5 + self.point_b.coords * 0.5)
    }
}

/// Up to four contact points sharing one normal; stored inline (no heap).
///
/// For box pairs ([`box_box`]) the manifold is symmetric under the swap of the two boxes, bit
/// for bit: `(b, a)` gives [`box_box::mirror`] of `(a, b)` (normal negated, `point_a` and
/// `point_b` exchanged, ids mirrored; the same reference face, points, depths and order). Every
/// number in a manifold is finite (see `docs/tolerance.md`, "Box–box contact manifolds").
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub struct ContactManifold {
    /// Unit normal from `A` toward `B`.
    pub normal: Vector3,
    /// Penetration depth (the minimum translation distance when `> 0`; minus the gap when
    /// speculative). For boxes it is the least depth over the SAT axes even when a nearly
    /// parallel face axis was preferred for the normal (whose own depth is then larger by at
    /// most `CONTACT_AXIS_PREFERENCE` times the feature scale).
    pub depth: Real,
    /// The points (at least one).
    pub points: ArrayVec<ContactPoint, 4>,
}

impl Default for ContactManifold {
    /// [`ContactManifold::empty`].
    fn default() -> Self {
        Self::empty()
    }
}

impl ContactManifold {
    /// A manifold without points (zero normal and depth): the slot that the in-place queries
    /// ([`box_box::manifold_into`], [`box_box::manifolds_into`]) fill, and
    /// what they leave without points for a pair not in contact.
    #[inline]
    pub fn empty() -> Self {
        Self {
            normal: Vector3::zeros(),
            depth: 0.0,
            points: ArrayVec::new(),
        }
    }

    /// The same manifold seen with the two shapes exchanged: normal negated, surface points and
    /// their roles swapped (feature ids kept; for box pairs [`box_box::mirror`] also mirrors the
    /// ids, giving exactly what the swapped call returns).
    pub fn flipped(mut self) -> Self {
        self.normal = -self.normal;
        for p in &mut self.points {
            core::mem::swap(&mut p.point_a, &mut p.point_b);
        }
        self
    }

    /// The penetration this manifold describes.
    #[inline]
    pub fn penetration(&self) -> Penetration {
        Penetration {
            normal: self.normal,
            depth: self.depth,
        }
    }

    /// The largest point depth (the deepest point).
    pub fn max_point_depth(&self) -> Real {
        self.points
            .iter()
            .map(|p| p.depth)
            .fold(Real::NEG_INFINITY, Real::max)
    }
}

/// A minimum translation: moving `B` by `depth * normal` makes the shapes touch.
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct Penetration {
    /// Unit normal from `A` toward `B`.
    pub normal: Vector3,
    /// Depth (`> 0` penetrating, `0` touching, `< 0` the gap of a speculative pair).
    pub depth: Real,
}

/// A one-point manifold.
#[inline]
pub(crate) fn single(
    normal: Vector3,
    depth: Real,
    point_a: Point3,
    point_b: Point3,
    id: u32,
) -> ContactManifold {
    let mut points = ArrayVec::new();
    points.push(ContactPoint {
        point_a,
        point_b,
        depth,
        id: FeatureId(id),
    });
    ContactManifold {
        normal,
        depth,
        points,
    }
}
