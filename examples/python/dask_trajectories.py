"""Trajectory checks beyond one process: 100,000 arm trajectories split over a Dask cluster,
each task rebuilding the world from the pickled one (a version-2 scene text), with results
identical to the single-process run.

    pip install "dask[distributed]"
    python examples/python/dask_trajectories.py [--trajectories 100000] [--chunk 5000]
        [--workers 2] [--scheduler tcp://host:8786]

Without --scheduler a `distributed.LocalCluster` of --workers processes is started; with it,
the tasks go to that cluster (whose workers must have sepax installed).
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robot_trajectory as robot  # noqa: E402

import sepax  # noqa: E402


def check_chunk(world_blob, movers, seed, count, steps):
    """One task: the world from its pickle, the chunk's trajectories made from their seed (so
    that only a few bytes travel), the report's arrays back."""
    world = pickle.loads(world_blob)
    poses = robot.random_trajectories(np.random.default_rng(seed), count, steps)
    rep = world.check_trajectories(np.ascontiguousarray(poses, dtype=sepax.REAL), movers,
                                   swept=True)
    return rep.first_step, rep.pair, rep.t


def chunks(total, size):
    return [(k, min(size, total - k * size)) for k in range((total + size - 1) // size)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trajectories", type=int, default=100_000)
    ap.add_argument("--chunk", type=int, default=5000)
    ap.add_argument("--steps", type=int, default=16)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scheduler", default=None)
    args = ap.parse_args(argv)
    from distributed import Client, LocalCluster

    world, links, _ = robot.build_world()
    blob = pickle.dumps(world)
    parts = chunks(args.trajectories, args.chunk)

    t0 = time.perf_counter()
    single = [check_chunk(blob, links, 1000 + k, n, args.steps) for k, n in parts]
    t1 = time.perf_counter()

    cluster = None
    if args.scheduler is None:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
    with Client(args.scheduler or cluster) as client:
        t2 = time.perf_counter()
        blob_future = client.scatter(blob, broadcast=True)
        futures = [client.submit(check_chunk, blob_future, links, 1000 + k, n, args.steps,
                                 pure=False) for k, n in parts]
        spread = client.gather(futures)
        t3 = time.perf_counter()
    if cluster is not None:
        cluster.close()

    for (a, b) in zip(single, spread):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    first = np.concatenate([s[0] for s in single])
    print(f"{args.trajectories:,} trajectories in {len(parts)} tasks: "
          f"{int((first >= 0).sum()):,} collide; one process {t1 - t0:.2f} s, "
          f"{args.workers} workers {t3 - t2:.2f} s; results identical")


if __name__ == "__main__":
    main()
