"""A lidar sweep: 100,000 rays from a sensor in a room of boxes and pillars, one batch call,
checked against a NumPy slab test, drawn with matplotlib when it is installed.

    python examples/python/rays.py [--rays 100000] [--threads 0] [--picture lidar.png]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import sepax


def room(rng):
    """Static boxes (mins, maxs): floor, four walls and 40 crates and pillars."""
    mins = [[-20, -20, -1], [-20, -20, 0], [19.5, -20, 0], [-20, -20, 0], [-20, 19.5, 0]]
    maxs = [[20, 20, 0], [-19.5, 20, 5], [20, 20, 5], [20, -19.5, 5], [20, 20, 5]]
    c = rng.uniform(-18, 18, size=(40, 2))
    h = rng.uniform(0.3, 1.5, size=(40, 2))
    top = rng.uniform(0.5, 4, size=40)
    for k in range(40):
        if np.hypot(*c[k]) < 2.5:  # keep the sensor outside every box
            c[k] *= 2.5 / np.hypot(*c[k]) + 1
        mins.append([c[k, 0] - h[k, 0], c[k, 1] - h[k, 1], 0])
        maxs.append([c[k, 0] + h[k, 0], c[k, 1] + h[k, 1], top[k]])
    return np.array(mins, dtype=float), np.array(maxs, dtype=float)


def slab_t(o, d, lo, hi):
    """Entry distance of rays from o along unit d into each box (brute force): (N, K)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / d[:, None, :]
        t0 = (lo[None] - o[None, None]) * inv
        t1 = (hi[None] - o[None, None]) * inv
    near = np.nanmax(np.minimum(t0, t1), axis=2)
    far = np.nanmin(np.maximum(t0, t1), axis=2)
    return np.where((near <= far) & (far >= 0), np.maximum(near, 0), np.inf)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rays", type=int, default=100_000)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--picture", default=None, help="PNG path (needs matplotlib)")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(3)
    lo, hi = room(rng)
    w = sepax.World()
    ids = w.add_aabbs(lo, hi, kind="static")
    # A spinning lidar 1.5 m up: 32 beams from -30 to +10 degrees, the rest in azimuth.
    beams = 32
    az = np.linspace(-np.pi, np.pi, max(1, args.rays // beams), endpoint=False)
    el = np.radians(np.linspace(-30, 10, beams))
    A, E = np.meshgrid(az, el)
    d = np.stack([np.cos(E) * np.cos(A), np.cos(E) * np.sin(A), np.sin(E)], axis=-1).reshape(-1, 3)
    o = np.broadcast_to([0.0, 0.0, 1.5], d.shape)
    t0 = time.perf_counter()
    hit = w.cast_rays(o, d, 60.0, threads=args.threads)
    dt = time.perf_counter() - t0
    # Check a sample against the slab test (float64), away from ties between two boxes.
    k = rng.choice(len(d), size=min(2000, len(d)), replace=False)
    t = slab_t(np.array([0, 0, 1.5]), d[k], lo, hi)
    best, order = np.min(t, axis=1), np.sort(t, axis=1)
    with np.errstate(invalid="ignore"):
        clear = ~(order[:, 1] - order[:, 0] <= 1e-3)
    assert np.array_equal(hit["hit"][k][clear], np.isfinite(best[clear]) & (best[clear] <= 60))
    assert np.allclose(hit["t"][k][clear & hit["hit"][k]], best[clear & hit["hit"][k]],
                       rtol=1e-4, atol=1e-4)
    assert np.array_equal(hit["id"][k][clear & hit["hit"][k]],
                          ids[np.argmin(t, axis=1)][clear & hit["hit"][k]])
    print(f"{len(d):,} rays: {int(hit['hit'].sum()):,} returns in {dt * 1e3:.1f} ms "
          f"({len(d) / dt / 1e6:.1f} M rays/s)")
    if args.picture:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("matplotlib is not installed: no picture")
            return hit
        p = hit["point"][hit["hit"]]
        fig, ax = plt.subplots(figsize=(7, 7))
        ax.scatter(p[:, 0], p[:, 1], s=0.2, c=p[:, 2], cmap="viridis")
        ax.set_aspect("equal")
        ax.set_title(f"lidar sweep, {len(d):,} rays")
        fig.savefig(args.picture, dpi=120)
        print(f"wrote {args.picture}")
    return hit


if __name__ == "__main__":
    main()
