"""Additive pattern databases: the tables, how they are built, cached and laid out, and the views
through which the 4×4 heuristic reads them.

Owns :mod:`~solver.search.pdb.database` (loading, caching, assembling the heuristic),
:mod:`~solver.search.pdb.layout` (partitions, table sizes, index layouts),
:mod:`~solver.search.pdb.views` (the symmetric views a table may be read through),
:mod:`~solver.search.pdb.build` (the numba builder) and :mod:`~solver.search.pdb.index` (the
numba kernel's entry reading), and the shipped 4×4 tables (``tables/``). May import the solver
core and the search modules they serve (:mod:`solver.search.heuristic`,
:mod:`solver.search.tablecache`, and :mod:`solver.search.native` or
:mod:`solver.search.parallel` inside the functions that build with them); the native kernel and
the numba kernel import it, never the other way round at import time.
"""
