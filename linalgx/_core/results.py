"""Result containers: NumPy's own named tuples, plus the ones for linalgx's extra functions.

NumPy's classes are re-exported (not redefined) so ``isinstance(r, numpy.linalg._linalg.EigResult)``
holds for linalgx's results too. The extras follow torch.linalg's field names.
"""
from typing import Any, NamedTuple

from numpy.linalg._linalg import (  # noqa: F401  (re-exported)
    EighResult,
    EigResult,
    QRResult,
    SlogdetResult,
    SVDResult,
)

__all__ = ["EigResult", "EighResult", "QRResult", "SlogdetResult", "SVDResult",
           "InvExResult", "SolveExResult", "CholeskyExResult", "LUResult", "LUFactorResult",
           "LDLFactorResult", "LUFactorExResult", "LDLFactorExResult"]


class InvExResult(NamedTuple):
    inverse: Any
    info: Any


class SolveExResult(NamedTuple):
    result: Any
    info: Any


class CholeskyExResult(NamedTuple):
    L: Any
    info: Any


class LUResult(NamedTuple):
    P: Any
    L: Any
    U: Any


class LUFactorResult(NamedTuple):
    LU: Any
    pivots: Any


class LDLFactorResult(NamedTuple):
    LD: Any
    pivots: Any


class LUFactorExResult(NamedTuple):
    LU: Any
    pivots: Any
    info: Any


class LDLFactorExResult(NamedTuple):
    LD: Any
    pivots: Any
    info: Any
