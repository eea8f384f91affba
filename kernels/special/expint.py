"""Exponential integrals: exp1 (E1), expi (Ei), expn (E_n).

- E1 and Ei for x < 1/2: Boost.Math ``expint.hpp`` (J. Maddock), E1 as ``R(x) + x - log(x)
  - Y`` (``expint_1_rational``), Ei as ``(x - x0) R(x) + log(x / x0)`` with its zero ``x0 =
  0.3725...`` to twice double precision (``expint_i_imp``), which keeps full relative
  accuracy near the zero.
- E1 and Ei for x >= 1/2: ``E1(x) = exp(-x) g(x)``, ``Ei(x) = exp(x) h(x)`` with the slowly
  varying ``g``, ``h`` from our own piecewise polynomials (``_pieces_tables.py``: 16 pieces
  per binade up to 64, in a variable exact in floating point) and beyond 64 from their
  asymptotic series; one rounding each for exp, the table and the product (Boost's rational
  forms there, ``exp(-x)/x (1 + R(1/x))`` and ``x + exp(x)/x (Y + R(x))``, reach 5 ulp).
- E_n (n >= 2): for x < 1/2 and n < 20 the recurrence ``E_{k+1} = (exp(-x) - x E_k) / k``
  from E1 (stable upwards there, and free of cancellation); otherwise the continued fraction
  DLMF 8.19.17 evaluated from its tail. SciPy's Cephes ``expn`` (power series, the
  continued fraction by a forward recurrence of its convergents, and for n > 50 an
  expansion in 1/n) is up to 16 ulp off near x = 1.

SciPy's exp1 and expi are Zhang & Jin's ``e1xb``/``eix`` (xsf ``expint.h``): a power series
and a continued fraction, and for Ei beyond 40 an asymptotic series cut after 20 terms
(relative error up to 1e-14 just above 40) and the series ``gamma + log(x) + ...`` near Ei's
zero (relative error unbounded there); Ei overflows from x = 709.78 (``exp(x)``), where it
is finite up to 716.4. The special values are SciPy's: ``exp1`` is inf at 0 and NaN for
x < 0 (the real E1 is complex there); ``expi(0) = -inf``; ``expn`` is NaN for ``n < 0``,
``x < 0`` or NaN/inf ``n``, at ``x = 0`` inf for ``n < 2`` and ``1/(n-1)`` otherwise, and a
non-integer ``n`` is truncated toward 0 (SciPy's cast to ``int``).

Deviations from SciPy, for accuracy only: ``expn`` keeps the subnormal values of E_n for
709.78 < x < 745 (Cephes returns 0 from ``x > MAXLOG``), and takes a degree beyond the C
``int`` range as it is (SciPy's cast gives NaN for floating ``n >= 2**31`` and wraps
integer ``n`` modulo ``2**32``).
"""
import math

import numpy as np

from ._pieces_tables import EXP1_PIECES, EXPI_PIECES
from .common import INF, NAN, exp_dd, jit
from .pieces import horner, piece

EXP1_MAX = 745.2                    # beyond, E1(x) < exp(-x) / x rounds to 0
LN2_HI = 0.6931471805598903         # ln 2 to 44 bits: x - 64 LN2_HI is exact near 709
LN2_LO = 5.497923018708371e-14

# -- E1 (Boost expint_1_rational, 53 bits); coefficients lowest power first ------------------
E1_Y = 0.66373538970947265625
E1_P1 = np.array([0.0865197248079397976498, 0.0320913665303559189999,
                  -0.245088216639761496153, -0.0368031736257943745142,
                  -0.00399167106081113256961, -0.000111507792921197858394])
E1_Q1 = np.array([1.0, 0.37091387659397013215, 0.056770677104207528384,
                  0.00427347600017103698101, 0.000131049900798434683324,
                  -0.528611029520217142048e-6])
# exp(x) E1(x) and exp(-x) Ei(x) for x >= 64: the asymptotic series (1/x) sum_k (-+1)**k
# k! / x**k, k < 20 (the first term left out is below 2e-18 relative)
E1_ASYM = np.array([(-1.0) ** k * math.factorial(k) for k in range(20)])
EI_ASYM = np.array([float(math.factorial(k)) for k in range(20)])

# -- Ei (Boost expint_i_imp, 53 bits) ---------------------------------------------------
EI_P = np.array([2.98677224343598593013, 0.356343618769377415068, 0.780836076283730801839,
                 0.114670926327032002811, 0.0499434773576515260534, 0.00726224593341228159561,
                 0.00115478237227804306827, 0.000116419523609765200999,
                 0.798296365679269702435e-5, 0.2777056254402008721e-6])
EI_Q = np.array([1.0, -1.17090412365413911947, 0.62215109846016746276,
                 -0.195114782069495403315, 0.0391523431392967238166,
                 -0.00504800158663705747345, 0.000389034007436065401822,
                 -0.138972589601781706598e-4])
EI_R1 = 1677624236387711.0 / 4503599627370496.0
EI_R2 = 0.131401834143860282009280387409357165515556574352422001206362e-16
EI_R = 0.372507410781366634461991866580119133535689497771654051555657435242200120636201854
EI_LOG_R = -0.9874983466453419     # log(x0)


@jit
def _scaled(table, asym, x):
    # exp(x) E1(x) (or exp(-x) Ei(x)) for x >= 1/2
    if x < 64.0:
        return piece(table, x)
    return horner(asym, 1.0 / x) / x


@jit
def _exp1_pos(x):
    # E1(x) for x > 0
    if x < 0.5:
        # Boost's R(x) + x - log(x) - Y, with x - Y first
        return ((x - E1_Y) + horner(E1_P1, x) / horner(E1_Q1, x)) - math.log(x)
    if x >= EXP1_MAX:
        return 0.0
    # exp(-x) is subnormal beyond 708.4: its absolute error shrinks by the factor < 1/x
    return math.exp(-x) * _scaled(EXP1_PIECES, E1_ASYM, x)


@jit
def exp1(x):
    """Exponential integral E1(x) = int_x^inf exp(-t) / t dt, x >= 0."""
    if x != x or x < 0.0:
        return NAN
    if x == 0.0:
        return INF
    return _exp1_pos(x)


@jit
def expi(x):
    """Exponential integral Ei(x) = -PV int_{-x}^inf exp(-t) / t dt."""
    if x != x:
        return NAN
    if x < 0.0:
        return -_exp1_pos(-x) if x != -INF else -0.0
    if x == 0.0:
        return -INF
    if x < 0.5:
        # Boost: (x - x0) R(x) + log(x / x0), x0 = r1 + r2 to twice double precision
        t = x / 3.0 - 1.0
        r = horner(EI_P, t) / horner(EI_Q, t)
        t = (x - EI_R1) - EI_R2
        r *= t
        if abs(t) < 0.1:
            return r + math.log1p(t / EI_R)
        if x < 0.25:
            return r + (math.log(x) - EI_LOG_R)   # x / x0 would lose digits if subnormal
        return r + math.log(x / EI_R)
    if x > 716.5:
        return INF
    h = _scaled(EXPI_PIECES, EI_ASYM, x)
    if x < 709.0:
        return math.exp(x) * h
    # exp(x) 2**-64 (x - 64 LN2_HI is exact), then the power of two: finite up to 716.4
    return math.ldexp(exp_dd(x - 64.0 * LN2_HI, -64.0 * LN2_LO) * h, 64)


# -- E_n (Cephes expn.c, SciPy's version) ------------------------------------------------
@jit
def _expn(p, x):
    # p: a nonnegative integer-valued double
    if x > EXP1_MAX:
        return 0.0
    if x == 0.0:
        return INF if p < 2.0 else 1.0 / (p - 1.0)
    if p == 0.0:
        return math.exp(-x) / x
    if p == 1.0:
        return _exp1_pos(x)
    if x < 0.5 and p < 20.0:
        # the recurrence E_{k+1} = (exp(-x) - x E_k) / k from E_1, stable upwards for x < k
        # (an error shrinks by x/k each step) and without cancellation (x E_k < exp(-x)/2)
        e = math.exp(-x)
        r = _exp1_pos(x)
        for k in range(1, int(p)):
            r = (e - x * r) / k
        return r
    # the continued fraction DLMF 8.19.17, E_n = exp(-x) / (x + n / (1 + u_1)) with u_k =
    # k / (x + (n + k) / (1 + u_{k+1})), evaluated from the tail, which damps rounding
    # errors. It converges to 2e-17 within 30 + 100/x terms for x >= 1/2 and any n, and
    # within 50 terms for n >= 20 and any x (fewer as n grows).
    u = 0.0
    for k in range(int(30.0 + 100.0 / x) if x >= 0.5 else 50, 0, -1):
        u = k / (x + (p + k) / (1.0 + u))
    return math.exp(-x) * ((1.0 + u) / (x * (1.0 + u) + p))


@jit
def expn(n, x):
    """Generalized exponential integral E_n(x) = int_1^inf exp(-x t) / t**n dt; a
    non-integer n is truncated toward 0, as by SciPy's cast."""
    if x != x or n != n or n == INF or n == -INF:
        return NAN
    p = np.trunc(n)
    if p < 0.0 or x < 0.0:
        return NAN
    return _expn(abs(p), x)   # abs: -0.0 from -1 < n < 0 is degree 0
