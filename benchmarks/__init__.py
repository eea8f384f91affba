"""Benchmarks: ``python -m benchmarks`` (side-by-side table) and ``python -m benchmarks.tune``
(the numba/LAPACK routing tuner that writes ``linalgx/_core/_routing_table.py``)."""
