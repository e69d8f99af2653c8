"""The pairwise batch functions against brute force in float64 NumPy."""

import numpy as np
import pytest

import sepax
from conftest import (
    point_box_distance, quat_to_matrix, random_quaternions, sat_gap, segment_distance_sampled,
)

# Pairs whose brute-force answer is within this of the boundary are not compared: the library
# computes in float32 (by default) and the reference in float64.
BAND = 1e-3


def random_boxes(rng, n, spread=2.0):
    c = rng.uniform(-spread, spread, size=(n, 3))
    h = rng.uniform(0.05, 1.0, size=(n, 3))
    q = random_quaternions(rng, n)
    return c, h, q


def rounded(x):
    """The values the module actually sees (rounded to its float type), back in float64."""
    return np.asarray(x, dtype=sepax.REAL).astype(np.float64)


def test_box_pairs_match_sat_brute_force(rng):
    n = 4000
    ca, ha, qa = random_boxes(rng, n)
    cb, hb, qb = random_boxes(rng, n)
    a, b = sepax.boxes(ca, ha, qa), sepax.boxes(cb, hb, qb)
    ra = quat_to_matrix(rounded(qa))
    rb = quat_to_matrix(rounded(qb))
    gap = sat_gap(rounded(ca), ra, rounded(ha), rounded(cb), rb, rounded(hb))
    hit = sepax.intersects(a, b)
    cls = sepax.classify(a, b)
    clear = np.abs(gap) > BAND
    assert clear.sum() > 0.9 * n
    assert hit.dtype == np.bool_ and hit.shape == (n,)
    np.testing.assert_array_equal(hit[clear], gap[clear] < 0)
    expect = np.where(gap < 0, sepax.OVERLAPPING, sepax.SEPARATED)
    np.testing.assert_array_equal(cls[clear], expect[clear])
    # Both outcomes are well represented.
    assert 0.05 < hit.mean() < 0.95


def test_aabb_pairs_match_interval_overlap(rng):
    n = 3000
    lo = rng.uniform(-2, 2, size=(2, n, 3))
    hi = lo + rng.uniform(0, 1.5, size=(2, n, 3))
    a, b = sepax.aabbs(lo[0], hi[0]), sepax.aabbs(lo[1], hi[1])
    lo32, hi32 = rounded(lo), rounded(hi)
    expect = np.all((lo32[0] <= hi32[1]) & (lo32[1] <= hi32[0]), axis=1)
    np.testing.assert_array_equal(sepax.intersects(a, b), expect)
    np.testing.assert_array_equal(sepax.classify(a, b), expect.astype(np.uint8))


def test_sphere_pairs_distance_contact(rng):
    n = 3000
    ca, cb = rng.uniform(-2, 2, size=(2, n, 3))
    ra, rb = rng.uniform(0.05, 1.0, size=(2, n))
    a, b = sepax.spheres(ca, ra), sepax.spheres(cb, rb)
    d = np.linalg.norm(rounded(cb) - rounded(ca), axis=1)
    gap = d - rounded(ra) - rounded(rb)
    clear = np.abs(gap) > BAND
    np.testing.assert_array_equal(sepax.intersects(a, b)[clear], gap[clear] <= 0)
    dist = sepax.distance(a, b)
    np.testing.assert_allclose(dist["distance"], np.maximum(gap, 0), atol=2e-5)
    sep = gap > BAND
    n_ab = (rounded(cb) - rounded(ca)) / d[:, None]
    np.testing.assert_allclose(dist["normal"][sep], n_ab[sep], atol=1e-4)
    np.testing.assert_allclose(
        dist["point_a"][sep], rounded(ca)[sep] + n_ab[sep] * rounded(ra)[sep, None], atol=1e-4)
    con = sepax.contact(a, b)
    pen = gap < -BAND
    np.testing.assert_array_equal(con["hit"][clear], gap[clear] <= 0)
    np.testing.assert_allclose(con["depth"][pen], -gap[pen], atol=2e-5)
    np.testing.assert_allclose(con["normal"][pen], n_ab[pen], atol=1e-4)
    assert np.all(con["count"][pen] >= 1)
    assert np.all(np.isnan(con["depth"][~con["hit"]]))
    assert np.all(con["count"][~con["hit"]] == 0)


def test_sphere_box_distance(rng):
    n = 2000
    cb, hb, qb = random_boxes(rng, n)
    cs = rng.uniform(-3, 3, size=(n, 3))
    rs = rng.uniform(0.0, 0.5, size=n)
    got = sepax.distance(sepax.spheres(cs, rs), sepax.boxes(cb, hb, qb))["distance"]
    rot = quat_to_matrix(rounded(qb))
    expect = np.maximum(point_box_distance(rounded(cs), rounded(cb), rot, rounded(hb))
                        - rounded(rs), 0)
    np.testing.assert_allclose(got, expect, atol=1e-4)


def test_capsule_pairs(rng):
    n = 200
    a0, a1, b0, b1 = rng.uniform(-2, 2, size=(4, n, 3))
    ra, rb = rng.uniform(0.01, 0.4, size=(2, n))
    a, b = sepax.capsules(a0, a1, ra), sepax.capsules(b0, b1, rb)
    seg = segment_distance_sampled(rounded(a0), rounded(a1), rounded(b0), rounded(b1))
    gap = seg - rounded(ra) - rounded(rb)
    got = sepax.distance(a, b)["distance"]
    # Sampling overestimates by at most half of each segment's spacing (length / 200).
    slack = (np.linalg.norm(a1 - a0, axis=1) + np.linalg.norm(b1 - b0, axis=1)) / 400
    assert np.all(got <= np.maximum(gap, 0) + 1e-4)
    assert np.all(got >= np.maximum(gap - slack, 0) - 1e-4)
    clear = (gap > slack + 1e-3) | (gap < -1e-3)
    np.testing.assert_array_equal(sepax.intersects(a, b)[clear], gap[clear] <= 0)


def test_box_contact_manifolds_are_consistent(rng):
    n = 2000
    ca, ha, qa = random_boxes(rng, n, spread=1.0)
    cb, hb, qb = random_boxes(rng, n, spread=1.0)
    a, b = sepax.boxes(ca, ha, qa), sepax.boxes(cb, hb, qb)
    con = sepax.contact(a, b)
    np.testing.assert_array_equal(con["hit"], sepax.intersects(a, b))
    hit = con["hit"]
    assert hit.mean() > 0.3
    np.testing.assert_allclose(np.linalg.norm(con["normal"][hit], axis=1), 1, atol=1e-5)
    # The box depth is the least SAT penetration; the brute-force least overlap over the 15
    # axes is the same number.
    gap = sat_gap(rounded(ca), quat_to_matrix(rounded(qa)), rounded(ha),
                  rounded(cb), quat_to_matrix(rounded(qb)), rounded(hb))
    np.testing.assert_allclose(con["depth"][hit], -gap[hit], atol=1e-4)
    for i in np.flatnonzero(hit)[:200]:
        k = con["count"][i]
        assert 1 <= k <= 4
        pts = con["point_a"][i, :k]
        # Each point's depth is (point_a - point_b) . normal.
        d = np.einsum("kj,j->k", pts - con["point_b"][i, :k], con["normal"][i])
        np.testing.assert_allclose(con["point_depth"][i, :k], d, atol=1e-4)
        assert np.all(np.isnan(con["point_a"][i, k:]))


def test_one_against_many_broadcasts(rng):
    c = rng.uniform(-2, 2, size=(100, 3))
    many = sepax.spheres(c, np.full(100, 0.5))
    one = sepax.spheres([[0, 0, 0]], [1.0])
    expect = np.linalg.norm(rounded(c), axis=1) <= 1.5
    np.testing.assert_array_equal(sepax.intersects(one, many), expect)
    np.testing.assert_array_equal(sepax.intersects(many, one), expect)


def test_mixed_batches_and_triangles():
    tri = sepax.triangles([[0, 0, 0]], [[1, 0, 0]], [[0, 1, 0]])
    s = sepax.Shapes.concat([sepax.spheres([[0.2, 0.2, 0.5], [0.2, 0.2, 2.0]], [0.6, 0.6])])
    np.testing.assert_array_equal(sepax.intersects(tri, s), [True, False])
    d = sepax.distance(tri, s)["distance"]
    np.testing.assert_allclose(d, [0.0, 1.4], atol=1e-6)
    assert list(sepax.Shapes.concat([tri, s]).kinds()) == [sepax.KIND_TRIANGLE, sepax.KIND_SPHERE,
                                                           sepax.KIND_SPHERE]


def test_classify_rejects_non_boxes():
    s = sepax.spheres([[0, 0, 0]], [1.0])
    b = sepax.boxes([[0, 0, 0]], [[1, 1, 1]])
    with pytest.raises(ValueError, match=r"pair 0: classify takes boxes only \(found obb|aabb"):
        sepax.classify(b, s)


def test_shape_arrays_round_trip(rng):
    c, h, q = random_boxes(rng, 5)
    arr = sepax.boxes(c, h, q).arrays()
    np.testing.assert_array_equal(arr["center"], c.astype(sepax.REAL))
    np.testing.assert_array_equal(arr["half_extents"], h.astype(sepax.REAL))
    np.testing.assert_allclose(arr["axes"], quat_to_matrix(q), atol=1e-6)
    assert np.all(np.isnan(arr["radius"]))
