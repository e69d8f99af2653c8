"""Shared helpers: random shapes and brute-force references computed in float64 NumPy."""

import numpy as np
import pytest

import sepax


@pytest.fixture
def rng():
    return np.random.default_rng(20261201)


def random_quaternions(rng, n):
    q = rng.normal(size=(n, 4))
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def quat_to_matrix(q):
    """Rotation matrices (n, 3, 3) of [w, x, y, z] quaternions (columns are the box axes)."""
    q = np.asarray(q, dtype=np.float64)
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    m = np.empty((len(q), 3, 3))
    m[:, 0, 0] = 1 - 2 * (y * y + z * z)
    m[:, 0, 1] = 2 * (x * y - w * z)
    m[:, 0, 2] = 2 * (x * z + w * y)
    m[:, 1, 0] = 2 * (x * y + w * z)
    m[:, 1, 1] = 1 - 2 * (x * x + z * z)
    m[:, 1, 2] = 2 * (y * z - w * x)
    m[:, 2, 0] = 2 * (x * z - w * y)
    m[:, 2, 1] = 2 * (y * z + w * x)
    m[:, 2, 2] = 1 - 2 * (x * x + y * y)
    return m


def sat_gap(ca, ra, ha, cb, rb, hb):
    """The largest separation over the 15 SAT axes of box pairs (> 0: separated, < 0:
    overlapping), in float64; ra, rb are (n, 3, 3) with the axes as columns."""
    n = len(ca)
    axes = [ra[:, :, i] for i in range(3)] + [rb[:, :, i] for i in range(3)]
    for i in range(3):
        for j in range(3):
            axes.append(np.cross(ra[:, :, i], rb[:, :, j]))
    d = cb - ca
    best = np.full(n, -np.inf)
    for L in axes:
        norm = np.linalg.norm(L, axis=1)
        ok = norm > 1e-9
        Ln = np.where(ok[:, None], L / np.where(ok, norm, 1)[:, None], 0)
        proj_a = np.sum(ha * np.abs(np.einsum("nij,ni->nj", ra, Ln)), axis=1)
        proj_b = np.sum(hb * np.abs(np.einsum("nij,ni->nj", rb, Ln)), axis=1)
        gap = np.abs(np.sum(d * Ln, axis=1)) - proj_a - proj_b
        best = np.where(ok, np.maximum(best, gap), best)
    return best


def point_box_distance(p, c, rot, h):
    """Distance from points p (n, 3) to boxes (centres c, rotations rot (n, 3, 3), half h)."""
    local = np.einsum("nij,ni->nj", rot, p - c)
    excess = np.maximum(np.abs(local) - h, 0)
    return np.linalg.norm(excess, axis=1)


def segment_distance_sampled(a0, a1, b0, b1, samples=201):
    """Segment–segment distances by dense sampling: an upper bound, above the true distance by at
    most half the two segments' sample spacings."""
    t = np.linspace(0, 1, samples)[:, None]
    out = np.empty(len(a0))
    for i in range(len(a0)):
        pa = a0[i] + (a1[i] - a0[i]) * t
        pb = b0[i] + (b1[i] - b0[i]) * t
        out[i] = np.sqrt(((pa[:, None, :] - pb[None, :, :]) ** 2).sum(axis=2).min())
    return out


REAL = sepax.REAL
