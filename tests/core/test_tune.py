"""benchmarks.tune's threshold rule: a size goes to numba only on a steady win."""
from benchmarks import tune


def test_min_batches_needs_the_largest_batches_and_a_clear_median_win():
    results = {"inv": {
        3: {16: (2.0, 1.0), 64: (0.80, 1.0), 256: (0.95, 1.0), 1024: (0.85, 1.0)},
        4: {256: (0.5, 1.0), 1024: (1.1, 1.0)},       # loses at the largest batch
        5: {256: (0.5, 1.0), 1024: (0.99, 1.0)},      # modest at the top, clear below
        6: {256: (0.95, 1.0), 1024: (0.97, 1.0)},     # faster, but within the noise
        7: {1024: (0.5, 1.0)},                        # one measured batch is enough
        8: {16: (0.5, 1.0), 64: (0.5, 1.0), 256: (2.0, 1.0), 1024: (0.5, 1.0)},
    }}
    assert tune.min_batches(results) == {"inv": {3: 64, 5: 256, 7: 1024}}
