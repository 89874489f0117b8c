"""Benchmarks: commands that print figures and ratios (not timed tests)."""
