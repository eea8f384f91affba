"""Batch parallelism for the serial ``nogil`` kernels: Python threads over chunks of a batch.

Every kernel here computes each matrix of a stack independently, so the leading (batch) axis
can be cut into chunks and the chunks run on several threads with bitwise the same result as
one serial call. :func:`run` does that with a small pool of daemon threads (one fewer than
the usable CPUs: the calling thread works too) instead of numba's ``parallel=True``, because:

- numba's workqueue threading layer aborts the process when two Python threads enter a
  parallel region at once; here any number of threads may call :func:`run` concurrently
  (each call is one job on a shared queue; idle workers help whichever job is queued);
- after ``os.fork`` the child gets a fresh pool on first use (the parent's threads do not
  exist there), so a forked child never waits on a thread that will not come;
- the caller claims chunks itself, so a worker that is slow to wake (idle vCPUs here take
  milliseconds) costs nothing but the chunks it does not take, and a call made from inside
  a worker runs serially (no nesting);
- the kernels call no BLAS, so no BLAS thread pool is nested inside these threads.

``LINALGX_NUM_THREADS`` caps the number of threads (default: the CPUs this process may use);
:func:`limit` sets it for the current thread or task (a context variable). Without a
:func:`limit`, a second thread is used only while the 1-minute load average leaves a CPU
idle: on an oversubscribed machine a worker is preempted in the middle of a chunk and the
caller waits a whole scheduler time slice for it (measured here: a 2 ms serial call took
6 ms with two threads under a load of 5 on 2 CPUs). The result is the same either way.
"""
import contextlib
import contextvars
import itertools
import os
import queue
import threading
import time

import numpy as np

__all__ = ["run", "limit", "num_threads", "max_threads", "set_max_threads"]


def _usable_cpus():
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    env = os.environ.get("LINALGX_NUM_THREADS", "")
    if env.isdigit() and int(env) > 0:
        n = min(n, int(env))
    return max(1, n)


_MAX = _usable_cpus()
_limit = contextvars.ContextVar("linalgx_kernel_threads", default=None)
_local = threading.local()  # .worker is True on pool threads


def max_threads():
    """The most threads :func:`run` uses (``LINALGX_NUM_THREADS`` or the usable CPUs)."""
    return _MAX


def set_max_threads(n):
    """Set :func:`max_threads` for the whole process (``n >= 1``; the pool grows to match)."""
    global _MAX
    n = int(n)
    if n < 1:
        raise ValueError(f"set_num_threads: the number of threads must be >= 1, got {n}")
    _MAX = n


def num_threads():
    """Threads :func:`run` may use now: as set by :func:`limit`, else :func:`max_threads`
    while the machine has an idle CPU (by its load average), else 1."""
    n = _limit.get()
    if n is not None:
        return max(1, min(n, _MAX))
    return _MAX if _MAX > 1 and _idle_cpu() else 1


_load = [0.0, True]  # [time of the next look at the load average, a CPU was idle]


def _idle_cpu():
    now = time.monotonic()
    if now >= _load[0]:
        try:
            idle = os.getloadavg()[0] < _MAX - 0.5
        except OSError:
            idle = True
        _load[:] = [now + 1.0, idle]
    return _load[1]


@contextlib.contextmanager
def limit(n):
    """Use at most ``n`` threads (``n >= 1``) in :func:`run` calls inside the ``with`` block."""
    token = _limit.set(int(n))
    try:
        yield
    finally:
        _limit.reset(token)


class _Job:
    """One call's chunks; whichever thread claims a chunk next runs it."""

    def __init__(self, fn, nchunks):
        self.fn = fn
        self.nchunks = nchunks
        self.claim = itertools.count().__next__  # atomic under the GIL
        self.lock = threading.Lock()
        self.done = 0
        self.finished = threading.Event()
        self.error = None

    def work(self):
        while True:
            i = self.claim()
            if i >= self.nchunks:
                return
            try:
                self.fn(i)
            except BaseException as e:  # noqa: BLE001  (re-raised in the calling thread)
                if self.error is None:
                    self.error = e
            with self.lock:
                self.done += 1
                if self.done == self.nchunks:
                    self.finished.set()


class _Pool:
    def __init__(self, size):
        self.jobs = queue.SimpleQueue()
        self.threads = []
        self.grow(size)

    def grow(self, size):
        while len(self.threads) < size:
            t = threading.Thread(target=self._serve, name=f"linalgx-kernels-{len(self.threads)}",
                                 daemon=True)
            t.start()
            self.threads.append(t)

    def _serve(self):
        _local.worker = True
        while True:
            self.jobs.get().work()


_pool = None
_pool_lock = threading.Lock()


def _get_pool():
    global _pool
    if _pool is None or len(_pool.threads) < _MAX - 1:
        with _pool_lock:
            if _pool is None:
                _pool = _Pool(_MAX - 1)
            else:
                _pool.grow(_MAX - 1)
    return _pool


def _after_fork_in_child():
    # The parent's worker threads do not exist in the child: start a fresh pool on demand.
    global _pool, _pool_lock
    _pool = None
    _pool_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _slice_args(args, batched, lo, hi):
    return tuple(a[lo:hi] if i in batched else a for i, a in enumerate(args))


def run(kernel, args, count, min_count, batched=None, grain=64):
    """``kernel(*args)``, split over the leading axis into chunks run on several threads.

    Parameters
    ----------
    kernel : callable
        A serial kernel that releases the GIL (``@njit(nogil=True)``) and treats the
        elements of the batch independently.
    args : tuple
        Its arguments. Those listed in ``batched`` are arrays whose leading axis is the
        batch (inputs and outputs alike); each chunk gets the slice ``a[lo:hi]`` of each.
    count : int
        Length of the batch axis.
    min_count : int
        Smallest batch worth a second thread (measured per kernel); below it, or with one
        thread allowed, the kernel runs once, serially, in the calling thread.
    batched : tuple of int, optional
        Positions of the batched arguments; default: every ndarray argument of length
        ``count``.
    grain : int, optional
        Chunk boundaries fall on multiples of ``grain`` elements.

    Returns
    -------
    None
        The kernel's outputs are written into the batched output arrays.
    """
    if count < max(min_count, 2 * grain) or getattr(_local, "worker", False):
        kernel(*args)
        return
    threads = num_threads()
    if threads < 2:
        kernel(*args)
        return
    if batched is None:
        batched = frozenset(i for i, a in enumerate(args)
                            if isinstance(a, np.ndarray) and a.ndim and a.shape[0] == count)
    # Many chunks of about half the threshold's work each: a thread that a busy neighbour
    # preempts holds up the others by one small chunk at most.
    nchunks = max(threads, min(16 * threads, count // max(grain, min_count // 2)))
    step = -(-count // (nchunks * grain)) * grain
    nchunks = -(-count // step)

    def chunk(i):
        kernel(*_slice_args(args, batched, i * step, min(count, (i + 1) * step)))

    job = _Job(chunk, nchunks)
    pool = _get_pool()
    for _ in range(min(threads, nchunks) - 1):
        pool.jobs.put(job)
    job.work()
    job.finished.wait()
    if job.error is not None:
        raise job.error
