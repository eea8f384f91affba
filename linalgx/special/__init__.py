"""linalgx.special: scipy.special's functions as differentiable NumPy-ufunc-like callables.

Every function is an op of the linalgx dispatcher: NumPy input runs numba kernels ported
from Cephes, Boost and SciPy's xsf (``linalgx.kernels.special``), CuPy input runs
``cupyx.scipy.special``. SciPy's names come first; torch.special's other spellings are
aliases (``bessel_j0``, ``chebyshev_polynomial_t(input, n)``, ...), so code written for
``torch.special`` ports by changing the import. Every function has JVP and VJP rules,
including derivatives torch lacks (Bessel K/Y, Airy, polynomials in x, ``gammainc`` in
``a``, ``zeta`` in ``s``). Derivatives are evaluated at the output's precision and come
back in its dtype (float16 input of a float64-valued function gives float64 tangents).
Complex input is differentiable wherever its value is computed (holomorphic rules), except
for ``digamma``/``psi`` and ``zeta``, whose derivative kernels are real-only: their JVP and
VJP raise a TypeError naming the function.

Importing this module does not import numba: kernels compile (or load from numba's
on-disk cache) on first use.
"""
from ._basic import entr, exp2, expit, expm1, log1p, logit, round, sinc, xlog1py, xlogy
from ._bessel import (
    airy,
    airy_ai,
    i0,
    i0e,
    i1,
    i1e,
    j0,
    j1,
    k0,
    k0e,
    k1,
    k1e,
    spherical_jn,
    y0,
    y1,
)
from ._bessel_v import iv, ive, jn, jv, kn, kv, kve, yn, yv
from ._betainc import (
    betainc,
    betaincc,
    betainccinv,
    betaincinv,
    binom,
    gammainccinv,
    gammaincinv,
)
from ._boxcox import boxcox, boxcox1p, inv_boxcox, inv_boxcox1p
from ._combinatorics import comb, factorial, factorial2, perm
from ._dawson import dawsn, erfi
from ._ellip import ellipe, ellipeinc, ellipk, ellipkinc, ellipkm1, spence
from ._entropy import kl_div, rel_entr
from ._erf import erf, erfc, erfcx, erfinv, log_ndtr, ndtr, ndtri
from ._erfcinv import erfcinv
from ._expint import exp1, expi, expn
from ._explog import exp10, log_expit
from ._gamma import digamma, gammainc, gammaincc, gammaln, multigammaln, polygamma, psi, zeta
from ._gammafn import beta, betaln, gamma, gammasgn, loggamma, poch, rgamma
from ._logsumexp import log_softmax, logsumexp, softmax
from ._losses import huber, pseudo_huber, softplus
from ._orthopoly import (
    eval_chebyt,
    eval_chebyu,
    eval_hermite,
    eval_hermitenorm,
    eval_laguerre,
    eval_legendre,
    eval_sh_chebyt,
    eval_sh_chebyu,
)
from ._torch import (
    bessel_j0,
    bessel_j1,
    bessel_y0,
    bessel_y1,
    chebyshev_polynomial_t,
    chebyshev_polynomial_u,
    chebyshev_polynomial_v,
    chebyshev_polynomial_w,
    hermite_polynomial_h,
    hermite_polynomial_he,
    laguerre_polynomial_l,
    legendre_polynomial_p,
    modified_bessel_i0,
    modified_bessel_i1,
    modified_bessel_k0,
    modified_bessel_k1,
    scaled_modified_bessel_k0,
    scaled_modified_bessel_k1,
    shifted_chebyshev_polynomial_t,
    shifted_chebyshev_polynomial_u,
    shifted_chebyshev_polynomial_v,
    shifted_chebyshev_polynomial_w,
    spherical_bessel_j0,
)

__all__ = [
    # scipy.special
    "erf", "erfc", "erfcx", "erfinv", "ndtr", "ndtri", "log_ndtr",
    "gammaln", "multigammaln", "digamma", "psi", "polygamma", "gammainc", "gammaincc", "zeta",
    "i0", "i0e", "i1", "i1e", "k0", "k0e", "k1", "k1e", "j0", "j1", "y0", "y1",
    "spherical_jn", "airy",
    "jv", "jn", "yv", "iv", "ive", "kv", "kve", "yn", "kn",
    "eval_chebyt", "eval_chebyu", "eval_sh_chebyt", "eval_sh_chebyu", "eval_hermite",
    "eval_hermitenorm", "eval_laguerre", "eval_legendre",
    "expit", "logit", "sinc", "entr", "xlogy", "xlog1py", "logsumexp", "softmax",
    "log_softmax", "exp2", "expm1", "log1p", "round",
    "gamma", "rgamma", "loggamma", "gammasgn", "poch", "beta", "betaln", "log_expit",
    "exp10", "erfcinv", "rel_entr", "kl_div",
    "exp1", "expi", "expn", "erfi", "dawsn", "softplus", "huber", "pseudo_huber", "boxcox",
    "boxcox1p", "inv_boxcox", "inv_boxcox1p",
    "ellipk", "ellipkm1", "ellipe", "ellipkinc", "ellipeinc", "spence",
    "comb", "perm", "factorial", "factorial2",
    "betainc", "betaincc", "betaincinv", "betainccinv", "gammaincinv", "gammainccinv",
    "binom",
    # torch.special spellings
    "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
    "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
    "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0",
    "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
    "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
    "laguerre_polynomial_l", "legendre_polynomial_p",
]
