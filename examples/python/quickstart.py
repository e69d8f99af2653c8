"""A first look at sepax from Python: pair batches, then a world with events.

    pip install ./crates/sepax-py && python examples/python/quickstart.py
"""

import numpy as np

import sepax

rng = np.random.default_rng(0)

# 100,000 box pairs in one call each.
n = 100_000
q = rng.normal(size=(n, 4))
q /= np.linalg.norm(q, axis=1, keepdims=True)
a = sepax.boxes(rng.uniform(-2, 2, (n, 3)), rng.uniform(0.1, 1, (n, 3)), q)
b = sepax.boxes(rng.uniform(-2, 2, (n, 3)), rng.uniform(0.1, 1, (n, 3)))
hit = sepax.intersects(a, b)
print(f"{hit.sum()} of {n} box pairs intersect")
print("classified:", np.bincount(sepax.classify(a, b), minlength=3), "(separated, overlapping, uncertain)")
dist = sepax.distance(a, b)["distance"]
print(f"mean distance of the separated pairs: {dist[~hit].mean():.3f}")

# A world: a static floor and falling balls that report contact manifolds.
world = sepax.World()
floor = world.add_aabbs([[-10, -1, -10]], [[10, 0, 10]], kind="static", user=1)
centers = rng.uniform(-5, 5, (50, 3)) + [0, 8, 0]
balls = world.add_spheres(centers, np.full(50, 0.3), report="manifolds", user=np.arange(100, 150))
for frame in range(40):
    centers[:, 1] -= 0.2
    world.set_poses(balls, centers)
    events = world.update()
    if len(events.begin):
        print(f"frame {frame}: {len(events.begin)} balls reached the floor, "
              f"users {sorted(events.begin['user_b'].tolist())[:5]}..., "
              f"deepest contact {events.contacts.depth.max():.3f}")
print(world, hex(world.state_hash()))
