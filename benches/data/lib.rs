//! The data sets of sepax's benchmarks and their conversions to the peers' types, shared by the
//! benches of this crate and the profilers of sepax-tools, so that a profile runs on exactly the
//! bench's data.

// The data modules are the benches' and tools' own (this crate is not published): their items
// are documented where it helps a reader of a bench, not each field.
#![allow(missing_docs)]
// A scene's `len` counts its colliders; an empty scene is never built.
#![allow(clippy::len_without_is_empty)]
// Casts between Real and f32/f64 are identities in one of the two builds.
#![allow(clippy::unnecessary_cast)]

pub mod cast_cases;
pub mod shared;

/// The box pairs of the contact benchmark (in sepax-testkit, so that the manifold digest builds
/// without a peer).
pub use sepax_testkit::box_pairs;

/// The broad phase's data: the oriented boxes of the batch kernels, the streamed sum, and
/// parry3d's view of the moving-boxes scene of `sepax_testkit::scene`.
pub mod broadphase {
    pub mod obbs;
    mod parry;
    pub mod stream;

    pub use parry::ParryAabb;
    pub use sepax_testkit::scene;
}

/// The world's data: the scenes of mixed shapes, and the runs of one frame in sepax, rapier3d
/// and parry3d.
pub mod world {
    pub mod runs;

    pub use runs::scene;
}
