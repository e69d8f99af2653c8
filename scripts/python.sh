#!/usr/bin/env bash
# The Python bindings (crates/sepax-py): builds the module with maturin into a virtual
# environment under target/ (never the system Python) and runs its pytest suite, in the f32
# (default) and f64 builds. Needs python3 (>= 3.9) with venv; fetches maturin, numpy and pytest
# from PyPI into the venv once. Run from anywhere: ./scripts/python.sh
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
    "maturin>=1.7,<2" "numpy>=1.21" "pytest>=7"

# The dev profile (dependencies at opt-level 3, see the root Cargo.toml) reuses what the cargo
# steps built; `pip install ./crates/sepax-py` builds the same module in release.
for features in "" "f64"; do
    echo "-- sepax-py ${features:-f32}"
    VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin develop --quiet --locked \
        -m crates/sepax-py/Cargo.toml ${features:+--features "$features"}
    "$venv/bin/python" -m pytest -q -p no:cacheprovider crates/sepax-py/tests
done
