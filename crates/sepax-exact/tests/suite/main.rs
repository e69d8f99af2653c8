//! Every integration test of this crate, one module per file, built as one test binary
//! (one compile and link instead of one per file; `no_alloc.rs` stays its own binary
//! where it exists, for its counting allocator). Run one file's tests with
//! `cargo test -p sepax-exact --test suite <module>::`.

#[path = "../common/mod.rs"]
mod common;

mod box_box;
mod shapes;
