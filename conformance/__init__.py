"""The NumPy conformance runner (installed as linalgx.conformance)."""
