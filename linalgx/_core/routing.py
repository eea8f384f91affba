"""Per-op routing between the numba kernels and LAPACK.

The numbers come from ``make tune`` (benchmarks/tune.py), which times both backends on this
machine and rewrites ``_routing_table.py``: one table measured on float64 stacks (it routes
real input of any dtype) and one on complex128 stacks (complex input; the complex kernels'
crossovers differ, e.g. complex Jacobi eigvalsh loses to LAPACK at n = 8-12 where the
real one wins). A call goes to numba when its matrix size has an entry in its dtype's table
and its batch is at least that entry's minimum batch. numba's start-up (about 0.4 s for
the first jitted call in a process, even with a warm cache) is not worth paying for small
one-off calls: until numba is loaded, calls the table would send to numba stay on LAPACK and
their batch sizes are added up; once that running total reaches ``COLD_MIN_BATCH`` (the
number of matrices whose LAPACK time equals numba's start-up, measured by the tuner) numba
has paid for itself and takes over.
"""
import sys

import numpy as np

from . import _routing_table

_loaded_kernels = set()
_api = None
_cold_total = 0
# Set by use_deterministic_algorithms: route by the table alone, not by the process history.
history_free = False


def large_driver(op_name, a):
    """The SciPy LAPACK driver that ``make tune`` measured faster than NumPy's for one large
    square float64 / complex128 matrix ``a`` of this op and its size (e.g.
    ``"scipy_syevr"``), or None: stay on NumPy's gufunc.

    Single precision stays on NumPy's path, which computes in double as NumPy does; the
    table was measured on square float64 matrices."""
    shape = a.shape  # cheapest tests first: this runs on every small single-matrix call
    if len(shape) != 2 or shape[1] < _routing_table.DRIVER_MIN_N or shape[0] != shape[1] \
            or a.dtype.char not in "dD":
        return None
    n, driver = shape[1], None
    for min_n, name in _routing_table.DRIVERS.get(op_name, ()):
        if n >= min_n:
            driver = name
    return None if driver == "numpy" else driver


def kernels_api():
    """``linalgx.kernels.api``, imported on the first call that needs it (it imports numba);
    then one global read, not an import statement's lookup, per call."""
    global _api
    if _api is None:
        from ..kernels import api
        _api = api
    return _api


def mark_loaded(op_name):
    """Record that ``op_name``'s numba kernel is compiled and loaded in this process."""
    _loaded_kernels.add(op_name)


def redo_flagged(flag, results, lapack, inputs, *params):
    """``results`` of a numba implementation with the elements its kernel handed back
    (``flag`` true, of the batch shape) replaced by ``lapack(*inputs, *params)`` on those
    elements' inputs (each input of ``flag``'s batch shape); for a single matrix, that
    call's result whole. ``results`` and ``lapack``'s result are alike: one array or a
    tuple of arrays."""
    if flag.ndim == 0:
        return lapack(*inputs, *params)
    at = np.nonzero(flag)
    redo = lapack(*(x[at] for x in inputs), *params)
    if isinstance(results, tuple):
        for out, x in zip(results, redo):
            out[at] = x
    else:
        results[at] = redo
    return results


def _paid_for(batch):
    """True once numba is loaded, or once the calls it would have served add up to
    ``COLD_MIN_BATCH`` matrices (always, in deterministic mode)."""
    if not _loaded_kernels and "numba" not in sys.modules and not history_free:
        global _cold_total
        _cold_total += batch  # a benign race: a lost update only delays the switch
        return _cold_total >= _routing_table.COLD_MIN_BATCH
    return True


# The dtypes a square stack reaches the route with (prepare_square keeps the caller's dtype),
# in both byte orders; any other dtype stays on LAPACK.
_REAL_DTYPES = tuple(np.dtype(c) for c in "?bBhHiIlLqQefd")
_COMPLEX_DTYPES = (np.dtype(np.complex64), np.dtype(np.complex128))


def by_dtype(real, complex_):
    """``{dtype: {n: min_size}}`` from the ``{n: min_batch}`` tables: the real one for
    boolean, integer and real floating dtypes, the complex one for complex dtypes (one dict
    lookup on the per-call path, where reading ``a.dtype.kind`` and comparing it costs more),
    with each minimum batch given as the minimum array size ``min_batch * n * n``."""
    out = {}
    for dtypes, table in ((_REAL_DTYPES, real), (_COMPLEX_DTYPES, complex_)):
        sizes = None if table is None else {n: b * n * n for n, b in table.items()}
        for dt in dtypes:
            out[dt] = out[dt.newbyteorder()] = sizes
    return out


def order_router(max_n, single_max_n=16):
    """A route function for ops whose numba kernels serve stacks of matrices up to order
    ``max_n``, and single matrices up to ``single_max_n`` (their first argument a ``(..., m,
    n)`` stack; the order is the larger of m and n): numba there once it has paid for its
    start-up, else LAPACK."""
    def route(a, *args, **params):
        m, n = a.shape[-2:]
        order = max(m, n)
        if not 0 < order <= max_n or a.size == 0:
            return False
        count = a.size // (m * n)
        return (count > 1 or order <= single_max_n) and _paid_for(count)
    return route


def square_router(op_name):
    """A route function for ops whose first argument is a (..., n, n) stack."""
    def route(a, *args, **params):
        # this runs on every call, most often to answer False
        table = tables.get(a.dtype)
        if table is None:
            return False
        n = a.shape[-1]
        min_size = table.get(n)
        return min_size is not None and a.size >= min_size and _paid_for(a.size // (n * n))
    tables = by_dtype(_routing_table.MIN_BATCH.get(op_name),
                      _routing_table.MIN_BATCH_COMPLEX.get(op_name))
    route.__name__ = f"route_{op_name}"
    # Op.__call__ reads these tables and inlines the route above (the per-call path)
    route.min_batch = tables
    return route
