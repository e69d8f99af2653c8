//! Every integration test of this crate, one module per file, built as one test binary
//! (one compile and link instead of one per file; `no_alloc.rs` stays its own binary
//! where it exists, for its counting allocator). Run one file's tests with
//! `cargo test -p sepax-broadphase --test suite <module>::`.

mod alternatives;
mod bvh;
mod bvh_chunks;
mod bvh_queries;
mod family;
mod wide_bvh;
