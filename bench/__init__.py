"""Benchmarks of the pure core, run as modules (``python -m bench.fold``); shell code, never imported by events/."""
