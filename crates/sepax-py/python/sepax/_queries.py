"""The world's batch queries and trajectory checks (a mixin of ``World``): arrays in, one answer
per input out, in input order, the same bit for bit for any ``threads``."""

from __future__ import annotations

import numpy as np

from . import _sepax
from ._arrays import REAL, ids_array, ints, reals

_KIND_BITS = {"static": 1, "kinematic": 2, "dynamic": 4, "moving": 6, "all": 7}


def _kinds(kinds):
    if kinds is None:
        return 7
    if isinstance(kinds, str):
        kinds = [kinds]
    bits = 0
    for k in kinds:
        if k not in _KIND_BITS:
            raise ValueError(f"kinds: {k!r} is not one of {sorted(_KIND_BITS)}")
        bits |= _KIND_BITS[k]
    if bits == 0:
        raise ValueError("kinds must name at least one kind")
    return bits


def _one_id(name, x):
    if x is None:
        return None
    a = ids_array(name, x)
    if len(a) != 1:
        raise ValueError(f"{name} must be one collider id (found {len(a)})")
    return int(a[0])


def _filter_args(filter, kinds, exclude, as_collider):
    data = None
    if filter is not None:
        if not isinstance(filter, dict):
            raise TypeError(f"filter must be a dict or None (found {type(filter).__name__})")
        unknown = set(filter) - {"membership", "mask", "group", "owner"}
        if unknown:
            raise ValueError(f"filter: unexpected key {sorted(unknown)[0]!r}")
        owner = filter.get("owner")
        data = (
            int(ints("filter['membership']", filter.get("membership", 1), 1, np.uint64)[0]),
            int(ints("filter['mask']", filter.get("mask", np.iinfo(np.uint64).max), 1,
                     np.uint64)[0]),
            int(ints("filter['group']", filter.get("group", 0), 1, np.int32)[0]),
            None if owner is None else int(ints("filter['owner']", owner, 1, np.uint64)[0]),
        )
    return (data, _kinds(kinds), _one_id("exclude", exclude), _one_id("as_collider", as_collider))


def _limits(name, x, n):
    a = np.asarray(x, dtype=REAL)
    if a.ndim > 1 or (a.ndim == 1 and a.shape[0] != n):
        raise ValueError(f"{name} must be a scalar or have shape ({n},), found {a.shape}")
    return np.ascontiguousarray(np.broadcast_to(a, (n,)), dtype=REAL)


def _threads(threads):
    threads = int(threads)
    if threads < 0:
        raise ValueError(f"threads must be >= 0 (found {threads})")
    return threads


def _poses(shapes, positions, rotations):
    if not isinstance(shapes, _sepax.Shapes):
        raise TypeError(f"shapes must be a sepax.Shapes batch (found {type(shapes).__name__})")
    p = None if positions is None else reals("positions", positions, 3)
    r = None if rotations is None else reals("rotations", rotations, 4)
    return p, r


class TrajectoryReport:
    """The answer of ``World.check_trajectories``, one row per trajectory: ``first_step (B,)``
    int64 (-1 when free), ``pair (B, 2)`` uint64 (the first hit's colliders, smaller id first; 0
    when free), ``t (B,)`` (swept mode: the fraction of the motion into ``first_step`` at first
    contact; NaN for a hit at a step's poses). With ``min_distance``: ``distance (B,)`` (inf when
    no pair came within it), ``distance_step (B,)``, ``distance_pair (B, 2)``. With
    ``first_hit=False``: every (step, pair) contact as ``hits_offsets (B + 1,)`` and
    ``hits_step``, ``hits_pair``, ``hits_t`` (trajectory ``b``'s are rows
    ``hits_offsets[b]:hits_offsets[b + 1]``)."""

    def __init__(self, d):
        self.first_step = d.pop("first_step")
        self.pair = d.pop("first_pair")
        self.t = d.pop("first_t")
        self.__dict__.update(d)

    @property
    def colliding(self) -> np.ndarray:
        """``(B,)`` bool: whether each trajectory collides."""
        return self.first_step >= 0

    def __len__(self):
        return len(self.first_step)

    def __repr__(self):
        return f"TrajectoryReport({len(self)} trajectories, {int(self.colliding.sum())} colliding)"


class _Queries:
    """Batch queries of ``World``. Filter arguments of every query: ``filter`` (a dict of
    ``membership``, ``mask``, ``group``, ``owner`` checked against each collider's filter; None:
    no filter data), ``kinds`` (``"static"``, ``"kinematic"``, ``"dynamic"``, ``"moving"``,
    ``"all"`` or a list of them), ``exclude`` (an id never seen), ``as_collider`` (query on
    behalf of a collider: excluded, its filter used when ``filter`` is None, its explicit pair
    entries decide). Disabled colliders are never seen. Inputs are read in place when
    C-contiguous of dtype ``REAL``; the GIL is released during the query."""

    def cast_rays(self, origins, directions, max_t=np.inf, *, filter=None, kinds=None,
                  exclude=None, as_collider=None, threads: int = 1) -> dict:
        """The nearest hit of each ray ``origins[i] + t * directions[i]`` (directions
        normalised), ``0 <= t <= max_t`` (scalar or ``(N,)``; inf allowed): a dict of ``hit
        (N,)``, ``t (N,)`` (inf when none), ``id (N,)`` uint64 (0 when none), ``point``,
        ``normal (N, 3)`` (NaN when none). A ray starting inside a collider hits it at t = 0."""
        o = reals("origins", origins, 3)
        d = reals("directions", directions, 3)
        t = _limits("max_t", max_t, len(o))
        f = _filter_args(filter, kinds, exclude, as_collider)
        return _sepax.cast_rays(self._w, o, d, t, f, _threads(threads))

    def overlap(self, shapes, positions=None, rotations=None, *, filter=None, kinds=None,
                exclude=None, as_collider=None, threads: int = 1):
        """Every collider each query shape (a ``Shapes`` batch placed at ``positions (N, 3)``,
        ``rotations (N, 4)``; default the identity) touches (closed sets): ``(offsets (N + 1,)
        int64, ids (K,) uint64)``, shape ``i``'s ids being ``ids[offsets[i]:offsets[i + 1]]``,
        sorted."""
        p, r = _poses(shapes, positions, rotations)
        f = _filter_args(filter, kinds, exclude, as_collider)
        return _sepax.overlap(self._w, shapes, p, r, f, _threads(threads))

    def cast_shapes(self, shapes, velocities, max_time=1.0, positions=None, rotations=None, *,
                    filter=None, kinds=None, exclude=None, as_collider=None,
                    threads: int = 1) -> dict:
        """The first contact of each query shape moving with ``velocities (N, 3)`` for
        ``[0, max_time]`` (scalar or ``(N,)``, finite): a dict of ``hit``, ``time`` (inf when
        none), ``id``, ``point``, ``normal`` (from the collider toward the shape), ``depth``
        (when it starts in contact), ``status`` (0 converged, 1 started in contact, 2 iteration
        cap, 255 no hit)."""
        p, r = _poses(shapes, positions, rotations)
        v = reals("velocities", velocities, 3)
        t = _limits("max_time", max_time, len(shapes))
        f = _filter_args(filter, kinds, exclude, as_collider)
        return _sepax.cast_shapes(self._w, shapes, p, r, v, t, f, _threads(threads))

    def closest_colliders(self, points, max_distance=np.inf, *, filter=None, kinds=None,
                          exclude=None, as_collider=None, threads: int = 1) -> dict:
        """The closest collider to each of ``points (N, 3)`` within ``max_distance``: a dict of
        ``hit``, ``distance`` (0 inside; inf when none), ``id``, ``point`` (on the collider)."""
        p = reals("points", points, 3)
        f = _filter_args(filter, kinds, exclude, as_collider)
        return _sepax.closest_colliders(self._w, p, float(max_distance), f, _threads(threads))

    def closest_to_shapes(self, shapes, positions=None, rotations=None, max_distance=np.inf, *,
                          filter=None, kinds=None, exclude=None, as_collider=None,
                          threads: int = 1) -> dict:
        """The closest collider to each query shape within ``max_distance``: a dict of ``hit``,
        ``distance`` (0 when touching; inf when none), ``id``, ``point_query``,
        ``point_collider``, ``normal (N, 3)``."""
        p, r = _poses(shapes, positions, rotations)
        f = _filter_args(filter, kinds, exclude, as_collider)
        return _sepax.closest_to_shapes(self._w, shapes, p, r, float(max_distance), f,
                                        _threads(threads))

    def check_trajectories(self, poses, movers, *, swept: bool = False, first_hit: bool = True,
                           min_distance=None, threads: int = 1) -> TrajectoryReport:
        """Checks ``B`` trajectories of ``T`` steps of the colliders ``movers (M,)`` (a robot's
        links): ``poses (B, T, M, 7)``, each ``[x, y, z, qw, qx, qy, qz]`` (unit quaternion
        within 1e-4). At each step every mover, its local shape placed at its pose, is tested
        against the other colliders of the world at their current poses and against the other
        movers of the step, through the world's filter, pair policy and explicit pair entries
        (``allow_pair``: an allowed-collision matrix). ``swept``: also the motion from the step
        before (centres on a line, orientations along the shortest arc). ``first_hit``: stop
        each trajectory at its first colliding step (False: report every contact).
        ``min_distance``: also the smallest distance of pairs within it. The poses are read in
        place when C-contiguous of dtype ``REAL`` (else one copy). Returns a
        ``TrajectoryReport``."""
        p = np.asarray(poses)
        if p.dtype.kind not in "fiu":
            raise TypeError(f"poses must be an array of real numbers (found dtype {p.dtype})")
        p = np.ascontiguousarray(p, dtype=REAL)
        m = ids_array("movers", movers)
        md = None if min_distance is None else float(min_distance)
        d = _sepax.check_trajectories(self._w, p, m, bool(swept), not first_hit, md,
                                      _threads(threads))
        return TrajectoryReport(d)
