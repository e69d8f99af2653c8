#!/usr/bin/env bash
# The box-box manifold digests (every bit of the manifolds of 300,000 pairs per data set, by the
# single, in-place and batch paths, the batch also in its portable build), in the f32 (default)
# and f64 builds, each compared with its golden value in tools/golden/. A change of any answer
# changes a digest. `cargo test` checks the same in both precisions
# (crates/sepax-narrowphase/tests/suite/digest.rs; the world's determinism digests are in
# crates/sepax-world/tests/suite/determinism.rs); this script runs them optimised, with the
# debug assertions on (profile ci-release). Run from anywhere: ./scripts/digests.sh
# `--bless` writes the manifold digests into tools/golden/ instead (only when a change of answer
# is intended, and said so in the commit).
set -euo pipefail
cd "$(dirname "$0")/.."

bless=false
[ "${1:-}" = --bless ] && bless=true
status=0
for precision in f32 f64; do
    features=()
    [ "$precision" = f64 ] && features=(--features f64)
    golden="tools/golden/manifold_digest.$precision.txt"
    echo "-- manifold digest ($precision)"
    got=$(cargo run --profile ci-release --locked -q -p sepax-tools --no-default-features \
        "${features[@]}" --bin manifold_digest)
    if $bless; then
        printf '%s\n' "$got" >"$golden"
    elif ! diff -u "$golden" - <<<"$got"; then
        echo "manifold digest ($precision) differs from $golden" >&2
        status=1
    fi
done
exit $status
