"""Every NumPy-named function of linalgx.linalg has numpy.linalg's exact signature."""
import inspect

import numpy as np
import pytest

import linalgx.linalg as LA

NAMES = [name for name in np.linalg.__all__ if name != "LinAlgError"]


@pytest.mark.parametrize("name", NAMES)
def test_signature_equals_numpy(name):
    ours = getattr(LA, name, None)
    assert ours is not None, f"linalgx.linalg.{name} is missing"
    assert inspect.signature(ours) == inspect.signature(getattr(np.linalg, name))
