#!/usr/bin/env bash
# Everything CI checks: formatting, clippy with -D warnings, and every test suite, in the f32
# (default) and f64 builds. Run from anywhere: ./scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# Property tests explore a fixed seed here so that CI is repeatable; set PROPTEST_RNG_SEED to
# explore others.
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261129}"

# rustfmt and clippy ship with the toolchain; install them if this machine lacks them.
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
    rustup component add rustfmt clippy
fi

# Each step prints its name; the next one prints how long it took (CI must stay under 30 minutes).
last=$SECONDS
step() {
    [ -n "${step_name:-}" ] && echo "   (${step_name}: $((SECONDS - last)) s; total ${SECONDS} s)"
    step_name="$1"
    last=$SECONDS
    echo "== $1"
}
trap 'rc=$?; step "end (exit status $rc)"' EXIT

step "rustfmt"
cargo fmt --all -- --check
step "clippy (f32)"
cargo clippy --workspace --all-targets --locked -- -D warnings
step "clippy (f64)"
cargo clippy --workspace --all-targets --locked --features f64 -- -D warnings
step "the library as a user builds it (without the bench-internals feature the test kit turns on)"
cargo clippy -p sepax --lib --locked -- -D warnings
cargo clippy -p sepax --lib --locked --features f64 -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --locked -p sepax -p sepax-simd -p sepax-shapes \
    -p sepax-narrowphase -p sepax-broadphase -p sepax-world
step "docs (broken intra-doc links are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
step "tests (f32)"
cargo test --workspace --locked
# The f64 run is the optimised build with the debug assertions on (the `ci-release` profile of
# the root Cargo.toml): every suite, the differential ones included, runs once fully optimised
# (what users run) and still checks every debug assertion; the f32 run above is the dev profile.
step "tests (f64, optimised with the debug assertions on)"
cargo test --workspace --locked --features f64 --profile ci-release
step "Python bindings (crates/sepax-py, pytest in a venv under target/)"
scripts/python.sh
# The bit digests (every bit of 300,000 box manifolds per data set, tools/golden/) are checked by
# the narrow phase's tests/suite/digest.rs in both runs above; scripts/digests.sh prints them and
# writes them with --bless.
step "fitting corpus (the pybullet meshes, fetched from PyPI once into corpus/)"
scripts/corpus.sh
# The dev profile of the f32 test run (the libraries it built are reused).
cargo run --locked -p sepax-tools --no-default-features --bin fit_corpus -- \
    corpus --every 4 --check
