"""Numba kernels: pure numeric code, installed as linalgx.kernels. Imports nothing from linalgx."""
