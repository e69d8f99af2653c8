"""read_scene, load_mesh and fit_obb against the files' contents and brute force."""

import json

import numpy as np
import pytest

import sepax
from conftest import random_quaternions, quat_to_matrix


def test_read_scene(tmp_path):
    scene = {
        "version": 1,
        "shapes": [
            {"id": "floor", "type": "aabb", "min": [-10, -1, -10], "max": [10, 0, 10]},
            {"id": "crate", "type": "obb", "center": [0, 0.5, 0], "half_extents": [0.5, 0.5, 0.5],
             "rotation": [1, 0, 0, 0]},
            {"id": "ball", "type": "sphere", "center": [0, 2, 0], "radius": 0.25, "layer": 2,
             "mask": 1},
            {"id": "pole", "type": "capsule", "p0": [3, 0, 0], "p1": [3, 2, 0], "radius": 0.1},
        ],
        "pairs": [["crate", "floor"], ["ball", "crate"]],
        "frames": [{"poses": {"ball": {"center": [0, 1.5, 0]}}}],
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scene))
    s = sepax.read_scene(path)
    assert s["ids"] == ["floor", "crate", "ball", "pole"]
    assert list(s["shapes"].kinds()) == [sepax.KIND_AABB, sepax.KIND_OBB, sepax.KIND_SPHERE,
                                         sepax.KIND_CAPSULE]
    arr = s["shapes"].arrays()
    np.testing.assert_array_equal(arr["center"][0], [0, -0.5, 0])
    np.testing.assert_array_equal(arr["half_extents"][0], [10, 0.5, 10])
    assert arr["radius"][2] == 0.25
    np.testing.assert_array_equal(arr["p1"][3], [3, 2, 0])
    np.testing.assert_array_equal(s["layer"], [-1, -1, 2, -1])
    np.testing.assert_array_equal(s["mask"], [-1, -1, 1, -1])
    np.testing.assert_array_equal(s["pairs"], [[1, 0], [2, 1]])
    (idx, moved), = s["frames"]
    np.testing.assert_array_equal(idx, [2])
    np.testing.assert_array_equal(moved.arrays()["center"], [[0, 1.5, 0]])
    # The pair functions take the scene's shapes directly.
    hit = sepax.intersects(s["shapes"], s["shapes"])
    assert hit.all()
    bad = tmp_path / "bad.json"
    bad.write_text('{"shapes": [{"id": "x", "type": "sphere", "center": [0, 0, 0], "radius": -1}]}')
    with pytest.raises(ValueError, match="radius"):
        sepax.read_scene(bad)
    with pytest.raises(ValueError, match="cannot read"):
        sepax.read_scene(tmp_path / "missing.json")


def test_load_mesh_obj(tmp_path):
    obj = tmp_path / "m.obj"
    obj.write_text(
        "o first\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\n"
        "o second\nv 5 5 5\nv 6 5 5\nv 5 6 5\nf 5 6 7\n"
    )
    v, f = sepax.load_mesh(obj)
    assert v.dtype == sepax.REAL and f.dtype == np.uint32
    assert v.shape == (7, 3) and f.shape == (3, 3)
    # Every face refers to its own part's vertices, by their coordinates.
    tris = v[f]
    expect = {((0, 0, 0), (1, 0, 0), (0, 1, 0)), ((0, 0, 0), (1, 0, 0), (0, 0, 1)),
              ((5, 5, 5), (6, 5, 5), (5, 6, 5))}
    got = {tuple(tuple(float(x) for x in p) for p in t) for t in tris}
    assert got == {tuple(tuple(float(x) for x in p) for p in t) for t in expect}
    (tmp_path / "bad.obj").write_text("v 0 0 0\nf 1 2 3\n")
    with pytest.raises(ValueError):
        sepax.load_mesh(tmp_path / "bad.obj")


@pytest.mark.parametrize("method", ["aabb", "pca", "hull-pca", "dito", "exact"])
def test_fit_obb_contains_the_points(rng, method):
    q = random_quaternions(rng, 1)
    rot = quat_to_matrix(q)[0]
    local = rng.uniform(-1, 1, size=(500, 3)) * [3.0, 1.0, 0.3]
    pts = local @ rot.T + [1, 2, 3]
    c, axes, h = sepax.fit_obb(pts, method)
    assert c.shape == (3,) and axes.shape == (3, 3) and h.shape == (3,)
    np.testing.assert_allclose(axes.T @ axes, np.eye(3), atol=1e-5)
    p32 = pts.astype(sepax.REAL).astype(np.float64)
    inside = np.abs((p32 - c) @ axes.astype(np.float64)) <= h + 1e-4
    assert inside.all()
    vol = np.prod(2 * h.astype(np.float64))
    if method == "aabb":
        # The box is the points' bounds (centre and half-extents each rounded once).
        np.testing.assert_allclose(c - h, p32.min(axis=0), atol=1e-5)
        np.testing.assert_allclose(c + h, p32.max(axis=0), atol=1e-5)
    else:
        # The true box has volume 6 * 2 * 0.6 = 7.2; good methods come close.
        assert vol < 7.2 * (1.6 if method in ("pca", "hull-pca") else 1.15)
