"""sepax against the Python peers that are installed (python-fcl, Coal, pybullet, trimesh), on
the same data in one run: box-box pair checks, rays, arm trajectory checks and a per-frame world
update, each answer checked against sepax's. Then the same sepax work from Rust (the
`py_parity` tool of sepax-tools, reading the arrays this script writes) for the Python / Rust
ratio. Timings on a shared machine are noisy: compare the ratios of one run.

    python examples/python/bench.py [--pairs 200000] [--rays 100000] [--trajectories 2000]
        [--boxes 20000] [--peers fcl,coal,pybullet,trimesh|none] [--rust PATH|none]

Peers run on smaller counts (``--peer-*``) and are reported per second. Every figure is the
best of ``--rounds`` rounds, each timing sepax, every peer and the Rust tool in turn. Every input
is drawn once in float64, rounded to the module's ``REAL``, and the peers get those rounded
numbers back as float64, so every library sees the same boxes. ``--rust`` defaults to the
release build ``target/release/py_parity`` when it exists (``scripts/py_bench.sh`` builds it in
the precision of the installed module and runs this script).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import sepax

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
ROOT = os.path.dirname(os.path.dirname(HERE))
REAL = sepax.REAL
CHECKS = []


def best_of(f, repeat):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def check(what, ok, detail):
    CHECKS.append((what, bool(ok), detail))


def real(x):
    """``x`` rounded to the module's precision (what sepax reads in place)."""
    return np.ascontiguousarray(x, dtype=REAL)


def f64(x):
    return np.asarray(x, dtype=np.float64)


def random_boxes(rng, n, spread):
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    c, h = rng.uniform(-spread, spread, (n, 3)), rng.uniform(0.1, 1.0, (n, 3))
    return real(c), real(h), real(q)


def wxyz_to_matrix(q):
    """Rotation matrices (..., 3, 3) of unit quaternions (..., 4) [w, x, y, z] (normalised)."""
    q = f64(q) / np.linalg.norm(f64(q), axis=-1, keepdims=True)
    w, x, y, z = np.moveaxis(q, -1, 0)
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
    ], -2)


def xyzw(q):
    q = f64(q)
    return np.concatenate([q[..., 1:], q[..., :1]], axis=-1)


class Peers:
    """The peers' modules (None when not installed or not asked for), with why."""

    def __init__(self, wanted):
        self.why = {}
        self.version = {}
        for name, module in [("fcl", "fcl"), ("coal", "coal"), ("pybullet", "pybullet"),
                             ("trimesh", "trimesh")]:
            mod = None
            if wanted is not None and name not in wanted:
                self.why[name] = "not asked for"
            else:
                try:
                    mod = __import__(module)
                except ImportError as e:
                    self.why[name] = f"not installed ({e})"
            setattr(self, name, mod)
            if mod is not None:
                self.version[name] = _version(name)
        if self.trimesh is not None and self.fcl is None:
            self.trimesh, self.why["trimesh"] = None, "its CollisionManager needs python-fcl"


def _version(name):
    from importlib import metadata
    dist = {"fcl": "python-fcl", "coal": "coal", "pybullet": "pybullet", "trimesh": "trimesh"}
    try:
        return metadata.version(dist[name])
    except metadata.PackageNotFoundError:
        return "?"


# -- pairs ----------------------------------------------------------------------------------------
def bench_pairs(rng, args, peers, out, table):
    n = args.pairs
    (ca, ha, qa), (cb, hb, qb) = random_boxes(rng, n, 2.0), random_boxes(rng, n, 2.0)
    for name, x in [("ca", ca), ("ha", ha), ("qa", qa), ("cb", cb), ("hb", hb), ("qb", qb)]:
        out[name] = x
    a, b = sepax.boxes(ca, ha, qa), sepax.boxes(cb, hb, qb)
    hits = sepax.intersects(a, b)
    row = table.row("pairs", f"box-box pairs, {n:,} random OBB pairs (pairs/s)")
    row.time("sepax", n, lambda: sepax.intersects(a, b), args.repeat)
    table.row("pairs_build", "  the same with boxes() built in the call (pairs/s)").time(
        "sepax", n, lambda: sepax.intersects(sepax.boxes(ca, ha, qa), sepax.boxes(cb, hb, qb)),
        args.repeat)
    table.checks["pairs_hits"] = int(hits.sum())
    m = min(args.peer_pairs, n)
    A = [(f64(ca[i]), f64(ha[i]), f64(qa[i])) for i in range(m)]
    B = [(f64(cb[i]), f64(hb[i]), f64(qb[i])) for i in range(m)]
    ref = hits[:m]

    def agree(name, got):
        got = np.asarray(got, dtype=bool)
        same = int(np.sum(got == ref))
        check(f"pairs: {name} vs sepax", same == m,
              f"{same}/{m} pairs agree ({int(got.sum())} vs {int(ref.sum())} intersecting)")

    def peer_fcl():
        fcl = peers.fcl

        def obj(c, h, q):
            return fcl.CollisionObject(fcl.Box(*(2 * h)), fcl.Transform(q, c))

        oa, ob = [obj(*x) for x in A], [obj(*x) for x in B]
        req = fcl.CollisionRequest()

        def run():
            return [fcl.collide(x, y, req, fcl.CollisionResult()) > 0 for x, y in zip(oa, ob)]

        agree("python-fcl collide", run())
        row.time("fcl", m, run, args.peer_repeat, label=f"collide per pair, {m:,} pairs, "
                 "objects prebuilt")

    if peers.fcl is not None:
        peer_fcl()

    def peer_coal():
        coal = peers.coal

        def obj(c, h, q):
            return coal.CollisionObject(coal.Box(*(2 * h)),
                                        coal.Transform3s(wxyz_to_matrix(q), c))

        oa, ob = [obj(*x) for x in A], [obj(*x) for x in B]
        req = coal.CollisionRequest()

        def run():
            return [coal.collide(x, y, req, coal.CollisionResult()) for x, y in zip(oa, ob)]

        agree("coal collide", run())
        row.time("coal", m, run, args.peer_repeat, label=f"collide per pair, {m:,} pairs, "
                 "objects prebuilt")

    if peers.coal is not None:
        peer_coal()

    def peer_pybullet():
        pb = peers.pybullet
        cid = pb.connect(pb.DIRECT)

        def body(c, h, q):
            s = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=h.tolist(), physicsClientId=cid)
            return pb.createMultiBody(0, s, basePosition=c.tolist(),
                                      baseOrientation=xyzw(q).tolist(), physicsClientId=cid)

        ba, bb = [body(*x) for x in A], [body(*x) for x in B]

        def run():
            return [len(pb.getClosestPoints(x, y, 0.0, physicsClientId=cid)) > 0
                    for x, y in zip(ba, bb)]

        agree("pybullet getClosestPoints", run())
        row.time("pybullet", m, run, args.peer_repeat,
                 label=f"getClosestPoints(a, b, 0) per pair, {m:,} pairs, bodies "
                 "prebuilt")

    if peers.pybullet is not None:
        peer_pybullet()

    def peer_trimesh():
        import trimesh
        k = min(args.peer_pairs_trimesh, m)
        # The manager tests one object against its whole set: one manager per pair, holding a.
        managers, others = [], []
        for (c1, h1, q1), (c2, h2, q2) in zip(A[:k], B[:k]):
            mgr = trimesh.collision.CollisionManager()
            mgr.add_object("a", trimesh.creation.box(extents=2 * h1), _matrix(c1, q1))
            managers.append(mgr)
            others.append((trimesh.creation.box(extents=2 * h2), _matrix(c2, q2)))

        def run():
            return [mgr.in_collision_single(mesh, transform=t)
                    for mgr, (mesh, t) in zip(managers, others)]

        got = np.asarray(run(), dtype=bool)
        same = int(np.sum(got == ref[:k]))
        check("pairs: trimesh CollisionManager vs sepax", same == k, f"{same}/{k} pairs agree")
        row.time("trimesh", k, run, args.peer_repeat,
                 label=f"in_collision_single per pair (box meshes), {k:,} pairs, "
                 "managers prebuilt")

    if peers.trimesh is not None:
        peer_trimesh()

def _matrix(c, q):
    m = np.eye(4)
    m[:3, :3] = wxyz_to_matrix(q)
    m[:3, 3] = c
    return m


# -- rays -----------------------------------------------------------------------------------------
def bench_rays(rng, args, peers, out, table):
    lo = real(rng.uniform(-40, 40, size=(args.ray_boxes, 3)))
    hi = real(f64(lo) + rng.uniform(0.2, 2.0, size=lo.shape))
    n = args.rays
    o = real(rng.uniform(-40, 40, size=(n, 3)))
    d = rng.normal(size=(n, 3))
    d = real(d / np.linalg.norm(d, axis=1, keepdims=True))
    max_t = 30.0
    out.update(ray_lo=lo, ray_hi=hi, ray_o=o, ray_d=d, ray_max_t=real([max_t]))
    w = sepax.World()
    w.add_aabbs(lo, hi, kind="static")
    r = w.cast_rays(o, d, max_t)
    row = table.row("rays", f"rays, {n:,} into {len(lo):,} static boxes, 1 thread (rays/s)")
    row.time("sepax", n, lambda: w.cast_rays(o, d, max_t), args.repeat)
    hit, t = r["hit"], r["t"]
    table.checks["rays_hits"] = int(hit.sum())
    table.checks["rays_tbits"] = _bits_sum(t[hit])
    # Rays starting inside a box: sepax hits them at t = 0 (a solid box); pybullet and trimesh
    # do not count a start inside a box (they see only the surface, from outside).
    inside = np.zeros(n, dtype=bool)
    for k in range(0, len(lo), 256):
        inside |= np.any(np.all((o[:, None] >= lo[None, k:k + 256]) &
                                (o[:, None] <= hi[None, k:k + 256]), axis=2), axis=1)
    outside = ~inside
    for name in ("fcl", "coal"):
        if getattr(peers, name) is not None:
            row.peer[name] = (None, "no ray query in its Python API")
    def peer_pybullet():
        pb = peers.pybullet
        cid = pb.connect(pb.DIRECT)
        lo64, hi64 = f64(lo), f64(hi)
        for a, b in zip(lo64, hi64):
            s = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=((b - a) / 2).tolist(),
                                        physicsClientId=cid)
            pb.createMultiBody(0, s, basePosition=((a + b) / 2).tolist(), physicsClientId=cid)
        o64, d64 = f64(o), f64(d)
        to = o64 + max_t * d64
        # MAX_RAY_INTERSECTION_BATCH_SIZE is 16,384, but a call of 16,384 rays answers none
        # (NumPy input) or 16,383 (lists): 16,383 is the largest call that works.
        chunk = 16383
        assert len(pb.rayTestBatch(o64[:chunk], to[:chunk], physicsClientId=cid)) == min(n, chunk)

        def run():
            res = []
            for k in range(0, n, chunk):
                res += pb.rayTestBatch(o64[k:k + chunk], to[k:k + chunk], numThreads=1,
                                       physicsClientId=cid)
            return res

        res = run()
        got = np.array([x[0] >= 0 for x in res])
        frac = np.array([x[2] for x in res]) * max_t
        both = got & hit & outside
        close = np.abs(frac[both] - t[both]) <= 1e-3 * max(1.0, max_t)
        same_hit = int(np.sum(got[outside] == hit[outside]))
        check("rays: pybullet rayTestBatch vs sepax", same_hit == int(outside.sum())
              and bool(np.all(close)),
              f"hit or miss agree on {same_hit}/{int(outside.sum())} rays starting outside "
              f"every box, t within 1e-3 on {int(close.sum())}/{int(both.sum())} of their hits; "
              f"{int(inside.sum())} rays start inside a box (sepax: hit at t = 0, "
              f"pybullet hits {int(got[inside].sum())} of them)")
        row.time("pybullet", n, run, args.peer_repeat,
                 label=f"rayTestBatch in calls of {chunk:,}, numThreads=1, NumPy in")

    if peers.pybullet is not None:
        peer_pybullet()

    def peer_trimesh():
        import trimesh
        m = min(args.peer_rays_trimesh, n)
        mesh = trimesh.util.concatenate([
            trimesh.creation.box(bounds=np.stack([a, b])) for a, b in zip(f64(lo), f64(hi))])
        o64, d64 = f64(o[:m]), f64(d[:m])

        def run():
            loc, index_ray, _ = mesh.ray.intersects_location(o64, d64, multiple_hits=False)
            tt = np.full(m, np.inf)
            tt[index_ray] = np.linalg.norm(loc - o64[index_ray], axis=1)
            return tt

        tt = run()
        got = tt <= max_t
        sel = outside[:m]
        same_hit = int(np.sum(got[sel] == hit[:m][sel]))
        check("rays: trimesh mesh.ray vs sepax", same_hit == int(sel.sum()),
              f"hit or miss agree on {same_hit}/{int(sel.sum())} rays starting outside every box "
              f"(of {m:,}; {type(mesh.ray).__module__})")
        row.time("trimesh", m, run, args.peer_repeat,
                 label=f"mesh.ray.intersects_location on the boxes as one mesh, "
                 f"{m:,} rays ({type(mesh.ray).__module__.split('.')[-1]})")

    if peers.trimesh is not None:
        peer_trimesh()

def _bits_sum(x):
    """The wrapping sum of the bit patterns of ``x`` (``REAL``), as the Rust tool prints it."""
    bits = np.ascontiguousarray(x, dtype=REAL).view(np.uint32 if REAL == np.float32
                                                    else np.uint64)
    with np.errstate(over="ignore"):
        return int(bits.astype(np.uint64).sum(dtype=np.uint64))


# -- trajectories ---------------------------------------------------------------------------------
def bench_trajectories(rng, args, peers, out, table):
    import robot_trajectory as robot
    world, links, env = robot.build_world()
    # The same fitted links build_world made (its seed), as numbers: centres, axes, half-extents.
    shapes = robot.fitted_links(np.random.default_rng(7)).arrays()
    lc, la, lh = real(shapes["center"]), real(shapes["axes"]), real(shapes["half_extents"])
    ec = real(np.concatenate([robot.TABLE[0], robot.SHELF[0]]))
    eh = real(np.concatenate([robot.TABLE[1], robot.SHELF[1]]))
    b, steps = args.trajectories, args.steps
    poses = real(robot.random_trajectories(rng, b, steps))
    out.update(link_c=lc, link_axes=la, link_h=lh, env_c=ec, env_h=eh, traj_poses=poses)
    out.meta.update(traj_b=b, traj_steps=steps)
    discrete = world.check_trajectories(poses, links)
    swept = world.check_trajectories(poses, links, swept=True)
    M = len(links)
    row = table.row("traj", f"trajectories, {steps} steps x {M} links vs 4 boxes + self, "
                    f"discrete, first hit (traj/s)")
    row.time("sepax", b, lambda: world.check_trajectories(poses, links), args.repeat)
    table.row("traj_swept", "  the same, swept (traj/s)").time(
        "sepax", b, lambda: world.check_trajectories(poses, links, swept=True), args.repeat)
    for name, r in [("traj", discrete), ("traj_swept", swept)]:
        table.checks[f"{name}_colliding"] = int(r.colliding.sum())
        table.checks[f"{name}_stepsum"] = int(r.first_step.sum())
    # What a peer user writes: per step, place the 7 link boxes and test the pairs the world
    # tests (non-neighbour links, link vs each environment box but the base against the table),
    # stopping at the first colliding step. The link boxes' world poses (link pose times the
    # fitted local box) are computed beforehand with NumPy, outside the timing.
    m = min(args.peer_trajectories, b)
    p = f64(poses[:m])
    rot = wxyz_to_matrix(p[..., 3:])                              # (m, T, M, 3, 3)
    local_r = f64(la)                                             # (M, 3, 3)
    box_r = rot @ local_r
    box_c = p[..., :3] + np.einsum("btmij,mj->btmi", rot, f64(lc))
    box_q = np.stack([robot.matrix_to_quaternion(x) for x in box_r.reshape(-1, 3, 3)])
    box_q = box_q.reshape(box_r.shape[:-2] + (4,))
    pairs = [(i, j) for i in range(M) for j in range(i + 2, M)]
    env_pairs = [(i, e) for i in range(M) for e in range(len(ec)) if (i, e) != (0, 0)]
    ref = discrete.first_step[:m]

    def agree(name, first):
        first = np.asarray(first)
        same = int(np.sum(first == ref))
        check(f"trajectories: {name} vs sepax", same == m,
              f"first colliding step agrees on {same}/{m} trajectories "
              f"({int((first >= 0).sum())} vs {int((ref >= 0).sum())} colliding)")

    def loop(place, collide, link_obj, env_obj):
        first = []
        for t in range(m):
            hit = -1
            for s in range(steps):
                for i in range(M):
                    place(link_obj[i], t, s, i)
                if any(collide(link_obj[i], link_obj[j]) for i, j in pairs) or any(
                        collide(link_obj[i], env_obj[e]) for i, e in env_pairs):
                    hit = s
                    break
            first.append(hit)
        return first

    label = f"per-step loop, {len(pairs) + len(env_pairs)} pair tests a step, {m:,} trajectories"
    def peer_fcl():
        fcl = peers.fcl
        link_obj = [fcl.CollisionObject(fcl.Box(*(2 * f64(h)))) for h in lh]
        env_obj = [fcl.CollisionObject(fcl.Box(*(2 * f64(h))), fcl.Transform(f64(c)))
                   for c, h in zip(ec, eh)]
        req = fcl.CollisionRequest()

        def place(o, t, s, i):
            o.setTransform(fcl.Transform(box_q[t, s, i], box_c[t, s, i]))

        def collide(x, y):
            return fcl.collide(x, y, req, fcl.CollisionResult()) > 0

        run = lambda: loop(place, collide, link_obj, env_obj)  # noqa: E731
        agree("python-fcl", run())
        row.time("fcl", m, run, args.peer_repeat, label="collide, " + label)

    if peers.fcl is not None:
        peer_fcl()

    def peer_coal():
        coal = peers.coal
        eye = np.eye(3)
        link_obj = [coal.CollisionObject(coal.Box(*(2 * f64(h))), coal.Transform3s())
                    for h in lh]
        env_obj = [coal.CollisionObject(coal.Box(*(2 * f64(h))), coal.Transform3s(eye, f64(c)))
                   for c, h in zip(ec, eh)]
        req = coal.CollisionRequest()

        def place(o, t, s, i):
            o.setTransform(coal.Transform3s(box_r[t, s, i], box_c[t, s, i]))

        def collide(x, y):
            return coal.collide(x, y, req, coal.CollisionResult())

        run = lambda: loop(place, collide, link_obj, env_obj)  # noqa: E731
        agree("coal", run())
        row.time("coal", m, run, args.peer_repeat, label="collide, " + label)

    if peers.coal is not None:
        peer_coal()

    def peer_pybullet():
        pb = peers.pybullet
        cid = pb.connect(pb.DIRECT)

        def body(c, h, q=(0, 0, 0, 1)):
            s = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=f64(h).tolist(),
                                        physicsClientId=cid)
            return pb.createMultiBody(0, s, basePosition=f64(c).tolist(), baseOrientation=q,
                                      physicsClientId=cid)

        link_obj = [body((0, 0, 0), h) for h in lh]
        env_obj = [body(c, h) for c, h in zip(ec, eh)]
        bq = xyzw(box_q)

        def place(o, t, s, i):
            pb.resetBasePositionAndOrientation(o, box_c[t, s, i], bq[t, s, i],
                                               physicsClientId=cid)

        def collide(x, y):
            return len(pb.getClosestPoints(x, y, 0.0, physicsClientId=cid)) > 0

        run = lambda: loop(place, collide, link_obj, env_obj)  # noqa: E731
        agree("pybullet", run())
        row.time("pybullet", m, run, args.peer_repeat,
                 label="resetBasePositionAndOrientation + getClosestPoints, " + label)

    if peers.pybullet is not None:
        peer_pybullet()

# -- world update ---------------------------------------------------------------------------------
def bench_world(rng, args, peers, out, table):
    k = args.boxes
    c, h, q = random_boxes(rng, k, 40.0)
    moved = [real(f64(c) + rng.normal(scale=0.05, size=c.shape)) for _ in range(4)]
    out.update(world_c=c, world_h=h, world_q=q, **{f"world_m{i}": x for i, x in enumerate(moved)})
    out.meta["world_frames"] = args.frames
    w = sepax.World()
    ids = w.add_boxes(c, h, q)
    w.update()
    state = {"i": 0}

    def frame():
        state["i"] += 1
        w.set_poses(ids, moved[state["i"] % 4], q)
        ev = w.update()
        if state["i"] == args.frames:
            table.checks["world_hash"] = w.state_hash()
        return ev

    row = table.row("world", f"world update, {k:,} moving boxes: set_poses + update "
                    "(frames/s)")
    row.time("sepax", 1, frame, args.frames)
    # The Rust tool runs frames 1 to --frames from the same start: its state hash then.
    last = moved[args.frames % 4]
    # The touching pairs at the last frame's poses: a fresh world reports them all as begin.
    ev = sepax.World()
    ev_ids = ev.add_boxes(last, h, q)
    begin = ev.update().begin
    slot = {int(i): n for n, i in enumerate(ev_ids)}
    touching = {(slot[int(a)], slot[int(b)]) for a, b in zip(begin["a"], begin["b"])}
    table.checks["world_touching"] = len(touching)
    frames = args.peer_frames
    c64, h64, q64 = f64(c), f64(h), f64(q)
    pos = [f64(x) for x in moved]

    def agree(name, got):
        got = {(min(a, b), max(a, b)) for a, b in got}
        check(f"world: {name} vs sepax", got == touching,
              f"{len(got)} touching pairs vs sepax's {len(touching)} "
              f"({len(got - touching)} only in {name}, {len(touching - got)} only in sepax)")

    def peer_fcl():
        fcl = peers.fcl
        objs = [fcl.CollisionObject(fcl.Box(*(2 * h64[i])), fcl.Transform(q64[i], c64[i]))
                for i in range(k)]
        mgr = fcl.DynamicAABBTreeCollisionManager()
        mgr.registerObjects(objs)
        mgr.setup()
        req = fcl.CollisionRequest()

        def run_frame(p):
            for i, o in enumerate(objs):
                o.setTransform(fcl.Transform(q64[i], p[i]))
            mgr.update()
            found = []

            def cb(o1, o2, data):
                if fcl.collide(o1, o2, req, fcl.CollisionResult()) > 0:
                    found.append((o1, o2))
                return False

            mgr.collide(None, cb)
            return found

        # The callback gets new wrappers of the objects: they are told apart by translation.
        where = {tuple(x): i for i, x in enumerate(f64(last))}
        agree("python-fcl DynamicAABBTreeCollisionManager",
              [(where[tuple(a.getTranslation())], where[tuple(b.getTranslation())])
               for a, b in run_frame(last)])
        s = {"i": 0}
        row.time("fcl", 1, lambda: run_frame(pos[_next(s)]), frames,
                 label="setTransform each + DynamicAABBTreeCollisionManager update + "
                 "collide (callback runs collide)")

    if peers.fcl is not None:
        peer_fcl()

    def peer_coal():
        coal = peers.coal
        objs = [coal.CollisionObject(coal.Box(*(2 * h64[i])),
                                     coal.Transform3s(wxyz_to_matrix(q64[i]), c64[i]))
                for i in range(k)]
        rots = wxyz_to_matrix(q64)
        mgr = coal.DynamicAABBTreeCollisionManager()
        for o in objs:
            mgr.registerObject(o)
        mgr.setup()

        def run_frame(p):
            for i, o in enumerate(objs):
                o.setTransform(coal.Transform3s(rots[i], p[i]))
            mgr.update()
            cb = coal.CollisionCallBackDefault()
            cb.data.request.num_max_contacts = 10 * k
            mgr.collide(cb)
            return cb.data.result.getContacts()

        # The contacts name the geometries (new wrappers): told apart by their sizes.
        where = {tuple(x): i for i, x in enumerate(h64)}
        agree("coal DynamicAABBTreeCollisionManager",
              [(where[tuple(x.o1.halfSide)], where[tuple(x.o2.halfSide)])
               for x in run_frame(last)])
        s = {"i": 0}
        row.time("coal", 1, lambda: run_frame(pos[_next(s)]), frames,
                 label="setTransform each + DynamicAABBTreeCollisionManager update + "
                 "collide (CollisionCallBackDefault)")

    if peers.coal is not None:
        peer_coal()

    def peer_pybullet():
        pb = peers.pybullet
        cid = pb.connect(pb.DIRECT)
        bq = xyzw(q64)
        bodies = []
        for i in range(k):
            sh = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=h64[i].tolist(),
                                         physicsClientId=cid)
            # Mass 1: Bullet reports no contacts between two static bodies.
            bodies.append(pb.createMultiBody(1, sh, basePosition=c64[i].tolist(),
                                             baseOrientation=bq[i].tolist(),
                                             physicsClientId=cid))
        slot = {b: i for i, b in enumerate(bodies)}

        def run_frame(p):
            for i, b in enumerate(bodies):
                pb.resetBasePositionAndOrientation(b, p[i], bq[i], physicsClientId=cid)
            pb.performCollisionDetection(physicsClientId=cid)
            return {(slot[x[1]], slot[x[2]]) for x in pb.getContactPoints(physicsClientId=cid)
                    if x[8] <= 0}

        agree("pybullet performCollisionDetection", run_frame(last))
        s = {"i": 0}
        row.time("pybullet", 1, lambda: run_frame(pos[_next(s)]), frames,
                 label="resetBasePositionAndOrientation each + "
                 "performCollisionDetection + getContactPoints")

    if peers.pybullet is not None:
        peer_pybullet()

    def peer_trimesh():
        import trimesh
        kt = min(args.peer_boxes_trimesh, k)
        mgr = trimesh.collision.CollisionManager()
        for i in range(kt):
            mgr.add_object(str(i), trimesh.creation.box(extents=2 * h64[i]),
                           _matrix(c64[i], q64[i]))
        mats = [[_matrix(p[i], q64[i]) for i in range(kt)] for p in pos]
        last_i = args.frames % 4

        def run_frame(j):
            for i in range(kt):
                mgr.set_transform(str(i), mats[j][i])
            _, names = mgr.in_collision_internal(return_names=True)
            return {(int(a), int(b)) for a, b in names}

        got = {(min(a, b), max(a, b)) for a, b in run_frame(last_i)}
        sub = {(a, b) for a, b in touching if b < kt}
        check("world: trimesh CollisionManager vs sepax", got == sub,
              f"{len(got)} touching pairs vs sepax's {len(sub)} among the first {kt:,} boxes")
        s = {"i": 0}
        part = "" if kt == k else f", on {kt:,} of the boxes (frames/s times {kt:,}/{k:,})"
        row.time("trimesh", kt / k, lambda: run_frame(_next(s)), args.peer_frames_trimesh,
                 once=True, label="set_transform each + in_collision_internal(return_names=True)"
                 + part)

    if peers.trimesh is not None:
        peer_trimesh()

def _next(s):
    s["i"] += 1
    return s["i"] % 4


# -- the table ------------------------------------------------------------------------------------
class Row:
    """One line of the table: its timers (each peer's in a function of its own, so that the
    closures keep that peer's objects) and the best rate each reached over the rounds."""

    def __init__(self, key, label):
        self.key, self.label, self.peer, self.rust, self.timers = key, label, {}, None, []

    def time(self, name, items, f, repeat, label="", once=False):
        """Times ``f`` (``items`` per call) in every round (``once``: the first only)."""
        self.timers.append((name, items, f, repeat, once))
        self.peer[name] = (None, label)

    @property
    def sepax(self):
        return self.peer.get("sepax", (None, ""))[0]

    def measure(self, first):
        for name, items, f, repeat, once in self.timers:
            if once and not first:
                continue
            rate = items / best_of(f, repeat)
            old, label = self.peer[name]
            self.peer[name] = (rate if old is None else max(old, rate), label)


class Table:
    def __init__(self):
        self.rows, self.checks = [], {}

    def row(self, key, label):
        r = Row(key, label)
        self.rows.append(r)
        return r


class Out:
    """The arrays the Rust tool reads: raw little-endian ``REAL`` files and a meta.txt."""

    def __init__(self, path):
        self.path, self.meta = path, {"precision": sepax.PRECISION}

    def __setitem__(self, name, x):
        np.ascontiguousarray(x, dtype=np.dtype(REAL).newbyteorder("<")).tofile(
            os.path.join(self.path, f"{name}.bin"))

    def update(self, **arrays):
        for k, v in arrays.items():
            self[k] = v

    def close(self):
        with open(os.path.join(self.path, "meta.txt"), "w") as f:
            for k, v in self.meta.items():
                f.write(f"{k} {v}\n")


def run_rust(path, data, table, first):
    proc = subprocess.run([path, data], capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"py_parity failed ({proc.returncode}):\n{proc.stderr}")
        return
    rates, checks = {}, {}
    for line in proc.stdout.splitlines():
        kind, *rest = line.split()
        if kind == "precision" and rest[0] != sepax.PRECISION:
            print(f"py_parity is the {rest[0]} build, the module {sepax.PRECISION}: no ratio")
            return
        if kind == "rate":
            rates[rest[0]] = float(rest[1])
        elif kind == "check":
            checks[rest[0]] = rest[1]
    for r in table.rows:
        x = rates.get(r.key)
        r.rust = x if r.rust is None or x is None else max(r.rust, x)
    if not first:
        return
    for k, v in table.checks.items():
        got = checks.get(k)
        check(f"Rust vs Python: {k}", got is not None and str(v) == got,
              f"Python {v}, Rust {got}")


def fmt(x):
    if x is None:
        return "-"
    for unit, scale in [("M", 1e6), ("k", 1e3)]:
        if x >= scale:
            return f"{x / scale:,.3g} {unit}"
    return f"{x:,.3g}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=200_000)
    ap.add_argument("--peer-pairs", type=int, default=20_000)
    ap.add_argument("--peer-pairs-trimesh", type=int, default=2_000)
    ap.add_argument("--rays", type=int, default=100_000)
    ap.add_argument("--ray-boxes", type=int, default=2_000)
    ap.add_argument("--peer-rays-trimesh", type=int, default=2_000)
    ap.add_argument("--trajectories", type=int, default=2_000)
    ap.add_argument("--peer-trajectories", type=int, default=200)
    ap.add_argument("--steps", type=int, default=16)
    ap.add_argument("--boxes", type=int, default=20_000)
    ap.add_argument("--frames", type=int, default=10, help="sepax's timed frames (best of)")
    ap.add_argument("--peer-frames", type=int, default=3)
    ap.add_argument("--peer-boxes-trimesh", type=int, default=20_000)
    ap.add_argument("--peer-frames-trimesh", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=10,
                    help="timings of each sepax figure, here and in Rust (best of)")
    ap.add_argument("--peer-repeat", type=int, default=3, help="timings of each peer figure")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds of timing every figure in turn (best kept)")
    ap.add_argument("--peers", default="all", help="comma list of fcl,coal,pybullet,trimesh, "
                    "or all, or none")
    ap.add_argument("--rust", default="auto", help="the py_parity binary, or none")
    ap.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    args = ap.parse_args(argv)
    wanted = None if args.peers == "all" else (
        set() if args.peers == "none" else set(args.peers.split(",")))
    peers = Peers(wanted)
    print(f"sepax {sepax.__version__} ({sepax.PRECISION}); numpy {np.__version__}; "
          f"load {os.getloadavg()[0]:.2f}; peers: " +
          ", ".join([f"{k} {v}" for k, v in peers.version.items()] +
                    [f"{k} {v}" for k, v in peers.why.items()]))
    rng = np.random.default_rng(1)
    table = Table()
    with tempfile.TemporaryDirectory(prefix="sepax-bench-") as data:
        out = Out(data)
        out.meta["repeat"] = args.repeat
        bench_pairs(rng, args, peers, out, table)
        bench_rays(rng, args, peers, out, table)
        bench_trajectories(rng, args, peers, out, table)
        bench_world(rng, args, peers, out, table)
        out.close()
        rust = args.rust
        if rust == "auto":
            rust = os.path.join(ROOT, "target", "release", "py_parity")
            rust = rust if os.path.exists(rust) else "none"
        # Rounds: every figure (sepax, each peer, then the Rust tool) timed in turn, the best of
        # the rounds kept, so that a change of the machine's load hits every column alike.
        for k in range(args.rounds):
            for r in table.rows:
                r.measure(k == 0)
            if rust != "none":
                run_rust(rust, data, table, k == 0)
    print_table(table, peers, args.markdown)
    failed = [c for c in CHECKS if not c[1]]
    print(f"\nagreement ({len(CHECKS) - len(failed)}/{len(CHECKS)} exact):")
    for what, ok, detail in CHECKS:
        print(f"  {'ok  ' if ok else 'DIFF'} {what}: {detail}")
    print(f"load {os.getloadavg()[0]:.2f}")


def print_table(table, peers, markdown):
    names = [n for n in ("fcl", "coal", "pybullet", "trimesh") if getattr(peers, n) is not None]
    head = ["what", "sepax/s"] + [f"{n}/s" for n in names] + ["sepax / fastest peer",
                                                               "Rust/s", "Python / Rust time"]
    lines = []
    for r in table.rows:
        rates = [r.peer.get(n, (None, ""))[0] for n in names]
        known = [x for x in rates if x]
        best = max(known) if known else None
        cells = [r.label, fmt(r.sepax)] + [fmt(x) for x in rates]
        cells.append(f"{r.sepax / best:,.1f}x" if best else "-")
        cells.append(fmt(r.rust))
        cells.append(f"{r.rust / r.sepax:.2f}" if r.rust else "-")
        lines.append(cells)
    widths = [max(len(str(c[i])) for c in lines + [head]) for i in range(len(head))]
    print()
    for cells in [head] + lines:
        print("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                        for i, (c, w) in enumerate(zip(cells, widths))))
    print("\npeer calls:")
    for r in table.rows:
        for n in names:
            if n in r.peer:
                print(f"  {r.key} / {n}: {r.peer[n][1]}")
    if markdown:
        print()
        print("| " + " | ".join(head) + " |")
        print("|" + " --- |" * len(head))
        for cells in lines:
            print("| " + " | ".join(str(c) for c in cells) + " |")


if __name__ == "__main__":
    main()
