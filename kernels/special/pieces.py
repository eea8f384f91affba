"""Evaluation of the piecewise-polynomial tables of ``_pieces_tables.py``."""
import math

from .common import jit


@jit
def horner(c, t):
    """sum_i c[i] t**i, lowest power first."""
    n = c.shape[0]
    r = c[n - 1]
    for i in range(n - 2, -1, -1):
        r = r * t + c[i]
    return r


@jit
def piece(table, x):
    """The table's polynomial at 1/2 <= x < 64, at its exact local variable t."""
    m, k = math.frexp(x)            # x = m 2**k, m in [1/2, 1), k in 0..6
    u = (m - 0.5) * 32.0            # exact (Sterbenz), in [0, 16)
    j = int(u)
    t = 2.0 * (u - j) - 1.0         # exact
    return horner(table[16 * k + j], t)
