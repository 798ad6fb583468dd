"""What the assignment sheets ask students to build beside the solver: beam search (``beam``), the
command sheet's shell (``shell``, with its board notation in ``states`` and its goal in ``goals``), the
experiments (``experiment`` measures, ``experiment_report`` makes the tables and figure) and the GUI
game (``gui`` the command, ``gui_app`` the Tk window, ``gui_board_view`` its canvas, ``gui_jobs`` its
buttons' actions, ``gui_search_view`` the A* step-through, ``gui_pieces`` the picture as Tk images;
Tk-free: ``gui_model`` the rules, ``gui_solver`` the background search, ``gui_stepper`` A* one
expansion at a time, ``gui_boards`` Shuffle's boards, ``picture`` the pictures and the default one it
ships, ``default-picture.png``) and the browser game (``web``, which inlines the
page's parts from ``web/``).

May import the solver core (board, formats, errors, fileio, :mod:`solver.solve`, :mod:`solver.api`)
and :mod:`solver.search`; nothing imports it but the CLI.
"""
