"""linalgx.special (in progress)."""
