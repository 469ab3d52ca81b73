"""Performance benchmarks of the referee (run ``python -m benchmarks.run``)."""
