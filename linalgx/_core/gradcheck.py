"""``gradcheck``: both autodiff modes against central finite differences.

For every input element (its real and, for complex inputs, its imaginary direction) the
central difference ``(f(x + h e) - f(x - h e)) / 2h`` is compared with the forward-mode JVP
along ``e``, and, through ``Re<J e, v> = Re<e, J* v>``, with the reverse-mode VJP of every
output basis direction ``v``.
"""
import html

import numpy as np

from .transforms import _flatten, jvp, vjp

__all__ = ["gradcheck", "GradcheckReport", "GradcheckError"]


class GradcheckError(AssertionError):
    """Raised by :func:`gradcheck` when a derivative disagrees with finite differences."""


class GradcheckReport:
    """Per-input errors of both modes. ``bool(report)`` is True when every check passed."""

    def __init__(self, rows, atol, rtol):
        self.rows = rows
        self.atol = atol
        self.rtol = rtol

    @property
    def ok(self):
        return all(r["ok"] for r in self.rows)

    def __bool__(self):
        return self.ok

    def _lines(self):
        head = ("input", "shape", "dtype", "mode", "max abs error", "worst element", "ok")
        body = [(str(r["input"]), str(r["shape"]), r["dtype"], r["mode"],
                 f"{r['error']:.3g}", str(r["worst"]), "yes" if r["ok"] else "NO")
                for r in self.rows]
        return head, body

    def __repr__(self):
        head, body = self._lines()
        widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h)
                  for i, h in enumerate(head)]
        fmt = "  ".join(f"{{:<{w}}}" for w in widths)
        lines = [f"gradcheck: {'passed' if self.ok else 'FAILED'} "
                 f"(atol={self.atol:g}, rtol={self.rtol:g})", fmt.format(*head)]
        lines += [fmt.format(*b) for b in body]
        return "\n".join(lines)

    def _repr_html_(self):
        head, body = self._lines()
        th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
        trs = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in b) + "</tr>"
                      for b in body)
        status = "passed" if self.ok else "<b style='color:#b00'>FAILED</b>"
        return (f"<p>gradcheck: {status} (atol={self.atol:g}, rtol={self.rtol:g})</p>"
                f"<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>")


def _outputs_vector(f, args):
    leaves, _ = _flatten(f(*args))
    parts = []
    for o in leaves:
        o = np.asarray(o)
        parts.append(o.astype(np.complex128).reshape(-1))
    return np.concatenate(parts) if parts else np.zeros(0)


def _directions(x):
    """(flat index, direction array) pairs spanning x's real coordinates."""
    dirs = []
    for j in range(x.size):
        e = np.zeros(x.size, x.dtype)
        e[j] = 1
        dirs.append(((np.unravel_index(j, x.shape), "re"), e.reshape(x.shape)))
        if x.dtype.kind == "c":
            dirs.append(((np.unravel_index(j, x.shape), "im"), (1j * e).reshape(x.shape)))
    return dirs


def gradcheck(f, *inputs, eps=1e-6, atol=1e-5, rtol=1e-3, modes=("fwd", "rev"),
              raise_exception=True):
    """Check ``f``'s forward and reverse derivatives against central finite differences.

    Parameters
    ----------
    f : callable
        Takes arrays, returns an array or a tuple of arrays.
    *inputs : array_like
        The point (float64/complex128 recommended).
    eps : float
        Finite-difference step.
    atol, rtol : float
        Tolerances, relative to the largest finite-difference entry.
    modes : tuple of {"fwd", "rev"}
    raise_exception : bool
        Raise :class:`GradcheckError` naming the worst element on failure.

    Returns
    -------
    GradcheckReport
        With a readable ``repr`` and ``_repr_html_`` for notebooks.

    Examples
    --------
    >>> import numpy as np, linalgx
    >>> bool(linalgx.gradcheck(lambda z: np.exp(z) * np.conj(z), np.array([1 + 2j, 0.5j])))
    True
    """
    inputs = [np.asarray(x, dtype=np.result_type(x, np.float64)) for x in inputs]
    rows = []
    # reverse mode, once for every input: pull back each real coordinate of every output
    # (the real unit directions, then, if an output is complex, the imaginary ones)
    m_out, pulled = _pull_back_output_basis(f, inputs) if "rev" in modes else (0, None)
    for i, x in enumerate(inputs):
        dirs = _directions(x)

        def at(xi, i=i):
            args = list(inputs)
            args[i] = xi
            return args

        fd = np.stack([(_outputs_vector(f, at(x + eps * d)) - _outputs_vector(f, at(x - eps * d)))
                       / (2 * eps) for _, d in dirs]) if dirs else np.zeros((0, 0))
        scale = max(1.0, float(np.abs(fd).max())) if fd.size else 1.0
        tol = atol + rtol * scale
        if "fwd" in modes and dirs:
            basis = np.stack([d for _, d in dirs])
            tangents = [basis if k == i else np.zeros((len(dirs),) + y.shape, y.dtype)
                        for k, y in enumerate(inputs)]
            _, tout = jvp(f, inputs, tangents)
            tl, _ = _flatten(tout)
            ad = np.concatenate([np.asarray(t).astype(np.complex128).reshape(len(dirs), -1)
                                 for t in tl], axis=1)
            rows.append(_row(i, x, "fwd", ad - fd, dirs, tol))
        if pulled is not None and dirs:
            # Re<J d, v> = Re<d, J* v>: direction d = e_j gives Re(g_j), d = 1j e_j gives Im(g_j)
            got = []
            for g in pulled:
                # a rule may return an un-batched zero for an output the input cannot move
                g = np.broadcast_to(np.asarray(g[i]), (m_out,) + x.shape).reshape(m_out, -1)
                got.append(np.stack([g[:, np.ravel_multi_index(idx, x.shape)].real if part == "re"
                                     else g[:, np.ravel_multi_index(idx, x.shape)].imag
                                     for (idx, part), _ in dirs]))
            fd_parts = np.stack([fd.real, fd.imag][:len(got)], axis=0)
            diff = (np.stack(got, axis=0) - fd_parts).transpose(1, 0, 2).reshape(len(dirs), -1)
            rows.append(_row(i, x, "rev", diff, dirs, tol))
    report = GradcheckReport(rows, atol, rtol)
    if raise_exception and not report.ok:
        bad = next(r for r in report.rows if not r["ok"])
        raise GradcheckError(
            f"gradcheck failed for input {bad['input']} in {bad['mode']} mode: max abs error "
            f"{bad['error']:.3g} at element {bad['worst']}\n{report!r}")
    return report


def _pull_back_output_basis(f, inputs):
    """Cotangents of every input for the unit real (and, for complex outputs, imaginary)
    direction of every output element: (m, list with one tuple per part), each entry of
    shape (m, *input shape) where m is the number of output elements."""
    out, pullback = vjp(f, *inputs)
    leaves = [np.asarray(o) for o in _flatten(out)[0]]
    m = sum(o.size for o in leaves)
    pulled = []
    for unit in (1.0, 1j):
        if unit == 1j and not any(np.iscomplexobj(o) for o in leaves):
            break
        cts, off = [], 0
        for o in leaves:
            block = np.zeros((m, o.size), np.complex128 if np.iscomplexobj(o) else np.float64)
            if unit == 1.0 or np.iscomplexobj(o):
                block[off:off + o.size] = np.eye(o.size) * unit
            cts.append(block.reshape((m,) + o.shape))
            off += o.size
        pulled.append(pullback(tuple(cts) if len(cts) > 1 else cts[0]))
    return m, pulled


def _row(i, x, mode, diff, dirs, tol):
    err = np.abs(diff)
    if err.size:
        k = int(np.argmax(err.max(axis=1)))
        worst = (tuple(int(v) for v in dirs[k][0][0]), dirs[k][0][1])
        e = float(err.max())
    else:
        worst, e = None, 0.0
    return {"input": i, "shape": x.shape, "dtype": x.dtype.name, "mode": mode, "error": e,
            "worst": worst, "ok": bool(e <= tol) and np.isfinite(e)}
