"""Invalidate numba's on-disk cache when any kernel source changes.

numba keys a cached function on its own file's timestamp only, so a kernel that calls a
function from another module (``_det.det_gufunc`` calls ``_lu.det_lu_kernel``) would keep
stale machine code after only the callee's module is edited. A hash of all kernel sources is
kept beside the cache; when it differs, the cached ``.nbi``/``.nbc`` files are removed.
"""
import hashlib
import os
import pathlib

_HERE = pathlib.Path(__file__).parent


def check(directory=_HERE):
    """Drop the cached kernels of ``directory`` (a kernels package) if its sources changed."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return  # a user-managed cache location: leave it alone
    directory = pathlib.Path(directory)
    try:
        h = hashlib.sha1()
        for path in sorted(directory.glob("*.py")):
            h.update(path.name.encode())
            h.update(path.read_bytes())
        digest = h.hexdigest()
        cache = directory / "__pycache__"
        stamp = cache / "kernels-source.sha1"
        if stamp.exists() and stamp.read_text() == digest:
            return
        for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            f.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass  # read-only install: numba then caches elsewhere or not at all
