"""``World``: colliders added and moved in batches from arrays, one update per frame, events as
structured arrays."""

from __future__ import annotations

import numpy as np

from . import _sepax
from ._arrays import REAL, ids_array, ints, reals
from ._queries import _Queries

#: One pair event: the pair's ids (smaller first), their user values, the flags
#: (``FLAG_SENSOR`` 1, ``FLAG_REMOVED`` 2, ``FLAG_FILTERED`` 4) and the index of the pair's
#: manifold in ``Events.contacts`` (-1 when none).
EVENT_DTYPE = np.dtype(
    [
        ("a", "<u8"),
        ("b", "<u8"),
        ("user_a", "<u8"),
        ("user_b", "<u8"),
        ("flags", "<u8"),
        ("manifold", "<i8"),
    ]
)

_ALL = np.iinfo(np.uint64).max


def _events(table):
    # The (k, 6) uint64 table is viewed as k structured records: no copy.
    return table.view(EVENT_DTYPE).reshape(-1)


class Contacts:
    """An update's contact manifolds, one row each, in pair order: ``pair (M, 2)`` ids,
    ``speculative (M,)`` (within the margin, not touching), ``normal (M, 3)`` (from pair[0]
    toward pair[1]), ``depth (M,)``, ``count (M,)`` points, and per point (up to 4; NaN past
    ``count``) ``point_a``, ``point_b (M, 4, 3)``, ``point_depth (M, 4)``, ``feature (M, 4)``."""

    __slots__ = ("pair", "speculative", "normal", "depth", "count", "point_a", "point_b",
                 "point_depth", "feature")

    def __init__(self, arrays):
        for name, a in zip(self.__slots__, arrays):
            setattr(self, name, a)

    def __len__(self):
        return len(self.depth)

    def __repr__(self):
        return f"Contacts({len(self)} manifolds, {int(self.speculative.sum())} speculative)"


class Events:
    """The output of one ``World.update``: ``begin``, ``persist`` and ``end`` (structured arrays of
    ``EVENT_DTYPE``, each sorted by pair) and ``contacts`` (``Contacts``). Iterating yields
    ``(kind, event)`` with kind ``"begin"``, ``"persist"`` or ``"end"``."""

    __slots__ = ("begin", "persist", "end", "contacts")

    def __init__(self, begin, persist, end, contacts):
        self.begin, self.persist, self.end, self.contacts = begin, persist, end, contacts

    def __iter__(self):
        for kind in ("begin", "persist", "end"):
            for e in getattr(self, kind):
                yield kind, e

    def __len__(self):
        return len(self.begin) + len(self.persist) + len(self.end)

    def __repr__(self):
        return (f"Events(begin={len(self.begin)}, persist={len(self.persist)}, "
                f"end={len(self.end)}, contacts={len(self.contacts)})")


def _restore(text):
    """Unpickles a ``World`` (see ``World.__reduce__``)."""
    return World.from_scene_json(text)


class World(_Queries):
    """A collision world (sepax-world): colliders with stable ids (``uint64``: generation << 32 |
    slot), one filter, and ``update()`` reporting begin / persist / end events, the same bit for
    bit for any thread count.

    ``all_pairs``: test static–static pairs too (default: skipped). ``margin``: speculative
    contact margin of pairs that report manifolds.

    Keyword options of every ``add_*`` call (scalars or ``(N,)`` arrays): ``kind``
    (``"static"``, ``"kinematic"``, ``"dynamic"``), ``membership`` and ``mask`` (64-bit layer
    sets), ``group`` (int32: same negative never collides, same positive always), ``owner``
    (None or ids: one owner's colliders never collide), ``user`` (carried in the events),
    ``report`` (``"begin_end"``, ``"persist"``, ``"manifolds"``), ``sensor``.

    Batch queries (``cast_rays``, ``overlap``, ``cast_shapes``, ``closest_colliders``,
    ``closest_to_shapes``) and ``check_trajectories`` run on the world as it is (no update
    needed). A World pickles through the scene format (version 2, ``to_scene_json``).
    """

    def __init__(self, *, all_pairs: bool = False, margin: float = 0.0):
        self._w = _sepax.World(bool(all_pairs), float(margin))
        self._all_pairs, self._margin = bool(all_pairs), float(margin)

    # -- adding ------------------------------------------------------------------------------
    def add_boxes(self, centers, half_extents, rotations=None, **options) -> np.ndarray:
        """Boxes of ``half_extents (N, 3)`` placed at ``centers (N, 3)`` with ``rotations
        (N, 4)`` ``[w, x, y, z]`` (default identity). Returns the ids ``(N,)`` uint64."""
        he = reals("half_extents", half_extents, 3)
        return self._insert(_sepax.Shapes.boxes(he), centers, rotations, options)

    def add_spheres(self, centers, radii, **options) -> np.ndarray:
        """Spheres of ``radii (N,)`` at ``centers (N, 3)``."""
        return self._insert(_sepax.Shapes.spheres(reals("radii", radii, None)), centers, None,
                            options)

    def add_capsules(self, centers, half_heights, radii, rotations=None, **options) -> np.ndarray:
        """Capsules along their local z axis (segment from ``-half_heights`` to
        ``+half_heights``) of ``radii (N,)``, placed at ``centers (N, 3)`` with ``rotations``."""
        h = reals("half_heights", half_heights, None)
        if not np.all(np.isfinite(h)) or np.any(h < 0):
            bad = int(np.argmax(~(np.isfinite(h) & (h >= 0))))
            raise ValueError(f"half_heights[{bad}] must be finite and >= 0 (found {h[bad]})")
        r = reals("radii", radii, None)
        p1 = np.zeros((h.shape[0], 3), dtype=REAL)
        p1[:, 2] = h
        return self._insert(_sepax.Shapes.capsules(-p1, p1, r), centers, rotations, options)

    def add_aabbs(self, mins, maxs, **options) -> np.ndarray:
        """Axis-aligned boxes ``mins (N, 3)`` to ``maxs (N, 3)``, at the identity pose (a later
        ``set_poses`` translates the box given here, and a rotation makes it an OBB)."""
        shapes = _sepax.Shapes.aabbs(reals("mins", mins, 3), reals("maxs", maxs, 3))
        return self._insert(shapes, None, None, options)

    def add_shapes(self, shapes, positions=None, rotations=None, **options) -> np.ndarray:
        """Any ``Shapes`` batch (local frames) placed at ``positions`` with ``rotations``
        (default: the identity pose, the shapes where they are)."""
        if not isinstance(shapes, _sepax.Shapes):
            raise TypeError(f"shapes must be a sepax.Shapes batch (found {type(shapes).__name__})")
        return self._insert(shapes, positions, rotations, options)

    def _insert(self, shapes, positions, rotations, options):
        n = len(shapes)
        kind = options.pop("kind", "dynamic")
        report = options.pop("report", "begin_end")
        sensor = bool(options.pop("sensor", False))
        membership = options.pop("membership", 1)
        mask = options.pop("mask", _ALL)
        group = options.pop("group", 0)
        owner = options.pop("owner", None)
        user = options.pop("user", 0)
        if options:
            raise TypeError(f"unexpected keyword argument {sorted(options)[0]!r}")
        p = None if positions is None else reals("positions", positions, 3)
        r = None if rotations is None else reals("rotations", rotations, 4)
        opts = {
            "membership": ints("membership", membership, n, np.uint64),
            "mask": ints("mask", mask, n, np.uint64),
            "group": ints("group", group, n, np.int32),
            "owner": ints("owner", 0 if owner is None else owner, n, np.uint64),
            "has_owner": np.full(n, owner is not None),
            "user": ints("user", user, n, np.uint64),
        }
        return self._w.insert(shapes, p, r, str(kind), str(report), sensor, opts)

    # -- editing -----------------------------------------------------------------------------
    def set_poses(self, ids, positions, rotations=None) -> None:
        """Moves ``ids (N,)`` to ``positions (N, 3)``, ``rotations (N, 4)`` ``[w, x, y, z]``
        (unit within 1e-4; default identity). Everything is checked first: on error nothing
        moves."""
        ids = ids_array("ids", ids)
        p = reals("positions", positions, 3)
        r = None if rotations is None else reals("rotations", rotations, 4)
        self._w.set_poses(ids, p, r)

    def remove(self, ids) -> None:
        """Removes colliders (their touching pairs end, flag ``FLAG_REMOVED``, at the next
        update); all ids are checked first."""
        self._w.remove(ids_array("ids", ids))

    def allow_pair(self, a, b, allowed=True) -> None:
        """Sets the explicit entry of pairs ``(a[i], b[i])`` (scalars or arrays): ``True`` the
        pair is tested whatever the policy and filters say, ``False`` never (an
        allowed-collision matrix)."""
        a, b = ids_array("a", a), ids_array("b", b)
        n = max(len(a), len(b))
        if len(a) == 1:
            a = np.repeat(a, n)
        if len(b) == 1:
            b = np.repeat(b, n)
        allowed = np.ascontiguousarray(np.broadcast_to(np.asarray(allowed, dtype=bool), (n,)))
        self._w.allow_pairs(a, b, allowed)

    def reset_pair(self, a, b) -> None:
        """Clears the explicit entries of pairs ``(a[i], b[i])``: policy and filters decide."""
        self._w.allow_pairs(ids_array("a", a), ids_array("b", b), None)

    # -- updating ----------------------------------------------------------------------------
    def update(self, threads: int = 1) -> Events:
        """One update on ``threads`` threads (1: this thread; 0: one per core). The GIL is
        released during it."""
        threads = int(threads)
        if threads < 0:
            raise ValueError(f"threads must be >= 0 (found {threads})")
        begin, persist, end, manifolds = self._w.update(threads)
        return Events(_events(begin), _events(persist), _events(end), Contacts(manifolds))

    def state_hash(self) -> int:
        """A 64-bit hash of the world's state (colliders, filters, touching pairs)."""
        return self._w.state_hash()

    def ids(self) -> np.ndarray:
        """The live colliders' ids in slot order."""
        return self._w.ids()

    @property
    def update_count(self) -> int:
        """The number of completed updates."""
        return self._w.update_count()

    def __len__(self):
        return len(self._w)

    def __repr__(self):
        return (f"World({len(self)} colliders, {self.update_count} updates, "
                f"all_pairs={self._all_pairs}, margin={self._margin})")

    # -- snapshots ---------------------------------------------------------------------------
    def to_scene_json(self) -> str:
        """The world as a version-2 scene text (``docs/scene-format.md``): every collider (its
        local shape, pose, kind, filter, user value, report, flags) under its id, the explicit
        pair entries and the settings. Not the contact state of the last update: a world read
        back reports its touching pairs as ``begin`` at its first update."""
        return _sepax.to_scene(self._w)

    @classmethod
    def from_scene_json(cls, text: str) -> "World":
        """The world of a ``to_scene_json`` text, every collider under its old id."""
        w = cls.__new__(cls)
        w._w, all_pairs, margin = _sepax.from_scene(str(text))
        w._all_pairs, w._margin = bool(all_pairs), float(margin)
        return w

    def __reduce__(self):
        # Through the scene format, so that a world travels to worker processes.
        return (_restore, (self.to_scene_json(),))
