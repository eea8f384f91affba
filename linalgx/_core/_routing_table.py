# Placeholder thresholds until `make tune` measures this machine: numba serves stacks of at
# least MIN_BATCH[op][n] matrices of size n. Regenerate with `make tune`.
COLD_MIN_BATCH = 2048
MIN_BATCH = {}
