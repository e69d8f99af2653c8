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

echo "== rustfmt"
cargo fmt --all -- --check
echo "== clippy (f32)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== clippy (f64)"
cargo clippy --workspace --all-targets --locked --features f64 -- -D warnings
echo "== docs (broken intra-doc links are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
echo "== tests (f32)"
cargo test --workspace --locked
echo "== tests (f64)"
cargo test --workspace --locked --features f64
echo "== Python bindings (crates/sepax-py, pytest in a venv under target/)"
scripts/python.sh
# One optimised build with the debug assertions on (the `ci-release` profile of the root
# Cargo.toml) serves the bit digests and the corpus check below. (The differential suites
# themselves run above, at the dev profile's opt-level 1 with the debug assertions on;
# `cargo test --profile ci-release --tests -p sepax-world` etc. runs them fully optimised.)
echo "== bit digests against their golden values (f32 and f64)"
scripts/digests.sh
echo "== fitting corpus (the pybullet meshes, fetched from PyPI once into corpus/)"
scripts/corpus.sh
cargo run --profile ci-release --locked -p sepax-tools --no-default-features --bin fit_corpus -- \
    corpus --every 4 --check
