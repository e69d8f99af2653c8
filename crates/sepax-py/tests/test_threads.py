"""The GIL is released during real work: another Python thread keeps running meanwhile."""

import threading
import time

import numpy as np

import sepax
from conftest import random_quaternions


def largest_pause_while(work):
    """Runs ``work`` on a thread; returns (its duration, the longest gap between two iterations
    of a Python loop on this thread meanwhile)."""
    done = threading.Event()

    def run():
        work()
        done.set()

    t = threading.Thread(target=run)
    start = last = time.perf_counter()
    t.start()
    gap = 0.0
    while not done.is_set():
        now = time.perf_counter()
        gap = max(gap, now - last)
        last = now
    elapsed = time.perf_counter() - start
    t.join()
    return elapsed, gap


def test_pair_batches_and_update_release_the_gil():
    rng = np.random.default_rng(3)
    n = 20_000
    while True:
        a, b = (sepax.boxes(rng.uniform(-4, 4, (n, 3)), rng.uniform(0.1, 1, (n, 3)),
                            random_quaternions(rng, n)) for _ in range(2))
        start = time.perf_counter()
        sepax.distance(a, b)
        if time.perf_counter() - start > 0.3 or n >= 2_000_000:
            break
        n *= 4
    elapsed, gap = largest_pause_while(lambda: sepax.distance(a, b))
    # Holding the GIL would stop this thread for the whole call.
    assert gap < 0.5 * elapsed, f"this thread paused {gap:.3f} s of a {elapsed:.3f} s call"
