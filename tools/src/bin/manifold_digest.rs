//! Prints the box–box manifold digest of `sepax_testkit::digest` (every bit of 300,000 manifolds
//! per data set; it panics unless the in-place calls and both builds of the batch, run-time
//! selected and portable, give the single calls' bits): run it on two builds (and with
//! `--features f64`), `cargo run --release -p sepax-tools --bin manifold_digest`; the same
//! digests mean the same bits. The narrow phase's tests compare them with `tools/golden/`.

fn main() {
    print!("{}", sepax_testkit::digest::manifold_digest());
}
