//! # sepax-world
//!
//! A collision world: colliders with stable handles, one filter applied before any narrow
//! work, and a per-frame [`World::update`] that reports begin / persist / end events as sorted
//! arrays, with contact manifolds for the pairs that ask. No rigid bodies, no callbacks during
//! the update; the same output bit for bit for any [`Executor`] and thread count.
//!
//! ```
//! use sepax_world::{ColliderDesc, Kind, Report, Serial, World};
//! use sepax_shapes::math::{Isometry3, Point3, Vector3};
//! use sepax_shapes::{Aabb, Obb, Sphere};
//!
//! let mut world = World::new();
//! let floor = Aabb::new(Point3::new(-10.0, -1.0, -10.0), Point3::new(10.0, 0.0, 10.0)).unwrap();
//! let floor = world.insert(ColliderDesc::new(floor).kind(Kind::Static)).unwrap();
//! let ball = Sphere::new(Point3::origin(), 0.5).unwrap();
//! let ball = world
//!     .insert(ColliderDesc::new(ball).pose(Isometry3::translation(0.0, 3.0, 0.0)).user(7))
//!     .unwrap();
//! assert!(world.update(&Serial).begin.is_empty());
//!
//! world.set_pose(ball, Isometry3::translation(0.0, 0.4, 0.0)).unwrap();
//! let events = world.update(&Serial);
//! assert_eq!(events.begin.len(), 1);
//! assert_eq!(events.begin[0].user, [0, 7]); // the floor's user value, then the ball's
//! assert!(world.is_touching(floor, ball));
//!
//! world.remove(ball).unwrap();
//! let events = world.update(&Serial);
//! assert_eq!(events.end.len(), 1);
//! assert!(world.set_pose(ball, Isometry3::identity()).is_err()); // stale id
//! ```
//!
//! Beyond the update: queries on `&World` that see every edit at once ([`query`]: rays,
//! overlaps, shape casts, points, distances, frustums, with filters and collectors), trajectory
//! checks for robots ([`World::check_trajectories`]), continuous collision
//! ([`ColliderDesc::ccd`]) and debug drawing ([`debug`]).
//!
//! The filter rule and the event rules are stated once, on [`World`]; `docs/world.md` at the
//! workspace root is the same contract with the data flow of one update.

// Casts between `Real` and `f64` are needed in the default `f32` build and are no-ops with `f64`.
#![cfg_attr(feature = "f64", allow(clippy::unnecessary_cast))]

mod collider;
pub mod debug;
mod error;
mod events;
mod executor;
mod filter;
mod id;
mod phase;
pub mod query;
mod trajectory;
mod world;

pub use collider::{Collider, ColliderDesc, Kind, Report};
pub use debug::{DebugDraw, DebugDrawOptions, DebugRecorder};
pub use error::{Subject, WorldError};
pub use events::{CcdHit, EventFlags, Events, PairEvent, PhaseTimes, UpdateStats, NO_MANIFOLD};
#[cfg(feature = "parallel")]
pub use executor::RayonExecutor;
pub use executor::{Executor, Serial};
pub use filter::{Filter, LayerMatrix, PairPolicy};
pub use id::{ColliderId, OwnerId, PairKey};
pub use phase::MovingPhase;
pub use query::{
    frustum_visibility, All, AnyHit, Closest, Collector, DistanceHit, FirstN, FnCollector,
    FrustumHit, Hit, KindMask, PointHit, QueryError, QueryFilter, RayCastHit, ShapeCast,
    ShapeCastHit, Step,
};
pub use sepax_broadphase::Visit;
pub use trajectory::{
    Sweep, TrajectoryDistance, TrajectoryError, TrajectoryHit, TrajectoryOptions, TrajectoryReport,
    TrajectoryResult,
};
pub use world::{StateHasher, World, WorldConfig};
