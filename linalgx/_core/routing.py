"""Per-op routing between the numba kernels and LAPACK.

The numbers come from ``make tune`` (benchmarks/tune.py), which times both backends on this
machine and rewrites ``_routing_table.py``. A call goes to numba when its matrix size has an
entry and its batch is at least that entry's minimum batch. numba's start-up (about 0.4 s for
the first jitted call in a process, even with a warm cache) is not worth paying for small
one-off calls, so until a kernel has been loaded the minimum batch is ``COLD_MIN_BATCH``.
"""
import sys

from . import _routing_table

_loaded_kernels = set()


def mark_loaded(op_name):
    """Record that ``op_name``'s numba kernel is compiled and loaded in this process."""
    _loaded_kernels.add(op_name)


def use_numba(op_name, n, batch):
    """True where the measured table says numba beats LAPACK for (n, batch)."""
    table = _routing_table.MIN_BATCH.get(op_name)
    if table is None:
        return False
    min_batch = table.get(n)
    if min_batch is None:
        return False
    if op_name not in _loaded_kernels and "numba" not in sys.modules:
        min_batch = max(min_batch, _routing_table.COLD_MIN_BATCH)
    return batch >= min_batch


def square_router(op_name):
    """A route function for ops whose first argument is a (..., n, n) stack."""
    def route(a, *args, **params):
        shape = a.shape
        n = shape[-1]
        batch = 1
        for d in shape[:-2]:
            batch *= d
        return use_numba(op_name, n, batch)
    route.__name__ = f"route_{op_name}"
    return route
