"""``Op``: one named primitive, its per-backend implementations and its two autodiff rules.

Calling an op with plain arrays dispatches to a backend implementation; calling it with an
autodiff :class:`~linalgx._core.box.Box` among the arguments records it for differentiation
(:func:`linalgx._core.autodiff.apply`). Rules have the signatures

- ``jvp(xp, tangents, out, *args, **params) -> tangent_out`` where ``tangents`` holds one
  tangent per positional argument (None for an argument that is not differentiated), and
- ``vjp(xp, g, out, *args, **params) -> tuple`` with one cotangent per positional argument
  (None where it is not needed),

or ``linear=True`` with an ``adjoint(xp, g, *args, **params)``: then the JVP is the op itself
applied to the tangent of the first argument. For ops with several outputs ``out`` and ``g``
are tuples, and a ``g`` entry is None when that output's cotangent is zero. Tangents and
cotangents may carry extra leading axes (a batch of directions); every rule broadcasts over
them, which is what makes a Jacobian one vectorized pass.
"""
from numpy import ndarray

from . import dispatch
from .box import Box
from .dispatch import select
from .routing import _paid_for

_explicit_get = dispatch._explicit.get

__all__ = ["Op"]

_autodiff = None


def _apply(op, args, params):
    global _autodiff
    if _autodiff is None:
        from . import autodiff as _autodiff_module
        _autodiff = _autodiff_module
    return _autodiff.apply(op, args, params)


class Op:
    """A differentiable primitive. See the module docstring for the rule signatures."""

    __slots__ = ("name", "nout", "impls", "route", "jvp_rule", "vjp_rule", "linear",
                 "adjoint_rule", "generic", "nondiff", "square_table", "_lapack", "_auto_numba")

    def __init__(self, name, nout=1, linear=False, nondiff=False):
        self.name = name
        self.nout = nout
        self.impls = {}
        self.route = None
        # a routing.square_router's tables, {dtype: {n: min_batch * n * n} or None}; False:
        # none
        self.square_table = False
        self._lapack = self._auto_numba = None  # impls["lapack"], impls.get("numba") or it
        self.jvp_rule = None
        self.vjp_rule = None
        self.linear = linear
        self.adjoint_rule = None
        self.generic = None
        self.nondiff = nondiff  # e.g. matrix_rank, argmax: outputs carry no derivative

    def __repr__(self):
        return f"<linalgx Op {self.name}>"

    # -- registration -----------------------------------------------------------------
    def impl(self, *backends):
        """Register an implementation for one or more backends (``"any"``: every backend)."""
        def register(fn):
            if backends == ("any",):
                self.generic = fn
            for name in backends:
                self.impls[name] = fn
            self._lapack = self.impls.get("lapack")
            self._auto_numba = self.impls.get("numba") or self._lapack
            return fn
        return register

    def def_route(self, fn):
        """``fn(*args, **params) -> bool``: True where the numba kernel is measured faster."""
        self.route = fn
        self.square_table = getattr(fn, "min_batch", False)
        return fn

    def def_jvp(self, fn):
        self.jvp_rule = fn
        return fn

    def def_vjp(self, fn):
        self.vjp_rule = fn
        return fn

    def def_adjoint(self, fn):
        self.adjoint_rule = fn
        return fn

    # -- calling ----------------------------------------------------------------------
    def __call__(self, *args, **params):
        # This runs on every call of every linalg function: the common case (NumPy arrays,
        # automatic backend) is select()'s automatic branch inlined, with few attribute loads.
        try:
            for a in args:
                if type(a) is not ndarray:
                    return self._call_general(args, params)
            if self.generic is not None:
                return self.generic(*args, **params)
            if _explicit_get() is not None or dispatch._default is not None:
                return self._call_general(args, params)
            impl = self._lapack
            table = self.square_table
            if table is False:  # a general route function, or none
                route = self.route
                if route is not None and route(*args, **params):
                    impl = self._auto_numba
            else:
                impl = self._square_choice(args[0], table)
            # unpacking an empty **params costs a tenth of a microsecond
            return impl(*args, **params) if params else impl(*args)
        except MemoryError as e:
            if str(e):
                raise
            raise _named_memory_error(self, args) from e

    # ``op.call(...)`` is ``op(...)``: a method call skips CPython's slower instance-call slot
    # (about 0.15 us), which matters on the per-call path of small matrices.
    call = __call__

    def call1(self, a, **params):
        """``op(a, **params)`` for one array: `__call__`'s automatic branch without the loop
        over ``*args`` and its repacking, and without ``**params`` where there are none (a
        few tenths of a microsecond of a 3 us call on a batch of ten 2x2 matrices, where
        NumPy's own wrapper is the reference)."""
        try:
            if type(a) is not ndarray or self.generic is not None or _explicit_get() is not None \
                    or dispatch._default is not None:
                return self.__call__(a, **params)
            table = self.square_table
            if table is False:
                route = self.route
                impl = self._auto_numba if route is not None and route(a, **params) \
                    else self._lapack
            else:
                impl = self._square_choice(a, table)
            return impl(a, **params) if params else impl(a)
        except MemoryError as e:
            if str(e):
                raise
            raise _named_memory_error(self, (a,)) from e

    def _square_choice(self, a, tables):
        """routing.square_router's route without its call: the numba impl where the table
        of ``a``'s dtype has an entry for its order n and the batch reaches it (and numba
        has paid for its start-up), else the lapack one."""
        table = tables.get(a.dtype)
        if table is not None:
            n = a.shape[-1]
            min_size = table.get(n)  # the minimum batch times n * n: no division per call
            if min_size is not None and a.size >= min_size and _paid_for(a.size // (n * n)):
                return self._auto_numba
        return self._lapack

    def _call_general(self, args, params):
        for a in args:
            if isinstance(a, Box):
                return _apply(self, args, params)
        if self.generic is not None:
            return self.generic(*args, **params)
        return select(self, args, params)(*args, **params)

    def raw(self, *args, **params):
        """Call the backend implementation; the arguments hold no Box."""
        if self.generic is not None:
            return self.generic(*args, **params)
        return select(self, args, params)(*args, **params)


def _named_memory_error(op, args):
    """A MemoryError with a message, for one raised without: NumPy's linalg gufuncs raise a
    bare ``MemoryError()`` where their LAPACK workspace cannot be allocated."""
    shapes = ", ".join(f"{getattr(a, 'shape', ())} {getattr(a, 'dtype', type(a).__name__)}"
                       for a in args)
    return MemoryError(f"{op.name}: unable to allocate the memory for an input of shape "
                       f"{shapes}")
