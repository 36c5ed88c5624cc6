"""Benchmarks that print tables; `python -m bench` runs them all."""
