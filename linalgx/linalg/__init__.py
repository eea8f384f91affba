from ._inv import inv, inv_ex, tensorinv  # noqa
from ._solve import solve, solve_ex, tensorsolve  # noqa
from ._triangular import solve_triangular  # noqa
from ._lu import lu, lu_factor, lu_solve  # noqa
from ._det import det, slogdet  # noqa
from ._cholesky import cholesky, cholesky_ex  # noqa
from ._ldl import ldl_factor, ldl_solve  # noqa
from ._eig import eig, eigh, eigvals, eigvalsh  # noqa
from ._svd import svd, svdvals  # noqa
from ._pinv import pinv, matrix_rank  # noqa
from ._lstsq import lstsq  # noqa
from ._norms import norm, matrix_norm, vector_norm, cond  # noqa
from ._products import matmul, outer, cross, tensordot, vecdot, multi_dot  # noqa
from ._views import trace, diagonal, matrix_transpose  # noqa
from ._powers import matrix_power, vander  # noqa
from ._matfuncs import matrix_exp  # noqa
from ._qr import householder_product, qr  # noqa
from .._core.errors import LinAlgError  # noqa
