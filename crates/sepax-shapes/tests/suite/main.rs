//! Every integration test of this crate, one module per file, built as one test binary
//! (one compile and link instead of one per file; `no_alloc.rs` stays its own binary
//! where it exists, for its counting allocator). Run one file's tests with
//! `cargo test -p sepax-shapes --test suite <module>::`.

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod cast_props;
mod cull_props;
mod fit_boxes;
mod query_props;
mod rotation_drift;
mod shapes2d_props;
