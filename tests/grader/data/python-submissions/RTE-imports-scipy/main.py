"""A solver that needs SciPy, which the assignment does not provide."""
import scipy.optimize  # noqa: F401

print("never reached")
