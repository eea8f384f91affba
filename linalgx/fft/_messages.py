"""NumPy's fft messages, in one place (``numpy/fft/_pocketfft.py`` and the pocketfft ufuncs).

User code matches on these texts, so they are NumPy's, character for character; note the
missing space after ``"backward",`` in the forward-direction norm message, as in NumPy.
"""

MESSAGES = {
    "npts": "Invalid number of FFT data points ({n}) specified.",
    "norm": 'Invalid norm value {norm}; should be "backward","ortho" or "forward".',
    "norm_inverse": 'Invalid norm value {norm}; should be "backward", "ortho" or "forward".',
    # NumPy raises a bare IndexError here; linalgx an AxisError (a subclass of IndexError
    # and ValueError) with NumPy's text first, as contract.md recommends
    "axis": "{numpy} (axis {axis} is out of bounds for array of dimension {ndim})",
    "axes": "{numpy} (axes {axes} for an array of dimension {ndim})",
    "s_axes": "Shape and axes have different lengths.",
    "n_int": "an integer is required",
    "ufunc_types": ("ufunc '{name}' not supported for the input types, and the inputs could not "
                    "be safely coerced to any supported types according to the casting rule "
                    "''safe''"),
    "out_shape": "output array has wrong shape.",
    "out_broadcast": ("operands could not be broadcast together with remapped shapes (input "
                      "{shape} transformed along axis {axis} into out of shape {oshape})"),
    "out_type": "return arrays must be of ArrayType",
    "out_tuple": "The 'out' tuple must have exactly one entry per ufunc output",
    "out_readonly": "output array is read-only",
    "out_cast": ("Cannot cast ufunc '{name}' output from {src!r} to {dst!r} with casting rule "
                 "'same_kind'"),
    "out_traced": ("linalgx.fft: out= cannot be used inside differentiated code (the result "
                   "would lose its derivative)"),
    "s_without_axes": (
        "`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). In a "
        "future version of NumPy, this will raise an error and `s[i]` will correspond to the "
        "size along the transformed axis specified by `axes[i]`. To retain current behaviour, "
        "pass a sequence [0, ..., k-1] to `axes` for an array of dimension k."),
    "s_none": (
        "Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 and will "
        "raise an error in a future version of NumPy. To use the default behaviour of the "
        "corresponding 1-D transform, pass the value matching the default for its `n` "
        "parameter. To use the default behaviour for every axis, the `s` argument can be "
        "omitted."),
    "fftfreq_n": "n should be an integer",
    "workers": "workers must be a non-zero integer >= -{cpus} or None; got {value!r}",
}
