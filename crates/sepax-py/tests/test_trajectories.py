"""Trajectory checks against brute force, the allowed-collision matrix, swept mode, distances,
threads and errors."""

import numpy as np
import pytest

import sepax

BAND = 1e-3
IDENTITY = np.array([1.0, 0, 0, 0])


def poses_of(centres):
    """(B, T, M, 3) centres as (B, T, M, 7) poses with the identity rotation."""
    p = np.zeros(centres.shape[:-1] + (7,))
    p[..., :3] = centres
    p[..., 3] = 1
    return p


def test_first_step_and_pair_match_brute_force(rng):
    n_env = 60
    c = rng.uniform(-6, 6, size=(n_env, 3)).astype(sepax.REAL)
    r = rng.uniform(0.3, 0.9, size=n_env).astype(sepax.REAL)
    w = sepax.World()
    env = w.add_spheres(c, r, kind="static")
    link_r = np.array([0.4, 0.25], dtype=sepax.REAL)
    links = w.add_spheres(np.zeros((2, 3)), link_r, kind="kinematic")
    w.allow_pair(links[0], links[1], False)
    b, t = 300, 12
    start = rng.uniform(-7, 7, size=(b, 1, 2, 3))
    step = rng.normal(scale=0.4, size=(b, t, 2, 3))
    centres = (start + np.cumsum(step, axis=1)).astype(sepax.REAL)
    rep = w.check_trajectories(poses_of(centres), links)
    assert len(rep) == b and rep.first_step.dtype == np.int64
    # Brute force: the first step where a link touches an environment sphere.
    cc = centres.astype(np.float64)
    gap = (np.linalg.norm(cc[:, :, :, None, :] - c.astype(np.float64)[None, None, None], axis=4)
           - link_r.astype(np.float64)[None, None, :, None] - r.astype(np.float64)[None, None, None])
    touching = (gap <= 0).any(axis=(2, 3))
    unclear = (np.abs(gap) <= BAND).any(axis=(2, 3))
    agree = 0
    for i in range(b):
        hits = np.nonzero(touching[i])[0]
        first = hits[0] if len(hits) else -1
        cut = t if first < 0 else first + 1
        if unclear[i, :cut].any():
            continue
        agree += 1
        assert rep.first_step[i] == first
        if first >= 0:
            m, e = np.nonzero(gap[i, first] <= 0)
            pairs = sorted(tuple(sorted((int(links[a]), int(env[k])))) for a, k in zip(m, e))
            assert tuple(int(x) for x in rep.pair[i]) == pairs[0]
            assert np.isnan(rep.t[i])
        else:
            assert tuple(rep.pair[i]) == (0, 0)
    assert agree > 200 and rep.colliding.sum() > 30 and (~rep.colliding).sum() > 30
    for threads in (0, 3):
        again = w.check_trajectories(poses_of(centres), links, threads=threads)
        np.testing.assert_array_equal(again.first_step, rep.first_step)
        np.testing.assert_array_equal(again.pair, rep.pair)


def test_allowed_collision_matrix_and_self_collision():
    w = sepax.World()
    links = w.add_boxes(np.zeros((3, 3)), np.full((3, 3), 0.5), kind="kinematic")
    # Links 0-1 overlap at every step; 1-2 also; 0-2 never.
    cent = np.array([[0, 0, 0], [0.9, 0, 0], [1.8, 0, 0]], dtype=float)
    poses = poses_of(np.broadcast_to(cent, (1, 4, 3, 3)).copy())
    rep = w.check_trajectories(poses, links)
    assert rep.first_step[0] == 0
    assert tuple(rep.pair[0]) == (links[0], links[1])
    w.allow_pair(links[0], links[1], False)
    rep = w.check_trajectories(poses, links)
    assert tuple(rep.pair[0]) == (links[1], links[2])
    w.allow_pair(links[1], links[2], False)
    assert w.check_trajectories(poses, links).first_step[0] == -1
    # first_hit=False lists every (step, pair): none now; after a reset, one per step.
    w.reset_pair(links[1], links[2])
    rep = w.check_trajectories(poses, links, first_hit=False)
    assert list(rep.hits_offsets) == [0, 4]
    assert list(rep.hits_step) == [0, 1, 2, 3]
    assert all(tuple(p) == (links[1], links[2]) for p in rep.hits_pair)


def test_swept_catches_a_jump_through_a_wall():
    w = sepax.World()
    wall = w.add_boxes([[0, 0, 0]], [[0.05, 2, 2]], kind="static")
    link = w.add_boxes([[0, 0, 0]], [[0.2, 0.2, 0.2]], kind="kinematic")
    c = np.array([[[[-1.0, 0, 0]], [[1.0, 0, 0]], [[1.5, 0, 0]]]])
    discrete = w.check_trajectories(poses_of(c), link)
    assert discrete.first_step[0] == -1
    swept = w.check_trajectories(poses_of(c), link, swept=True)
    assert swept.first_step[0] == 1
    assert tuple(swept.pair[0]) == (min(wall[0], link[0]), max(wall[0], link[0]))
    # Contact when the box's leading face reaches the wall: x = -0.25 of a move of 2.
    assert 0.3 < swept.t[0] <= 0.375 + 1e-4


def test_min_distance_matches_brute_force():
    w = sepax.World()
    w.add_spheres([[0, 0, 0]], [1.0], kind="static")
    link = w.add_spheres([[0, 0, 0]], [0.5], kind="kinematic")
    x = np.linspace(5, 2, 7)
    c = np.zeros((1, 7, 1, 3))
    c[0, :, 0, 0] = x
    rep = w.check_trajectories(poses_of(c), link, min_distance=10.0)
    assert rep.first_step[0] == -1
    assert abs(rep.distance[0] - 0.5) < 1e-5 and rep.distance_step[0] == 6
    far = w.check_trajectories(poses_of(c), link, min_distance=0.1)
    assert np.isinf(far.distance[0]) and far.distance_step[0] == -1


def test_trajectory_errors():
    w = sepax.World()
    links = w.add_spheres(np.zeros((2, 3)), [0.1, 0.1], kind="kinematic")
    good = poses_of(np.zeros((2, 3, 2, 3)))
    with pytest.raises(ValueError, match=r"\(B, T, 2, 7\)"):
        w.check_trajectories(good[..., :6], links)
    with pytest.raises(ValueError, match=r"\(B, T, 1, 7\)"):
        w.check_trajectories(good, links[:1])
    bad = good.copy()
    bad[1, 2, 1, 3] = 2.0
    with pytest.raises(ValueError, match=r"trajectory 1, step 2, mover 1"):
        w.check_trajectories(bad, links)
    with pytest.raises(ValueError, match=r"movers\[1\] is movers\[0\]"):
        w.check_trajectories(good, [links[0], links[0]])
    with pytest.raises(ValueError, match="stale"):
        w.check_trajectories(good, [links[0], 999])
    with pytest.raises(ValueError, match="distance"):
        w.check_trajectories(good, links, min_distance=-1)
    assert len(w.check_trajectories(good[:0], links)) == 0
