"""The IDA* kernels' contract: the statuses a search call returns and the deepest bound it allows.

Shared by the numba kernel (:mod:`solver.search.kernel`), the native 4×4 kernel
(:mod:`solver.search.native`) and their callers; plain constants, so that importing them
costs nothing (no numpy, no numba).
"""

FOUND, LIMIT, TOO_DEEP, NOT_FOUND, FULL = 0, 1, 2, 3, 4
MAX_DEPTH = 1000
"""Deepest bound the kernels' fixed stacks allow; far beyond any board they could finish."""
NO_LIMIT = 2**63 - 1
"""The node limit meaning "none" (the largest int64)."""
