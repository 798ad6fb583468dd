"""The desktop game (Tk): ``gui`` the command, ``gui_app`` the window, ``gui_board_view`` its canvas, ``gui_jobs``
its buttons' actions, ``gui_search_view`` the A* step-through, ``gui_pieces`` the picture as Tk images,
``gui_root`` the Tk roots (their interpreters deleted in their own thread only); Tk-free:
``gui_model`` the rules, ``gui_solver`` the background search, ``gui_stepper`` A* one expansion at a time,
``gui_boards`` Shuffle's boards. The pictures are :mod:`solver.assignment.picture`'s, shared with the web game.

May import what :mod:`solver.assignment` may, and its sibling modules.
"""
