from benchmarks.report import BenchReport


def test_bench_report_renders_tables_as_html():
    text = "# Bench\n\nnote\n\n| op | numpy | linalgx |\n|---|---|---|\n| inv | 1 ms | 0.1 ms |\n"
    r = BenchReport(text)
    h = r._repr_html_()
    assert "<table>" in h and "<th>numpy</th>" in h and "<td>0.1 ms</td>" in h
    assert "<h1>Bench</h1>" in h and repr(r) == text
