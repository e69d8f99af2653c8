#!/usr/bin/env bash
# The Python bindings (crates/sepax-py): builds the module with maturin into a virtual
# environment under target/ (never the system Python) and runs its pytest suite, in the f32
# (default) and f64 builds, then the examples in their quick forms (the Dask one on a local
# cluster of 2 workers). Needs python3 (>= 3.9) with venv; fetches maturin, numpy, pytest and
# dask[distributed] from PyPI into the venv once. Run from anywhere: ./scripts/python.sh
set -euo pipefail
cd "$(dirname "$0")/.."

venv="$PWD/target/py-venv"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    if ! "$python" -m venv "$venv" 2>/dev/null; then
        # Debian ships venv (ensurepip) separately.
        rm -rf "$venv"
        if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
            apt-get update -qq >/dev/null && apt-get install -y -qq python3-venv >/dev/null
        fi
        "$python" -m venv "$venv"
    fi
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "maturin>=1.7,<2" "numpy>=1.21" "pytest>=7" "dask[distributed]>=2023.1"

# The dev profile (dependencies at opt-level 3, see the root Cargo.toml) reuses what the cargo
# steps built; `pip install ./crates/sepax-py` builds the same module in release.
for features in "" "f64"; do
    echo "-- sepax-py ${features:-f32}"
    VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin develop --quiet --locked \
        -m crates/sepax-py/Cargo.toml ${features:+--features "$features"}
    "$venv/bin/python" -m pytest -q -p no:cacheprovider crates/sepax-py/tests
    "$venv/bin/python" examples/python/rays.py --rays 20000 --threads 2
    "$venv/bin/python" examples/python/robot_trajectory.py --trajectories 200 --steps 8
    "$venv/bin/python" examples/python/dask_trajectories.py --trajectories 400 --chunk 100 --steps 8
done
