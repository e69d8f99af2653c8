#!/usr/bin/env bash
# The Python benchmark (examples/python/bench.py): sepax against python-fcl, Coal, pybullet and
# trimesh on the same data, and the same sepax work from Rust (tools/src/bin/py_parity.rs) for the
# Python / Rust ratio. Builds, in release, the module into target/bench-venv (with the peers from
# PyPI) and py_parity in the same precision. Not part of CI (the peers are large and the run takes
# minutes). Run from anywhere: ./scripts/py_bench.sh [--f64] [bench.py options]
set -euo pipefail
cd "$(dirname "$0")/.."

features=""
if [ "${1:-}" = "--f64" ]; then
    features="f64"
    shift
fi
venv="$PWD/target/bench-venv"
if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
peers="import maturin, numpy, fcl, coal, pybullet, trimesh, scipy, rtree"
if ! "$venv/bin/python" -c "$peers" 2>/dev/null; then
    # trimesh's CollisionManager needs python-fcl and scipy; its ray queries need rtree.
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "maturin>=1.7,<2" numpy python-fcl coal pybullet trimesh scipy rtree
fi
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin develop --quiet --release --locked \
    -m crates/sepax-py/Cargo.toml ${features:+--features "$features"}
cargo build --quiet --release --locked -p sepax-tools --no-default-features \
    ${features:+--features "$features"} --bin py_parity
uptime
"$venv/bin/python" examples/python/bench.py --rust target/release/py_parity "$@"
