"""sepax: collision detection on NumPy arrays.

Shapes come in batches (``boxes``, ``spheres``, ``capsules``, ``aabbs``, ``triangles``), the pair
functions (``intersects``, ``classify``, ``contact``, ``distance``) run over N pairs at once, and
``World`` keeps colliders with stable ids and reports begin/persist/end events per update.

Precision: the module computes in ``REAL`` (``float32`` by default, ``float64`` in a build with
the ``f64`` feature; ``PRECISION`` says which). An input array that is C-contiguous and of dtype
``REAL`` is read in place; any other float or integer array is converted first (one copy, and
for float64 input to the float32 build a rounding to float32). Outputs are ``REAL``.
"""

from __future__ import annotations

import numpy as np

from . import _sepax
from ._sepax import PRECISION, Shapes
from ._arrays import REAL, reals
from ._queries import TrajectoryReport
from ._world import EVENT_DTYPE, Contacts, Events, World

__all__ = [
    "PRECISION", "REAL", "EVENT_DTYPE", "Shapes", "World", "Events", "Contacts",
    "TrajectoryReport",
    "boxes", "spheres", "capsules", "aabbs", "triangles",
    "intersects", "classify", "contact", "distance",
    "read_scene", "load_mesh", "fit_obb",
    "SEPARATED", "OVERLAPPING", "UNCERTAIN",
    "FLAG_SENSOR", "FLAG_REMOVED", "FLAG_FILTERED",
    "KIND_AABB", "KIND_OBB", "KIND_SPHERE", "KIND_CAPSULE", "KIND_TRIANGLE",
]

__version__ = _sepax.VERSION

#: ``classify`` codes.
SEPARATED, OVERLAPPING, UNCERTAIN = 0, 1, 2
#: Event ``flags`` bits.
FLAG_SENSOR, FLAG_REMOVED, FLAG_FILTERED = 1, 2, 4
#: ``Shapes.kinds()`` codes.
KIND_AABB, KIND_OBB, KIND_SPHERE, KIND_CAPSULE, KIND_TRIANGLE = 0, 1, 2, 3, 4


def boxes(centers, half_extents, rotations=None) -> Shapes:
    """Oriented boxes: ``centers (N, 3)``, ``half_extents (N, 3)`` (>= 0) and ``rotations (N, 4)``
    as ``[w, x, y, z]`` unit quaternions (within 1e-4; normalised). Without rotations the boxes
    are axis-aligned (AABBs). Arrays are read in place when C-contiguous of dtype ``REAL``."""
    he = reals("half_extents", half_extents, 3)
    c = reals("centers", centers, 3)
    r = None if rotations is None else reals("rotations", rotations, 4)
    return Shapes.boxes(he, c, r)


def spheres(centers, radii) -> Shapes:
    """Spheres: ``centers (N, 3)`` and ``radii (N,)`` (>= 0)."""
    return Shapes.spheres(reals("radii", radii, None), reals("centers", centers, 3))


def capsules(p0, p1, radii) -> Shapes:
    """Capsules: the segments ``p0 (N, 3)``–``p1 (N, 3)`` grown by ``radii (N,)``."""
    return Shapes.capsules(reals("p0", p0, 3), reals("p1", p1, 3), reals("radii", radii, None))


def aabbs(mins, maxs) -> Shapes:
    """Axis-aligned boxes from corners ``mins (N, 3)`` <= ``maxs (N, 3)``."""
    return Shapes.aabbs(reals("mins", mins, 3), reals("maxs", maxs, 3))


def triangles(a, b, c) -> Shapes:
    """Triangles with vertices ``a``, ``b``, ``c`` (each ``(N, 3)``)."""
    return Shapes.triangles(reals("a", a, 3), reals("b", b, 3), reals("c", c, 3))


def _shapes(name, s) -> Shapes:
    if not isinstance(s, Shapes):
        raise TypeError(f"{name} must be a sepax.Shapes batch (found {type(s).__name__})")
    return s


def intersects(a: Shapes, b: Shapes) -> np.ndarray:
    """Whether each pair ``(a[i], b[i])`` intersects (touching counts): ``(N,)`` bool. A batch of
    one shape pairs with every shape of the other."""
    return _sepax.intersects(_shapes("a", a), _shapes("b", b))


def classify(a: Shapes, b: Shapes) -> np.ndarray:
    """Certified classification of box pairs (AABBs and OBBs): ``(N,)`` uint8 of ``SEPARATED``,
    ``OVERLAPPING`` or ``UNCERTAIN`` (the exact answer is within the proven rounding band)."""
    return _sepax.classify(_shapes("a", a), _shapes("b", b))


def contact(a: Shapes, b: Shapes, margin: float = 0.0) -> dict:
    """Contact manifolds of each pair (up to 4 points): a dict of ``hit (N,)``, ``depth (N,)``,
    ``normal (N, 3)`` (from a toward b), ``count (N,)``, ``point_a``, ``point_b (N, 4, 3)``,
    ``point_depth (N, 4)``, ``feature (N, 4)``; NaN past each pair's ``count``. With
    ``margin > 0`` pairs within that gap get speculative manifolds (negative depths)."""
    return _sepax.contact(_shapes("a", a), _shapes("b", b), float(margin))


def distance(a: Shapes, b: Shapes) -> dict:
    """Distances and closest points of each pair: a dict of ``distance (N,)`` (0 when touching),
    ``point_a``, ``point_b``, ``normal (N, 3)``."""
    return _sepax.distance(_shapes("a", a), _shapes("b", b))


def read_scene(path) -> dict:
    """Reads a scene file: a dict of ``ids`` (list of str), ``shapes`` (``Shapes``), ``layer``,
    ``mask`` (``(N,)`` int64, -1 where unset), ``pairs`` (``(P, 2)`` int64 or None) and
    ``frames`` (list of ``(indices, Shapes)``). Errors are ``ValueError`` with the line, column,
    shape and field."""
    return _sepax.read_scene(path)


def load_mesh(path):
    """Reads an OBJ, STL, PLY or glTF/GLB mesh: ``(vertices (V, 3) REAL, faces (F, 3) uint32)``,
    all parts of the model joined."""
    return _sepax.load_mesh(path)


def fit_obb(points, method: str = "dito"):
    """The box of ``points (N, 3)`` by ``method`` (``aabb``, ``pca``, ``hull-pca``, ``dito``,
    ``exact``): ``(center (3,), axes (3, 3), half_extents (3,))``, the axes as columns. The points
    are read in place when C-contiguous of dtype ``REAL``."""
    return _sepax.fit_obb(reals("points", points, 3), str(method))

