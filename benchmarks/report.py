"""A benchmark report for notebooks: ``BenchReport.load()`` reads the markdown the runner
writes (bench-results/latest.md) and renders its tables as HTML (``_repr_html_``)."""
import html
import pathlib

DEFAULT = pathlib.Path(__file__).resolve().parents[1] / "bench-results" / "latest.md"


class BenchReport:
    def __init__(self, text):
        self.text = text

    @classmethod
    def load(cls, path=DEFAULT):
        return cls(pathlib.Path(path).read_text())

    def __repr__(self):
        return self.text

    def _repr_html_(self):
        out, rows = [], []

        def flush():
            if rows:
                head, body = rows[0], [r for r in rows[2:]]
                out.append("<table><thead><tr>" + "".join(f"<th>{html.escape(c)}</th>"
                                                          for c in head) + "</tr></thead><tbody>")
                out.extend("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                           for r in body)
                out.append("</tbody></table>")
                rows.clear()

        for line in self.text.splitlines():
            if line.startswith("|"):
                rows.append([c.strip() for c in line.strip().strip("|").split("|")])
                continue
            flush()
            if line.startswith("#"):
                level = min(len(line) - len(line.lstrip("#")), 6)
                out.append(f"<h{level}>{html.escape(line.lstrip('# '))}</h{level}>")
            elif line.strip():
                out.append(f"<p>{html.escape(line)}</p>")
        flush()
        return "\n".join(out)
