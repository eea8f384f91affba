"""Every public function's errors name it (the contract: NumPy's exception class, NumPy's
text first, then the function), including errors raised by the helper it calls (an ``inv``
inside ``matrix_power``) and NumPy's own ``AxisError``."""
import pickle
import re

import numpy as np
import pytest
import scipy.special as sc

import linalgx.fft as F
import linalgx.linalg as LA
import linalgx.special as S

_SING = np.stack([np.eye(2), np.zeros((2, 2))])
_NAN = np.array([[np.nan, 1.0], [1.0, 1.0]])

# (name, linalgx call, reference call or None: the same class as the reference's error and
# its text first)
CASES = [
    ("inv", lambda: LA.inv(np.ones((2, 3))), lambda: np.linalg.inv(np.ones((2, 3)))),
    ("det", lambda: LA.det(np.ones(3)), lambda: np.linalg.det(np.ones(3))),
    ("norm", lambda: LA.norm(np.ones((2, 2)), ord="bogus"),
     lambda: np.linalg.norm(np.ones((2, 2)), ord="bogus")),
    ("norm", lambda: LA.norm(np.ones(3), axis=3), lambda: np.linalg.norm(np.ones(3), axis=3)),
    ("matrix_norm", lambda: LA.matrix_norm(np.ones(3)), lambda: np.linalg.matrix_norm(np.ones(3))),
    ("eigh", lambda: LA.eigh(np.eye(2), UPLO="X"), lambda: np.linalg.eigh(np.eye(2), UPLO="X")),
    ("inv", lambda: LA.inv(np.ones((2, 2), np.float16)),
     lambda: np.linalg.inv(np.ones((2, 2), np.float16))),
    ("eig", lambda: LA.eig(_NAN * np.inf), lambda: np.linalg.eig(_NAN * np.inf)),
    ("qr", lambda: LA.qr(np.eye(2), mode="bogus"), lambda: np.linalg.qr(np.eye(2), mode="bogus")),
    ("multi_dot", lambda: LA.multi_dot([np.ones(2)]), lambda: np.linalg.multi_dot([np.ones(2)])),
    ("matrix_power", lambda: LA.matrix_power(np.eye(2), 2.0),
     lambda: np.linalg.matrix_power(np.eye(2), 2.0)),
    ("matrix_power", lambda: LA.matrix_power(_SING, -1), lambda: np.linalg.matrix_power(_SING, -1)),
    ("tensorinv", lambda: LA.tensorinv(np.zeros((2, 2, 4))),
     lambda: np.linalg.tensorinv(np.zeros((2, 2, 4)))),
    ("svdvals", lambda: LA.svdvals(_NAN), lambda: np.linalg.svdvals(_NAN)),
    ("pinv", lambda: LA.pinv(_NAN), lambda: np.linalg.pinv(_NAN)),
    ("cond", lambda: LA.cond(np.zeros((0, 0))), lambda: np.linalg.cond(np.zeros((0, 0)))),
    ("lu_factor", lambda: LA.lu_factor(np.ones(3)), None),
    ("solve_triangular", lambda: LA.solve_triangular(np.ones((2, 3)), np.ones((2, 1)), upper=True),
     None),
    ("fft", lambda: F.fft(np.ones(3), n=0), lambda: np.fft.fft(np.ones(3), n=0)),
    ("fft", lambda: F.fft(np.ones(3), norm="bogus"), lambda: np.fft.fft(np.ones(3), norm="bogus")),
    ("fftn", lambda: F.fftn(np.ones((2, 2)), s=(1,), axes=(0, 1)),
     lambda: np.fft.fftn(np.ones((2, 2)), s=(1,), axes=(0, 1))),
    ("fftfreq", lambda: F.fftfreq(0), lambda: np.fft.fftfreq(0)),
    ("hfft2", lambda: F.hfft2(np.ones(3)), None),
    ("jv", lambda: S.jv(np.ones(2), np.ones(3)), lambda: sc.jv(np.ones(2), np.ones(3))),
    ("gamma", lambda: S.gamma("a"), lambda: sc.gamma("a")),
]


@pytest.mark.parametrize("case", range(len(CASES)), ids=lambda i: f"{i}-{CASES[i][0]}")
def test_errors_name_the_function_called(case):
    name, call, reference = CASES[case]
    with pytest.raises(Exception) as got:
        call()
    text = str(got.value)
    assert re.search(rf"(^|[\s(']){name}([:)']|\b)", text), text
    if reference is not None:
        with pytest.raises(Exception) as want:
            reference()
        public = next(c for c in type(want.value).__mro__
                      if c.__module__ in ("builtins", "numpy.exceptions", "numpy.linalg"))
        assert isinstance(got.value, public)
        assert text.startswith(str(want.value).rstrip()), (text, str(want.value))


def test_an_internal_functions_name_is_replaced_not_added():
    with pytest.raises(np.linalg.LinAlgError) as e:
        LA.matrix_power(_SING, -1)
    assert str(e.value) == "Singular matrix (matrix_power: batch element (1,) of batch shape (2,))"
    assert e.value.batch_index == (1,)


def test_eig_non_finite_check_names_the_element():
    a = np.stack([np.eye(2), [[1.0, np.inf], [0.0, 1.0]]])
    for fn, name in ((LA.eig, "eig"), (LA.eigvals, "eigvals")):
        with pytest.raises(np.linalg.LinAlgError) as e:
            fn(a)
        assert str(e.value) == (f"Array must not contain infs or NaNs ({name}: batch element "
                                "(1,) of batch shape (2,))")


def test_axis_error_keeps_numpys_fields_and_pickles():
    with pytest.raises(np.exceptions.AxisError) as e:
        LA.norm(np.ones(3), axis=3)
    assert isinstance(e.value, IndexError) and (e.value.axis, e.value.ndim) == (3, 1)
    assert str(e.value) == "axis 3 is out of bounds for array of dimension 1 (norm)"
    again = pickle.loads(pickle.dumps(e.value))
    assert str(again) == str(e.value) and again.axis == 3


@pytest.mark.parametrize("name", ["svdvals", "svd", "matrix_rank", "lstsq"])
def test_huge_svd_family_input_raises_before_lapack_prints(name, capfd):
    """NumPy's gesdd/gelsd gufuncs print 'init_gesdd failed init' to stdout before their bare
    MemoryError; linalgx checks one matrix's size first and names the function."""
    big = np.broadcast_to(1.0, (10**6, 10**6))
    call = {"svdvals": lambda: LA.svdvals(big), "svd": lambda: LA.svd(big, compute_uv=False),
            "matrix_rank": lambda: LA.matrix_rank(big),
            "lstsq": lambda: LA.lstsq(big, np.ones(10**6))}[name]
    with pytest.raises(MemoryError, match=rf"\({name}\)$"):
        call()
    out, err = capfd.readouterr()
    assert "failed init" not in out + err
