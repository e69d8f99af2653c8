//! # sepax
//!
//! Collision detection built around the two workhorse bounding volumes: the axis-aligned box
//! ([`Aabb`]) and the oriented box ([`Obb`]). This facade re-exports the core crates:
//!
//! - [`simd`] ([`sepax_simd`]): the SIMD floor: `Real`, the one lane trait and its lane types,
//!   the run-time AVX tokens (every intrinsic of sepax lives there);
//! - [`shapes`] ([`sepax_shapes`]): primitives, checked construction, single-shape queries, every
//!   tolerance constant, box fitting ([`fit`]);
//! - [`narrowphase`] ([`sepax_narrowphase`]): pair queries: certified overlap tests and their
//!   witnesses, contact manifolds, distances and closest points, time of impact;
//! - [`broadphase`] ([`sepax_broadphase`]): the dynamic AABB tree and its alternatives;
//! - [`world`] ([`sepax_world`]): the collision world: colliders, one filter, per-frame update
//!   with sorted begin / persist / end events and contact manifolds, queries, trajectory checks,
//!   continuous collision.
//!
//! Each crate uses only the ones listed before it. Files (scene format, mesh import, SVG) are in
//! the `sepax-scene` crate, the command line in `sepax-cli`, the Python module in `sepax-py`;
//! `docs/guide.md` at the workspace root says where each part lives and how a frame flows.
//!
//! ```
//! use sepax::prelude::*;
//!
//! let floor = Aabb::new(Point3::new(-10.0, -1.0, -10.0), Point3::new(10.0, 0.0, 10.0)).unwrap();
//! let crate_box = Obb::from_rotation(
//!     Point3::new(0.0, 0.5, 0.0),
//!     UnitQuaternion::from_euler_angles(0.0, 0.3, 0.0),
//!     Vector3::new(0.5, 0.5, 0.5),
//! )
//! .unwrap();
//! assert!(intersects(&floor, &crate_box));
//!
//! // A game loop: colliders in a world, one update per frame, events read after it.
//! let mut world = World::new();
//! let floor_id = world.insert(ColliderDesc::new(floor).kind(Kind::Static)).unwrap();
//! let crate_id = world.insert(ColliderDesc::new(crate_box).user(42)).unwrap();
//! let events = world.update(&Serial);
//! assert_eq!(events.begin.len(), 1);
//! assert_eq!(events.begin[0].pair, PairKey::new(floor_id, crate_id));
//! ```
/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub use sepax_broadphase as broadphase;
pub use sepax_narrowphase as narrowphase;
pub use sepax_shapes as shapes;
pub use sepax_simd as simd;
pub use sepax_world as world;

// The pair queries in one naming scheme: each as a generic function on two shape types (the
// pair known at compile time) and as `*_shapes` on two `Shape`s (any kinds, one match).
pub use sepax_narrowphase::contact::{
    contact_manifold, contact_manifold_shapes, penetration, penetration_shapes, ContactConfig,
    ContactManifold, ContactPoint, ContactWith, FeatureId, Penetration,
};
pub use sepax_narrowphase::distance::{
    closest_points, closest_points_shapes, distance, distance_shapes, ClosestPoints,
    ClosestPointsTo,
};
pub use sepax_narrowphase::intersect::{
    classify, explain, intersects, intersects_shapes, BoxShape, BoxWitness, Classification,
    Intersects, SatAxis,
};
pub use sepax_narrowphase::toi::{
    cast, cast_shapes, sweep_aabb_aabb, time_of_impact, time_of_impact_shapes, CastOptions, Motion,
    Toi, ToiStatus,
};
pub use sepax_shapes::*;

/// Everything a typical user needs, in one import: shapes, pair queries, and the world for a
/// game loop.
pub mod prelude {
    pub use sepax_broadphase::bvh::{BvhConfig, DynamicBvh};
    pub use sepax_broadphase::{BroadPhase, ProxyId, Visit};
    pub use sepax_narrowphase::contact::{
        contact_manifold, contact_manifold_shapes, penetration, penetration_shapes, ContactConfig,
        ContactManifold, ContactPoint, FeatureId, Penetration,
    };
    pub use sepax_narrowphase::distance::{
        closest_points, closest_points_shapes, distance, distance_shapes, ClosestPoints,
    };
    pub use sepax_narrowphase::intersect::{
        classify, explain, intersects, intersects_shapes, BoxShape, BoxWitness, Classification,
        SatAxis,
    };
    pub use sepax_narrowphase::toi::{
        cast, cast_shapes, time_of_impact, time_of_impact_shapes, CastOptions, Motion, Toi,
    };
    pub use sepax_shapes::fit::{fit_obb, FitError, Method as FitMethod};
    pub use sepax_shapes::math::*;
    pub use sepax_shapes::{
        Aabb, Aabb2, Capsule, CullMode, Frustum, Obb, Obb2, Plane, PlaneSide, Ray, RayHit, Segment,
        Shape, ShapeError, ShapeKind, Sphere, Triangle, Visibility,
    };
    #[cfg(feature = "parallel")]
    pub use sepax_world::RayonExecutor;
    pub use sepax_world::{
        Collider, ColliderDesc, ColliderId, EventFlags, Events, Executor, Filter, Kind,
        LayerMatrix, OwnerId, PairEvent, PairKey, PairPolicy, Report, Serial, UpdateStats, World,
        WorldConfig, WorldError, NO_MANIFOLD,
    };
}
