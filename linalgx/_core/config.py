"""``show_config`` and the deterministic-algorithms switch."""
import html
import os
import platform
import sys

__all__ = ["show_config", "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "config_info", "set_num_threads", "get_num_threads"]

_deterministic = False
_blas_limiter = None  # threadpoolctl's limiter while the switch pins BLAS to one thread


def use_deterministic_algorithms(mode):
    """Require bitwise reproducible results (PyTorch's switch of the same name).

    With ``mode=True`` every linalgx function gives bitwise identical results for identical
    inputs on every call and run (same machine, same library builds), whatever the thread
    settings. Switching it on does three things:

    - **BLAS is pinned to one thread** (through ``threadpoolctl``, for every BLAS library
      loaded, SciPy's included) until the switch is turned off, which restores the previous
      thread counts. Multi-threaded OpenBLAS splits the work of LAPACK's blocked algorithms
      and of matrix products over the threads, and the result then depends on the thread
      count (measured: ``inv``, ``solve``, ``cholesky``, ``eigh``, ``matmul`` of a 200x200
      matrix differ in the last bits between 1 and 2 threads; up to about 64x64, and for
      stacks of small matrices, OpenBLAS does not thread and they agree). Changing the BLAS
      thread count while the switch is on (``threadpool_limits(n)``) voids this guarantee for
      the ops marked BLAS below. This also single-threads NumPy's own BLAS calls.
    - **Routing depends only on the call**: a call that the measured routing table sends to
      numba goes there even before numba has paid for its start-up (normally such calls stay
      on LAPACK until ``COLD_MIN_BATCH`` matrices have been seen, so the same call could be
      served by either backend depending on the history of the process).
    - Nothing else changes: the numba kernels are serial and have no parallel variants, and
      pocketfft's multi-threaded transforms (``linalgx.fft``'s ``workers``) split the work by
      whole 1-D transforms, so their results do not depend on the worker count.

    Per op, with the switch on:

    - ``inv``, ``solve``, ``det``, ``slogdet``, ``cholesky`` and their ``_ex`` variants,
      ``lu``, ``lu_factor``, ``lu_factor_ex``, ``lu_solve``, ``solve_triangular``, ``qr``,
      ``householder_product``, ``ldl_factor``, ``ldl_factor_ex``, ``ldl_solve``,
      ``matrix_exp``: numba kernels (serial) or LAPACK on one BLAS thread: reproducible
      (BLAS).
    - ``eig``, ``eigvals``, ``eigh``, ``eigvalsh``, ``svd``, ``svdvals``, ``lstsq``,
      ``pinv``, ``matrix_rank``, ``cond``, ``norm``/``matrix_norm`` (2, -2, ``'nuc'``),
      ``tensorinv``, ``tensorsolve``: LAPACK on one BLAS thread: reproducible (BLAS).
    - ``matmul``, ``multi_dot``, ``tensordot``, ``matrix_power``, ``vecdot``, ``outer``,
      ``cross``: NumPy's products on one BLAS thread: reproducible (BLAS).
    - ``trace``, ``diagonal``, ``matrix_transpose``, ``vector_norm``, the other norms,
      ``vander``: elementwise and reductions, single-threaded: always reproducible.
    - ``linalgx.fft``: reproducible for any worker count (tested bitwise).
    - Derivatives (``grad``, ``jvp``, ``vjp``, ``jacobian``, ``hessian``) are computed with
      the ops above: reproducible.

    No op is known whose results could vary with the switch on, so none raises.

    Parameters
    ----------
    mode : bool
        True to switch deterministic mode on, False to switch it off.

    Raises
    ------
    RuntimeError
        If `mode` is True and ``threadpoolctl`` (needed to pin BLAS) is not installed.

    Examples
    --------
    >>> import linalgx
    >>> linalgx.use_deterministic_algorithms(True)
    >>> linalgx.are_deterministic_algorithms_enabled()
    True
    >>> linalgx.use_deterministic_algorithms(False)
    """
    global _deterministic, _blas_limiter
    from . import routing
    mode = bool(mode)
    if mode and _blas_limiter is None:
        try:
            from threadpoolctl import threadpool_limits
        except ImportError as e:
            raise RuntimeError(
                "use_deterministic_algorithms(True) pins BLAS to one thread, which needs "
                "threadpoolctl (pip install threadpoolctl): multi-threaded BLAS results "
                "depend on the thread count") from e
        import scipy.linalg  # noqa: F401  (load SciPy's BLAS now, so that it is pinned too)
        _blas_limiter = threadpool_limits(limits=1, user_api="blas")
    elif not mode and _blas_limiter is not None:
        _blas_limiter.restore_original_limits()
        _blas_limiter = None
    routing.history_free = mode
    _deterministic = mode


def are_deterministic_algorithms_enabled():
    """Whether :func:`use_deterministic_algorithms` is on.

    Examples
    --------
    >>> import linalgx
    >>> linalgx.are_deterministic_algorithms_enabled()
    False
    """
    return _deterministic


def set_num_threads(n):
    """Set the number of threads linalgx's CPU kernels split large batches over.

    PyTorch's function of the same name. Stacked-matrix kernels (``inv``, ``det``,
    ``solve``, ``eigh``, ... on large stacks) and the vectorised loops of
    :mod:`linalgx.special` cut the batch into chunks run on a pool of this many threads
    (the calling thread included). The default is the number of CPUs this process may use,
    or ``LINALGX_NUM_THREADS`` when set. Results do not depend on it: every matrix or
    element is computed by the same serial code. FFTs have their own setting
    (:func:`linalgx.fft.set_workers`) and NumPy's BLAS its own (threadpoolctl).

    While the machine is oversubscribed (its 1-minute load average leaves no CPU idle),
    calls run serially: a preempted worker would hold up the whole call.

    Parameters
    ----------
    n : int
        At least 1; 1 makes every kernel call serial.

    Examples
    --------
    >>> import linalgx
    >>> before = linalgx.get_num_threads()
    >>> linalgx.set_num_threads(1)
    >>> linalgx.get_num_threads()
    1
    >>> linalgx.set_num_threads(before)
    """
    from ..kernels import _parallel
    _parallel.set_max_threads(n)


def get_num_threads():
    """The number of threads linalgx's CPU kernels may use (see :func:`set_num_threads`).

    Examples
    --------
    >>> import linalgx
    >>> linalgx.get_num_threads() >= 1
    True
    """
    from ..kernels import _parallel
    return _parallel.max_threads()


def _version(name):
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:  # noqa: BLE001  (not installed)
        return None


def config_info():
    """The facts ``show_config`` prints, as a dict of sections."""
    from .dispatch import available_backends, get_backend
    info = {
        "linalgx": {"version": _version("linalgx"), "python": sys.version.split()[0],
                    "platform": platform.platform(), "cpu count": os.cpu_count(),
                    "kernel threads": get_num_threads()},
        "dependencies": {n: _version(n) for n in ("numpy", "scipy", "numba",
                                                   "array-api-compat", "cupy")},
        "backends": {name: ("available" if ok else "not available")
                     for name, ok in available_backends().items()},
    }
    info["backends"]["selected"] = get_backend() or "auto (measured routing)"
    numba_info = {}
    if available_backends()["numba"]:
        import numba
        numba_info["threading layer (configured)"] = numba.config.THREADING_LAYER
        numba_info["threads"] = numba.config.NUMBA_NUM_THREADS
        numba_info["cache dir"] = numba.config.CACHE_DIR or "(next to the kernel sources)"
    info["numba"] = numba_info
    blas = {}
    try:
        from threadpoolctl import threadpool_info
        for pool in threadpool_info():
            key = f"{pool.get('internal_api')} ({pool.get('user_api')})"
            blas[key] = (f"{pool.get('version')}, {pool.get('num_threads')} threads, "
                         f"architecture {pool.get('architecture')}")
    except ImportError:
        blas["threadpoolctl"] = "not installed"
    info["BLAS"] = blas
    from . import _routing_table
    routing = {}
    for kind, tables in (("real", _routing_table.MIN_BATCH),
                         ("complex", _routing_table.MIN_BATCH_COMPLEX)):
        for op, t in sorted(tables.items()):
            routing[f"{op} ({kind})"] = f"numba for n in {sorted(t)}"
    info["routing"] = routing or {"table": "empty"}
    info["deterministic algorithms"] = {"enabled": _deterministic}
    return info


class _Config:
    def __init__(self, info):
        self.info = info

    def __repr__(self):
        lines = []
        for section, items in self.info.items():
            lines.append(f"{section}:")
            for k, v in items.items():
                lines.append(f"  {k:<30} {v}")
        return "\n".join(lines)

    def _repr_html_(self):
        rows = []
        for section, items in self.info.items():
            rows.append(f"<tr><th colspan=2 style='text-align:left'>{html.escape(section)}"
                        "</th></tr>")
            rows += [f"<tr><td>{html.escape(str(k))}</td><td>{html.escape(str(v))}</td></tr>"
                     for k, v in items.items()]
        return "<table>" + "".join(rows) + "</table>"


def show_config(print_=True):
    """Print versions, backends, numba threading and cache, BLAS, and the routing table.

    In a notebook the returned object renders as a table.

    Examples
    --------
    >>> import linalgx
    >>> cfg = linalgx.show_config(print_=False)
    >>> "backends" in repr(cfg)
    True
    """
    cfg = _Config(config_info())
    if print_:
        print(cfg)
        return None
    return cfg
