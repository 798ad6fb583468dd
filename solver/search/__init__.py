"""Optimal search: A*, the compiled IDA* kernel and its threads, pattern databases, exact tables.

Owns every search algorithm, the tables they read (building, caching, verifying them) and the
:class:`~solver.search.result.SearchResult` they return. May import the solver core below it
(:mod:`solver.board`, :mod:`solver.errors`, :mod:`solver.fileio`), never :mod:`solver.solve`,
:mod:`solver.api`, :mod:`solver.assignment` or the CLIs. The pattern databases are a package of
their own (:mod:`solver.search.pdb`). numba is imported only by the numba kernel and builder
(``kernel``, ``pdb.index``, ``pdb.build``), when a search needs them: the 4×4 pattern-database
search and table builder run natively (``native``: C compiled on first use, numba when there is
no compiler).
"""
