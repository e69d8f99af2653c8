//! # sepax
//!
//! Collision detection built around the two workhorse bounding volumes: the axis-aligned box
//! ([`Aabb`]) and the oriented box ([`Obb`]). This facade re-exports the core crates:
//!
//! - [`shapes`] ([`sepax_shapes`]): primitives, checked construction, single-shape queries, box
//!   fitting ([`fit`]);
//! - [`narrowphase`] ([`sepax_narrowphase`]): pair queries (certified overlap tests, witnesses).
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
//! ```
/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub use sepax_narrowphase as narrowphase;
pub use sepax_shapes as shapes;

pub use sepax_narrowphase::contact::{
    contact_manifold, penetration, ContactConfig, ContactManifold, ContactPoint, FeatureId,
    Penetration,
};
pub use sepax_narrowphase::distance::{closest_points, closest_points_shapes, ClosestPoints};
pub use sepax_narrowphase::intersect::{classify, explain, intersects, Classification};
pub use sepax_narrowphase::toi::{
    cast_shapes, sweep_aabb_aabb, time_of_impact, CastOptions, Motion, Toi, ToiStatus,
};
pub use sepax_shapes::*;

/// Everything a typical user needs, in one import.
pub mod prelude {
    pub use sepax_narrowphase::intersect::{
        classify, explain, intersects, intersects_shapes, BoxShape, BoxWitness, Classification,
        Intersects, SatAxis, Unsupported,
    };
    pub use sepax_shapes::fit::{fit_obb, FitError, Method as FitMethod};
    pub use sepax_shapes::math::*;
    pub use sepax_shapes::{
        Aabb, Aabb2, Capsule, CullMode, Frustum, Obb, Obb2, Plane, PlaneSide, Ray, RayHit, Segment,
        Shape, ShapeError, ShapeKind, Sphere, Triangle, Visibility,
    };
}
