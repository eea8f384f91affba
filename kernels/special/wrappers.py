"""Scalar wrappers that ``ufuncs`` vectorizes: float32 and integer arguments are widened to
float64 (or int64) before the float64 kernel runs, so every loop computes in double."""
from . import airy as _airy
from . import bessel as _b
from . import elementary as _el
from . import erf as _erf
from . import gamma as _g
from . import igam as _ig
from . import poly as _p


def erf(x): return _erf.erf(float(x))
def erfc(x): return _erf.erfc(float(x))
def erfcx(x): return _erf.erfcx(float(x))
def erfinv(x): return _erf.erfinv(float(x))
def ndtr(x): return _erf.ndtr(float(x))
def ndtri(x): return _erf.ndtri(float(x))
def log_ndtr(x): return _erf.log_ndtr(float(x))
def gammaln(x): return _g.gammaln(float(x))
def digamma(x): return _g.digamma(float(x))
def polygamma(n, x): return _g.polygamma(float(n), float(x))
def gammainc(a, x): return _ig.gammainc(float(a), float(x))
def gammaincc(a, x): return _ig.gammaincc(float(a), float(x))
def zeta(x, q): return _g.zeta(float(x), float(q))
def riemann_zeta(x): return _g.riemann_zeta(float(x))
def zeta_ds(k, s, q): return _g.zeta_ds(k, float(s), float(q))
def gammainc_da(k, a, x): return _ig.gammainc_da(k, float(a), float(x))
def igam_density_da(k, a, x): return _ig.igam_density_da(k, float(a), float(x))
def i0(x): return _b.i0(float(x))
def i0e(x): return _b.i0e(float(x))
def i1(x): return _b.i1(float(x))
def i1e(x): return _b.i1e(float(x))
def k0(x): return _b.k0(float(x))
def k0e(x): return _b.k0e(float(x))
def k1(x): return _b.k1(float(x))
def k1e(x): return _b.k1e(float(x))
def j0(x): return _b.j0(float(x))
def j1(x): return _b.j1(float(x))
def y0(x): return _b.y0(float(x))
def y1(x): return _b.y1(float(x))
def spherical_jn(n, x): return _b.spherical_jn(n, float(x))
def spherical_jn_d(n, x): return _b.spherical_jn_d(n, float(x))


def airy(x, ai, aip, bi, bip):
    ai[0], aip[0], bi[0], bip[0] = _airy.airy(float(x))


def chebyt(n, x): return _p.chebyt_d(float(n), float(x))
def chebyu(n, x): return _p.chebyu_d(float(n), float(x))
def sh_chebyt(n, x): return _p.chebyt_d(float(n), 2.0 * float(x) - 1.0)
def sh_chebyu(n, x): return _p.chebyu_d(float(n), 2.0 * float(x) - 1.0)
def legendre(n, x): return _p.legendre_d(float(n), float(x))
def laguerre(n, x): return _p.laguerre_d(float(n), float(x))
def hermite(n, x): return _p.hermite(n, float(x))
def hermitenorm(n, x): return _p.hermitenorm(n, float(x))
def gegenbauer(n, alpha, x): return _p.gegenbauer_l(n, float(alpha), float(x))
def genlaguerre(n, alpha, x): return _p.genlaguerre_l(n, float(alpha), float(x))


def _tn(n): return _p.torch_degree(float(n))


def t_chebyt(x, n):
    k = _tn(n)
    return _p.chebyt_l(k, float(x)) if k >= 0 else 0.0


def t_chebyu(x, n):
    k = _tn(n)
    return _p.chebyu_l(k, float(x)) if k >= 0 else 0.0


def t_chebyv(x, n): return _p.cheb_vw(_tn(n), float(x), -1.0)
def t_chebyw(x, n): return _p.cheb_vw(_tn(n), float(x), 1.0)


def t_sh_chebyt(x, n):
    k = _tn(n)
    return _p.chebyt_l(k, 2.0 * float(x) - 1.0) if k >= 0 else 0.0


def t_sh_chebyu(x, n):
    k = _tn(n)
    return _p.chebyu_l(k, 2.0 * float(x) - 1.0) if k >= 0 else 0.0


def t_sh_chebyv(x, n): return _p.cheb_vw(_tn(n), 2.0 * float(x) - 1.0, -1.0)
def t_sh_chebyw(x, n): return _p.cheb_vw(_tn(n), 2.0 * float(x) - 1.0, 1.0)


def t_hermite(x, n):
    k = _tn(n)
    return _p.hermite(k, float(x)) if k >= 0 else 0.0


def t_hermitenorm(x, n):
    k = _tn(n)
    return _p.hermitenorm(k, float(x)) if k >= 0 else 0.0


def t_laguerre(x, n):
    k = _tn(n)
    return _p.laguerre_l(k, float(x)) if k >= 0 else 0.0


def t_legendre(x, n):
    k = _tn(n)
    return _p.legendre_l(k, float(x)) if k >= 0 else 0.0


def expit(x): return _el.expit(float(x))
def cexpit(z): return _el.cexpit(complex(z))
def logit(x): return _el.logit(float(x))
def sinc(x): return _el.sinc(float(x))
def csinc(z): return _el.csinc(complex(z))
def entr(x): return _el.entr(float(x))
def xlogy(x, y): return _el.xlogy(float(x), float(y))
def cxlogy(x, y): return _el.cxlogy(complex(x), complex(y))
def xlog1py(x, y): return _el.xlog1py(float(x), float(y))


def cxlog1py(x, y):
    x = complex(x)
    if x == 0 and y == y:
        return complex(0.0, 0.0)
    return x * _el.clog1p(complex(y))


def exp2(x): return _el.exp2(float(x))
def cexp2(z): return _el.cexp2(complex(z))
def expm1(x): return _el.expm1(float(x))
def cexpm1(z): return _el.cexpm1(complex(z))
def log1p(x): return _el.log1p(float(x))
def clog1p(z): return _el.clog1p(complex(z))
def round_(x): return _el.round_half_even(float(x))
