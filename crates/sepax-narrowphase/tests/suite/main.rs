//! Every integration test of this crate, one module per file, built as one test binary
//! (one compile and link instead of one per file; `no_alloc.rs` stays its own binary
//! where it exists, for its counting allocator). Run one file's tests with
//! `cargo test -p sepax-narrowphase --test suite <module>::`.

mod batch;
mod box_box_exact;
mod box_props;
mod contact_batch;
mod contact_box_exact;
mod contact_consistency;
mod contact_huge;
mod contact_into;
mod contact_pairs;
mod contact_stability;
mod contact_swap;
mod diff_pairs;
mod digest;
mod dispatch;
mod distance_exact;
mod distance_props;
mod extreme_values;
mod pairs_props;
mod rounded_extremes;
mod toi_box_sweep;
mod toi_exact;
