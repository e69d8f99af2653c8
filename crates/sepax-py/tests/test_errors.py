"""Bad input: the exception type and a message naming the argument, the index and the
problem. Nothing crashes and nothing is half-applied."""

import numpy as np
import pytest

import sepax


def test_negative_half_extent_names_row_and_column():
    he = np.ones((20, 3))
    he[17, 1] = -0.5
    with pytest.raises(ValueError, match=r"^half_extents\[17, 1\] must be >= 0 \(found -0.5\)$"):
        sepax.boxes(np.zeros((20, 3)), he)
    w = sepax.World()
    with pytest.raises(ValueError, match=r"^half_extents\[17, 1\] must be >= 0 \(found -0.5\)$"):
        w.add_boxes(np.zeros((20, 3)), he)
    assert len(w) == 0


def test_non_finite_and_rotation_errors():
    c = np.zeros((3, 3))
    c[2, 0] = np.nan
    with pytest.raises(ValueError, match=r"^centers\[2, 0\] is not finite \(found NaN\)$"):
        sepax.boxes(c, np.ones((3, 3)))
    q = np.tile([1.0, 0, 0, 0], (3, 1))
    q[1] = [0.5, 0, 0, 0]
    with pytest.raises(ValueError, match=r"^rotations\[1\] is not a unit quaternion \(norm 0.5"):
        sepax.boxes(np.zeros((3, 3)), np.ones((3, 3)), q)
    with pytest.raises(ValueError, match=r"^radii\[0\] must be >= 0 \(found -1\)$"):
        sepax.spheres([[0, 0, 0]], [-1.0])
    with pytest.raises(ValueError, match=r"^mins\[0, 2\] = 1 is greater than maxs\[0, 2\] = 0$"):
        sepax.aabbs([[0, 0, 1]], [[1, 1, 0]])
    w = sepax.World()
    ids = w.add_spheres(np.zeros((2, 3)), [1.0, 1.0])
    p = np.zeros((2, 3))
    p[1, 2] = np.inf
    with pytest.raises(ValueError, match=r"^positions\[1, 2\] is not finite \(found inf\)$"):
        w.set_poses(ids, p)
    with pytest.raises(ValueError, match=r"^half_heights\[0\] must be finite and >= 0"):
        w.add_capsules([[0, 0, 0]], [-1.0], [0.1])


def test_shapes_and_dtypes():
    with pytest.raises(ValueError, match=r"^centers must have shape \(N, 3\), found \(4, 2\)$"):
        sepax.boxes(np.zeros((4, 2)), np.ones((4, 3)))
    with pytest.raises(ValueError, match=r"^centers has 3 rows, expected 4$"):
        sepax.boxes(np.zeros((3, 3)), np.ones((4, 3)))
    with pytest.raises(TypeError, match=r"^half_extents must be an array of real numbers"):
        sepax.boxes(np.zeros((1, 3)), [["a", "b", "c"]])
    with pytest.raises(TypeError, match=r"^half_extents must be an array of real numbers"):
        sepax.boxes(np.zeros((1, 3)), np.ones((1, 3), dtype=complex))
    with pytest.raises(ValueError, match=r"^radii must have shape \(N,\), found \(2, 1\)$"):
        sepax.spheres(np.zeros((2, 3)), np.ones((2, 1)))
    with pytest.raises(TypeError, match=r"^a must be a sepax.Shapes batch \(found list\)$"):
        sepax.intersects([1, 2], sepax.spheres([[0, 0, 0]], [1]))
    a = sepax.spheres(np.zeros((3, 3)), np.ones(3))
    b = sepax.spheres(np.zeros((2, 3)), np.ones(2))
    with pytest.raises(ValueError, match=r"a has 3 shapes and b has 2"):
        sepax.distance(a, b)
    with pytest.raises(ValueError, match=r"^method must be one of aabb, pca"):
        sepax.fit_obb(np.zeros((3, 3)), "best")
    with pytest.raises(ValueError, match=r"margin must be finite and >= 0"):
        sepax.contact(a, a, margin=-1)


def test_world_option_errors_change_nothing():
    w = sepax.World()
    with pytest.raises(ValueError, match=r"^kind must be 'static', 'kinematic' or 'dynamic'"):
        w.add_spheres([[0, 0, 0]], [1.0], kind="solid")
    with pytest.raises(ValueError, match=r"^membership\[1\] must be in \[0, 18446744073709551615\] \(found -1\)$"):
        w.add_spheres(np.zeros((2, 3)), [1.0, 1.0], membership=[1, -1])
    with pytest.raises(ValueError, match=r"^user must be a scalar or have shape \(2,\), found \(3,\)$"):
        w.add_spheres(np.zeros((2, 3)), [1.0, 1.0], user=[1, 2, 3])
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'colour'"):
        w.add_spheres([[0, 0, 0]], [1.0], colour=3)
    with pytest.raises(ValueError, match=r"^group\[0\] must be in \[-2147483648, 2147483647\]"):
        w.add_spheres([[0, 0, 0]], [1.0], group=[2**40])
    assert len(w) == 0
    ids = w.add_spheres(np.zeros((2, 3)), [1.0, 1.0])
    with pytest.raises(ValueError, match=r"^a\[0\] and b\[0\] are the same collider"):
        w.allow_pair(ids[0], ids[0])
    with pytest.raises(ValueError, match=r"^ids: \d+ is given twice$"):
        w.remove([ids[0], ids[0]])
    with pytest.raises(ValueError, match=r"^ids\[1\] = 12345 is a stale or unknown collider id$"):
        w.remove([ids[0], 12345])
    assert len(w) == 2, "a failed remove removes nothing"
    with pytest.raises(ValueError, match=r"^threads must be >= 0"):
        w.update(threads=-1)


def test_huge_values_are_errors_not_crashes():
    top = float(np.finfo(sepax.REAL).max)
    big = np.full((1, 3), top * 0.9)
    for call in (
        lambda: sepax.boxes(big, big),
        lambda: sepax.spheres(big, [top * 0.9]),
        lambda: sepax.World().add_boxes(big, big),
        lambda: sepax.fit_obb(np.array([[np.nan, 0, 0]])),
        lambda: sepax.fit_obb(np.zeros((0, 3))),
    ):
        with pytest.raises(ValueError):
            call()


def test_empty_batches():
    e = sepax.spheres(np.zeros((0, 3)), np.zeros(0))
    assert len(e) == 0 and len(sepax.intersects(e, e)) == 0
    w = sepax.World()
    assert len(w.add_boxes(np.zeros((0, 3)), np.zeros((0, 3)))) == 0
    ev = w.update()
    assert ev.begin.dtype == sepax.EVENT_DTYPE and ev.begin.shape == (0,)
    w.set_poses([], np.zeros((0, 3)))
