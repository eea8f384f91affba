"""Accuracy of linalgx.special against mpmath: at every sampled point the error must be at
most max(4 ulp, the reference library's error at that point) (SciPy, or NumPy / torch for
the functions SciPy lacks).

The default run samples 500 points per function; ``LINALGX_FULL_ACCURACY=1`` runs the full
20,000 (``python -m benchmarks.special_accuracy`` prints the table).
"""
import os

import numpy as np
import pytest

pytest.importorskip("mpmath")
pytest.importorskip("scipy")

from benchmarks.special_accuracy import cases, measure, violations  # noqa: E402

N = 20000 if os.environ.get("LINALGX_FULL_ACCURACY") == "1" else 500


@pytest.mark.parametrize("name", list(cases()))
def test_accuracy_against_mpmath(name):
    e_ours, e_ref, args = measure(cases()[name], N, seed=0)
    bad = np.flatnonzero(violations(e_ours, e_ref))
    if bad.size:
        i = bad[np.argmax(e_ours[bad])]
        pt = [np.asarray(a).ravel()[i % np.asarray(a).size] for a in args]
        pytest.fail(f"{name}: {bad.size} of {e_ours.size} points over max(4 ulp, reference); "
                    f"worst at {pt}: {e_ours[i]:.3g} ulp vs reference {e_ref[i]:.3g} ulp")
