"""What the assignment sheets ask students to build beside the solver: beam search, the command shell,
the experiments and the GUI game.

May import the solver core (board, formats, errors, fileio, :mod:`solver.solve`, :mod:`solver.api`)
and :mod:`solver.search`; nothing imports it but the CLI.
"""
