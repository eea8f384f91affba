"""``show_config`` and the deterministic-algorithms switch."""
import html
import os
import platform
import sys

__all__ = ["show_config", "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "config_info"]

_deterministic = False


def use_deterministic_algorithms(mode):
    """Require bitwise run-to-run reproducible results (PyTorch's switch).

    With ``mode=True`` the numba kernels never take their parallel (``prange``) variants,
    so results do not depend on the thread count. The per-op guarantees are listed in
    docs/backends.

    Examples
    --------
    >>> import linalgx
    >>> linalgx.use_deterministic_algorithms(True)
    >>> linalgx.are_deterministic_algorithms_enabled()
    True
    >>> linalgx.use_deterministic_algorithms(False)
    """
    global _deterministic
    _deterministic = bool(mode)


def are_deterministic_algorithms_enabled():
    """Whether :func:`use_deterministic_algorithms` is on.

    Examples
    --------
    >>> import linalgx
    >>> linalgx.are_deterministic_algorithms_enabled()
    False
    """
    return _deterministic


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
                    "platform": platform.platform(), "cpu count": os.cpu_count()},
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
    info["routing"] = {op: f"numba for n in {sorted(t)}" for op, t in
                       sorted(_routing_table.MIN_BATCH.items())} or {"table": "empty"}
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
