from ._inv import inv, inv_ex, tensorinv  # noqa
