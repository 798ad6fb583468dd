"""The desktop game's window under Xvfb: it solves the hardest 4x4 boards and stays responsive,
Cancel, readable numbers and status, sliding tiles, Undo, Hint, the counters, Shuffle's
difficulty and the A* step-through. Screenshots land in test-artifacts/gui-*.png."""

from __future__ import annotations

import itertools
import statistics
import time
from pathlib import Path

import pytest

from solver.assignment.desktop.gui_board_view import NOT_SOLVABLE_TEXT
from solver.assignment.desktop.gui_model import ERROR, SOLVED
from solver.board import Board, Move
from solver.search.exact import distance
from solver.solve import solve
from tests.solver.assignment.test_gui import (
    press,
    pump,
    screenshot,
    set_board,
)
from tests.support import shared_data

pytestmark = pytest.mark.gui


def start_numbers(app, n: int = 3) -> None:
    app.tiles_var.set("numbers")
    app.size_var.set(str(n))
    assert app.start()
    app.root.focus_force()
    app.canvas.focus_force()
    app.root.update()


def hardest_80() -> list[Board]:
    lines = shared_data("bench", "hardest.txt").read_text().splitlines()
    return [Board.from_tiles([int(t) for t in line.split()[1:]]) for line in lines if line.startswith("80 ")]


def test_the_80_move_positions_are_solved_optimally_while_the_window_stays_responsive(app, display: str) -> None:
    start_numbers(app, 4)
    boards = hardest_80()
    assert len(boards) == 17
    solutions: list = []
    app.on_solution = solutions.append  # what `gui PUZZLE --solve` prints
    for number, board in enumerate(boards):
        set_board(app, " ".join(map(str, board.tiles)))
        app.solve_button.invoke()
        began, turns, progress = time.monotonic(), [], set()
        while app.job is not None:
            tick = time.monotonic()
            app.root.update()
            turns.append(time.monotonic() - tick)
            progress.add(app.status.cget("text"))
            assert time.monotonic() - began < 120, f"board {number} took over 2 minutes"
            time.sleep(0.01)
        assert app.model.animating, (number, app.model.message)
        path = solutions.pop()
        assert len(path) == 81 and path[0] == board and path[-1].is_goal()
        assert all(a.move_to(b) is not None for a, b in itertools.pairwise(path))
        assert app.model.animation[-1].total == 80
        # The window answered all along (the median turn of its event loop is short; the machine may be
        # busy, so not every turn), and the search showed its progress.
        assert statistics.median(turns) < 0.1, sorted(turns)[-5:]
        if number == 0:
            assert any(text.startswith("Searching…") for text in progress), progress
            shot(app, display, "gui-80-moves.png")
        app.model.animation.clear()  # no need to watch all 80 moves: the next board
        app.show_status()


def test_cancel_stops_a_search_and_gives_the_window_back(app, display: str) -> None:
    start_numbers(app, 4)
    set_board(app, "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1")
    app.solve_button.invoke()
    app.root.update()
    assert app.cancel_button.cget("state") == "normal" and app.solve_button.cget("state") == "disabled"
    job = app.job
    app.cancel_button.invoke()
    app.root.update()
    assert app.job is None and app.status.cget("text") == "Cancelled."
    assert app.solve_button.cget("state") == "normal" and app.cancel_button.cget("state") == "disabled"
    job.thread.join(30)
    assert job.done and job.result is None
    assert not app.model.animating and app.model.board == Board.from_tiles(
        [0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1])


def test_a_long_message_wraps_and_is_shown_whole(app, display: str) -> None:
    start_numbers(app, 3)
    set_board(app, "this is not a board at all, it is a sentence that goes on well past forty characters")
    message = app.model.message
    assert app.model.kind == ERROR and len(message) > 80
    assert app.status.cget("text") == message  # the whole message, not a cut
    app.root.update()
    line = app.status.winfo_reqheight()
    set_board(app, "1 2 3 4 5 6 7 0 8")
    assert app.status.winfo_reqheight() < line  # the long one took several lines ...
    set_board(app, "this is not a board at all, it is a sentence that goes on well past forty characters")
    app.root.update()
    window = app.root.winfo_width()
    assert app.status.winfo_width() <= window and app.status.winfo_reqwidth() <= window  # ... inside the window
    shot(app, display, "gui-long-message.png")


def shot(app, display: str, name: str) -> Path:
    """A screenshot once the window has drawn what the test just did (and any tile has stopped sliding)."""
    pump(app, lambda: not app.view.slide_frames, seconds=5)
    app.root.update_idletasks()
    return screenshot(display, name)


def pixels_in(image_path: Path, canvas, box: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
    """The screenshot's pixels inside a canvas box."""
    from PIL import Image

    ox, oy = canvas.winfo_rootx(), canvas.winfo_rooty()
    with Image.open(image_path) as image:
        part = image.convert("RGB").crop((ox + box[0], oy + box[1], ox + box[2], oy + box[3]))
        return [part.getpixel((x, y)) for x in range(part.width) for y in range(part.height)]


def write_plain(path: Path, colour: str) -> None:
    from PIL import Image

    Image.new("RGB", (300, 300), colour).save(path)


@pytest.mark.parametrize("colour", ["white", "black"])
def test_tile_numbers_read_on_any_picture(app, display: str, tmp_path: Path, colour: str) -> None:
    write_plain(tmp_path / "plain.png", colour)
    app.image_var.set(str(tmp_path / "plain.png"))
    app.size_var.set("3")
    assert app.start()
    set_board(app, "1 2 3 4 5 6 7 0 8")
    picture = shot(app, display, f"gui-numbers-on-{colour}.png")
    # Around tile 1's number there is white text and a dark outline, whatever the picture's colour.
    x1, y1, x2, y2 = app.canvas.bbox(app.canvas.find_withtag("number")[0])
    pixels = pixels_in(picture, app.canvas, (x1, y1, x2, y2))
    assert any(min(p) > 230 for p in pixels) and any(max(p) < 40 for p in pixels)


def test_the_not_solvable_band_hides_no_number(app, display: str) -> None:
    start_numbers(app, 3)
    set_board(app, "1 2 3 4 5 6 8 7 0")
    canvas = app.canvas
    [band] = canvas.find_withtag("unsolvable-band")
    [label] = canvas.find_withtag("unsolvable")
    assert canvas.itemcget(label, "text") == NOT_SOLVABLE_TEXT
    bx1, by1, bx2, by2 = canvas.bbox(band)
    for number in canvas.find_withtag("number"):
        x1, y1, x2, y2 = canvas.bbox(number)
        assert y2 <= by1 or y1 >= by2 or x2 <= bx1 or x1 >= bx2, canvas.itemcget(number, "text")
    picture = shot(app, display, "gui-unsolvable-band.png")
    for tile in (4, 5, 6):  # the middle row, which the band used to cover: white numbers, dark outlines
        [number] = [i for i in canvas.find_withtag(f"tile{tile}") if "number" in canvas.gettags(i)]
        x1, y1, x2, y2 = canvas.bbox(number)
        pixels = pixels_in(picture, canvas, (x1, y1, x2, y2))
        assert any(min(p) > 230 for p in pixels) and any(max(p) < 40 for p in pixels), tile


def test_tiles_slide_to_their_new_cell(app, display: str) -> None:
    start_numbers(app, 3)
    set_board(app, "1 2 3 4 0 6 7 5 8")
    app.canvas.focus_force()
    app.root.update()
    home = app.view.tile_origin(5)
    press(display, "Down")  # the blank moves down: tile 5 slides up by one cell
    pump(app, lambda: app.model.moves_made == 1)
    size = app.view.size
    positions = []
    deadline = time.monotonic() + 5
    while app.view.slide_frames and time.monotonic() < deadline:
        positions.append(app.view.tile_origin(5)[1])
        app.root.update()
        time.sleep(0.005)
    app.root.update()
    assert app.view.tile_origin(5) == (home[0], home[1] - size)
    between = [y for y in positions if home[1] - size < y < home[1]]
    assert between and between == sorted(between, reverse=True), positions  # it glided up, step by step


def test_undo_hint_counter_and_timer(app, display: str) -> None:
    start_numbers(app, 3)
    set_board(app, "4 1 3 7 2 6 0 5 8")
    start = app.model.board
    app.hint_button.invoke()
    pump(app, lambda: app.job is None)
    assert app.status.cget("text").startswith("Hint: slide tile ")
    tile = int(app.status.cget("text").split()[3])
    [outline] = [i for i in app.canvas.find_withtag(f"tile{tile}") if app.canvas.type(i) == "rectangle"]
    assert app.canvas.itemcget(outline, "outline") == "#ffd600"  # the hinted tile is marked
    row, col = divmod(start.tiles.index(tile), 3)
    x, y = app.cell_center(row, col)
    app.canvas.event_generate("<Button-1>", x=x, y=y)
    app.root.update()
    assert distance(app.model.board) == distance(start) - 1  # following the hint is an optimal move
    press(display, "Up")
    pump(app, lambda: app.model.moves_made == 2)
    assert app.info.cget("text").startswith("Moves: 2    Time: 0:0")
    app.undo_button.invoke()
    app.root.update()
    assert app.model.moves_made == 1 and app.info.cget("text").startswith("Moves: 1")
    app.canvas.focus_force()
    press(display, "ctrl+z")
    pump(app, lambda: app.model.moves_made == 0)
    assert app.model.board == start and app.undo_button.cget("state") == "disabled"
    shot(app, display, "gui-hint.png")


@pytest.mark.parametrize(("n", "depth"), [(3, 24), (4, 36)])
def test_shuffle_to_an_optimal_depth(app, display: str, n: int, depth: int) -> None:
    start_numbers(app, n)
    app.difficulty_var.set("depth")
    app.depth_var.set(str(depth))
    app.shuffle_button.invoke()
    pump(app, lambda: app.job is None, seconds=120)
    assert solve(app.model.board).moves == depth
    assert app.status.cget("text") == f"Shuffled: {depth} moves from solved at best. Your turn!"
    app.depth_var.set("99")
    app.shuffle_button.invoke()
    app.root.update()
    assert app.model.kind == ERROR and "from 1 to" in app.status.cget("text")


def test_larger_boards_shuffle_with_that_many_random_moves(app, display: str) -> None:
    start_numbers(app, 5)
    app.difficulty_var.set("depth")
    app.depth_var.set("30")
    app.shuffle_button.invoke()
    app.root.update()
    board = app.model.board
    assert board.n == 5 and board.is_solvable() and not board.is_goal() and board.manhattan() <= 30
    assert app.status.cget("text") == "Shuffled with 30 random moves: at most 30 moves from solved."
    app.depth_var.set("1001")
    app.shuffle_button.invoke()
    assert "from 1 to 1000 on 5x5" in app.status.cget("text")


def test_a_random_shuffle_on_4x4_is_far_from_solved(app, display: str) -> None:
    start_numbers(app, 4)
    app.shuffle_button.invoke()
    app.root.update()
    assert app.model.board.is_solvable() and app.model.board.manhattan() > 20  # not a short walk from the goal


def test_the_step_through_view_shows_g_h_f_and_the_counts(app, display: str) -> None:
    start_numbers(app, 3)
    set_board(app, "1 2 3 4 0 6 7 5 8")
    app.steps_button.invoke()
    app.root.update()
    view = app.search_view
    assert view is not None and view.values["g"].cget("text") == "-"
    view.step_button.invoke()
    first = {field: view.values[field].cget("text") for field in view.values}
    assert first == {"g": "0", "h": "2", "f": "2", "frontier": "4", "expanded": "1"}
    view.step_button.invoke()
    second = view.stepper.last
    assert second is not None and view.values["g"].cget("text") == "1"
    assert int(view.values["f"].cget("text")) == 1 + second.board.manhattan()
    while not view.stepper.finished:
        view.many_button.invoke()
    assert view.values["g"].cget("text") == "2" and "optimal solution has 2 moves" in view.note.cget("text")
    shot(app, display, "gui-steps.png")
    view.heuristic_var.set("h1: misplaced tiles")
    view.restart(app.model.board)
    view.step_button.invoke()
    assert view.values["h"].cget("text") == "2"  # tiles 5 and 8 are misplaced
    set_board(app, "1 2 3 4 5 6 0 7 8")  # a new board: the view starts again on it
    assert view.stepper.start == app.model.board and view.values["g"].cget("text") == "-"


def test_a_solved_game_says_so_and_stops_the_timer(app, display: str) -> None:
    start_numbers(app, 3)
    set_board(app, "1 2 3 4 5 6 7 0 8")
    app.canvas.focus_force()
    app.root.update()
    press(display, "Right")
    pump(app, lambda: app.model.kind == SOLVED)
    assert app.status.cget("text") == "Solved in 1 move!"
    assert app.model.stopped is not None and app.model.board == Board.goal(3).apply(Move.LEFT).apply(Move.RIGHT)
