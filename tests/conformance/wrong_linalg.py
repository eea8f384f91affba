"""A deliberately wrong stand-in for numpy.linalg: the conformance runner must catch it.

Everything is NumPy's own (imported before the runner patches numpy.linalg), except that
``det`` is off by one and ``inv`` returns its input.
"""
import numpy as np
from numpy.linalg import *  # noqa: F403
from numpy.linalg import __all__  # noqa: F401
from numpy.linalg import det as _numpy_det


def det(a):
    return _numpy_det(a) + 1


def inv(a):
    return np.asarray(a)
