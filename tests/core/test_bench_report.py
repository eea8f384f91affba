from benchmarks.report import BenchReport


def test_bench_report_renders_tables_as_html():
    text = "# Bench\n\nnote\n\n| op | numpy | linalgx |\n|---|---|---|\n| inv | 1 ms | 0.1 ms |\n"
    r = BenchReport(text)
    h = r._repr_html_()
    assert "<table>" in h and "<th>numpy</th>" in h and "<td>0.1 ms</td>" in h
    assert "<h1>Bench</h1>" in h and repr(r) == text


def test_inner_count_does_not_calibrate_on_a_slow_first_call():
    """A first call that loads a kernel (tens of ms) must not make every sample one call."""
    import time

    from benchmarks import _timing

    calls = []

    def fn():
        if not calls:
            time.sleep(0.05)
        calls.append(1)

    count, per_call = _timing.inner_count(fn, 0.002)
    assert count > 100 and per_call < 1e-3
