"""The binomial coefficient behind ``comb(N, k, exact=False)``.

A port of xsf's ``binom`` (``xsf/binom.h``; P. Virtanen and E. Moore's Cython original):
the multiplication formula for integer k below 20 (after the symmetry k -> n - k), an
asymptotic form for n >= 1e10 k and for k > 1e8 |n|, and ``1 / ((n + 1) B(n - k + 1,
k + 1))`` otherwise, with Cephes beta/lbeta (:mod:`.gammafn`). C's ``(int)kx`` of a double
beyond int range is taken as x86 does (INT_MIN), as :mod:`.gammafn` does.
"""
import math

import numpy as np

from .common import NAN, gamma, jit
from .gammafn import _int_valued, beta, betaln


@jit
def binom(n, k):
    """The binomial coefficient of real n and k (xsf binom)."""
    if n < 0.0:
        if n == np.floor(n):
            return NAN
    kx = np.floor(k)
    if k == kx and (abs(n) > 1e-8 or n == 0.0):
        # integer k: the multiplication formula, exact where the result is an integer
        nx = np.floor(n)
        if nx == n and kx > nx / 2.0 and nx > 0.0:
            kx = nx - kx
        if kx >= 0.0 and kx < 20.0:
            num = 1.0
            den = 1.0
            for i in range(1, 1 + int(kx)):
                num *= i + n - kx
                den *= i
                if abs(num) > 1e50:
                    num /= den
                    den = 1.0
            return num / den
    if n >= 1e10 * k and k > 0.0:
        return math.exp(-betaln(1.0 + n - k, 1.0 + k) - math.log(n + 1.0))
    if k > 1e8 * abs(n):
        num = gamma(1.0 + n) / abs(k) + gamma(1.0 + n) * n / (2.0 * k * k)
        num /= math.pi * math.pow(abs(k), n)
        if k > 0.0:
            kx = np.floor(k)
            if _int_valued(kx):
                dk = k - kx
                sgn = 1.0 if int(kx) % 2 == 0 else -1.0
            else:
                dk = k
                sgn = 1.0
            return num * math.sin((dk - n) * math.pi) * sgn
        kx = np.floor(k)
        if _int_valued(kx):
            return 0.0
        return num * math.sin(k * math.pi)
    return 1.0 / (n + 1.0) / beta(1.0 + n - k, 1.0 + k)
