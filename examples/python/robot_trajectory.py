"""A 7-link arm from link meshes: OBBs fitted to each link's vertices, an allowed-collision
matrix (neighbouring links never collide), and a batch of joint-space trajectories checked in
swept mode against a table and a shelf.

    python examples/python/robot_trajectory.py [--trajectories 2000] [--steps 24] [--threads 0]

The link meshes are generated (a cylinder of vertices per link, each a little different); a real
robot's come from `sepax.load_mesh("link3.stl")` the same way.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import sepax

LINKS = 7
LENGTH = np.array([0.33, 0.30, 0.30, 0.26, 0.22, 0.16, 0.10])
RADIUS = np.array([0.07, 0.065, 0.06, 0.055, 0.05, 0.045, 0.04])
# Joint axes, alternating z and y (a 7-DOF arm like a Panda or an iiwa).
AXES = np.array([[0, 0, 1], [0, 1, 0], [0, 0, 1], [0, 1, 0], [0, 0, 1], [0, 1, 0], [0, 0, 1.0]])


def link_mesh(i, rng):
    """Vertices (V, 3) of link i in its own frame: a cylinder along z from 0 to its length."""
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    z = np.linspace(0, LENGTH[i], 6)
    ring = np.stack([RADIUS[i] * np.cos(a), RADIUS[i] * np.sin(a)], axis=1)
    v = np.concatenate([np.column_stack([ring, np.full(len(a), h)]) for h in z])
    return v + rng.normal(scale=0.002, size=v.shape)


def matrix_to_quaternion(m):
    """A proper rotation matrix (columns the axes) as [w, x, y, z]."""
    w = np.sqrt(max(0.0, 1 + m[0, 0] + m[1, 1] + m[2, 2])) / 2
    x = np.copysign(np.sqrt(max(0.0, 1 + m[0, 0] - m[1, 1] - m[2, 2])) / 2, m[2, 1] - m[1, 2])
    y = np.copysign(np.sqrt(max(0.0, 1 - m[0, 0] + m[1, 1] - m[2, 2])) / 2, m[0, 2] - m[2, 0])
    z = np.copysign(np.sqrt(max(0.0, 1 - m[0, 0] - m[1, 1] + m[2, 2])) / 2, m[1, 0] - m[0, 1])
    q = np.array([w, x, y, z])
    return q / np.linalg.norm(q)


def fitted_links(rng):
    """The links' boxes in their own frames, fitted to the meshes (`fit_obb`)."""
    centres, halves, rotations = [], [], []
    for i in range(LINKS):
        c, axes, h = sepax.fit_obb(link_mesh(i, rng), method="dito")
        axes = np.asarray(axes, dtype=np.float64)
        if np.linalg.det(axes) < 0:  # a box does not care about the sign of an axis
            axes[:, 2] = -axes[:, 2]
        centres.append(c)
        halves.append(h)
        rotations.append(matrix_to_quaternion(axes))
    return sepax.boxes(np.array(centres), np.array(halves), np.array(rotations))


def quat_mul(a, b):
    w1, x1, y1, z1 = np.moveaxis(a, -1, 0)
    w2, x2, y2, z2 = np.moveaxis(b, -1, 0)
    return np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2],
                    axis=-1)


def rotate(q, v):
    """Rotates vectors v (..., 3) by unit quaternions q (..., 4)."""
    u, w = q[..., 1:], q[..., :1]
    t = 2 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def forward_kinematics(joints):
    """Link frames of joint angles (..., 7): poses (..., 7, 7) as [x, y, z, qw, qx, qy, qz]."""
    shape = joints.shape[:-1]
    p = np.zeros(shape + (3,))
    q = np.zeros(shape + (4,))
    q[..., 0] = 1
    out = np.empty(shape + (LINKS, 7))
    for i in range(LINKS):
        half = joints[..., i] / 2
        qj = np.zeros(shape + (4,))
        qj[..., 0] = np.cos(half)
        qj[..., 1:] = np.sin(half)[..., None] * AXES[i]
        q = quat_mul(q, qj)
        q /= np.linalg.norm(q, axis=-1, keepdims=True)
        out[..., i, :3] = p
        out[..., i, 3:] = q
        p = p + rotate(q, np.broadcast_to([0, 0, LENGTH[i]], shape + (3,)))
    return out


#: The environment's boxes, (centres, half-extents): a table top and a shelf of two boards and
#: a side wall.
TABLE = (np.array([[0.4, 0, -0.03]]), np.array([[0.8, 0.8, 0.03]]))
SHELF = (np.array([[0.55, -0.1, 0.35], [0.55, -0.1, 0.65], [0.55, 0.35, 0.5]]),
         np.array([[0.15, 0.3, 0.015], [0.15, 0.3, 0.015], [0.15, 0.015, 0.3]]))


def build_world(seed=7):
    """The arm's links (kinematic, their local boxes fitted to the meshes) on a table next to
    a shelf; neighbouring links may not collide (the allowed-collision matrix)."""
    rng = np.random.default_rng(seed)
    w = sepax.World()
    links = w.add_shapes(fitted_links(rng), kind="kinematic")
    for i in range(LINKS - 1):
        w.allow_pair(links[i], links[i + 1], False)
    # The base link sits in the table top: never tested against it.
    table = w.add_boxes(TABLE[0], TABLE[1], kind="static")
    w.allow_pair(links[0], table[0], False)
    shelf = w.add_boxes(SHELF[0], SHELF[1], kind="static")
    return w, links, np.concatenate([table, shelf])


def random_trajectories(rng, count, steps):
    """Straight lines in joint space between random configurations: poses (B, T, 7, 7)."""
    lo = np.array([-2.9, -1.7, -2.9, -3.0, -2.9, -0.1, -2.9])
    hi = np.array([2.9, 1.7, 2.9, -0.1, 2.9, 3.7, 2.9])
    a = rng.uniform(lo, hi, size=(count, 1, LINKS))
    b = rng.uniform(lo, hi, size=(count, 1, LINKS))
    s = np.linspace(0, 1, steps)[None, :, None]
    return forward_kinematics(a + (b - a) * s)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trajectories", type=int, default=2000)
    ap.add_argument("--steps", type=int, default=24)
    ap.add_argument("--threads", type=int, default=0)
    args = ap.parse_args(argv)
    world, links, env = build_world()
    poses = random_trajectories(np.random.default_rng(1), args.trajectories, args.steps)
    poses = np.ascontiguousarray(poses, dtype=sepax.REAL)
    t0 = time.perf_counter()
    swept = world.check_trajectories(poses, links, swept=True, threads=args.threads)
    t1 = time.perf_counter()
    discrete = world.check_trajectories(poses, links, threads=args.threads)
    # The swept check includes every step's poses: it finds a contact no later.
    both = discrete.colliding & swept.colliding
    assert np.all(swept.first_step[both] <= discrete.first_step[both])
    assert np.all(swept.colliding[discrete.colliding])
    self_hits = np.isin(swept.pair[:, 0], links) & np.isin(swept.pair[:, 1], links)
    print(f"{args.trajectories} trajectories x {args.steps} steps x {LINKS} links, swept: "
          f"{int(swept.colliding.sum())} collide ({int(self_hits.sum())} self-collisions), "
          f"{int((swept.colliding & ~discrete.colliding).sum())} only caught between steps; "
          f"{args.trajectories / (t1 - t0):,.0f} trajectories/s")
    return swept


if __name__ == "__main__":
    main()
