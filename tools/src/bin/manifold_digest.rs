//! Prints the box–box manifold digest of `sepax_testkit::digest` (every bit of 300,000 manifolds
//! per data set, single, in-place and batch): run it on two builds (and with `--features f64`),
//! `cargo run --release -p sepax-tools --bin manifold_digest`; the same digests mean the same
//! bits. With the argument `portable`, the batch is its portable build (no run-time AVX2): the
//! digests must not change. The narrow phase's tests compare them with `tools/golden/`.

fn main() {
    let portable = std::env::args().nth(1).is_some_and(|a| a == "portable");
    print!("{}", sepax_testkit::digest::manifold_digest(portable));
}
