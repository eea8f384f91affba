"""The shared case table: named inputs with tags, reused by parity, backend, autodiff and
benchmark tests (after NumPy's ``LinalgCase`` table)."""
from dataclasses import dataclass, field

import numpy as np

DTYPES = (np.float32, np.float64, np.complex64, np.complex128)


@dataclass(frozen=True)
class Case:
    name: str
    a: np.ndarray
    b: np.ndarray = None
    tags: frozenset = field(default_factory=frozenset)

    def __repr__(self):
        return self.name


def _rand(rng, shape, dtype):
    dtype = np.dtype(dtype)
    x = rng.standard_normal(shape)
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _spd(rng, shape, dtype):
    x = _rand(rng, shape, dtype)
    n = shape[-1]
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n)).astype(dtype)


def _herm(rng, shape, dtype):
    x = _rand(rng, shape, dtype)
    return ((x + np.conj(np.swapaxes(x, -1, -2))) / 2).astype(dtype)


def make_cases(seed=1234):
    rng = np.random.default_rng(seed)
    cases = []
    for dt in DTYPES:
        tag = np.dtype(dt).name
        cplx = {"complex"} if np.dtype(dt).kind == "c" else set()
        for n in (1, 2, 3, 4, 5, 8, 17):
            cases.append(Case(f"square_{n}_{tag}", _rand(rng, (n, n), dt), _rand(rng, (n, 2), dt),
                              frozenset({"square", "nonsingular", tag, *cplx})))
        cases.append(Case(f"stacked_3x3_{tag}", _rand(rng, (7, 3, 3), dt),
                          _rand(rng, (7, 3, 2), dt),
                          frozenset({"square", "stacked", "nonsingular", tag, *cplx})))
        cases.append(Case(f"stacked_4d_{tag}", _rand(rng, (2, 3, 4, 4), dt),
                          _rand(rng, (2, 3, 4, 1), dt),
                          frozenset({"square", "stacked", "nonsingular", tag, *cplx})))
        cases.append(Case(f"spd_{tag}", _spd(rng, (5, 5), dt), _rand(rng, (5, 3), dt),
                          frozenset({"square", "hermitian", "spd", "nonsingular", tag, *cplx})))
        cases.append(Case(f"spd_stacked_{tag}", _spd(rng, (6, 3, 3), dt), None,
                          frozenset({"square", "hermitian", "spd", "stacked", "nonsingular", tag,
                                     *cplx})))
        cases.append(Case(f"herm_{tag}", _herm(rng, (6, 6), dt), None,
                          frozenset({"square", "hermitian", tag, *cplx})))
        cases.append(Case(f"tall_{tag}", _rand(rng, (6, 3), dt), _rand(rng, (6, 2), dt),
                          frozenset({"nonsquare", tag, *cplx})))
        cases.append(Case(f"wide_{tag}", _rand(rng, (3, 6), dt), _rand(rng, (3, 2), dt),
                          frozenset({"nonsquare", tag, *cplx})))
        cases.append(Case(f"wide_stacked_{tag}", _rand(rng, (4, 2, 5), dt), None,
                          frozenset({"nonsquare", "stacked", tag, *cplx})))
    base = _rand(rng, (6, 6), np.float64)
    cases += [
        Case("fortran", np.asfortranarray(base), None,
             frozenset({"square", "nonsingular", "strided", "float64"})),
        Case("negstride", base[::-1, ::-1], None,
             frozenset({"square", "nonsingular", "strided", "float64"})),
        Case("noncontig", _rand(rng, (8, 8), np.float64)[::2, ::2], None,
             frozenset({"square", "nonsingular", "strided", "float64"})),
        Case("bigendian", base.astype(">f8"), None,
             frozenset({"square", "nonsingular", "float64"})),
        Case("readonly", _readonly(base), None, frozenset({"square", "nonsingular", "float64"})),
        Case("int", np.array([[2, 1], [1, 3]]), np.array([[1], [2]]),
             frozenset({"square", "nonsingular", "int"})),
        Case("empty_0x0", np.zeros((0, 0)), None, frozenset({"square", "empty", "float64"})),
        Case("empty_batch", np.zeros((0, 3, 3)), None,
             frozenset({"square", "empty", "stacked", "float64"})),
        Case("singular", np.array([[1.0, 2.0], [2.0, 4.0]]), np.array([[1.0], [2.0]]),
             frozenset({"square", "singular", "float64"})),
    ]
    cases += _more_nonsquare(np.random.default_rng(seed + 1))
    return cases


def _more_nonsquare(rng):
    """Stacked tall matrices, rank-deficient and empty rectangular ones (own generator, so
    the cases above keep their values)."""
    out = []
    for dt in DTYPES:
        tag = np.dtype(dt).name
        cplx = {"complex"} if np.dtype(dt).kind == "c" else set()
        out.append(Case(f"tall_stacked_{tag}", _rand(rng, (3, 5, 2), dt), _rand(rng, (3, 5, 2), dt),
                        frozenset({"nonsquare", "stacked", tag, *cplx})))
    low = _rand(rng, (6, 2), np.float64) @ _rand(rng, (2, 4), np.float64)
    out += [
        Case("rankdef_6x4", low, _rand(rng, (6, 2), np.float64),
             frozenset({"nonsquare", "rankdef", "float64"})),
        Case("empty_3x0", np.zeros((3, 0)), np.zeros((3, 2)),
             frozenset({"nonsquare", "empty", "float64"})),
        Case("empty_0x3", np.zeros((0, 3)), np.zeros((0, 2)),
             frozenset({"nonsquare", "empty", "float64"})),
    ]
    return out


def _readonly(x):
    x = x.copy()
    x.flags.writeable = False
    return x


CASES = make_cases()


def cases(*require, exclude=()):
    """The cases carrying every tag in ``require`` and none in ``exclude``."""
    return [c for c in CASES if set(require) <= c.tags and not (set(exclude) & c.tags)]
