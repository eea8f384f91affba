"""linalgx internals: ops, the backend dispatcher, validation and autodiff."""
