from os import PathLike
from typing import Any, Iterator, Literal, Optional, Sequence, Tuple, TypedDict, Union

import numpy as np
import numpy.typing as npt

ArrayLike = npt.ArrayLike
Path = Union[str, PathLike[str]]
Ids = Union[int, npt.ArrayLike]

PRECISION: Literal["f32", "f64"]
REAL: type
EVENT_DTYPE: np.dtype[Any]
__version__: str

SEPARATED: int
OVERLAPPING: int
UNCERTAIN: int
FLAG_SENSOR: int
FLAG_REMOVED: int
FLAG_FILTERED: int
KIND_AABB: int
KIND_OBB: int
KIND_SPHERE: int
KIND_CAPSULE: int
KIND_TRIANGLE: int

class ShapeArrays(TypedDict):
    kind: npt.NDArray[np.uint8]
    center: npt.NDArray[np.floating[Any]]
    half_extents: npt.NDArray[np.floating[Any]]
    axes: npt.NDArray[np.floating[Any]]
    radius: npt.NDArray[np.floating[Any]]
    p0: npt.NDArray[np.floating[Any]]
    p1: npt.NDArray[np.floating[Any]]
    vertices: npt.NDArray[np.floating[Any]]

class Shapes:
    @staticmethod
    def boxes(half_extents: np.ndarray, centers: Optional[np.ndarray] = None,
              rotations: Optional[np.ndarray] = None) -> Shapes: ...
    @staticmethod
    def aabbs(mins: np.ndarray, maxs: np.ndarray) -> Shapes: ...
    @staticmethod
    def spheres(radii: np.ndarray, centers: Optional[np.ndarray] = None) -> Shapes: ...
    @staticmethod
    def capsules(p0: np.ndarray, p1: np.ndarray, radii: np.ndarray) -> Shapes: ...
    @staticmethod
    def triangles(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> Shapes: ...
    @staticmethod
    def concat(parts: Sequence[Shapes]) -> Shapes: ...
    def kinds(self) -> npt.NDArray[np.uint8]: ...
    def arrays(self) -> ShapeArrays: ...
    def __len__(self) -> int: ...

def boxes(centers: ArrayLike, half_extents: ArrayLike, rotations: Optional[ArrayLike] = None) -> Shapes: ...
def spheres(centers: ArrayLike, radii: ArrayLike) -> Shapes: ...
def capsules(p0: ArrayLike, p1: ArrayLike, radii: ArrayLike) -> Shapes: ...
def aabbs(mins: ArrayLike, maxs: ArrayLike) -> Shapes: ...
def triangles(a: ArrayLike, b: ArrayLike, c: ArrayLike) -> Shapes: ...

class ContactArrays(TypedDict):
    hit: npt.NDArray[np.bool_]
    depth: npt.NDArray[np.floating[Any]]
    normal: npt.NDArray[np.floating[Any]]
    count: npt.NDArray[np.uint8]
    point_a: npt.NDArray[np.floating[Any]]
    point_b: npt.NDArray[np.floating[Any]]
    point_depth: npt.NDArray[np.floating[Any]]
    feature: npt.NDArray[np.uint32]

class DistanceArrays(TypedDict):
    distance: npt.NDArray[np.floating[Any]]
    point_a: npt.NDArray[np.floating[Any]]
    point_b: npt.NDArray[np.floating[Any]]
    normal: npt.NDArray[np.floating[Any]]

def intersects(a: Shapes, b: Shapes) -> npt.NDArray[np.bool_]: ...
def classify(a: Shapes, b: Shapes) -> npt.NDArray[np.uint8]: ...
def contact(a: Shapes, b: Shapes, margin: float = 0.0) -> ContactArrays: ...
def distance(a: Shapes, b: Shapes) -> DistanceArrays: ...

class Scene(TypedDict):
    ids: list[str]
    shapes: Shapes
    layer: npt.NDArray[np.int64]
    mask: npt.NDArray[np.int64]
    pairs: Optional[npt.NDArray[np.int64]]
    frames: list[Tuple[npt.NDArray[np.int64], Shapes]]

def read_scene(path: Path) -> Scene: ...
def load_mesh(path: Path) -> Tuple[npt.NDArray[np.floating[Any]], npt.NDArray[np.uint32]]: ...
def fit_obb(points: ArrayLike, method: Literal["aabb", "pca", "hull-pca", "dito", "exact"] = "dito"
            ) -> Tuple[npt.NDArray[np.floating[Any]], npt.NDArray[np.floating[Any]], npt.NDArray[np.floating[Any]]]: ...

class Contacts:
    pair: npt.NDArray[np.uint64]
    speculative: npt.NDArray[np.bool_]
    normal: npt.NDArray[np.floating[Any]]
    depth: npt.NDArray[np.floating[Any]]
    count: npt.NDArray[np.uint8]
    point_a: npt.NDArray[np.floating[Any]]
    point_b: npt.NDArray[np.floating[Any]]
    point_depth: npt.NDArray[np.floating[Any]]
    feature: npt.NDArray[np.uint32]
    def __len__(self) -> int: ...

class Events:
    begin: np.ndarray
    persist: np.ndarray
    end: np.ndarray
    contacts: Contacts
    def __iter__(self) -> Iterator[Tuple[Literal["begin", "persist", "end"], np.void]]: ...
    def __len__(self) -> int: ...

Kind = Literal["static", "kinematic", "dynamic"]
ReportMode = Literal["begin_end", "persist", "manifolds"]

class World:
    def __init__(self, *, all_pairs: bool = False, margin: float = 0.0) -> None: ...
    def add_boxes(self, centers: ArrayLike, half_extents: ArrayLike, rotations: Optional[ArrayLike] = None, *,
                  kind: Kind = "dynamic", membership: Ids = 1, mask: Ids = ..., group: Ids = 0,
                  owner: Optional[Ids] = None, user: Ids = 0, report: ReportMode = "begin_end",
                  sensor: bool = False) -> npt.NDArray[np.uint64]: ...
    def add_spheres(self, centers: ArrayLike, radii: ArrayLike, *,
                    kind: Kind = "dynamic", membership: Ids = 1, mask: Ids = ..., group: Ids = 0,
                    owner: Optional[Ids] = None, user: Ids = 0, report: ReportMode = "begin_end",
                    sensor: bool = False) -> npt.NDArray[np.uint64]: ...
    def add_capsules(self, centers: ArrayLike, half_heights: ArrayLike, radii: ArrayLike,
                     rotations: Optional[ArrayLike] = None, *,
                     kind: Kind = "dynamic", membership: Ids = 1, mask: Ids = ..., group: Ids = 0,
                     owner: Optional[Ids] = None, user: Ids = 0, report: ReportMode = "begin_end",
                     sensor: bool = False) -> npt.NDArray[np.uint64]: ...
    def add_aabbs(self, mins: ArrayLike, maxs: ArrayLike, *,
                  kind: Kind = "dynamic", membership: Ids = 1, mask: Ids = ..., group: Ids = 0,
                  owner: Optional[Ids] = None, user: Ids = 0, report: ReportMode = "begin_end",
                  sensor: bool = False) -> npt.NDArray[np.uint64]: ...
    def add_shapes(self, shapes: Shapes, positions: Optional[ArrayLike] = None,
                   rotations: Optional[ArrayLike] = None, *,
                   kind: Kind = "dynamic", membership: Ids = 1, mask: Ids = ..., group: Ids = 0,
                   owner: Optional[Ids] = None, user: Ids = 0, report: ReportMode = "begin_end",
                   sensor: bool = False) -> npt.NDArray[np.uint64]: ...
    def set_poses(self, ids: Ids, positions: ArrayLike, rotations: Optional[ArrayLike] = None) -> None: ...
    def remove(self, ids: Ids) -> None: ...
    def allow_pair(self, a: Ids, b: Ids, allowed: Union[bool, ArrayLike] = True) -> None: ...
    def reset_pair(self, a: Ids, b: Ids) -> None: ...
    def update(self, threads: int = 1) -> Events: ...
    def state_hash(self) -> int: ...
    def ids(self) -> npt.NDArray[np.uint64]: ...
    @property
    def update_count(self) -> int: ...
    def __len__(self) -> int: ...
    # -- batch queries (see sepax._queries): filter arguments of every query
    def cast_rays(self, origins: ArrayLike, directions: ArrayLike, max_t: Union[float, ArrayLike] = ..., *,
                  filter: Optional[QueryFilterData] = None, kinds: Optional[Kinds] = None,
                  exclude: Optional[int] = None, as_collider: Optional[int] = None,
                  threads: int = 1) -> RayHits: ...
    def overlap(self, shapes: Shapes, positions: Optional[ArrayLike] = None,
                rotations: Optional[ArrayLike] = None, *,
                filter: Optional[QueryFilterData] = None, kinds: Optional[Kinds] = None,
                exclude: Optional[int] = None, as_collider: Optional[int] = None,
                threads: int = 1) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64]]: ...
    def cast_shapes(self, shapes: Shapes, velocities: ArrayLike, max_time: Union[float, ArrayLike] = 1.0,
                    positions: Optional[ArrayLike] = None, rotations: Optional[ArrayLike] = None, *,
                    filter: Optional[QueryFilterData] = None, kinds: Optional[Kinds] = None,
                    exclude: Optional[int] = None, as_collider: Optional[int] = None,
                    threads: int = 1) -> ShapeCastHits: ...
    def closest_colliders(self, points: ArrayLike, max_distance: float = ..., *,
                          filter: Optional[QueryFilterData] = None, kinds: Optional[Kinds] = None,
                          exclude: Optional[int] = None, as_collider: Optional[int] = None,
                          threads: int = 1) -> PointHits: ...
    def closest_to_shapes(self, shapes: Shapes, positions: Optional[ArrayLike] = None,
                          rotations: Optional[ArrayLike] = None, max_distance: float = ..., *,
                          filter: Optional[QueryFilterData] = None, kinds: Optional[Kinds] = None,
                          exclude: Optional[int] = None, as_collider: Optional[int] = None,
                          threads: int = 1) -> ShapeDistanceHits: ...
    def check_trajectories(self, poses: ArrayLike, movers: Ids, *, swept: bool = False,
                           first_hit: bool = True, min_distance: Optional[float] = None,
                           threads: int = 1) -> TrajectoryReport: ...
    # -- snapshots (pickle goes through these)
    def to_scene_json(self) -> str: ...
    @classmethod
    def from_scene_json(cls, text: str) -> World: ...

Kinds = Union[Literal["static", "kinematic", "dynamic", "moving", "all"],
              Sequence[Literal["static", "kinematic", "dynamic", "moving", "all"]]]

class QueryFilterData(TypedDict, total=False):
    membership: int
    mask: int
    group: int
    owner: Optional[int]

class RayHits(TypedDict):
    hit: npt.NDArray[np.bool_]
    t: npt.NDArray[np.floating[Any]]
    id: npt.NDArray[np.uint64]
    point: npt.NDArray[np.floating[Any]]
    normal: npt.NDArray[np.floating[Any]]

class ShapeCastHits(TypedDict):
    hit: npt.NDArray[np.bool_]
    time: npt.NDArray[np.floating[Any]]
    id: npt.NDArray[np.uint64]
    point: npt.NDArray[np.floating[Any]]
    normal: npt.NDArray[np.floating[Any]]
    depth: npt.NDArray[np.floating[Any]]
    status: npt.NDArray[np.uint8]

class PointHits(TypedDict):
    hit: npt.NDArray[np.bool_]
    distance: npt.NDArray[np.floating[Any]]
    id: npt.NDArray[np.uint64]
    point: npt.NDArray[np.floating[Any]]

class ShapeDistanceHits(TypedDict):
    hit: npt.NDArray[np.bool_]
    distance: npt.NDArray[np.floating[Any]]
    id: npt.NDArray[np.uint64]
    point_query: npt.NDArray[np.floating[Any]]
    point_collider: npt.NDArray[np.floating[Any]]
    normal: npt.NDArray[np.floating[Any]]

class TrajectoryReport:
    first_step: npt.NDArray[np.int64]
    pair: npt.NDArray[np.uint64]
    t: npt.NDArray[np.floating[Any]]
    # With min_distance:
    distance: npt.NDArray[np.floating[Any]]
    distance_step: npt.NDArray[np.int64]
    distance_pair: npt.NDArray[np.uint64]
    # With first_hit=False:
    hits_offsets: npt.NDArray[np.int64]
    hits_step: npt.NDArray[np.int64]
    hits_pair: npt.NDArray[np.uint64]
    hits_t: npt.NDArray[np.floating[Any]]
    @property
    def colliding(self) -> npt.NDArray[np.bool_]: ...
    def __len__(self) -> int: ...
