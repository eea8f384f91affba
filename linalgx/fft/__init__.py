"""linalgx.fft (in progress)."""
