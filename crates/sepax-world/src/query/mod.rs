//! Queries on `&self`: rays, overlaps, shape casts (linear and rotational), the closest collider
//! to a point, distances from a shape, frustums, and their batch forms.
//!
//! Every query is *fresh*: the trees are updated by each edit (`set_pose`, `set_poses`,
//! `insert`, `remove`, ...) at once, so a query between two updates sees the current poses.
//! The trees only find candidates (stored boxes contain the placed shapes grown by the rounding
//! band); every candidate is then tested against its exact placed shape
//! ([`crate::Collider::world_shape`]). Which colliders are seen is a [`QueryFilter`]; what is
//! kept is a [`Collector`] (closest, any, all, first N, or your own, with early out). Ties are
//! broken by collider id, so the built-in collectors give the same answer whatever order the
//! trees visit leaves in, and the batch forms the same answer for any executor and thread
//! count.
//!
//! ```
//! use sepax_world::{ColliderDesc, Kind, QueryFilter, World};
//! use sepax_shapes::math::{Isometry3, Point3, Vector3};
//! use sepax_shapes::{Aabb, Ray, Shape, Sphere};
//!
//! let mut world = World::new();
//! let floor = Aabb::new(Point3::new(-10.0, -1.0, -10.0), Point3::new(10.0, 0.0, 10.0)).unwrap();
//! let floor = world.insert(ColliderDesc::new(floor).kind(Kind::Static)).unwrap();
//! let all = QueryFilter::new();
//!
//! // The nearest hit of a ray straight down from y = 5.
//! let down = Ray::new(Point3::new(0.0, 5.0, 0.0), -Vector3::y(), 100.0).unwrap();
//! let hit = world.cast_ray(&down, &all).unwrap().unwrap();
//! assert_eq!((hit.id, hit.distance), (floor, 5.0));
//!
//! // Which colliders a ball at y = 0.25 touches (no update needed).
//! let ball = Shape::Sphere(Sphere::new(Point3::origin(), 0.5).unwrap());
//! let mut touching = Vec::new();
//! world.overlap(&ball, &Isometry3::translation(0.0, 0.25, 0.0), &all, &mut touching).unwrap();
//! assert_eq!(touching, vec![floor]);
//! ```
//!
//! `docs/world.md` (section "Queries") states the same contract.

mod batch;
mod cast;
mod collect;
mod distance;
mod error;
mod filter;
mod frustum;
mod nearest;
mod overlap;
mod point;
mod ray;
mod rotational;
mod table;

pub use batch::{ShapeCast, QUERY_CHUNK};
pub use cast::ShapeCastHit;
pub use collect::{All, AnyHit, Closest, Collector, FirstN, FnCollector, Hit, Step};
pub use distance::DistanceHit;
pub use error::QueryError;
pub use filter::{KindMask, Predicate, QueryFilter};
pub use frustum::{frustum_visibility, FrustumHit};
pub use point::PointHit;
pub use ray::RayCastHit;
pub(crate) use table::RayTables;

use crate::collider::{check_pose, place, Collider, Kind};
use crate::error::Subject;
use crate::id::ColliderId;
use crate::phase::MovingPhase;
use crate::world::World;
use filter::Resolved;
use sepax_broadphase::{BroadPhase, ProxyId, Visit};
use sepax_shapes::math::{Isometry3, Real};
use sepax_shapes::{Aabb, Shape};

impl<B: MovingPhase> World<B> {
    /// The filter checked against the world: its ids must be live.
    pub(crate) fn resolve<'q, 'a>(
        &'q self,
        q: &'q QueryFilter<'a>,
    ) -> Result<Resolved<'q, 'a>, QueryError> {
        if let Some(e) = q.exclude {
            self.colliders.get(e).ok_or(QueryError::StaleId(e))?;
        }
        let source = match q.as_collider {
            Some(s) => Some(self.colliders.get(s).ok_or(QueryError::StaleId(s))?),
            None => None,
        };
        Ok(Resolved::new(q, source))
    }

    /// The collider of a proxy of the moving phase (`moving`) or of the static tree.
    #[inline]
    pub(crate) fn proxy_collider(
        &self,
        moving: bool,
        p: ProxyId,
    ) -> Option<(ColliderId, &Collider)> {
        let bits = if moving {
            self.moving.user(p)
        } else {
            self.statics.user(p)
        }?;
        let id = ColliderId::from_bits(bits);
        Some((id, self.colliders.get(id)?))
    }

    /// Calls `f(collider id, collider, stored box)` for every seen collider whose stored box
    /// overlaps `aabb` (moving colliders first, then static ones) until `f` returns `false`.
    pub(crate) fn visit_aabb(
        &self,
        aabb: &Aabb,
        sees: &Resolved<'_, '_>,
        mut f: impl FnMut(ColliderId, &Collider, &Aabb) -> bool,
    ) {
        let kinds = sees.kinds();
        let mut go = true;
        if kinds.contains(Kind::Kinematic) || kinds.contains(Kind::Dynamic) {
            self.moving.query_aabb(aabb, &mut |p| {
                let Some((id, c)) = self.proxy_collider(true, p) else {
                    return Visit::Continue;
                };
                let Some(b) = self.moving.stored_aabb(p) else {
                    return Visit::Continue;
                };
                if sees.sees(id, c) && !f(id, c, &b) {
                    go = false;
                    return Visit::Stop;
                }
                Visit::Continue
            });
        }
        if go && kinds.contains(Kind::Static) {
            self.statics.query_aabb(aabb, |p| {
                let Some((id, c)) = self.proxy_collider(false, p) else {
                    return Visit::Continue;
                };
                let Some(b) = self.statics.stored_aabb(p) else {
                    return Visit::Continue;
                };
                if sees.sees(id, c) && !f(id, c, &b) {
                    return Visit::Stop;
                }
                Visit::Continue
            });
        }
    }
}

/// A query shape placed by its pose, with its box grown by the narrow phase's rounding band
/// (as the colliders' are), checked like a collider's (`index`: position in a batch).
pub(crate) fn place_query(
    index: usize,
    shape: &Shape,
    pose: &Isometry3,
) -> Result<(Shape, Aabb), QueryError> {
    let who = Subject::New { index };
    let wrap = |source| QueryError::Input { index, source };
    let pose = check_pose(who, pose).map_err(wrap)?;
    place(who, shape, &pose).map_err(wrap)
}

/// Checks that `value` is finite and `>= 0` (or `+inf` when `infinite_ok`).
pub(crate) fn check_limit(
    index: usize,
    field: &'static str,
    value: Real,
    infinite_ok: bool,
) -> Result<(), QueryError> {
    let ok = value >= 0.0 && (value.is_finite() || (infinite_ok && value == Real::INFINITY));
    if ok {
        Ok(())
    } else {
        Err(QueryError::BadNumber {
            index,
            field,
            value: value as f64,
        })
    }
}

/// Checks that every component is finite.
pub(crate) fn check_finite(
    index: usize,
    field: &'static str,
    v: &[Real],
) -> Result<(), QueryError> {
    match v.iter().find(|x| !x.is_finite()) {
        None => Ok(()),
        Some(&x) => Err(QueryError::BadNumber {
            index,
            field,
            value: x as f64,
        }),
    }
}
