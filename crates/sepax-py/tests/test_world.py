"""The world from Python: ids, events against brute force, filters, threads, errors."""

import itertools
import pickle

import numpy as np
import pytest

import sepax
from conftest import random_quaternions

BAND = 1e-3


def sphere_pairs(c, r):
    """Brute-force touching sphere pairs as a set of index pairs, and the set of pairs too
    close to the boundary to compare (float32 library against float64 reference)."""
    c = np.asarray(c, dtype=sepax.REAL).astype(np.float64)
    r = np.asarray(r, dtype=sepax.REAL).astype(np.float64)
    gap = np.linalg.norm(c[:, None] - c[None], axis=2) - r[:, None] - r[None]
    n = len(c)
    iu = np.triu_indices(n, 1)
    touching = {(int(i), int(j)) for i, j in zip(*iu) if gap[i, j] <= 0}
    unclear = {(int(i), int(j)) for i, j in zip(*iu) if abs(gap[i, j]) <= BAND}
    return touching, unclear


def pairs_of(events, index):
    return {tuple(sorted((index[int(e["a"])], index[int(e["b"])]))) for e in events}


def check(got, expect, unclear):
    assert got - unclear == expect - unclear


def test_events_match_brute_force_over_frames(rng):
    n = 300
    c = rng.uniform(-5, 5, size=(n, 3))
    r = rng.uniform(0.1, 0.6, size=n)
    w = sepax.World()
    ids = w.add_spheres(c, r, report="persist", user=np.arange(n) + 1000)
    assert ids.dtype == np.uint64 and len(ids) == n and len(w) == n
    index = {int(i): k for k, i in enumerate(ids)}
    touching, unclear = sphere_pairs(c, r)
    ev = w.update()
    assert len(ev.end) == 0 and len(ev.persist) == 0
    check(pairs_of(ev.begin, index), touching, unclear)
    # Users ride along, smaller id first.
    assert np.all(ev.begin["a"] < ev.begin["b"])
    for e in ev.begin:
        assert e["user_a"] == 1000 + index[int(e["a"])]
        assert e["user_b"] == 1000 + index[int(e["b"])]
    for frame in range(5):
        before = set(touching) | set()
        prev_unclear = unclear
        move = rng.random(n) < 0.3
        c = c.copy()
        c[move] += rng.normal(scale=0.5, size=(move.sum(), 3))
        w.set_poses(ids[move], c[move])
        touching, unclear = sphere_pairs(c, r)
        ev = w.update()
        u = unclear | prev_unclear
        check(pairs_of(ev.begin, index), touching - before, u)
        check(pairs_of(ev.end, index), before - touching, u)
        check(pairs_of(ev.persist, index), touching & before, u)
        assert np.all(ev.begin["manifold"] == -1)


def test_filters_owner_group_and_allowed_pairs():
    w = sepax.World()
    # Four unit spheres all overlapping each other.
    c = np.zeros((4, 3))
    c[:, 0] = [0, 0.1, 0.2, 0.3]
    ids = w.add_spheres(c, np.ones(4), membership=[1, 1, 2, 4], mask=[3, 3, 1, 0xFF],
                        owner=None)
    ev = w.update()
    index = {int(i): k for k, i in enumerate(ids)}
    got = pairs_of(ev.begin, index)
    expect = set()
    mem, mask = [1, 1, 2, 4], [3, 3, 1, 0xFF]
    for i, j in itertools.combinations(range(4), 2):
        if mem[i] & mask[j] and mem[j] & mask[i]:
            expect.add((i, j))
    assert got == expect
    # An explicit entry beats the masks, both ways.
    w.allow_pair(ids[0], ids[3], True)
    w.allow_pair(ids[0], ids[1], False)
    ev = w.update()
    assert pairs_of(ev.begin, index) == {(0, 3)}
    assert pairs_of(ev.end, index) == {(0, 1)}
    assert np.all(ev.end["flags"] & sepax.FLAG_FILTERED)
    w.reset_pair(ids[0], ids[1])
    assert pairs_of(w.update().begin, index) == {(0, 1)}

    w2 = sepax.World()
    ids2 = w2.add_boxes(np.zeros((3, 3)), np.ones((3, 3)), owner=7)
    assert len(w2.update().begin) == 0, "one owner's colliders never collide"
    ids3 = w2.add_boxes(np.zeros((1, 3)), np.ones((1, 3)), group=0)
    assert len(w2.update().begin) == 3
    assert len(ids2) == 3 and len(ids3) == 1


def test_static_pairs_kinds_sensor_and_remove():
    w = sepax.World()
    floor = w.add_aabbs([[-10, -1, -10]], [[10, 0, 10]], kind="static", user=5)
    w.add_aabbs([[-1, -1, -1]], [[1, 0, 1]], kind="static")  # static-static: skipped
    ball = w.add_spheres([[0, 3, 0]], [0.5], sensor=True, user=7)
    assert len(w.update().begin) == 0
    w.set_poses(ball, [[0, 0.4, 0]])
    ev = w.update()
    assert len(ev.begin) == 2
    assert np.all(ev.begin["flags"] & sepax.FLAG_SENSOR)
    assert int(floor[0]) in set(ev.begin["a"].tolist()) | set(ev.begin["b"].tolist())
    w.remove(ball)
    ev = w.update()
    assert len(ev.end) == 2 and np.all(ev.end["flags"] & sepax.FLAG_REMOVED)
    with pytest.raises(ValueError, match=r"ids\[0\] = \d+ is a stale or unknown collider id"):
        w.set_poses(ball, [[0, 0, 0]])
    assert len(w) == 2
    all_pairs = sepax.World(all_pairs=True)
    all_pairs.add_aabbs([[0, 0, 0], [0.5, 0.5, 0.5]], [[1, 1, 1], [2, 2, 2]], kind="static")
    assert len(all_pairs.update().begin) == 1


def test_manifolds_and_speculative_contacts():
    w = sepax.World(margin=0.2)
    ids = w.add_boxes([[0, 0, 0], [0, 1.9, 0], [5, 0, 0], [5, 2.1, 0]], np.ones((4, 3)),
                      report="manifolds")
    ev = w.update()
    con = ev.contacts
    assert len(ev.begin) == 1 and len(con) == 2
    k = int(ev.begin["manifold"][0])
    assert not con.speculative[k] and con.depth[k] == pytest.approx(0.1, abs=1e-5)
    assert set(con.pair[k].tolist()) == {int(ids[0]), int(ids[1])}
    spec = 1 - k
    assert con.speculative[spec] and con.depth[spec] == pytest.approx(-0.1, abs=1e-5)
    assert set(con.pair[spec].tolist()) == {int(ids[2]), int(ids[3])}
    np.testing.assert_allclose(np.abs(con.normal[k]), [0, 1, 0], atol=1e-6)
    assert 1 <= con.count[k] <= 4
    kinds = [kind for kind, _ in ev]
    assert kinds == ["begin"]


def test_threads_give_identical_output(rng):
    def run(threads):
        rng2 = np.random.default_rng(5)
        n = 2000
        c = rng2.uniform(-10, 10, size=(n, 3))
        w = sepax.World()
        ids = w.add_boxes(c, rng2.uniform(0.1, 0.8, size=(n, 3)), random_quaternions(rng2, n),
                          report="manifolds")
        out = []
        for _ in range(3):
            ev = w.update(threads=threads)
            out.append((ev.begin.tobytes(), ev.persist.tobytes(), ev.end.tobytes(),
                        ev.contacts.point_a.tobytes(), w.state_hash()))
            c = c + rng2.normal(scale=0.3, size=c.shape)
            w.set_poses(ids, c, random_quaternions(rng2, n))
        return out

    assert run(1) == run(2) == run(0)


def test_capsules_follow_their_poses():
    w = sepax.World()
    # A capsule along z of half-height 1, turned by 90 degrees about y to lie along x.
    s = np.sqrt(0.5)
    cap = w.add_capsules([[0, 0, 0]], [1.0], [0.1], [[s, 0, s, 0]])
    ball = w.add_spheres([[1.05, 0, 0]], [0.1])
    assert len(w.update().begin) == 1
    w.set_poses(cap, [[0, 0, 0]])  # back along z: the ball at x = 1.05 is far
    assert len(w.update().end) == 1
    assert len(ball) == 1


def test_repr_len_hash_and_pickle():
    w = sepax.World()
    h0 = w.state_hash()
    w.add_spheres([[0, 0, 0]], [1.0])
    assert w.state_hash() != h0
    assert repr(w).startswith("World(1 colliders")
    assert "Events(begin=0" in repr(w.update())
    assert w.update_count == 1
    assert pickle.loads(pickle.dumps(w)).ids().tolist() == w.ids().tolist()
