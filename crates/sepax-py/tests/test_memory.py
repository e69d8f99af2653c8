"""10,000 calls with no memory growth (RSS from /proc, and tracemalloc for Python objects)."""

import os
import tracemalloc

import numpy as np
import pytest

import sepax


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs Linux /proc")
def test_ten_thousand_calls_do_not_grow_memory():
    rng = np.random.default_rng(1)
    n = 16
    c = rng.uniform(-4, 4, size=(n, 3)).astype(sepax.REAL)
    h = np.full((n, 3), 0.4, dtype=sepax.REAL)
    w = sepax.World(margin=0.05)
    ids = w.add_boxes(c, h, report="manifolds")
    a = sepax.boxes(c, h)

    def step(k):
        w.set_poses(ids, c + np.float32(0.01 * (k % 7)))
        ev = w.update()
        sepax.intersects(a, a)
        sepax.contact(a, a)
        return len(ev)

    for k in range(500):
        step(k)
    tracemalloc.start()
    base_rss = rss_bytes()
    snap0 = tracemalloc.take_snapshot()
    for k in range(10_000):
        step(k)
    grown_py = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(snap0, "filename"))
    tracemalloc.stop()
    grown = rss_bytes() - base_rss
    assert grown_py < 256 * 1024, f"Python allocations grew by {grown_py} bytes"
    assert grown < 8 * 1024 * 1024, f"RSS grew by {grown} bytes over 10,000 calls"
