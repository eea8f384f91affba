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
        if "rev" in modes and dirs:
            out, pullback = vjp(lambda *a: f(*a), *inputs)
            leaves, _ = _flatten(out)
            m = sum(np.size(o) for o in leaves)
            # cotangent basis: every real coordinate of every output
            cols = []
            cts_per_leaf = []
            for o in leaves:
                o = np.asarray(o)
                eye = np.eye(o.size).reshape((o.size,) + o.shape)
                cts_per_leaf.append((o, eye))
            got = []
            for scale_im in (1.0, 1j):
                if scale_im == 1j and not any(np.iscomplexobj(o) for o, _ in cts_per_leaf):
                    break
                cts, off = [], 0
                for o, eye in cts_per_leaf:
                    block = np.zeros((m,) + o.shape, np.complex128 if np.iscomplexobj(o)
                                     else np.float64)
                    if scale_im == 1j and not np.iscomplexobj(o):
                        pass
                    else:
                        block[off:off + o.size] = eye * scale_im
                    cts.append(block)
                    off += o.size
                g = pullback(tuple(cts) if len(cts) > 1 else cts[0])[i]
                g = np.asarray(g).reshape(m, -1)
                # Re<J d, v> = Re<d, J* v>: for direction d = e_j (re) -> Re(g_j); 1j e_j -> Im
                coords = []
                for (idx, part), _ in dirs:
                    j = np.ravel_multi_index(idx, x.shape)
                    coords.append(g[:, j].real if part == "re" else g[:, j].imag)
                got.append((scale_im, np.stack(coords)))
                cols.append(scale_im)
            fd_re = np.stack([fd.real if s == 1.0 else fd.imag for s, _ in got], axis=0)
            ad_re = np.stack([v for _, v in got], axis=0)
            rows.append(_row(i, x, "rev", (ad_re - fd_re).transpose(1, 0, 2).reshape(
                len(dirs), -1), dirs, tol))
    report = GradcheckReport(rows, atol, rtol)
    if raise_exception and not report.ok:
        bad = next(r for r in report.rows if not r["ok"])
        raise GradcheckError(
            f"gradcheck failed for input {bad['input']} in {bad['mode']} mode: max abs error "
            f"{bad['error']:.3g} at element {bad['worst']}\n{report!r}")
    return report


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
