"""eig, eigvals, eigh and eigvalsh."""
import numpy as np

from .._core import routing
from .._core import validate as v
from .._core.box import Box
from .._core.lapack import gufunc1, optimal_workspace, surely_finite, umath_linalg
from .._core.op import Op
from .._core.results import EighResult, EigResult
from .._core.xputil import ns, unbox_all
from ._cholesky import _hermitian_from_triangle, _triangle_adjoint
from ._solve import solve

__all__ = ["eig", "eigvals", "eigh", "eigvalsh"]

_eig = Op("eig", nout=2)
_eigvals = Op("eigvals")
_eigh = Op("eigh", nout=2)
_eigh.def_route(routing.square_router("eigh"))
_eigvalsh = Op("eigvalsh")
_eigvalsh.def_route(routing.square_router("eigvalsh"))

# Largest n the numba Jacobi kernels serve, (real, complex); above it the numba impls call
# LAPACK (so a float64-tuned route never sends a larger complex stack to a slower kernel).
# Measured here (2 cores, stacks of 200-20,000): Jacobi beats syevd/heevd with eigenvectors
# up to n ~ 40 (real; 3x slower at 64) and ~ 14-16 (complex), and the eigenvalue-only path
# (sterf) up to n ~ 20-24 (real) and ~ 12-14 (complex).
NUMBA_MAX_N = {"eigh": (32, 14), "eigvalsh": (20, 12)}


def _sig(t, outs):
    return ("D" if t.kind == "c" else "d") + "->" + outs


@_eig.impl("lapack")
def _eig_lapack(a):
    return gufunc1(umath_linalg.eig, _sig(a.dtype, "DD"), a, "eig_conv", "eig")


@_eigvals.impl("lapack")
def _eigvals_lapack(a):
    return gufunc1(umath_linalg.eigvals, _sig(a.dtype, "D"), a, "eig_conv", "eigvals")


def check_triangle_finite(a, upper, func):
    """linalgx's NaN policy for eigh/eigvalsh: a non-finite value in the triangle LAPACK
    reads raises "Eigenvalues did not converge", where NumPy's answer depends on n (NaN,
    an error, or finite garbage such as ``eigvalsh(diag(1, 2, 3, nan)) == [0, -0, 1, 2]``)."""
    if surely_finite(a) or np.isfinite(a).all():  # (all_finite, inline: every call)
        return
    off = np.triu(a, 1) if upper else np.tril(a, -1)
    bad = ~np.isfinite(off).all(axis=(-2, -1))
    bad |= ~np.isfinite(np.diagonal(a, axis1=-2, axis2=-1).real).all(axis=-1)
    idx = np.flatnonzero(bad)
    if idx.size:
        raise v.batch_error("eig_conv", func, a.shape[:-2], int(idx[0]))


@_eigh.impl("lapack")
def _eigh_lapack(a, UPLO):
    check_triangle_finite(a, UPLO == "U", "eigh")
    driver = routing.large_driver("eigh", a)
    if driver is not None:
        return _eigh_scipy(a, UPLO == "U", driver, True, "eigh")
    ufunc = umath_linalg.eigh_up if UPLO == "U" else umath_linalg.eigh_lo
    return gufunc1(ufunc, "D->dD" if a.dtype.kind == "c" else "d->dd", a, "eig_conv", "eigh")


def _eigh_scipy(a, upper, driver, compute_v, func):
    """One large matrix through SciPy's ?syevd/?heevd or ?syevr/?heevr (``driver`` is
    ``"scipy_syevd"`` or ``"scipy_syevr"``): ``(w, v)``, v None without vectors and
    C-ordered as NumPy's (the copy costs ~1% of the call at n = 1000)."""
    from scipy.linalg import get_lapack_funcs

    kind = ("he" if a.dtype.kind == "c" else "sy") + driver[-3:]
    lower = int(not upper)
    solver = get_lapack_funcs(kind, (a,))
    out = solver(a, compute_v=int(compute_v), lower=lower, overwrite_a=0,
                 **_workspace(solver, kind, a.shape[0], int(compute_v), lower))
    v.raise_on_info(out[-1], "eig_conv", func, ())
    return out[0], np.ascontiguousarray(out[1]) if compute_v else None


_WORKSPACE_NAMES = {"syevr": ("lwork", "liwork"), "syevd": ("lwork", "liwork"),
                    "heevr": ("lwork", "lrwork", "liwork"),
                    "heevd": ("lwork", "liwork", "lrwork")}


def _workspace(solver, kind, n, compute_v, lower):
    query = {"compute_v": compute_v} if kind.endswith("evd") else {}
    return optimal_workspace(solver, kind, n, _WORKSPACE_NAMES[kind], lower=lower, **query)


@_eigvalsh.impl("lapack")
def _eigvalsh_lapack(a, UPLO):
    check_triangle_finite(a, UPLO == "U", "eigvalsh")
    driver = routing.large_driver("eigvalsh", a)
    if driver is not None:
        return _eigh_scipy(a, UPLO == "U", driver, False, "eigvalsh")[0]
    ufunc = umath_linalg.eigvalsh_up if UPLO == "U" else umath_linalg.eigvalsh_lo
    return gufunc1(ufunc, "D->d" if a.dtype.kind == "c" else "d->d", a, "eig_conv", "eigvalsh")


def _eigh_jacobi(a, UPLO, compute_v, func):
    """The numba kernel (for ``n <= NUMBA_MAX_N[func]``; it hands an element whose
    eigenvalues overflowed to LAPACK itself), with the lapack impl's NaN policy and errors: a
    failed element raises "Eigenvalues did not converge" naming it (an inf or NaN in the
    read triangle is reported exactly as `check_triangle_finite` reports it)."""
    a = v.as_compute(a)
    w, vecs, info = routing.kernels_api().eigh(a, UPLO == "U", compute_v)
    routing.mark_loaded(func)
    if np.count_nonzero(info):
        check_triangle_finite(a, UPLO == "U", func)
        v.raise_on_info(info, "eig_conv", func, a.shape[:-2])
    return w, vecs


@_eigh.impl("numba")
def _eigh_numba(a, UPLO):
    if a.shape[-1] > NUMBA_MAX_N["eigh"][a.dtype.kind == "c"]:
        return _eigh_lapack(a, UPLO)
    return _eigh_jacobi(a, UPLO, True, "eigh")


@_eigvalsh.impl("numba")
def _eigvalsh_numba(a, UPLO):
    if a.shape[-1] > NUMBA_MAX_N["eigvalsh"][a.dtype.kind == "c"]:
        return _eigvalsh_lapack(a, UPLO)
    return _eigh_jacobi(a, UPLO, False, "eigvalsh")[0]


def _mh(xp, x):
    return xp.conj(xp.matrix_transpose(x))


def _diag(xp, x):
    return xp.diagonal(x, axis1=-2, axis2=-1)


def _diag_embed(xp, d):
    return xp.expand_dims(d, -1) * xp.eye(d.shape[-1], like=d)


def _eye_mask(xp, w):
    return xp.eye(w.shape[-1], dtype=bool, like=w)


def degenerate_mask(values):
    """Pairs (i, j) of a spectrum closer than the eigensolver's accuracy, plus the diagonal.

    Two eigen- or singular values count as degenerate when they differ by at most
    max(n, 32) * eps * max|w| (LAPACK's backward-error bound, p(n) eps ||A||): a rotated
    degenerate matrix gives values that differ only by rounding, and dividing by that
    difference would turn rounding noise into an O(1) error. The floor of 32 is measured:
    over 2,000 rotated matrices with a repeated eigenvalue (or singular value) per order
    n = 2..16, built in floating point and decomposed by LAPACK or the numba kernels, the
    tied values split by up to 9.8 eps * max|w| (7.3 at n = 2, where n eps had been the
    tolerance). This is not a regularizer: such pairs are indistinguishable in
    floating point, and the gauge checks then require the loss not to depend on the basis
    chosen inside their eigenspace.
    """
    wv = unbox_all(values)
    mod = ns(wv)
    n = wv.shape[-1]
    eps = mod.finfo(wv.dtype).eps
    scale = mod.abs(wv).max(axis=-1, keepdims=True) if n else mod.zeros(wv.shape[:-1] + (1,))
    tol = (max(n, 32) * eps * scale)[..., None]
    return (mod.abs(wv[..., None, :] - wv[..., :, None]) <= tol) | mod.eye(n, dtype=bool)


def refuse_second_order(values, func, *traced):
    """Raise where a rule's result is being differentiated again (one of ``traced`` is an
    autodiff Box: a cotangent or tangent that depends on the differentiated variable, or the
    primal input inside a JVP rule) at a degenerate spectrum.

    First-order rules there are exact for the losses docs/autodiff.rst lists, but their own
    derivative is not: for a function of the tied values, V diag(g) V^H changes at second
    order by the divided differences of g, whose limit (the loss's second derivative in the
    tied values) neither the decomposition nor the chain rule sees. The result would be
    silently wrong (Hessian of ``sum(svdvals(a)**2)`` at the identity: 1 where 2 is exact).
    """
    if not any(isinstance(x, Box) for x in traced):
        return
    mask = degenerate_mask(values)
    mod = ns(mask)
    if mask.shape[-1] > 1 and bool(mod.any(mask & ~mod.eye(mask.shape[-1], dtype=bool))):
        raise ValueError(v.MESSAGES["degenerate_second_order"] % func)


def _gaps(xp, w):
    """(E, skip): E[i, j] = w[j] - w[i] where it is divided by, and the mask of the entries
    that are not (the diagonal and degenerate pairs, see `degenerate_mask`)."""
    skip = degenerate_mask(w)
    e = xp.expand_dims(w, -2) - xp.expand_dims(w, -1)
    return xp.where(skip, 1, e), skip


def _check_small(x, mask, message):
    """Raise ``ValueError(message)`` unless ``x`` is zero, up to rounding, where ``mask``.

    A derivative of eigenvectors depends on the arbitrary phase of each vector (complex
    case) and on the arbitrary basis of a degenerate eigenspace; a function invariant under
    both feeds zeros there. The tolerance is PyTorch's (1e-2), relative to the cotangent.
    """
    x = unbox_all(x)
    mod = ns(x)
    if x.size == 0 or not mod.any(mask):
        return
    size = mod.abs(x)
    if float(mod.where(mask, size, 0).max()) > 1e-2 * max(1.0, float(size.max())):
        raise ValueError(message)


def _check_gauge(xp, vhgv, numerator, skip, func):
    """Both gauge checks: Im diag(V^H V_bar) (the phase of each complex eigenvector), and the
    numerator of the eigenvector term on degenerate pairs (the basis of the eigenspace)."""
    if vhgv.dtype.kind == "c":
        d = xp.imag(_diag(xp, vhgv))
        _check_small(d, True, v.MESSAGES["phase_gauge"] % func)
    eye = ns(unbox_all(vhgv)).eye(vhgv.shape[-1], dtype=bool)
    _check_small(numerator, skip & ~eye, v.MESSAGES["degenerate_gauge"] % func)


def _check_split(vhgv, gw, skip, func):
    """Refuse the 0/0 case of a degenerate pair.

    On a degenerate pair the eigenvector term is (skew part of V^H V_bar) / (w_j - w_i), and
    a gauge-invariant loss makes the numerator vanish. If the loss is invariant whatever the
    eigenvalues (a function of the eigenspace, such as its projector) the term is zero. If it
    is invariant only because w_i == w_j (a matrix function V f(w) V^H), the numerator
    vanishes like the gap and the limit (f'(w) times the Hermitian part) is not visible at
    the point: such a loss also depends on those eigenvalues, so it is refused when
    ``w_bar`` is nonzero on the pair and V^H V_bar has a Hermitian off-diagonal part there.
    """
    if gw is None:
        return
    x = unbox_all(vhgv)
    gwv = unbox_all(gw)
    mod = ns(x)
    eye = mod.eye(x.shape[-1], dtype=bool)
    pair = skip & ~eye
    if not mod.any(pair):
        return
    herm = mod.abs(x + mod.conj(mod.swapaxes(x, -1, -2)))
    uses_w = (mod.abs(gwv)[..., :, None] + mod.abs(gwv)[..., None, :]) > 0
    scale = max(1.0, float(herm.max()))
    if float(mod.where(pair & uses_w, herm, 0).max()) > 1e-2 * scale:
        raise ValueError(v.MESSAGES["degenerate_split"] % func)


# Eigen-decomposition derivatives: Giles (2008) section 3.1, with the normalization and gauge
# handling of PyTorch's linalg_eig_jvp / linalg_eig_backward (see also Walter & Lehmann 2018).
# With A = V diag(w) V^{-1}, dP = V^{-1} dA V, E[i, j] = w[j] - w[i] and F = dP / E off the
# diagonal (0 on it): dw = diag(dP), dV = V (F - diag(Re diag(V^H V F))), the correction
# keeping the unit column norms; A_bar = V^{-H} (diag(w_bar) + G / conj(E)) V^H with
# G = V^H V_bar - V^H V diag(Re diag(V^H V_bar)) off the diagonal. Repeated eigenvalues make
# the eigenvector derivative infinite (no epsilon is added).
@_eig.def_jvp
def _eig_jvp(xp, tangents, out, a):
    (t,) = tangents
    w, vecs = out
    refuse_second_order(w, "eig", a)
    dp = solve(vecs, t @ vecs)
    e, skip = _gaps(xp, w)
    f = xp.where(skip, 0, dp / e)
    norm = xp.real(_diag(xp, _mh(xp, vecs) @ (vecs @ f)))
    return _diag(xp, dp), vecs @ f - vecs * xp.expand_dims(norm, -2)


@_eig.def_vjp
def _eig_vjp(xp, g, out, a):
    gw, gv = g
    w, vecs = out
    refuse_second_order(w, "eig", gw, gv)
    vh = _mh(xp, vecs)
    if gv is None:
        inner = _diag_embed(xp, gw)
    else:
        vhgv = vh @ gv
        e, skip = _gaps(xp, w)
        num = vhgv - vh @ (vecs * xp.expand_dims(xp.real(_diag(xp, vhgv)), -2))
        _check_gauge(xp, vhgv, num, skip, "eig")
        inner = xp.where(skip & ~_eye_mask(xp, w), 0, num / xp.conj(e))
        if gw is not None:
            inner = xp.where(_eye_mask(xp, w), _diag_embed(xp, gw), inner)
    return (solve(vh, inner @ vh),)


@_eigvals.def_jvp
def _eigvals_jvp(xp, tangents, out, a):
    (t,) = tangents
    refuse_second_order(out, "eigvals", a)
    _, vecs = _eig(a)
    return _diag(xp, solve(vecs, t @ vecs))


@_eigvals.def_vjp
def _eigvals_vjp(xp, g, out, a):
    refuse_second_order(out, "eigvals", g)
    _, vecs = _eig(a)
    vh = _mh(xp, vecs)
    return (solve(vh, _diag_embed(xp, g) @ vh),)


# Hermitian case (Giles 2008 section 3.1; PyTorch's linalg_eigh backward): V is unitary, so
# dP = V^H dA V, dw = Re diag(dP), dV = V (dP / E off the diagonal); A_bar = V (diag(w_bar) +
# skew(V^H V_bar) / E) V^H. NumPy reads one triangle of `a` (and the real diagonal), so dA is
# that triangle mirrored and A_bar is projected back onto it.
@_eigh.def_jvp
def _eigh_jvp(xp, tangents, out, a, UPLO):
    (t,) = tangents
    w, vecs = out
    refuse_second_order(w, "eigh", a)
    dp = _mh(xp, vecs) @ _hermitian_from_triangle(xp, t, UPLO == "U") @ vecs
    e, skip = _gaps(xp, w)
    f = xp.where(skip, 0, dp / e)
    return xp.real(_diag(xp, dp)), vecs @ f


@_eigh.def_vjp
def _eigh_vjp(xp, g, out, a, UPLO):
    gw, gv = g
    w, vecs = out
    refuse_second_order(w, "eigh", gw, gv)
    vh = _mh(xp, vecs)
    if gv is None:
        inner = _diag_embed(xp, gw)
    else:
        vhgv = vh @ gv
        e, skip = _gaps(xp, w)
        num = 0.5 * (vhgv - _mh(xp, vhgv))
        _check_gauge(xp, vhgv, num, skip, "eigh")
        _check_split(vhgv, gw, skip, "eigh")
        inner = xp.where(skip & ~_eye_mask(xp, w), 0, num / e)
        if gw is not None:
            inner = xp.where(_eye_mask(xp, w), _diag_embed(xp, gw), inner)
    return (_triangle_adjoint(xp, vecs @ inner @ vh, UPLO == "U"),)


@_eigvalsh.def_jvp
def _eigvalsh_jvp(xp, tangents, out, a, UPLO):
    (t,) = tangents
    refuse_second_order(out, "eigvalsh", a)
    _, vecs = _eigh(a, UPLO=UPLO)
    dp = _mh(xp, vecs) @ _hermitian_from_triangle(xp, t, UPLO == "U") @ vecs
    return xp.real(_diag(xp, dp))


@_eigvalsh.def_vjp
def _eigvalsh_vjp(xp, g, out, a, UPLO):
    refuse_second_order(out, "eigvalsh", g)
    _, vecs = _eigh(a, UPLO=UPLO)
    ga = vecs @ _diag_embed(xp, g) @ _mh(xp, vecs)
    return (_triangle_adjoint(xp, ga, UPLO == "U"),)


# (real, complex) gufunc signatures, for NumPy's dtype checks
_EIG_SIGS = ("d->DD", "D->DD")
_EIGVALS_SIGS = ("d->D", "D->D")
_EIGH_SIGS = ("d->dd", "D->dD")
_EIGVALSH_SIGS = ("d->d", "D->d")


def _prepare_general(a, ufunc, signatures, func):
    """eig/eigvals: NumPy's finiteness check comes before its dtype checks."""
    a, wrap = v.makearray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        v.assert_stacked_square(a)  # raises
    value = unbox_all(a)
    if value.dtype.kind not in "fc" or not surely_finite(value):
        v.assert_finite(value, func)
    a, _, t, result_t = v.prepare_square(a, ufunc, signatures)
    return a, wrap, t, result_t


_COMPLEX_OF = {}


def _complex_of(dtype):
    c = _COMPLEX_OF.get(dtype)
    if c is None:
        c = _COMPLEX_OF[dtype] = np.result_type(dtype, np.complex64)
    return c


def _real_if_all_real(t, result_t, w):
    """NumPy's value-dependent result type: real when every eigenvalue of a real input is."""
    if t.kind != "c" and not unbox_all(w).imag.any():
        return True, v.real_dtype(result_t)
    return False, _complex_of(result_t)


def eigvals(a):
    """
    Compute the eigenvalues of a general matrix.

    Main difference between `eigvals` and `eig`: the eigenvectors aren't
    returned.

    Parameters
    ----------
    a : (..., M, M) array_like
        A complex- or real-valued matrix whose eigenvalues will be computed.

    Returns
    -------
    w : (..., M,) ndarray
        The eigenvalues, each repeated according to its multiplicity.
        They are not necessarily ordered, nor are they necessarily
        real for real matrices: the result is real only if every eigenvalue
        in the whole stack is real.

    Raises
    ------
    LinAlgError
        If `a` contains infs or NaNs, or the eigenvalue computation does not
        converge (the message names the failing batch element).

    See Also
    --------
    eig, eigvalsh, numpy.linalg.eigvals

    Notes
    -----
    Autodiff: differentiable in `a` where the eigenvalues are simple;
    ``dw = diag(inv(V) da V)``.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LA.eigvals(np.diag((-1., 1.)))
    array([-1.,  1.])
    >>> LA.eigvals(np.array([[1., -1.], [1., 1.]]))
    array([1.+1.j, 1.-1.j])
    """
    a, _, t, result_t = _prepare_general(a, umath_linalg.eigvals, _EIGVALS_SIGS, "eigvals")
    w = _eigvals.call1(a)
    real, result_t = _real_if_all_real(t, result_t, w)
    if real:
        w = w.real
    return w.astype(result_t, copy=False)


def eig(a):
    """
    Compute the eigenvalues and right eigenvectors of a square array.

    Parameters
    ----------
    a : (..., M, M) array
        Matrices for which the eigenvalues and right eigenvectors will
        be computed

    Returns
    -------
    A namedtuple with the following attributes:

    eigenvalues : (..., M) array
        The eigenvalues, each repeated according to its multiplicity.
        The eigenvalues are not necessarily ordered. The resulting
        array will be of complex type, unless the imaginary part is
        zero in which case it will be cast to a real type. When `a`
        is real the resulting eigenvalues will be real (0 imaginary
        part) or occur in conjugate pairs
    eigenvectors : (..., M, M) array
        The normalized (unit "length") eigenvectors, such that the
        column ``eigenvectors[:,i]`` is the eigenvector corresponding to the
        eigenvalue ``eigenvalues[i]``.

    Raises
    ------
    LinAlgError
        If `a` contains infs or NaNs, or the eigenvalue computation does not
        converge (the message names the failing batch element).

    See Also
    --------
    eigvals, eigh, numpy.linalg.eig

    Notes
    -----
    This is implemented using the ``_geev`` LAPACK routines.

    Autodiff: differentiable in `a` where the eigenvalues are simple. For
    complex eigenvectors the differentiated function must not depend on the
    arbitrary phase of each column (a ``ValueError`` says so otherwise).

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> eigenvalues, eigenvectors = LA.eig(np.diag((1, 2, 3)))
    >>> eigenvalues
    array([1., 2., 3.])
    >>> eigenvalues, eigenvectors = LA.eig(np.array([[1, -1], [1, 1]]))
    >>> eigenvalues
    array([1.+1.j, 1.-1.j])
    """
    a, wrap, t, result_t = _prepare_general(a, umath_linalg.eig, _EIG_SIGS, "eig")
    w, vt = _eig.call1(a)
    real, result_t = _real_if_all_real(t, result_t, w)
    if real:
        w, vt = w.real, vt.real
    vt = vt.astype(result_t, copy=False)
    return EigResult(w.astype(result_t, copy=False), wrap(vt))


def _uplo(UPLO):
    return v.check_uplo(UPLO.upper())


def eigvalsh(a, UPLO='L'):
    """
    Compute the eigenvalues of a complex Hermitian or real symmetric matrix.

    Main difference from eigh: the eigenvectors are not computed.

    Parameters
    ----------
    a : (..., M, M) array_like
        A complex- or real-valued matrix whose eigenvalues are to be
        computed.
    UPLO : {'L', 'U'}, optional
        Specifies whether the calculation is done with the lower triangular
        part of `a` ('L', default) or the upper triangular part ('U').
        Irrespective of this value only the real parts of the diagonal will
        be considered in the computation to preserve the notion of a Hermitian
        matrix. It therefore follows that the imaginary part of the diagonal
        will always be treated as zero.

    Returns
    -------
    w : (..., M,) ndarray
        The eigenvalues in ascending order, each repeated according to
        its multiplicity.

    Raises
    ------
    LinAlgError
        If the eigenvalue computation does not converge, or (unlike NumPy,
        whose answer then depends on M) the triangle that is read contains an
        inf or NaN. The message names the failing batch element.

    See Also
    --------
    eigh, eigvals, numpy.linalg.eigvalsh

    Notes
    -----
    Autodiff: differentiable in the triangle of `a` that is read;
    ``dw = Re diag(V^H da V)``.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LA.eigvalsh(np.array([[5 + 2j, 9 - 2j], [0 + 2j, 2 - 1j]]))
    array([1., 6.])
    """
    UPLO = _uplo(UPLO)
    ufunc = umath_linalg.eigvalsh_up if UPLO == "U" else umath_linalg.eigvalsh_lo
    a, _, t, result_t = v.prepare_square(a, ufunc, _EIGVALSH_SIGS)
    w = _eigvalsh.call1(a, UPLO=UPLO)
    if result_t is not t:
        w = w.astype(v.real_dtype(result_t), copy=False)
    return w


def eigh(a, UPLO='L'):
    """
    Return the eigenvalues and eigenvectors of a complex Hermitian
    (conjugate symmetric) or a real symmetric matrix.

    Returns two objects, a 1-D array containing the eigenvalues of `a`, and
    a 2-D square array or matrix (depending on the input type) of the
    corresponding eigenvectors (in columns).

    Parameters
    ----------
    a : (..., M, M) array
        Hermitian or real symmetric matrices whose eigenvalues and
        eigenvectors are to be computed.
    UPLO : {'L', 'U'}, optional
        Specifies whether the calculation is done with the lower triangular
        part of `a` ('L', default) or the upper triangular part ('U').
        Irrespective of this value only the real parts of the diagonal will
        be considered in the computation to preserve the notion of a Hermitian
        matrix. It therefore follows that the imaginary part of the diagonal
        will always be treated as zero.

    Returns
    -------
    A namedtuple with the following attributes:

    eigenvalues : (..., M) ndarray
        The eigenvalues in ascending order, each repeated according to
        its multiplicity.
    eigenvectors : {(..., M, M) ndarray, (..., M, M) matrix}
        The column ``eigenvectors[:, i]`` is the normalized eigenvector
        corresponding to the eigenvalue ``eigenvalues[i]``.  Will return a
        matrix object if `a` is a matrix object.

    Raises
    ------
    LinAlgError
        If the eigenvalue computation does not converge, or (unlike NumPy,
        whose answer then depends on M) the triangle that is read contains an
        inf or NaN. The message names the failing batch element.

    See Also
    --------
    eigvalsh, eig, numpy.linalg.eigh

    Notes
    -----
    Autodiff: differentiable in the triangle of `a` that is read, where the
    eigenvalues are simple. The differentiated function must not depend on
    the arbitrary sign (phase) of each eigenvector.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> eigenvalues, eigenvectors = LA.eigh(np.array([[1, -2j], [2j, 5]]))
    >>> eigenvalues
    array([0.17157288, 5.82842712])
    """
    UPLO = _uplo(UPLO)
    ufunc = umath_linalg.eigh_up if UPLO == "U" else umath_linalg.eigh_lo
    a, wrap, t, result_t = v.prepare_square(a, ufunc, _EIGH_SIGS)
    w, vt = _eigh.call1(a, UPLO=UPLO)
    if result_t is not t:
        w = w.astype(v.real_dtype(result_t), copy=False)
        vt = vt.astype(result_t, copy=False)
    return EighResult(w, wrap(vt))
