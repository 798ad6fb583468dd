"""The GUI: its model without a display, then the real Tk window under Xvfb with screenshots.

Screenshots land in test-artifacts/ (gui-start.png, gui-unsolvable.png, gui-solved.png,
gui-picture.png) for a human to look at.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from solver.assignment.desktop.gui_model import (
    ERROR,
    INFO,
    NOT_SOLVABLE,
    SOLVED,
    PuzzleModel,
    Step,
    solution_steps,
)
from solver.board import Board, Move
from solver.cli import entry
from tests.support import REPO, require_tool, shared_data

ARTIFACTS = REPO / "test-artifacts"
MIDDLE_BLANK = Board.from_tiles([1, 2, 3, 4, 0, 6, 7, 5, 8])


# --------------------------------------------------------------------------- the model
@pytest.mark.parametrize(("cell", "move"), [((0, 1), Move.UP), ((2, 1), Move.DOWN), ((1, 0), Move.LEFT),
                                            ((1, 2), Move.RIGHT)])
def test_clicking_a_tile_next_to_the_blank_slides_it(cell: tuple[int, int], move: Move) -> None:
    model = PuzzleModel(board=MIDDLE_BLANK)
    assert model.click(*cell) is move
    assert model.board == MIDDLE_BLANK.apply(move)
    assert model.board.tiles[4] == MIDDLE_BLANK.tiles[cell[0] * 3 + cell[1]]
    assert model.moves_made == 1 and model.kind == INFO


@pytest.mark.parametrize("cell", [(0, 0), (2, 2), (1, 1), (3, 1), (-1, 0)])
def test_clicking_elsewhere_does_nothing(cell: tuple[int, int]) -> None:
    model = PuzzleModel(board=MIDDLE_BLANK)
    assert model.click(*cell) is None
    assert model.board == MIDDLE_BLANK and model.moves_made == 0


def test_reaching_the_goal_by_hand_says_solved() -> None:
    model = PuzzleModel(board=MIDDLE_BLANK)
    model.click(2, 1)
    model.click(2, 2)
    assert model.board.is_goal()
    assert (model.message, model.kind) == ("Solved in 2 moves!", SOLVED)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_shuffle_gives_repeatable_solvable_unsolved_boards(n: int) -> None:
    first, second, other = PuzzleModel(n, seed=1), PuzzleModel(n, seed=1), PuzzleModel(n, seed=2)
    boards = []
    for _ in range(5):
        for model in (first, second, other):
            model.shuffle()
        assert first.board == second.board
        assert first.board.n == n and first.board.is_solvable() and not first.board.is_goal()
        boards.append((first.board, other.board))
    assert any(a != b for a, b in boards)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_game_starts_on_a_random_solvable_board(n: int) -> None:
    starts = [PuzzleModel(n, seed=seed).board for seed in range(6)]
    assert all(b.n == n and b.is_solvable() and not b.is_goal() for b in starts)
    assert len(set(starts)) > 1
    assert PuzzleModel(n, seed=3).board == PuzzleModel(n, seed=3).board


@pytest.mark.parametrize("move", list(Move))
def test_an_arrow_moves_the_blank_that_way(move: Move) -> None:
    model = PuzzleModel(board=MIDDLE_BLANK)
    assert model.move_blank(move) is move
    assert model.board == MIDDLE_BLANK.apply(move) and model.moves_made == 1
    corner = PuzzleModel(board=Board.goal(3))
    assert corner.move_blank(Move.DOWN) is None and corner.move_blank(Move.RIGHT) is None
    assert corner.board.is_goal() and corner.moves_made == 0


def test_the_move_counter_restarts_after_an_animated_solve() -> None:
    model = PuzzleModel(board=MIDDLE_BLANK)
    model.click(0, 1)  # one move of the player's own
    model.start_animation([model.board, MIDDLE_BLANK, MIDDLE_BLANK.apply(Move.DOWN), Board.goal(3)])
    while model.advance() is not None:
        assert model.moves_made == 0
    assert model.board.is_goal() and model.kind == SOLVED
    model.click(1, 2)
    model.click(2, 2)
    assert (model.message, model.moves_made) == ("Solved in 2 moves!", 2)


def test_a_board_given_unsolvable_says_so_from_the_start() -> None:
    model = PuzzleModel(board=Board.from_tiles([1, 2, 3, 4, 5, 6, 8, 7, 0]))
    assert (model.message, model.kind, model.solvable) == (NOT_SOLVABLE, ERROR, False)


def test_the_default_picture_is_the_one_the_code_draws() -> None:
    from PIL import Image

    from solver.assignment.picture import DEFAULT_PICTURE, draw_default_picture

    width, height, pixels = draw_default_picture()
    with Image.open(DEFAULT_PICTURE) as shipped:
        assert shipped.format == "PNG" and shipped.size == (width, height)
        assert shipped.convert("RGB").tobytes() == pixels


def test_pictures_of_any_format_are_cut_into_equal_square_tiles(tmp_path: Path) -> None:
    from PIL import Image

    from solver.assignment.picture import PictureError, cut_tiles, fit_for_tiles

    write_jpeg(tmp_path / "photo.jpg", 500, 300)
    picture = fit_for_tiles(tmp_path / "photo.jpg", 4)
    assert picture.size == (300, 300)  # the central square, a multiple of 4
    pieces = cut_tiles(picture, 4)
    assert sorted(pieces) == list(range(1, 16)) and {p.size for p in pieces.values()} == {(75, 75)}
    Image.new("RGB", (100, 60), "orange").save(tmp_path / "small.bmp")
    assert fit_for_tiles(tmp_path / "small.bmp", 3).size == (240, 240)
    (tmp_path / "notes.jpg").write_text("not a picture")
    with pytest.raises(PictureError, match=re.escape("notes.jpg: cannot read the picture")):
        fit_for_tiles(tmp_path / "notes.jpg", 3)


def test_an_unsolvable_custom_board_says_so_and_solve_refuses() -> None:
    model = PuzzleModel()
    assert model.set_custom("1 2 3 4 5 6 8 7 0")
    assert (model.message, model.kind) == (NOT_SOLVABLE, ERROR)
    model.message = ""
    assert not model.can_solve()
    assert (model.message, model.kind) == (NOT_SOLVABLE, ERROR)


@pytest.mark.parametrize(("text", "tiles"), [("1,2,3,0", (1, 2, 3, 0)), ("b12 345 678", tuple(range(9))),
                                             ("4 " + " ".join(map(str, range(16))), tuple(range(16)))])
def test_custom_boards_of_any_size(text: str, tiles: tuple[int, ...]) -> None:
    model = PuzzleModel()
    assert model.set_custom(text)
    assert model.board.tiles == tiles


@pytest.mark.parametrize("text", ["", "1 2 3", "1 1 2 3", "1 2 x 0"])
def test_an_unreadable_custom_board_keeps_the_old_one(text: str) -> None:
    model = PuzzleModel(board=MIDDLE_BLANK)
    assert not model.set_custom(text)
    assert model.board == MIDDLE_BLANK
    assert model.kind == ERROR and model.message.startswith("Cannot use that board: ")


def test_animation_plays_each_move_with_its_name_and_ends_solved() -> None:
    path = [MIDDLE_BLANK, MIDDLE_BLANK.apply(Move.DOWN), Board.goal(3)]
    model = PuzzleModel(board=MIDDLE_BLANK)
    model.start_animation(path)
    assert model.click(2, 1) is None  # no playing during the animation
    messages = []
    while (step := model.advance()) is not None:
        assert model.board == step.board
        messages.append(model.message)
    assert messages == ["Move 1 of 2: down", "Move 2 of 2: right. Solved!"]
    assert model.kind == SOLVED and model.board.is_goal()


def test_animation_must_start_at_the_board_shown() -> None:
    with pytest.raises(ValueError, match="does not start at the board shown"):
        PuzzleModel().start_animation([MIDDLE_BLANK, Board.goal(3)])
    with pytest.raises(ValueError, match="not one move apart"):
        solution_steps([MIDDLE_BLANK, Board.goal(3)])
    assert solution_steps([Board.goal(3)]) == []
    assert Step(Move.LEFT, Board.goal(2), 2, 5).label == "Move 2 of 5: left"


def test_without_a_display_the_command_says_so(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    assert entry(["gui"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("solver: ") and ("cannot open a window" in err or "needs Tk" in err)


# --------------------------------------------------------------------------- the window under Xvfb
def pump(app, done: Callable[[], bool], seconds: float = 20.0) -> None:
    """Run Tk's event loop until ``done()``."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            pytest.fail(f"the window did not get there in {seconds} s; status {app.model.message!r}")
        app.root.update()
        time.sleep(0.002)
    app.root.update()


def record_status(app, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every status text the window draws from now on."""
    shown: list[str] = []
    show_status = app.show_status

    def show_and_record() -> None:
        show_status()
        shown.append(app.status.cget("text"))

    monkeypatch.setattr(app, "show_status", show_and_record)
    return shown


def screenshot(display: str, name: str) -> Path:
    """The whole screen as test-artifacts/NAME (ImageMagick's import)."""
    tool = require_tool("import")
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    subprocess.run([tool, "-window", "root", str(path)], check=True, timeout=30, stdin=subprocess.DEVNULL,
                   env={**os.environ, "DISPLAY": display}, capture_output=True)
    assert path.read_bytes().startswith(b"\x89PNG")
    return path


def press(display: str, *keys: str) -> None:
    """Real key presses (xdotool) into the window that has the focus."""
    subprocess.run([require_tool("xdotool"), "key", "--delay", "20", *keys], check=True, timeout=30,
                   env={**os.environ, "DISPLAY": display}, stdin=subprocess.DEVNULL)


def click_cell(app, display: str, row: int, col: int) -> None:
    """A real pointer click (xdotool) on a cell of the board."""
    x, y = app.cell_center(row, col)
    subprocess.run([require_tool("xdotool"), "mousemove", "--sync", str(app.canvas.winfo_rootx() + x),
                    str(app.canvas.winfo_rooty() + y), "click", "1"], check=True, timeout=30,
                   env={**os.environ, "DISPLAY": display}, stdin=subprocess.DEVNULL)


def set_board(app, text: str) -> None:
    app.custom_var.set(text)
    app.custom_button.invoke()
    app.root.update()


def pixel(shot: Path, x: int, y: int) -> tuple[int, int, int]:
    from PIL import Image

    with Image.open(shot) as image:
        return image.convert("RGB").getpixel((x, y))


@pytest.mark.gui
def test_a_game_starts_on_a_random_board_and_the_arrow_keys_move_the_blank(app, display: str) -> None:
    root = app.root
    assert root.title() == "N-Puzzle" and root.winfo_viewable()
    screenshot(display, "gui-start.png")
    app.tiles_var.set("numbers")
    app.start_button.invoke()
    root.update()
    assert app.canvas.winfo_viewable()
    assert app.model.board.is_solvable() and not app.model.board.is_goal()  # the sheet: a random solvable start

    set_board(app, "1 2 3 4 0 6 7 5 8")
    root.focus_force()
    app.canvas.focus_force()
    root.update()
    press(display, "Up")
    pump(app, lambda: app.model.board != MIDDLE_BLANK)
    assert app.model.board == MIDDLE_BLANK.apply(Move.UP) and app.status.cget("text") == "1 move: up"
    press(display, "Down", "Left", "Right", "Down")
    pump(app, lambda: app.model.moves_made == 5)
    assert app.model.board == MIDDLE_BLANK.apply(Move.DOWN)
    # In the "Your board" field the arrows move the text cursor, not the blank.
    app.custom_entry.focus_force()
    root.update()
    press(display, "Left")
    root.update()
    assert app.model.moves_made == 5


@pytest.mark.gui
def test_window_click_solve_counter_and_unsolvable(app, display: str, monkeypatch: pytest.MonkeyPatch) -> None:
    root = app.root
    app.tiles_var.set("numbers")
    app.start_button.invoke()
    root.update()
    # A real pointer click on tile 5, below the blank, slides it up: the blank moves down.
    set_board(app, "1 2 3 4 0 6 7 5 8")
    click_cell(app, display, 2, 1)
    pump(app, lambda: app.model.board != MIDDLE_BLANK)
    assert app.model.board == MIDDLE_BLANK.apply(Move.DOWN)
    assert app.status.cget("text") == "1 move: down"
    # A click on a tile that is not next to the blank does nothing.
    x, y = app.cell_center(0, 0)
    app.canvas.event_generate("<Button-1>", x=x, y=y)
    root.update()
    assert app.model.board == MIDDLE_BLANK.apply(Move.DOWN)

    # Solve animates an optimal solution of a shuffled board, naming each move, and ends on the goal.
    app.shuffle_button.invoke()
    root.update()
    start = app.model.board
    shown = record_status(app, monkeypatch)
    app.solve_button.invoke()
    pump(app, lambda: app.job is None and not app.model.animating and app.model.kind == SOLVED)
    assert app.model.board.is_goal()
    steps = [text for text in shown if text.startswith("Move ")]
    total = int(steps[-1].split(" of ")[1].split(":")[0])
    assert total >= start.manhattan()
    assert steps[-1].endswith("Solved!") and app.status.cget("fg") == "#1c7c32"
    assert [s.split(":")[0] for s in steps] == [f"Move {i} of {total}" for i in range(1, total + 1)]
    board = start
    for label in (s.split(": ")[1].removesuffix(". Solved!") for s in steps):
        board = board.apply(Move[label.upper()])
    assert board.is_goal()
    screenshot(display, "gui-solved.png")
    # The player's moves after the solve count from 1, not from the solution's length.
    click_cell(app, display, 1, 2)
    click_cell(app, display, 2, 2)
    pump(app, lambda: app.model.board.is_goal() and app.model.moves_made == 2)
    assert app.status.cget("text") == "Solved in 2 moves!"

    # A typed unsolvable board: the board itself turns red and says "Puzzle not solvable"; Solve refuses.
    app.custom_entry.delete(0, "end")
    app.custom_entry.insert(0, "1 2 3 4 5 6 8 7 0")
    app.custom_entry.focus_force()
    root.update()
    app.custom_entry.event_generate("<Return>")
    root.update()
    assert app.status.cget("text") == NOT_SOLVABLE and app.status.cget("fg") == "red"
    assert app.canvas.cget("bg") == "#c62828"
    [label] = app.canvas.find_withtag("unsolvable")
    assert app.canvas.itemcget(label, "text") == "Puzzle not solvable"
    app.solve_button.invoke()
    root.update()
    assert app.job is None and app.status.cget("text") == NOT_SOLVABLE
    shot = screenshot(display, "gui-unsolvable.png")
    red = pixel(shot, app.canvas.winfo_rootx() + 1, app.canvas.winfo_rooty() + 1)  # between the tiles
    assert red[0] > 150 and red[1] < 80 and red[2] < 80, red
    set_board(app, "1 2 3 4 5 6 7 0 8")
    assert app.canvas.cget("bg") != "#c62828" and not app.canvas.find_withtag("unsolvable")


def write_png(path: Path, width: int, height: int) -> None:
    """A small picture with a different colour per region, written without any imaging library."""
    from solver.assignment.picture import png_bytes

    rgb = b"".join(bytes((x * 255 // width, y * 255 // height, 128)) for y in range(height) for x in range(width))
    path.write_bytes(png_bytes(width, height, rgb))


def write_jpeg(path: Path, width: int, height: int) -> None:
    """A JPEG photo-like gradient (Pillow writes it)."""
    from PIL import Image

    image = Image.new("RGB", (width, height))
    image.putdata([(x * 255 // width, y * 255 // height, 90) for y in range(height) for x in range(width)])
    image.save(path, "JPEG", quality=90)


@pytest.mark.gui
@pytest.mark.parametrize("kind", ["jpeg", "png", "default"])
def test_picture_tiles(app, display: str, tmp_path: Path, kind: str) -> None:
    picture = tmp_path / f"picture.{'jpg' if kind == 'jpeg' else 'png'}"
    if kind == "jpeg":
        write_jpeg(picture, 300, 200)
    elif kind == "png":
        write_png(picture, 300, 200)
    app.image_var.set(str(picture) if kind != "default" else "")
    app.size_var.set("4")
    assert app.tiles_var.get() == "picture"  # picture tiles unless the player picks numbers
    assert app.start(), app.start_message.cget("text")
    app.root.update()
    # The picture is cropped square and scaled to a whole multiple of N, then cut into N²-1 pieces.
    side = app.picture.width()
    assert side == app.picture.height() and side % 4 == 0 and 200 <= side <= 480
    assert len(app.pieces) == 15 and all(p.width() == side // 4 for p in app.pieces.values())
    kinds = {app.canvas.type(item) for item in app.canvas.find_withtag("tile")}
    assert kinds == {"image", "rectangle", "text"}  # a piece of the picture, an outline, a small number
    if kind == "jpeg":
        shot = screenshot(display, "gui-picture-jpeg.png")
        # Tile 1 shows the picture's top-left: dark in red and green (the JPEG's gradient), wherever it lies.
        row, col = divmod(app.model.board.tiles.index(1), 4)
        x, y = app.cell_center(row, col)
        r, g, b = pixel(shot, app.canvas.winfo_rootx() + x, app.canvas.winfo_rooty() + y)
        assert r < 110 and g < 110 and 60 < b < 130, (r, g, b)
    set_board(app, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0")
    assert app.canvas.find_withtag("picture")  # the solved board shows the whole picture
    set_board(app, "1 2 3 4 5 6 7 8 0")  # a new size cuts the picture again
    assert len(app.pieces) == 8 and app.picture.width() % 3 == 0


@pytest.mark.gui
def test_a_bad_picture_stays_on_the_start_screen(app, tmp_path: Path) -> None:
    (tmp_path / "notes.jpg").write_text("not a picture")
    app.image_var.set(str(tmp_path / "notes.jpg"))
    assert not app.start()
    assert "notes.jpg: cannot read the picture" in app.start_message.cget("text")
    app.size_var.set("twelve")
    assert not app.start()
    assert "Board size must be a whole number from 2 to 8" in app.start_message.cget("text")


def open_window(display: str, args: list[str], stdin: Path | None = None) -> subprocess.Popen:
    with open(stdin or os.devnull, "rb") as source:
        return subprocess.Popen([sys.executable, "-m", "solver", "gui", *args], cwd=REPO, stdin=source,
                                env={**os.environ, "DISPLAY": display}, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)


def wait_for_window(display: str, gui: subprocess.Popen) -> None:
    found = subprocess.run([require_tool("xdotool"), "search", "--sync", "--name", "^N-Puzzle$"], timeout=60,
                           env={**os.environ, "DISPLAY": display}, capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, check=False)
    assert found.returncode == 0 and found.stdout.split(), found.stderr
    assert gui.poll() is None


def stop(gui: subprocess.Popen) -> tuple[bytes, bytes]:
    gui.terminate()
    return gui.communicate(timeout=10)


@pytest.mark.gui
def test_the_command_opens_the_window(display: str) -> None:
    gui = open_window(display, ["--size", "4"])
    try:
        wait_for_window(display, gui)
    finally:
        stop(gui)


@pytest.mark.gui
@pytest.mark.parametrize("from_stdin", [False, True])
def test_a_puzzle_file_opens_on_its_board_and_plays_its_solution(display: str, from_stdin: bool) -> None:
    # Princeton's main: read the board, print the solution and show it moving.
    puzzle = shared_data("external-data", "princeton", "puzzle04.txt")
    args = ["-", "--solve", "--delay", "5"] if from_stdin else [str(puzzle), "--solve", "--delay", "5"]
    gui = open_window(display, args, stdin=puzzle if from_stdin else None)
    try:
        wait_for_window(display, gui)
        head = b""
        deadline = time.monotonic() + 60
        while b"\n\n" not in head and time.monotonic() < deadline:
            if select.select([gui.stdout], [], [], 1)[0]:
                head += os.read(gui.stdout.fileno(), 4096)
        assert head.startswith(b"Minimum number of moves = 4\n3\n0 1 3\n4 2 5\n7 8 6\n\n"), head
    finally:
        stop(gui)


@pytest.mark.gui
@pytest.mark.parametrize(("name", "answer"), [("puzzle3x3-unsolvable.txt", b"No solution possible\n"),
                                              ("puzzle3x3-00.txt", b"Minimum number of moves = 0\n3\n")])
def test_a_puzzle_file_with_nothing_to_play_still_prints_its_answer(display: str, name: str, answer: bytes) -> None:
    gui = open_window(display, [str(shared_data("external-data", "princeton", name)), "--solve"])
    try:
        wait_for_window(display, gui)
    finally:
        out, _ = stop(gui)
    assert out.startswith(answer), out


def test_a_bad_puzzle_or_picture_is_one_message_before_any_window(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.txt").write_text("3\n1 2 3\n4 5 6\n7 8 x\n")
    assert entry(["gui", str(tmp_path / "bad.txt")]) == 6
    assert "bad.txt:4: expected an integer tile, found 'x'" in capsys.readouterr().err
    assert entry(["gui", "--solve"]) == 2
    assert "--solve needs a PUZZLE file" in capsys.readouterr().err


@pytest.mark.gui
def test_without_pillow_png_still_loads_and_jpeg_says_what_to_install(app, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    write_jpeg(tmp_path / "photo.jpg", 120, 120)
    for name in ("PIL", "PIL.Image", "PIL.ImageOps", "PIL.ImageTk"):
        monkeypatch.setitem(sys.modules, name, None)
    app.image_var.set(str(tmp_path / "photo.jpg"))
    assert not app.start()
    assert "JPEG and other formats need Pillow: pip install 'npuzzle-grader[gui]'" in app.start_message.cget("text")
    app.image_var.set("")  # the game's own picture is a PNG, which Tk reads by itself
    assert app.start(), app.start_message.cget("text")
    assert len(app.pieces) == 8 and app.picture.width() % 3 == 0


@pytest.mark.gui
def test_a_bad_picture_with_a_puzzle_file_is_one_message(display: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISPLAY", display)
    (tmp_path / "notes.jpg").write_text("not a picture")
    puzzle = shared_data("external-data", "princeton", "puzzle04.txt")
    assert entry(["gui", str(puzzle), "--image", str(tmp_path / "notes.jpg")]) == 3
    assert "notes.jpg: cannot read the picture" in capsys.readouterr().err
