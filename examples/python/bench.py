"""Box-box pair checks, rays and trajectory checks per second and a per-frame world update,
sepax against the peers that are installed (python-fcl, Coal, pybullet), on the same data in one
run. Timings on a shared machine are noisy: compare the
ratio, not the absolute numbers.

    python examples/python/bench.py [--pairs 200000] [--boxes 20000]
"""

import argparse
import os
import sys
import time

import numpy as np

import sepax

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def best_of(f, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def random_boxes(rng, n, spread):
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return rng.uniform(-spread, spread, (n, 3)), rng.uniform(0.1, 1.0, (n, 3)), q


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=200_000)
    ap.add_argument("--fcl-pairs", type=int, default=20_000)
    ap.add_argument("--boxes", type=int, default=20_000)
    ap.add_argument("--rays", type=int, default=100_000)
    ap.add_argument("--trajectories", type=int, default=2000)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    print(f"sepax {sepax.__version__} ({sepax.PRECISION}); load {os.getloadavg()[0]:.2f}")

    n = args.pairs
    (ca, ha, qa), (cb, hb, qb) = random_boxes(rng, n, 2.0), random_boxes(rng, n, 2.0)
    a, b = sepax.boxes(ca, ha, qa), sepax.boxes(cb, hb, qb)
    t_build = best_of(lambda: (sepax.boxes(ca, ha, qa), sepax.boxes(cb, hb, qb)))
    t = best_of(lambda: sepax.intersects(a, b))
    rows = [("sepax intersects", n / t), ("sepax boxes() + intersects", n / (t + t_build))]
    t = best_of(lambda: sepax.distance(a, b))
    rows.append(("sepax distance", n / t))
    t = best_of(lambda: sepax.contact(a, b))
    rows.append(("sepax contact", n / t))

    try:
        import fcl
    except ImportError:
        fcl = None
    if fcl is not None:
        m = min(args.fcl_pairs, n)

        def obj(c, h, q):
            return fcl.CollisionObject(fcl.Box(*(2 * h)), fcl.Transform(q, c))

        oa = [obj(ca[i], ha[i], qa[i]) for i in range(m)]
        ob = [obj(cb[i], hb[i], qb[i]) for i in range(m)]

        def fcl_collide():
            req, out = fcl.CollisionRequest(), []
            for x, y in zip(oa, ob):
                out.append(fcl.collide(x, y, req, fcl.CollisionResult()) > 0)
            return out

        t = best_of(fcl_collide)
        rows.append(("python-fcl collide (objects prebuilt)", m / t))
        got = np.array(fcl_collide())
        agree = np.mean(got == sepax.intersects(a, b)[:m])
        print(f"python-fcl and sepax agree on {agree:.4%} of {m} pairs")

    w = sepax.World()
    k = args.boxes
    c, h, q = random_boxes(rng, k, 40.0)
    ids = w.add_boxes(c, h, q)
    w.update()
    moved = [c + rng.normal(scale=0.05, size=c.shape) for _ in range(4)]
    state = {"i": 0}

    def frame():
        state["i"] += 1
        w.set_poses(ids, moved[state["i"] % 4], q)
        return w.update()

    t = best_of(frame, repeat=5)
    rows.append((f"sepax world frame, {k} moving boxes (frames/s)", 1 / t))
    rows += rays_and_trajectories(rng, args)
    width = max(len(r[0]) for r in rows)
    for name, rate in rows:
        print(f"{name:<{width}}  {rate:>14,.0f} /s")


def rays_and_trajectories(rng, args):
    """Rays into a world of static boxes (sepax batch vs pybullet's rayTestBatch) and arm
    trajectories (sepax check_trajectories vs python-fcl, one collide per link per step)."""
    rows = []
    lo = rng.uniform(-40, 40, size=(2000, 3))
    hi = lo + rng.uniform(0.2, 2.0, size=lo.shape)
    w = sepax.World()
    w.add_aabbs(lo, hi, kind="static")
    n = args.rays
    o = rng.uniform(-40, 40, size=(n, 3))
    d = rng.normal(size=(n, 3))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    o32, d32 = np.ascontiguousarray(o, sepax.REAL), np.ascontiguousarray(d, sepax.REAL)
    t = best_of(lambda: w.cast_rays(o32, d32, 30.0))
    rows.append(("sepax cast_rays, 1 thread (rays/s)", n / t))
    try:
        import pybullet as pb
    except ImportError:
        pb = None
        print("pybullet is not installed: no rayTestBatch figure")
    if pb is not None:
        cid = pb.connect(pb.DIRECT)
        for a, b in zip(lo, hi):
            shape = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=list((b - a) / 2))
            pb.createMultiBody(0, shape, basePosition=list((a + b) / 2))
        to = o + 30.0 * d

        def bullet():
            for k in range(0, n, 16384):
                pb.rayTestBatch(o[k:k + 16384].tolist(), to[k:k + 16384].tolist())

        t = best_of(bullet)
        rows.append(("pybullet rayTestBatch (rays/s)", n / t))
        pb.disconnect(cid)

    import robot_trajectory as robot
    world, links, env = robot.build_world()
    b = args.trajectories
    poses = np.ascontiguousarray(robot.random_trajectories(rng, b, 16), sepax.REAL)
    t = best_of(lambda: world.check_trajectories(poses, links))
    rows.append(("sepax check_trajectories discrete, 16 steps x 7 links (traj/s)", b / t))
    t = best_of(lambda: world.check_trajectories(poses, links, swept=True))
    rows.append(("sepax check_trajectories swept (traj/s)", b / t))
    return rows


if __name__ == "__main__":
    main()
