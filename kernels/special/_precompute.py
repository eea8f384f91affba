"""Generate ``_tables.py``: the constant tables of the special-function kernels.

Run ``python -m linalgx.kernels.special._precompute`` (needs mpmath) to rewrite the tables.
Nothing imports this module at run time.

Tables
------
ERFCX_Y100
    Piecewise polynomials for erfcx on [0, 50), in S. G. Johnson's parametrisation
    (Faddeeva package, MIT): ``y100 = 400 / (4 + x)`` is split into 100 unit intervals, and
    on interval ``i`` erfcx is a polynomial in ``t = 2*y100 - (2*i + 1)``, ``t`` in [-1, 1].
    The coefficients here are our own Chebyshev interpolants (degree 9) computed with mpmath
    at 60 digits, converted to the monomial basis in ``t``.
IGAM_D
    Temme's coefficients d[k][n] for the uniform asymptotic expansion of the incomplete
    gamma functions (DLMF 8.12.8-8.12.12; N. M. Temme, "The asymptotic expansion of the
    incomplete gamma functions", SIAM J. Math. Anal. 10 (1979)), computed as in SciPy's
    ``scipy/special/_precompute/gammainc_asy.py``: the coefficients alpha_n of the inverse
    of eta(lambda) (DLMF 8.12.13) by series reversion, and the Stirling coefficients g_k of
    DLMF 5.11.3/5.11.6.
"""
import os

import mpmath as mp

K_IGAM = 25
N_IGAM = 25
ERFCX_DEGREE = 9


# -- power series helpers (lists of mpf, index = power) ----------------------------------
def _mul(a, b, n):
    out = [mp.mpf(0)] * n
    for i, ai in enumerate(a[:n]):
        if ai:
            for j, bj in enumerate(b[: n - i]):
                out[i + j] += ai * bj
    return out


def _inv(a, n):
    # 1 / a(x) for a[0] != 0
    out = [mp.mpf(0)] * n
    out[0] = 1 / a[0]
    for k in range(1, n):
        s = mp.mpf(0)
        for j in range(1, min(k, len(a) - 1) + 1):
            s += a[j] * out[k - j]
        out[k] = -s / a[0]
    return out


def _sqrt(a, n):
    # sqrt(a(x)) for a[0] > 0
    out = [mp.mpf(0)] * n
    out[0] = mp.sqrt(a[0])
    for k in range(1, n):
        s = a[k] if k < len(a) else mp.mpf(0)
        for j in range(1, k):
            s -= out[j] * out[k - j]
        out[k] = s / (2 * out[0])
    return out


def _eta_series(n):
    # eta(lam) = sign(lam) sqrt(2 (lam - log(1 + lam))) = lam * sqrt(S(lam)) with
    # S = 2 (lam - log(1+lam)) / lam^2 = sum_k 2 (-1)^k lam^k / (k + 2)
    s = [2 * mp.mpf(-1) ** k / (k + 2) for k in range(n)]
    root = _sqrt(s, n)
    return [mp.mpf(0)] + root[: n - 1]


def _reversion(a, n):
    # Lagrange inversion: b_k = [x^(k-1)] (x / f(x))^k / k, f = sum a_i x^i, a_0 = 0
    h = _inv(a[1:], n)  # x / f(x)
    b = [mp.mpf(0)]
    hp = [mp.mpf(1)] + [mp.mpf(0)] * (n - 1)
    for k in range(1, n):
        hp = _mul(hp, h, n)
        b.append(hp[k - 1] / k)
    return b


def _stirling_g(n):
    a = [mp.sqrt(2) / 2]
    for k in range(1, 2 * n):
        ak = a[-1] / k
        for j in range(1, len(a)):
            ak -= a[j] * a[-j] / (j + 1)
        ak /= a[0] * (1 + mp.mpf(1) / (k + 1))
        a.append(ak)
    return [mp.sqrt(2) * mp.rf(mp.mpf(1) / 2, k) * a[2 * k] for k in range(n)]


def igam_coefficients(K=K_IGAM, N=N_IGAM):
    mp.mp.dps = 120
    M = N + 2 * K
    alpha = _reversion(_eta_series(M + 3), M + 3)
    d0 = [-mp.mpf(1) / 3] + [(n + 2) * alpha[n + 2] for n in range(1, M)]
    d = [d0]
    g = _stirling_g(K)
    for k in range(1, K):
        d.append([(-1) ** k * g[k] * d[0][n] + (n + 2) * d[k - 1][n + 2]
                  for n in range(M - 2 * k)])
    return [[float(v) for v in row[:N]] for row in d]


def erfcx_pieces(degree=ERFCX_DEGREE):
    mp.mp.dps = 60
    rows = []
    nodes = [mp.cos(mp.pi * (j + mp.mpf(1) / 2) / (degree + 1)) for j in range(degree + 1)]
    for i in range(100):
        vals = []
        for t in nodes:
            y100 = (t + 2 * i + 1) / 2
            x = 400 / y100 - 4
            vals.append(mp.erfc(x) * mp.exp(x * x) if x >= 0 else mp.mpf(0))
        # Chebyshev coefficients, then monomial coefficients in t
        cheb = []
        for k in range(degree + 1):
            s = sum(v * mp.cos(k * mp.pi * (j + mp.mpf(1) / 2) / (degree + 1))
                    for j, v in enumerate(vals))
            cheb.append(s * (1 if k == 0 else 2) / (degree + 1))
        cheb_t = [[mp.mpf(1)], [mp.mpf(0), mp.mpf(1)]]
        for k in range(2, degree + 1):
            nxt = [mp.mpf(0)] + [2 * v for v in cheb_t[k - 1]]
            for j, v in enumerate(cheb_t[k - 2]):
                nxt[j] -= v
            cheb_t.append(nxt)
        mono = [mp.mpf(0)] * (degree + 1)
        for c, poly in zip(cheb, cheb_t):
            for j, v in enumerate(poly):
                mono[j] += c * v
        rows.append([float(v) for v in mono])
    return rows


def _row(values, per_line=3):
    items = [repr(v) for v in values]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "    [" + ",\n     ".join(lines) + "],\n"


def main():
    d = igam_coefficients()
    e = erfcx_pieces()
    path = os.path.join(os.path.dirname(__file__), "_tables.py")
    with open(path, "w") as f:
        f.write('"""Generated by _precompute.py (mpmath); do not edit."""\n')
        f.write("import numpy as np\n\n")
        f.write(f"# Temme's d[k][n] (DLMF 8.12), k < {K_IGAM}, n < {N_IGAM}\n")
        f.write("IGAM_D = np.array([\n")
        for row in d:
            f.write(_row(row))
        f.write("])\n\n")
        f.write("# erfcx on y100 = 400/(4+x) in [i, i+1): sum_k c[i][k] t**k, "
                "t = 2*y100 - (2i+1); lowest power first\n")
        f.write("ERFCX_Y100 = np.array([\n")
        for row in e:
            f.write(_row(row))
        f.write("])\n")


if __name__ == "__main__":
    main()
