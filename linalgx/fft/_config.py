"""How many threads a transform may use: ``set_workers``, ``workers`` and the automatic default.

The public transforms keep NumPy's signatures, so SciPy's ``workers=`` keyword is not on them;
the thread count comes from here instead. Order: the innermost ``with workers(n)`` of the
current context (a ContextVar: thread- and async-safe), else the process default from
``set_workers``, else automatic: all usable CPUs on the main thread and 1 on any other thread,
because an application that already runs transforms from a thread pool would otherwise
oversubscribe the cores (measured here: 8 threads x 2 BLAS threads on 2 cores ran 50x slower).
"""
import contextlib
import os
import threading
from contextvars import ContextVar

from ._messages import MESSAGES

__all__ = ["set_workers", "get_workers", "workers"]

# Below this many elements per call, a second pocketfft thread costs more than it saves
# (measured on a 2-core x86-64 VM, scipy 1.17, complex128: 512x512 along one axis broke even,
# 1024x1024 ran 1.7x faster with 2 threads, anything from 64x64 down ran 2-4x slower).
PARALLEL_MIN_SIZE = 1 << 19

_context = ContextVar("linalgx_fft_workers", default=None)
_process_default = None


def _cpu_count():
    count = getattr(os, "process_cpu_count", None)  # Python >= 3.13: honours affinity
    if count is not None:
        return count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _check(value):
    if value is None:
        return None
    cpus = _cpu_count()
    if isinstance(value, bool) or not isinstance(value, int) and not hasattr(value, "__index__"):
        raise TypeError(MESSAGES["workers"].format(cpus=cpus, value=value))
    n = int(value.__index__())
    if n == 0 or n < -cpus:
        raise ValueError(MESSAGES["workers"].format(cpus=cpus, value=value))
    return n if n > 0 else n + 1 + cpus  # SciPy's convention: -1 means every CPU


def get_workers():
    """
    The number of threads a transform started from here may use.

    Returns
    -------
    n : int
        The innermost ``workers(n)`` setting, else the ``set_workers`` default, else the
        number of usable CPUs on the main thread and 1 on other threads.

    See Also
    --------
    set_workers, workers

    Examples
    --------
    >>> import linalgx.fft as F
    >>> with F.workers(1):
    ...     F.get_workers()
    1
    """
    n = _context.get()
    if n is None:
        n = _process_default
    if n is None:
        n = _cpu_count() if threading.current_thread() is threading.main_thread() else 1
    return n


def set_workers(n):
    """
    Set the process-wide default number of threads for the transforms.

    Parameters
    ----------
    n : int or None
        A positive count; a negative count as in SciPy (``-1``: every CPU, ``-2``: all but
        one); None restores the automatic default (every CPU on the main thread, 1 on other
        threads).

    Returns
    -------
    previous : int or None
        The setting this call replaced.

    Raises
    ------
    ValueError
        If `n` is 0 or below ``-os.cpu_count()``.
    TypeError
        If `n` is not an integer or None.

    See Also
    --------
    workers : the same for one ``with`` block, thread- and async-safe.
    get_workers

    Notes
    -----
    Small transforms (under 2**19 elements) always run on one thread: waking a second one
    costs more than it saves. Results do not depend on the thread count (pocketfft splits the
    work by whole 1-D lines), so they are bitwise reproducible.

    Examples
    --------
    >>> import linalgx.fft as F
    >>> previous = F.set_workers(1)
    >>> F.get_workers()
    1
    >>> _ = F.set_workers(previous)
    """
    global _process_default
    previous, _process_default = _process_default, _check(n)
    return previous


@contextlib.contextmanager
def workers(n):
    """
    Use `n` threads for the transforms started in the enclosed block (this context only).

    Parameters
    ----------
    n : int or None
        As for `set_workers`; None means the process default.

    See Also
    --------
    set_workers, get_workers

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.fft as F
    >>> with F.workers(2):
    ...     F.fft2(np.ones((4, 4)))[0, 0]
    np.complex128(16+0j)
    """
    token = _context.set(_check(n))
    try:
        yield
    finally:
        _context.reset(token)


def threads_for(size):
    """The thread count for one pocketfft call touching `size` elements."""
    return 1 if size < PARALLEL_MIN_SIZE else get_workers()
