"""solve, tensorsolve and solve_ex."""
import numpy as np

from .._core import routing
from .._core import validate as v
from .._core.box import Box
from .._core.lapack import attempt, gufunc, quiet, umath_linalg
from .._core.op import Op
from .._core.results import SolveExResult
from .._core.xputil import ndim_of, unbox_all
from ._inv import failed_elements, getrf_info

__all__ = ["solve", "tensorsolve", "solve_ex"]

_solve = Op("solve")
_solve.def_route(routing.square_router("solve"))
_solve_ex = Op("solve_ex", nout=2)
_solve_ex.def_route(routing.square_router("solve"))


_SIGS = ("dd->d", "DD->D")  # (real, complex)


def _sig(t):
    return _SIGS[t.kind == "c"]


def _sig_of(a, b):
    """The compute signature for arrays left in the caller's dtypes (see _prepare_solve)."""
    return "DD->D" if a.dtype.kind == "c" or b.dtype.kind == "c" else "dd->d"


def broadcast_batch(a, b):
    """Views of ``a`` and ``b`` whose batch dimensions (all but the last two) agree."""
    batch = a.shape[:-2]
    if b.shape[:-2] == batch:  # the common case: nothing to broadcast
        return a, b, batch
    batch = np.broadcast_shapes(batch, b.shape[:-2])
    return (np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:]),
            batch)


# -- solve / solve_ex ------------------------------------------------------------------------
@_solve.impl("lapack")
def _solve_lapack(a, b):
    sig = _sig_of(a, b)
    x = attempt(umath_linalg.solve, sig, a, b)  # the gufunc broadcasts itself
    if x is not None:
        return x
    # failed: broadcast so that the failing element is named in the broadcast batch
    a, b, _ = broadcast_batch(a, b)
    return gufunc(umath_linalg.solve, "singular", "solve", a, b, signature=sig)


@_solve.impl("numba")
def _solve_numba(a, b):
    api = routing.kernels_api()
    a, b, batch = broadcast_batch(*v.as_compute(a, b))
    x, info = api.solve(a, b)
    routing.mark_loaded("solve")
    if np.count_nonzero(info):
        v.raise_on_info(info, "singular", "solve", batch)
    return x


@_solve_ex.impl("lapack")
def _solve_ex_lapack(a, b):
    sig = _sig_of(a, b)
    x = attempt(umath_linalg.solve, sig, a, b)  # the gufunc broadcasts itself
    if x is not None and (x.size or a.shape[-1] == 0):  # no element failed
        return x, np.zeros(x.shape[:-2], dtype=np.int32)
    a, b, batch = broadcast_batch(*v.as_compute(a, b))
    if x is None:
        x = quiet(umath_linalg.solve, a, b, signature=sig)
    if x.size == 0 and a.shape[-1] > 0:  # no right-hand side: nothing was NaN-filled
        return x, getrf_info(a, np.ones(batch, dtype=bool), nan_filled=False)
    return x, getrf_info(a, failed_elements(x, batch))


@_solve_ex.impl("numba")
def _solve_ex_numba(a, b):
    api = routing.kernels_api()
    a, b, _ = broadcast_batch(*v.as_compute(a, b))
    x, info = api.solve(a, b)
    routing.mark_loaded("solve")
    return x, info


def _mh(xp, x):
    return xp.conj(xp.matrix_transpose(x))


# Giles (2008), "An extended collection of matrix derivative results for forward and reverse
# mode AD", section 2.3.1: X = A^{-1} B gives dX = A^{-1} (dB - dA X), B_bar = A^{-H} X_bar and
# A_bar = -B_bar X^H. Batch dimensions of A and B may broadcast against each other.
@_solve.def_jvp
def _solve_jvp(xp, tangents, out, a, b, solver=None):
    ta, tb = tangents
    nd = ndim_of(out)
    rhs = None if tb is None else xp.align(tb, ndim_of(b), nd)
    if ta is not None:
        r = -(xp.align(ta, ndim_of(a), nd) @ out)
        rhs = r if rhs is None else rhs + r
    return (solver or solve)(a, rhs)


@_solve.def_vjp
def _solve_vjp(xp, g, out, a, b, solver=None):
    nb = ndim_of(g) - ndim_of(out)
    gb = (solver or solve)(_mh(xp, a), g)
    ga = -(gb @ _mh(xp, out))
    return xp.unbroadcast(ga, a.shape, nb), xp.unbroadcast(gb, b.shape, nb)


def _solve_nan(a, b):
    """solve_ex's solution alone: the rules of solve_ex give NaN for a singular element, as
    its value does, instead of raising."""
    return solve_ex(a, b)[0]


@_solve_ex.def_jvp
def _solve_ex_jvp(xp, tangents, out, a, b):
    return _solve_jvp(xp, tangents, out[0], a, b, solver=_solve_nan), None


@_solve_ex.def_vjp
def _solve_ex_vjp(xp, g, out, a, b):
    if g[0] is None:  # only the integer status has a cotangent: it carries no derivative
        return xp.zeros_like(a), xp.zeros_like(b)
    return _solve_vjp(xp, g[0], out[0], a, b, solver=_solve_nan)


def _prepare_solve(a, b, func="solve"):
    """NumPy's solve pipeline up to the call: (a, b as (..., M, K), vector?, wrap, result_t);
    errors name `func`."""
    if type(a) is not np.ndarray:
        a, _ = v.makearray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        v.assert_stacked_square(a)  # raises NumPy's error
    if type(b) is np.ndarray:
        wrap = _identity
    else:
        b, wrap = v.makearray(b)
    vector = b.ndim == 1
    hit = v.CASTABLE_TYPES.get((a.dtype, b.dtype))  # the common case without a call
    t, result_t = hit if hit is not None else v.pair_types(
        a, b, umath_linalg.solve1 if vector else umath_linalg.solve, _SIGS)
    m = a.shape[-1]
    if vector:
        ok = b.shape[0] == m
    else:
        # the common case in one comparison: the same batch and b's rows matching a's
        ok = a.shape[:-1] == b.shape[:-1]
        if not ok and b.ndim >= 2 and b.shape[-2] == m:
            try:
                np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
                ok = True
            except ValueError:
                pass
    if not ok:
        # NumPy's gufunc raises its own shape message before computing anything: let it,
        # on zero-stride stand-ins of the same shapes.
        dummy = np.zeros((), dtype=t)
        ufunc = umath_linalg.solve1 if vector else umath_linalg.solve
        try:
            ufunc(np.broadcast_to(dummy, a.shape), np.broadcast_to(dummy, b.shape),
                  signature=_sig(t))
        except ValueError as e:
            if func == "solve":
                raise
            raise ValueError(str(e).replace(ufunc.__name__, func, 1)) from None
    if type(a) is not np.ndarray or type(b) is not np.ndarray:
        # a Box is cast here; plain arrays are cast inside the gufunc (see prepare_square)
        a = a.astype(t, copy=False)
        b = b.astype(t, copy=False)
    if vector:
        b = b[:, None]
    return a, b, vector, wrap, result_t


def _identity(x):
    return x


def solve(a, b):
    """
    Solve a linear matrix equation, or system of linear scalar equations.

    Computes the "exact" solution, `x`, of the well-determined, i.e., full
    rank, linear matrix equation `ax = b`.

    Parameters
    ----------
    a : (..., M, M) array_like
        Coefficient matrix.
    b : {(M,), (..., M, K)}, array_like
        Ordinate or "dependent variable" values.

    Returns
    -------
    x : {(..., M,), (..., M, K)} ndarray
        Solution to the system a x = b.  Returned shape is (..., M) if b is
        shape (M,) and (..., M, K) if b is (..., M, K), where the "..." part is
        broadcasted between a and b.

    Raises
    ------
    LinAlgError
        If `a` is singular or not square. For a stack, the message names the
        failing batch element.

    See Also
    --------
    solve_ex : the same, returning a per-element status instead of raising.
    numpy.linalg.solve

    Notes
    -----
    `b` is treated as a column vector only if it is exactly 1-dimensional
    (NumPy 2's rule); otherwise it is a stack of (M, K) matrices.

    Autodiff: differentiable in `a` and `b`; ``dx = inv(a) (db - da x)``.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[1, 2], [3, 5]])
    >>> b = np.array([1, 2])
    >>> LA.solve(a, b)
    array([-1.,  1.])
    """
    a, b, vector, wrap, result_t = _prepare_solve(a, b)
    r = _solve.call(a, b)
    if vector:
        r = r[..., 0]
    if r.dtype is not result_t:
        r = r.astype(result_t, copy=False)
    return wrap(r)


def solve_ex(a, b, *, left=True, check_errors=False):
    """
    Solve ``a x = b`` with a per-element status instead of an exception.

    Parameters
    ----------
    a : (..., M, M) array_like
        Coefficient matrices.
    b : {(M,), (..., M, K)}, array_like
        Right-hand sides, with `solve`'s shape rules; ``(..., K, M)`` for
        ``left=False``.
    left : bool, optional
        Solve ``a x = b`` (True, default) or ``x a = b`` (torch's keyword; a 1-D `b` is
        then the row vector of ``x a = b``).
    check_errors : bool, optional
        Raise `solve`'s exception for the first singular element instead (torch's
        keyword). Default False.

    Returns
    -------
    A namedtuple ``SolveExResult`` with the attributes:

    result : {(..., M,), (..., M, K)} ndarray
        The solutions; an element whose matrix is singular holds NaN.
    info : ndarray of int32, of the batch shape of `a`
        0 where the solve succeeded, ``i > 0`` where ``U[i-1, i-1]`` of the LU
        factorization of that element of `a` is exactly zero (torch.linalg.solve_ex's
        convention: `b` does not broadcast it).

    Raises
    ------
    LinAlgError
        For a non-square or lower-than-2-D `a`; for a singular matrix only with
        ``check_errors=True``.

    See Also
    --------
    solve

    Notes
    -----
    Autodiff: as `solve` for `result`; `info` is not differentiable.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.stack([np.eye(2), np.zeros((2, 2))])
    >>> x, info = LA.solve_ex(a, np.ones(2))
    >>> info
    array([0, 1], dtype=int32)
    >>> x[0]
    array([1., 1.])
    """
    v.check_bool("solve_ex", left=left, check_errors=check_errors)
    if not left:   # x a = b  <=>  a^T x^T = b^T
        a = np.swapaxes(a, -1, -2)
        if ndim_of(b) >= 2:
            r, info = solve_ex(a, np.swapaxes(b, -1, -2), check_errors=check_errors)
            return SolveExResult(np.swapaxes(r, -1, -2), info)
    a, b, vector, wrap, result_t = _prepare_solve(a, b, "solve_ex")
    r, info = _solve_ex.call(a, b)
    info = unbox_all(info)
    a_batch = a.shape[:-2]
    if info.shape != a_batch:   # the status of each element of a, not of the broadcast
        lead = (1,) * (info.ndim - len(a_batch)) + a_batch
        info = info[tuple(slice(None) if d != 1 else slice(0, 1) for d in lead)]
        info = info.reshape(a_batch)
    if check_errors:
        v.raise_on_info(info, "singular", "solve_ex", info.shape)
    if vector:
        r = r[..., 0]
    return SolveExResult(wrap(r.astype(result_t, copy=False)), info)


def tensorsolve(a, b, axes=None):
    """
    Solve the tensor equation ``a x = b`` for x.

    It is assumed that all indices of `x` are summed over in the product,
    together with the rightmost indices of `a`, as is done in, for example,
    ``tensordot(a, x, axes=x.ndim)``.

    Parameters
    ----------
    a : array_like
        Coefficient tensor, of shape ``b.shape + Q``. `Q`, a tuple, equals
        the shape of that sub-tensor of `a` consisting of the appropriate
        number of its rightmost indices, and must be such that
        ``prod(Q) == prod(b.shape)`` (in which sense `a` is said to be
        'square').
    b : array_like
        Right-hand tensor, which can be of any shape.
    axes : tuple of ints, optional
        Axes in `a` to reorder to the right, before inversion.
        If None (default), no reordering is done.

    Returns
    -------
    x : ndarray, shape Q

    Raises
    ------
    LinAlgError
        If `a` is singular or not 'square' (in the above sense).

    See Also
    --------
    numpy.linalg.tensorsolve, numpy.tensordot, tensorinv

    Notes
    -----
    Autodiff: differentiable in `a` and `b` (through `solve`).

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.eye(2 * 3 * 4).reshape((2 * 3, 4, 2, 3, 4))
    >>> b = np.arange(24.0).reshape(6, 4)
    >>> x = LA.tensorsolve(a, b)
    >>> x.shape
    (2, 3, 4)
    >>> np.allclose(np.tensordot(a, x, axes=3), b)
    True
    """
    a, wrap = v.makearray(a)
    b = v.makearray(b)[0]
    an = a.ndim

    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = a.transpose(allaxes)

    oldshape = a.shape[-(an - b.ndim):]
    prod = 1
    for k in oldshape:
        prod *= k

    if a.size != prod ** 2:
        raise v.LinAlgError(v.MESSAGES["tensorsolve"])

    a = a.reshape(prod, prod)
    b = b.ravel()
    res = wrap(solve(a, b))
    if isinstance(res, Box):
        return res.reshape(oldshape)
    res.shape = oldshape
    return res
