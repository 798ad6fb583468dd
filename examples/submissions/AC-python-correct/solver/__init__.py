"""A student's N-puzzle solver, run as `python -m solver`."""
