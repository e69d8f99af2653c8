//! Every integration test of this crate, one module per file, built as one test binary
//! (one compile and link instead of one per file; `no_alloc.rs` stays its own binary
//! where it exists, for its counting allocator). Run one file's tests with
//! `cargo test -p sepax-scene --test suite <module>::`.

mod debug_svg;
mod errors;
mod frames;
mod malformed;
mod mesh_fuzz;
mod mesh_hostile;
mod mesh_import;
mod numbers;
mod read;
mod roundtrip;
mod svg;
mod svg_drawing;
mod version2;
