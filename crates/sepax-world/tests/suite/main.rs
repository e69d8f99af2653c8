//! Every integration test of this crate, one module per file, built as one test binary
//! (one compile and link instead of one per file; `no_alloc.rs` stays its own binary
//! where it exists, for its counting allocator). Run one file's tests with
//! `cargo test -p sepax-world --test suite <module>::`.

#[path = "../common/mod.rs"]
mod common;

mod api;
mod brute_force;
mod ccd;
mod debug_draw;
mod determinism;
mod poses;
mod queries;
mod ray_edits;
mod trajectories;
