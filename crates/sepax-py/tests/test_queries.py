"""The world's batch queries against brute force in float64 NumPy, and the same bits for any
thread count."""

import numpy as np
import pytest

import sepax

BAND = 1e-3


def sphere_world(rng, n=200, kinds=("static", "dynamic")):
    c = rng.uniform(-10, 10, size=(n, 3)).astype(sepax.REAL)
    r = rng.uniform(0.2, 1.0, size=n).astype(sepax.REAL)
    w = sepax.World()
    half = n // 2
    ids = np.concatenate([
        w.add_spheres(c[:half], r[:half], kind=kinds[0]),
        w.add_spheres(c[half:], r[half:], kind=kinds[1]),
    ])
    return w, ids, c.astype(np.float64), r.astype(np.float64)


def ray_sphere_t(o, d, c, r):
    """Entry distance of unit rays (n, 3) into spheres (m,): (n, m), inf when missed, 0 inside."""
    oc = o[:, None, :] - c[None]
    b = np.einsum("nmk,nk->nm", oc, d)
    cc = np.einsum("nmk,nmk->nm", oc, oc) - r[None] ** 2
    disc = b * b - cc
    t = -b - np.sqrt(np.maximum(disc, 0))
    t = np.where(cc <= 0, 0.0, t)
    return np.where((disc >= 0) & ((t >= 0) | (cc <= 0)), t, np.inf)


def test_rays_match_brute_force_and_threads(rng):
    w, ids, c, r = sphere_world(rng)
    n = 10_000  # more than two of the module's blocks of 4,096 rays
    o = rng.uniform(-12, 12, size=(n, 3))
    d = rng.normal(size=(n, 3))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    out = w.cast_rays(o, d, 30.0)
    o64 = o.astype(sepax.REAL).astype(np.float64)
    d64 = d.astype(sepax.REAL).astype(np.float64)
    d64 /= np.linalg.norm(d64, axis=1, keepdims=True)
    t = ray_sphere_t(o64, d64, c, r)
    best = np.min(t, axis=1)
    expect = best <= 30.0
    srt = np.sort(t, axis=1)
    clear = (np.abs(best - 30.0) > BAND) & (srt[:, 1] - srt[:, 0] > BAND)
    assert np.array_equal(out["hit"][clear], expect[clear])
    h = clear & expect
    assert h.sum() > 100
    assert np.allclose(out["t"][h], best[h], atol=1e-3 * (1 + best[h]))
    assert np.array_equal(out["id"][h], ids[np.argmin(t, axis=1)][h])
    assert np.all(np.isinf(out["t"][~out["hit"]])) and np.all(out["id"][~out["hit"]] == 0)
    p = out["point"][h].astype(np.float64)
    assert np.allclose(p, o64[h] + best[h, None] * d64[h], atol=2e-3)
    # Entry normals are unit; a ray starting inside has none to speak of.
    outside = h & (out["t"] > 0)
    nrm = out["normal"][outside].astype(np.float64)
    assert np.allclose(np.linalg.norm(nrm, axis=1), 1, atol=1e-4)
    for threads in (0, 2, 3):
        again = w.cast_rays(o, d, 30.0, threads=threads)
        for k in out:
            np.testing.assert_array_equal(again[k], out[k])


def test_ray_errors_name_the_row_past_the_first_block(rng):
    w, _, _, _ = sphere_world(rng, 20)
    o = rng.uniform(-5, 5, size=(6000, 3))
    d = np.tile([1.0, 0.0, 0.0], (6000, 1))
    bad = d.copy()
    bad[5000] = 0.0
    with pytest.raises(ValueError, match=r"rays\[5000\].*directions\[5000\] must be non-zero"):
        w.cast_rays(o, bad, 10.0)
    nan = o.copy()
    nan[4100, 1] = np.nan
    with pytest.raises(ValueError, match=r"origins\[4100, 1\]"):
        w.cast_rays(nan, d, 10.0)


def test_ray_filters_kinds_exclude(rng):
    w, ids, c, r = sphere_world(rng, 100)
    o = np.zeros((500, 3))
    d = rng.normal(size=(500, 3))
    stat = w.cast_rays(o, d, np.inf, kinds="static")
    assert set(stat["id"][stat["hit"]].tolist()) <= set(ids[:50].tolist())
    mov = w.cast_rays(o, d, np.inf, kinds=["kinematic", "dynamic"])
    assert set(mov["id"][mov["hit"]].tolist()) <= set(ids[50:].tolist())
    every = w.cast_rays(o, d, np.inf)
    k = every["hit"]
    assert np.all(every["t"][k] <= np.minimum(stat["t"], mov["t"])[k])
    victim = every["id"][k][0]
    ex = w.cast_rays(o, d, np.inf, exclude=victim)
    assert victim not in set(ex["id"].tolist())
    # Filter data: a query in layer 2 only sees colliders whose mask has bit 1 (none here, the
    # default mask has every bit and membership 1: the query's mask must meet 1).
    none = w.cast_rays(o, d, np.inf, filter={"membership": 2, "mask": 2})
    assert not none["hit"].any()
    with pytest.raises(ValueError, match="kinds"):
        w.cast_rays(o, d, kinds="wobbly")
    with pytest.raises(ValueError, match="stale"):
        w.cast_rays(o, d, exclude=12345)
    with pytest.raises(ValueError, match=r"max_t\[3\]"):
        w.cast_rays(o[:5], d[:5], np.array([1, 1, 1, -1, 1.0]))
    bad = d[:5].copy()
    bad[2] = 0
    with pytest.raises(ValueError, match=r"rays\[2\]"):
        w.cast_rays(o[:5], bad)
    with pytest.raises(ValueError, match="directions"):
        w.cast_rays(o[:5], d[:4])


def test_overlap_matches_brute_force(rng):
    w, ids, c, r = sphere_world(rng, 300)
    n = 400
    q = rng.uniform(-10, 10, size=(n, 3)).astype(sepax.REAL)
    qr = rng.uniform(0.1, 1.5, size=n).astype(sepax.REAL)
    shapes = sepax.Shapes.spheres(qr)
    offsets, found = w.overlap(shapes, q)
    assert offsets.shape == (n + 1,) and offsets[-1] == len(found)
    gap = np.linalg.norm(q.astype(np.float64)[:, None] - c[None], axis=2) - r[None] - qr[:, None]
    checked = 0
    for i in range(n):
        got = set(found[offsets[i]:offsets[i + 1]].tolist())
        clear = np.abs(gap[i]) > BAND
        expect = set(ids[(gap[i] <= 0) & clear].tolist())
        assert got & set(ids[clear].tolist()) == expect
        checked += len(expect)
    assert checked > 50
    o2, f2 = w.overlap(shapes, q, threads=3)
    np.testing.assert_array_equal(o2, offsets)
    np.testing.assert_array_equal(f2, found)


def test_closest_colliders_and_shapes(rng):
    w, ids, c, r = sphere_world(rng, 150)
    n = 500
    p = rng.uniform(-12, 12, size=(n, 3)).astype(sepax.REAL)
    out = w.closest_colliders(p, 3.0)
    dist = np.maximum(np.linalg.norm(p.astype(np.float64)[:, None] - c[None], axis=2) - r[None], 0)
    best = dist.min(axis=1)
    srt = np.sort(dist, axis=1)
    clear = (np.abs(best - 3.0) > BAND) & (srt[:, 1] - srt[:, 0] > BAND)
    assert np.array_equal(out["hit"][clear], (best <= 3.0)[clear])
    h = clear & out["hit"]
    assert h.sum() > 50
    assert np.allclose(out["distance"][h], best[h], atol=1e-4 * (1 + best[h]))
    assert np.array_equal(out["id"][h], ids[np.argmin(dist, axis=1)][h])
    # Spheres of radius 0 at the points: the same distances through the shape query.
    s = w.closest_to_shapes(sepax.Shapes.spheres(np.zeros(n, dtype=sepax.REAL)), p, max_distance=3.0)
    assert np.array_equal(s["hit"][clear], out["hit"][clear])
    assert np.allclose(s["distance"][h], out["distance"][h], atol=1e-4)
    assert np.array_equal(s["id"][h], out["id"][h])
    for threads in (0, 4):
        again = w.closest_to_shapes(sepax.Shapes.spheres(np.zeros(n, dtype=sepax.REAL)), p, max_distance=3.0,
                                    threads=threads)
        for k in s:
            np.testing.assert_array_equal(again[k], s[k])


def test_cast_shapes_matches_brute_force(rng):
    w, ids, c, r = sphere_world(rng, 150)
    n = 400
    start = rng.uniform(-12, 12, size=(n, 3)).astype(sepax.REAL)
    v = rng.normal(size=(n, 3)).astype(sepax.REAL) * 4
    qr = np.full(n, 0.3, dtype=sepax.REAL)
    out = w.cast_shapes(sepax.Shapes.spheres(qr), v, 1.0, positions=start)
    # A moving sphere against a still one is a ray against the sphere grown by both radii.
    speed = np.linalg.norm(v.astype(np.float64), axis=1)
    d = v.astype(np.float64) / speed[:, None]
    t = ray_sphere_t(start.astype(np.float64), d, c, r + 0.3) / speed[:, None]
    best = t.min(axis=1)
    srt = np.sort(t, axis=1)
    clear = (np.abs(best - 1.0) > 1e-2) & (srt[:, 1] - srt[:, 0] > 1e-2)
    assert np.array_equal(out["hit"][clear], (best <= 1.0)[clear])
    h = clear & out["hit"]
    assert h.sum() > 30
    assert np.all(out["time"][h] <= best[h] + 1e-4)
    assert np.allclose(out["time"][h], best[h], atol=1e-2)
    assert np.array_equal(out["id"][h], ids[np.argmin(t, axis=1)][h])
    assert set(np.unique(out["status"]).tolist()) <= {0, 1, 2, 255}
    again = w.cast_shapes(sepax.Shapes.spheres(qr), v, 1.0, positions=start, threads=2)
    for k in out:
        np.testing.assert_array_equal(again[k], out[k])
