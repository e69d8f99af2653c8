#!/usr/bin/env bash
# Fetches the fitting corpus: the ~1,200 OBJ and STL meshes that the PyPI package `pybullet`
# ships (robot links of the KUKA iiwa, Franka Panda and others, the bunny, the duck, ...).
# Only the mesh files are extracted, into corpus/ at the repository root (git-ignored; never
# commit them). Needs pip and network access to PyPI; runs once (a marker file records it).
#
#   scripts/corpus.sh            # -> corpus/pybullet_data/...
#   scripts/corpus.sh DIR        # -> DIR/pybullet_data/...
#
# Then: cargo run --release -p sepax-tools --bin fit_corpus -- corpus
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:-corpus}"
version="3.2.7"
marker="$dest/.pybullet-$version"
if [ -f "$marker" ]; then
  echo "corpus: $dest already holds pybullet $version meshes"
  exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Any wheel or the sdist will do: the meshes are the same data files in each.
python3 -m pip download "pybullet==$version" --no-deps --quiet -d "$tmp"
mkdir -p "$dest"
python3 - "$tmp" "$dest" <<'PY'
import os, sys, tarfile, zipfile
src, dest = sys.argv[1], sys.argv[2]
exts = (".obj", ".stl")
count = 0
for name in sorted(os.listdir(src)):
    path = os.path.join(src, name)
    if name.endswith(".whl") or name.endswith(".zip"):
        arc = zipfile.ZipFile(path)
        members = [(m, m) for m in arc.namelist() if m.lower().endswith(exts)]
        read = lambda m: arc.read(m)
    elif name.endswith((".tar.gz", ".tgz")):
        arc = tarfile.open(path)
        members = [(m, m.name) for m in arc.getmembers() if m.isfile() and m.name.lower().endswith(exts)]
        read = lambda m: arc.extractfile(m).read()
    else:
        continue
    for member, mname in members:
        # Keep the path from the data folder on; refuse anything that would escape dest.
        rel = os.path.normpath(mname)
        if rel.startswith("..") or os.path.isabs(rel):
            continue
        out = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(read(member))
        count += 1
print(f"corpus: {count} mesh files extracted into {dest}")
if count < 1000:
    sys.exit(f"corpus: expected about 1,200 meshes, found {count}")
PY
touch "$marker"
