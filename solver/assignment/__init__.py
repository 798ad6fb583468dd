"""What the assignment sheets ask students to build beside the solver: beam search (``beam``), the
command sheet's shell (``shell``, with its board notation in ``states`` and its goal in ``goals``), the
experiments (``experiment`` measures, ``experiment_report`` makes the tables and figure), the two games'
pictures (``picture``, and the default one it ships, ``default-picture.png``), the desktop game (the
``desktop`` package, Tk) and the browser game (``web``, which inlines the page's parts from ``web/``).

May import the solver core (board, formats, errors, fileio, :mod:`solver.solve`, :mod:`solver.api`)
and :mod:`solver.search`; nothing imports it but the CLI.
"""
