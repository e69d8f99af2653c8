//! Every integration test of this crate, one module per file, built as one test binary
//! (one compile and link instead of one per file; `no_alloc.rs` stays its own binary
//! where it exists, for its counting allocator). Run one file's tests with
//! `cargo test -p sepax-cli --test suite <module>::`.

mod common;

mod cli;
mod fit_clash;
mod hardening;
mod play;
