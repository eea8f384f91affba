"""benchmarks.tune's threshold rule: a size goes to numba only on a steady win."""
import pytest

from benchmarks import tune


def test_min_batches_needs_the_largest_batches_and_a_clear_median_win():
    results = {"inv": {
        3: {16: (2.0, 1.0), 64: (0.80, 1.0), 256: (0.95, 1.0), 1024: (0.85, 1.0)},
        4: {256: (0.5, 1.0), 1024: (1.1, 1.0)},       # loses at the largest batch
        5: {256: (0.5, 1.0), 1024: (0.99, 1.0)},      # modest at the top, clear below
        6: {256: (0.95, 1.0), 1024: (0.97, 1.0)},     # faster, but within the noise
        7: {1024: (0.5, 1.0)},                        # one measured batch is enough
        8: {16: (0.5, 1.0), 64: (0.5, 1.0), 256: (2.0, 1.0), 1024: (0.5, 1.0)},
        # a tie at mid-size batches, a clear win once threaded: numba from where it is clear
        9: {256: (0.97, 1.0), 1024: (0.95, 1.0), 4096: (0.92, 1.0), 16384: (0.38, 1.0)},
        10: {1024: (0.95, 1.0), 4096: (0.95, 1.0), 16384: (0.95, 1.0)},
        # a bare win at the small end is a tie: numba from the first clear win
        11: {8: (0.99, 1.0), 16: (0.97, 1.0), 32: (0.8, 1.0), 1024: (0.5, 1.0)},
    }}
    assert tune.min_batches(results) == {"inv": {3: 64, 5: 256, 7: 1024, 9: 4096, 11: 32}}
    # a single matrix stays on LAPACK even where numba won from batch 1
    assert tune.min_batches({"det": {3: {1: (0.5, 1.0), 2: (0.5, 1.0)}}}) == {"det": {3: 2}}


def test_driver_choice_is_per_size_range():
    from benchmarks import drivers

    lo = drivers.DRIVER_MIN_N
    results = {
        # NumPy's at 1000 (a 1% win is noise), getrf from the size where it wins clearly
        "det": {1000: {"numpy": 1.0, "scipy_getrf": 0.99},
                2000: {"numpy": 1.0, "scipy_getrf": 0.80},
                3000: {"numpy": 1.0, "scipy_getrf": 0.80}},
        # the fastest SciPy driver wins at each size; back to NumPy's at the largest
        "eigh": {1000: {"numpy": 1.0, "scipy_syevd": 0.9, "scipy_syevr": 0.8},
                 2000: {"numpy": 1.0, "scipy_syevd": 0.9, "scipy_syevr": 0.95},
                 3000: {"numpy": 1.0, "scipy_syevd": 1.1, "scipy_syevr": 1.1}},
        # a tie keeps the smaller size's choice while that stays within the margin
        "eigvalsh": {1000: {"numpy": 1.0, "scipy_syevr": 0.8},
                     2000: {"numpy": 1.0, "scipy_syevr": 1.01},
                     3000: {"numpy": 1.0, "scipy_syevr": 0.97}},
        "solve": {1000: {"numpy": 1.0, "scipy_gesv": 0.97},   # a tie at the first size
                  3000: {"numpy": 1.0, "scipy_gesv": 0.97}},  # stays with NumPy's
        "svd": {1000: {"numpy": 1.0, "scipy_gesdd": 1.2},
                3000: {"numpy": 1.0, "scipy_gesdd": 0.96}},
        "cholesky": {1000: {"numpy": 1.0, "scipy_potrf": 0.5},
                     3000: {"numpy": 1.0, "scipy_potrf": 0.5}},
    }
    assert drivers.choose(results) == {
        "det": ((lo, "numpy"), (1414, "scipy_getrf")),
        "eigh": ((lo, "scipy_syevr"), (1414, "scipy_syevd"), (2449, "numpy")),
        "eigvalsh": ((lo, "scipy_syevr"),),
        "cholesky": ((lo, "scipy_potrf"),),
    }


def test_drivers_only_keeps_the_thresholds():
    """--drivers-only rewrites DRIVERS and the timings above it, nothing else."""
    from linalgx._core import _routing_table as table

    old = tune.TABLE.read_text()
    steps = {"det": ((512, "numpy"), (2000, "scipy_getrf"))}
    new = tune.with_drivers(old, steps, {"det": {1000: {"numpy": 0.1, "scipy_getrf": 0.2}}})
    ns = {}
    exec(new, ns)  # noqa: S102  (the generated table is Python source)
    assert ns["DRIVERS"] == steps
    assert ns["MIN_BATCH"] == table.MIN_BATCH and ns["COLD_MIN_BATCH"] == table.COLD_MIN_BATCH
    assert "# det n=1000: numpy 100.0 ms, scipy_getrf 200.0 ms" in new
    assert new.startswith(old[:old.index("DRIVER_MIN_N")].split("# One matrix")[0])


def test_driver_timings_are_each_drivers_fastest_sample(monkeypatch):
    """Noise on a shared machine only adds time: the choice compares fastest samples."""
    from benchmarks import _timing, drivers

    def fake(fns, repeats, target):
        # NumPy's median is the better one, but only because the other driver was interrupted
        samples = {"numpy": [1.0, 1.0, 1.0], "scipy_getrf": [0.7, 1.5, 1.5]}
        return {k: _timing.summarize(samples[k]) for k in fns}, {}

    monkeypatch.setattr(drivers.tm, "interleaved", fake)
    monkeypatch.setattr(drivers, "candidates",
                        lambda n, rng: {"det": {"numpy": None, "scipy_getrf": None}})
    assert drivers.measure(ns=(1000,), ops=("det",)) == {
        "det": {1000: {"numpy": 1.0, "scipy_getrf": 0.7}}}


def _fake_tune(tmp_path, monkeypatch, results):
    """A copy of the committed table to tune into, with ``measure`` answering ``results``;
    returns the copy's path and the list of (ops, dtype) that measure was asked for."""
    out = tmp_path / "table.py"
    out.write_text(tune.TABLE.read_text())
    monkeypatch.setattr(tune, "startup_seconds", lambda: 0.5)
    seen = []

    def fake_measure(ops, ns, batches, repeats, target, budget, progress, dtype):
        seen.append((ops, dtype))
        return results

    monkeypatch.setattr(tune, "measure", fake_measure)
    return out, seen


def test_kinds_keep_the_table_not_measured(tmp_path, monkeypatch):
    """``--kinds complex`` measures the complex128 table and keeps the float64 one (and its
    date) as the file had it; the written module routes real and complex input apart."""
    from linalgx._core import _routing_table as table

    out, seen = _fake_tune(tmp_path, monkeypatch, {"inv": {3: {64: (0.5, 1.0), 256: (0.5, 1.0)}}})
    tune.main(["--kinds", "complex", "--no-drivers", "--output", str(out)])
    ns = tune.current(out)
    assert [dtype for _, dtype in seen] == [tune.np.complex128]
    assert ns["MIN_BATCH_COMPLEX"] == {"inv": {3: 64}}
    assert ns["MIN_BATCH"] == table.MIN_BATCH and ns["DRIVERS"] == table.DRIVERS
    assert ns["TUNED"]["MIN_BATCH"] == table.TUNED["MIN_BATCH"]
    assert ns["COLD_MIN_BATCH"] == table.COLD_MIN_BATCH


def test_ops_keep_the_other_ops_thresholds(tmp_path, monkeypatch):
    """``--ops eigh,svd`` measures those two ops only: their entries are replaced (svd, where
    numba never won, is dropped), every other op's entry, COLD_MIN_BATCH and the drivers
    stay as the file had them, and TUNED dates the partial measurement apart."""
    from linalgx._core import _routing_table as table

    out, seen = _fake_tune(tmp_path, monkeypatch,
                           {"eigh": {3: {4: (0.5, 1.0), 64: (0.5, 1.0)}},
                            "svd": {3: {4: (2.0, 1.0), 64: (2.0, 1.0)}}})
    tune.main(["--ops", "eigh,svd", "--output", str(out)])
    ns = tune.current(out)
    assert [ops for ops, _ in seen] == [("eigh", "svd")] * 2
    for name in ("MIN_BATCH", "MIN_BATCH_COMPLEX"):
        want = {op: t for op, t in getattr(table, name).items() if op not in ("eigh", "svd")}
        assert ns[name] == {**want, "eigh": {3: 4}}
        assert ns["TUNED"][name] == table.TUNED[name]
        assert f"{name}[eigh,svd]" in ns["TUNED"]
    assert ns["DRIVERS"] == table.DRIVERS and ns["COLD_MIN_BATCH"] == table.COLD_MIN_BATCH
    with pytest.raises(SystemExit):
        tune.main(["--ops", "eig", "--output", str(out)])


def test_current_dates_a_table_written_before_tuned_was_recorded(tmp_path):
    old = tmp_path / "old.py"
    old.write_text('"""numpy 2.4.6; float64; date 2026-11-30; tuning took 742 s."""\n'
                   "COLD_MIN_BATCH = 8\nMIN_BATCH = {'det': {2: 16}}\n")
    ns = tune.current(old)
    assert ns["TUNED"] == {"MIN_BATCH": "2026-11-30"}
    assert tune.current(tmp_path / "missing.py") == {}
