"""Argument conversion: shapes and dtypes checked with messages naming the argument; arrays
already C-contiguous of the module's dtype pass through without a copy."""

from __future__ import annotations

import numpy as np

from ._sepax import PRECISION

#: The module's float type.
REAL = np.float32 if PRECISION == "f32" else np.float64

_U64_MAX = np.iinfo(np.uint64).max


def reals(name, x, cols):
    """``x`` as a C-contiguous ``REAL`` array of shape ``(N, cols)`` (``(N,)`` when ``cols`` is
    None); a single row ``(cols,)`` is taken as ``(1, cols)``."""
    if x is None:
        raise TypeError(f"{name} is required")
    a = np.asarray(x)
    if a.dtype.kind not in "fiu":
        raise TypeError(f"{name} must be an array of real numbers (found dtype {a.dtype})")
    if cols is None:
        if a.ndim != 1:
            raise ValueError(f"{name} must have shape (N,), found {a.shape}")
    else:
        if a.ndim == 1 and a.shape[0] == cols:
            a = a.reshape(1, cols)
        if a.ndim != 2 or a.shape[1] != cols:
            raise ValueError(f"{name} must have shape (N, {cols}), found {a.shape}")
    return np.ascontiguousarray(a, dtype=REAL)


def ints(name, x, n, dtype):
    """``x`` (a scalar or ``(n,)``) as a C-contiguous ``(n,)`` integer array of ``dtype``, every
    value in its range."""
    a = np.asarray(x)
    exact = False
    if a.dtype.kind in "fO" and not isinstance(x, np.ndarray):
        # NumPy turns a list mixing uint64 and Python ints into floats (and ints past 64 bits
        # into objects): keep them exact as Python ints, range-checked below.
        a, exact = _exact_ints(x, a)
    if a.dtype.kind not in "iub" and not exact:
        raise TypeError(f"{name} must be integers (found dtype {a.dtype})")
    if a.ndim > 1 or (a.ndim == 1 and a.shape[0] != n):
        raise ValueError(f"{name} must be a scalar or have shape ({n},), found {a.shape}")
    info = np.iinfo(dtype)
    if a.size and a.dtype.kind != "b":
        lo, hi = a.min(), a.max()
        if lo < info.min or hi > info.max:
            bad = int(np.argmax((a < info.min) | (a > info.max))) if a.ndim else 0
            found = a.flat[bad]
            where = f"{name}[{bad}]" if a.ndim else name
            raise ValueError(f"{where} must be in [{info.min}, {info.max}] (found {found})")
    return np.ascontiguousarray(np.broadcast_to(a, (n,)), dtype=dtype)


def _exact_ints(x, fallback):
    flat = np.asarray(x, dtype=object).ravel()
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in flat):
        return fallback, False
    return np.asarray([int(v) for v in flat], dtype=object).reshape(np.shape(x)), True


def ids_array(name, x):
    """Collider ids (a scalar or a 1-D array) as a C-contiguous ``uint64`` array."""
    if np.ndim(x) == 0:
        x = [x]
    shape = np.shape(x)
    if len(shape) != 1:
        raise ValueError(f"{name} must be a 1-D array of ids, found shape {shape}")
    if shape[0] == 0:
        return np.zeros(0, dtype=np.uint64)
    return ints(name, x, shape[0], np.uint64)
