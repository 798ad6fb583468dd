"""The GUI: its model without a display, then the real Tk window under Xvfb with screenshots.

Screenshots land in test-artifacts/ (gui-start.png, gui-unsolvable.png, gui-solved.png,
gui-picture.png) for a human to look at.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from solver.board import Board, Move
from solver.cli import entry
from solver.assignment.gui_model import ERROR, INFO, NOT_SOLVABLE, SOLVED, PuzzleModel, Step, solution_steps
from tests.support import REPO, require_tool

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
@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A private X display: Xvfb picks a free number and tells it through -displayfd."""
    xvfb = require_tool("Xvfb")
    read_end, write_end = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write_end), "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                              pass_fds=(write_end,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    os.close(write_end)
    try:
        number = b""
        deadline = time.monotonic() + 30
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            if select.select([read_end], [], [], 1)[0]:
                chunk = os.read(read_end, 16)
                if not chunk:
                    break
                number += chunk
        if not number.strip().isdigit():
            pytest.fail(f"Xvfb did not report a display number within 30 s (got {number!r})")
        yield f":{number.decode().strip()}"
    finally:
        os.close(read_end)
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def app(display: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DISPLAY", display)
    import tkinter

    from solver.assignment.gui_app import PuzzleApp

    root = tkinter.Tk()
    window = PuzzleApp(root, size=3, seed=11, delay_ms=5)
    root.update()
    yield window
    root.destroy()


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
    redraw = app.redraw

    def redraw_and_record() -> None:
        redraw()
        shown.append(app.status.cget("text"))

    monkeypatch.setattr(app, "redraw", redraw_and_record)
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


@pytest.mark.gui
def test_window_click_solve_and_unsolvable(app, display: str, monkeypatch: pytest.MonkeyPatch) -> None:
    root = app.root
    assert root.title() == "N-Puzzle" and root.winfo_viewable()
    screenshot(display, "gui-start.png")
    app.start_button.invoke()
    root.update()
    assert app.canvas.winfo_viewable() and app.model.board.is_goal()

    # A real pointer click (xdotool) on tile 5, below the blank, slides it up: the blank moves down.
    app.custom_var.set("1 2 3 4 0 6 7 5 8")
    app.custom_button.invoke()
    root.update()
    x, y = app.cell_center(2, 1)
    subprocess.run([require_tool("xdotool"), "mousemove", "--sync", str(app.canvas.winfo_rootx() + x),
                    str(app.canvas.winfo_rooty() + y), "click", "1"], check=True, timeout=30,
                   env={**os.environ, "DISPLAY": display}, stdin=subprocess.DEVNULL)
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
    pump(app, lambda: app.worker is None and not app.model.animating and app.model.kind == SOLVED)
    assert app.model.board.is_goal()
    steps = [text for text in shown if text.startswith("Move ")]
    total = int(steps[-1].split(" of ")[1].split(":")[0])
    assert total >= start.manhattan()
    assert steps[-1].endswith("Solved!") and app.status.cget("fg") == "#1c7c32"
    assert [s.split(":")[0] for s in steps] == [f"Move {i} of {total}" for i in range(1, total + 1)]
    moves = [s.split(": ")[1].removesuffix(". Solved!") for s in steps]
    board = start
    for label in moves:
        board = board.apply(Move[label.upper()])
    assert board.is_goal()
    screenshot(display, "gui-solved.png")

    # A typed unsolvable board: "Puzzle not solvable" in red, and Solve refuses.
    app.custom_entry.delete(0, "end")
    app.custom_entry.insert(0, "1 2 3 4 5 6 8 7 0")
    app.custom_entry.focus_force()
    root.update()
    app.custom_entry.event_generate("<Return>")
    root.update()
    assert app.status.cget("text") == NOT_SOLVABLE and app.status.cget("fg") == "red"
    app.solve_button.invoke()
    root.update()
    assert app.worker is None and app.status.cget("text") == NOT_SOLVABLE
    screenshot(display, "gui-unsolvable.png")


def write_png(path: Path, width: int, height: int) -> None:
    """A small picture with a different colour per region, written without any imaging library."""
    import struct
    import zlib

    rows = b"".join(b"\x00" + b"".join(bytes((x * 255 // width, y * 255 // height, 128)) for x in range(width))
                    for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


@pytest.mark.gui
def test_picture_tiles(app, display: str, tmp_path: Path) -> None:
    picture = tmp_path / "picture.png"
    write_png(picture, 300, 200)
    app.image_var.set(str(picture))
    app.size_var.set("4")
    assert app.start()
    app.root.update()
    # The picture is cropped square and scaled to a whole multiple of N, then cut into N²-1 pieces.
    side = app.picture.width()
    assert side == app.picture.height() and side % 4 == 0 and 200 <= side <= 480
    assert len(app.pieces) == 15 and all(p.width() == side // 4 for p in app.pieces.values())
    assert app.canvas.find_withtag("picture")  # the solved board shows the whole picture
    app.shuffle_button.invoke()
    app.root.update()
    kinds = {app.canvas.type(item) for item in app.canvas.find_withtag("tile")}
    assert kinds == {"image", "rectangle", "text"}  # a piece of the picture, an outline, a small number
    screenshot(display, "gui-picture.png")


@pytest.mark.gui
def test_a_bad_picture_stays_on_the_start_screen(app, tmp_path: Path) -> None:
    (tmp_path / "notes.png").write_text("not a picture")
    app.image_var.set(str(tmp_path / "notes.png"))
    assert not app.start()
    assert "cannot read the picture" in app.start_message.cget("text")
    app.size_var.set("twelve")
    assert not app.start()
    assert "Board size must be a whole number from 2 to 8" in app.start_message.cget("text")


@pytest.mark.gui
def test_the_command_opens_the_window(display: str) -> None:
    xdotool = require_tool("xdotool")
    env = {**os.environ, "DISPLAY": display}
    gui = subprocess.Popen([sys.executable, "-m", "solver", "gui", "--size", "4"], cwd=REPO, env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           start_new_session=True)
    try:
        found = subprocess.run([xdotool, "search", "--sync", "--name", "^N-Puzzle$"], env=env, timeout=30,
                               capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert found.returncode == 0 and found.stdout.split(), found.stderr
        assert gui.poll() is None
    finally:
        gui.terminate()
        gui.communicate(timeout=10)
