"""The browser game (`python -m solver web`): its contract, checked in headless Chromium at desktop and
phone sizes, with the page opened straight from file:// (docs/game.md)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from solver.board import Board
from solver.cli import entry
from solver.formats import parse_puzzle
from solver.solve import solve
from tests.support import REPO, require_tool

ARTIFACTS = REPO / "test-artifacts"
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
HEURISTIC = {"bfs": lambda b: 0, "astar-hamming": Board.hamming, "astar-manhattan": Board.manhattan,
             "idastar": Board.linear_conflict}
"""What each algorithm in #algorithm must show as h (the solver's own definitions)."""


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("web")
    assert entry(["web", "--out", str(out)]) == 0
    return out / "index.html"


def test_the_page_is_one_file_that_loads_nothing_from_outside(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text), "the page must work offline"
    assert "data:image/png;base64," in text and "/*@" not in text


def test_an_unwritable_folder_is_one_message_and_exit_12(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert entry(["web", "--out", str(blocker / "sub")]) == 12
    assert "cannot write the page" in capsys.readouterr().err


@pytest.fixture(scope="module")
def exact3(table3: dict[tuple[int, ...], int]) -> dict[tuple[int, ...], int]:
    """Every solvable 3×3 board's optimal depth: the session's BFS from the goal (tests/solver/conftest.py),
    independent of the page and the solver."""
    return table3


def start_chromium(size: str, profile: Path):
    chromium = require_tool("chromium")
    driver_path = require_tool("chromedriver")
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=driver_path))
    width, height = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})
    driver.size_name = size
    return driver


@pytest.fixture(scope="module")
def chromiums(tmp_path_factory: pytest.TempPathFactory):
    """One Chromium per screen size for the whole module, started when a test first asks for that size:
    starting one costs more than most tests here. The page keeps nothing between loads (no storage), and
    ``browser`` reloads it from a blank page for each test."""
    started: dict[str, object] = {}

    def get(size: str):
        if size not in started:
            started[size] = start_chromium(size, tmp_path_factory.mktemp(f"chromium-{size}"))
        return started[size]

    yield get
    for driver in started.values():
        driver.quit()


@pytest.fixture(params=sorted(SIZES))
def browser(request: pytest.FixtureRequest, chromiums):
    driver = chromiums(request.param)
    driver.get("about:blank")  # ends the last test's page and its Web Worker
    driver.get_log("browser")  # and drops what it logged: each test answers for its own messages
    yield driver
    problems = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert not problems, problems


def open_page(driver, page: Path, query: str = ""):
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(page.as_uri() + query)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.body.dataset.ready"))
    return driver


def shown_board(driver) -> tuple[int, ...]:
    """The board as laid out on screen: each tile's grid cell, read from its bounding box."""
    cells = driver.execute_script("""
        const board = document.getElementById('board').getBoundingClientRect();
        return [...document.querySelectorAll('#board [data-tile]')].map(el => {
            const r = el.getBoundingClientRect();
            return [+el.dataset.tile, (r.top + r.height / 2 - board.top) / board.height,
                    (r.left + r.width / 2 - board.left) / board.width];
        });""")
    n = round(len(cells) ** 0.5)
    tiles = [0] * (n * n)
    for tile, y, x in cells:
        tiles[int(y * n) * n + int(x * n)] = tile
    return tuple(tiles)


def text(driver, element_id: str) -> str:
    return driver.find_element("id", element_id).text


def wait_for(driver, condition, seconds: float = 20):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(condition)


def settle(driver) -> None:
    """Let slide animations finish before reading positions from bounding boxes."""
    driver.execute_script("return new Promise(done => setTimeout(done, 300))")


@pytest.mark.browser
@pytest.mark.parametrize("tiles", [(1, 2, 3, 4, 5, 6, 0, 7, 8), (5, 1, 2, 3, 0, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12)])
def test_the_query_sets_the_board_and_clicks_slide_only_neighbours(browser, page: Path, tiles) -> None:
    open_page(browser, page, "?board=" + ",".join(map(str, tiles)))
    assert shown_board(browser) == tiles
    board = Board.from_tiles(tiles)
    movable = {b.tiles[board.blank] for _, b in board.successors()}
    for tile in sorted(set(tiles) - movable):  # not next to the blank: nothing happens
        browser.find_element("css selector", f'#board [data-tile="{tile}"]').click()
    settle(browser)
    assert shown_board(browser) == tiles and text(browser, "moves") == "0"
    tile = min(movable)
    browser.find_element("css selector", f'#board [data-tile="{tile}"]').click()
    settle(browser)
    expected = next(b for _, b in board.successors() if b.tiles[board.blank] == tile)
    assert shown_board(browser) == expected.tiles and text(browser, "moves") == "1"
    browser.find_element("id", "undo").click()
    settle(browser)
    assert shown_board(browser) == tiles and text(browser, "moves") == "0"


@pytest.mark.browser
def test_arrow_keys_move_the_tile_beside_the_blank_that_way(browser, page: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    open_page(browser, page, "?board=1,2,3,4,0,5,7,8,6")
    body = browser.find_element("tag name", "body")
    body.send_keys(Keys.ARROW_LEFT)  # the 5, right of the blank, moves left
    body.send_keys(Keys.ARROW_UP)  # then the 6, below the blank, moves up: solved
    settle(browser)
    assert shown_board(browser) == Board.goal(3).tiles and text(browser, "moves") == "2"
    assert "Solved in 2 moves" in text(browser, "status")


def solve_in_page(driver, page: Path, tiles: tuple[int, ...]) -> int:
    from selenium.webdriver.support.select import Select

    open_page(driver, page, "?board=" + ",".join(map(str, tiles)))
    Select(driver.find_element("id", "speed")).select_by_value("80")
    driver.find_element("id", "solve").click()
    goal = Board.goal(round(len(tiles) ** 0.5)).tiles
    wait_for(driver, lambda d: "Solved" in text(d, "status"), 60)
    settle(driver)
    assert shown_board(driver) == goal
    return int(text(driver, "moves"))


@pytest.mark.browser
def test_solve_is_optimal_on_random_3x3_boards(browser, page: Path, exact3) -> None:
    rng = random.Random(30)
    boards = rng.sample(sorted(exact3), 3) + [max(exact3, key=exact3.__getitem__)]  # and a deepest, 31 moves
    for tiles in boards:
        assert solve_in_page(browser, page, tiles) == exact3[tiles], tiles


BOARDS4 = [(5, 10, 1, 3, 8, 6, 12, 0, 14, 7, 2, 15, 9, 4, 13, 11),
           (5, 10, 2, 8, 1, 7, 3, 4, 14, 6, 0, 11, 13, 9, 12, 15)]
"""4×4 boards of 36 and 40 optimal moves (their depth comes from `solver` in the test)."""


@pytest.mark.browser
@pytest.mark.parametrize("browser", ["desktop"], indirect=True)  # the phone checks the 3×3 ones
@pytest.mark.parametrize("tiles", BOARDS4)
def test_solve_is_optimal_on_4x4_boards_up_to_40_moves(browser, page: Path, tiles) -> None:
    assert solve_in_page(browser, page, tiles) == solve(Board.from_tiles(tiles)).moves
    # The search ran in the Web Worker (built from a Blob URL, which works on file://), not on the page.
    assert browser.execute_script("return document.body.dataset.solver") == "worker"


@pytest.mark.browser
def test_a_board_too_deep_for_the_budget_names_the_command_that_solves_it(browser, page: Path) -> None:
    tiles = (0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1)  # 80 optimal moves
    open_page(browser, page, "?budget=500&board=" + ",".join(map(str, tiles)))
    browser.find_element("id", "solve").click()
    wait_for(browser, lambda d: "Too deep" in text(d, "status"))
    command = text(browser, "command")
    match = re.fullmatch(r"printf '(.*)' \| python -m solver -", command)
    assert match, command
    assert parse_puzzle(match.group(1).replace("\\n", "\n"), "command").tiles == tiles
    assert text(browser, "moves") == "0"


@pytest.mark.browser
@pytest.mark.parametrize("query, message", [
    ("?board=1,2,3,4,5,6,8,7,0", "cannot be solved"),
    ("?board=1,2,3", "needs 9 numbers"),
    ("?board=1,2,3,4,5,6,7,8,8", "8 twice"),
    ("?board=1,2,3,4,5,6,7,8,x", "not a whole number"),
    ("?board=1,2,3,4,5,6,7,8,9", "tiles go from 0 to 8"),
])
def test_unsolvable_and_bad_boards_get_a_clear_status_and_are_never_searched(browser, page: Path, query,
                                                                            message) -> None:
    open_page(browser, page, query)
    assert message in text(browser, "status")
    assert not browser.find_element("id", "node").is_displayed()  # no search view until a search steps
    before = shown_board(browser)
    for button in ("solve", "step"):
        browser.find_element("id", button).click()
        assert text(browser, "moves") == "0" and text(browser, "expanded") == "0"
    assert shown_board(browser) == before


@pytest.mark.browser
@pytest.mark.parametrize("algorithm", sorted(HEURISTIC))
def test_step_shows_each_expansion_with_the_algorithms_g_h_and_f(browser, page: Path, algorithm) -> None:
    from selenium.webdriver.support.select import Select

    start = (4, 1, 3, 0, 2, 6, 7, 5, 8)
    open_page(browser, page, "?board=" + ",".join(map(str, start)))
    Select(browser.find_element("id", "algorithm")).select_by_value(algorithm)
    seen = []
    for expansion in range(1, 6):  # the first expansions, one by one
        browser.find_element("id", "step").click()
        node = browser.find_element("id", "node")
        tiles = tuple(map(int, node.get_attribute("data-board").split(",")))
        g, h, f = (int(node.get_attribute(f"data-{k}")) for k in "ghf")
        assert h == HEURISTIC[algorithm](Board.from_tiles(tiles)) and f == g + h
        assert node.is_displayed() and f"f={f}" in node.text.replace(" ", "")
        seen.append((tiles, g))
        assert int(text(browser, "expanded")) == expansion and int(text(browser, "frontier")) > 0
        for child in browser.find_elements("css selector", "#children [data-g]"):
            assert int(child.get_attribute("data-g")) == g + 1
            board = Board.from_tiles(tuple(map(int, child.get_attribute("data-board").split(","))))
            assert int(child.get_attribute("data-h")) == HEURISTIC[algorithm](board)
    assert seen[0] == (start, 0)
    # The order each frontier promises: BFS by depth, A* by f (never falling, h being consistent), IDA*
    # within its bound.
    order = [g + (0 if algorithm == "bfs" else HEURISTIC[algorithm](Board.from_tiles(t))) for t, g in seen]
    if algorithm == "idastar":
        assert max(order) <= int(text(browser, "bound"))
    else:
        assert order == sorted(order), order
    for _ in range(100):  # then on to the goal
        if "Goal reached" in text(browser, "status"):
            break
        browser.find_element("id", "step10").click()
    assert "Goal reached at depth g = 5" in text(browser, "status")  # the board is 5 moves from the goal


@pytest.mark.browser
def test_the_page_fits_its_width_and_looks_right(browser, page: Path) -> None:
    open_page(browser, page, "?board=5,1,2,3,0,6,7,4,9,10,11,8,13,14,15,12")
    browser.find_element("id", "picture").click()
    browser.find_element("id", "step").click()
    width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"web-{browser.size_name}.png"))


@pytest.mark.browser
def test_shuffle_makes_solvable_boards_of_the_chosen_difficulty_and_hint_starts_an_optimal_path(
        browser, page: Path, exact3) -> None:
    from selenium.webdriver.support.select import Select

    open_page(browser, page, "?board=1,2,3,4,5,6,7,8,0")
    for difficulty, deepest in (("10", 10), ("random", 31)):
        Select(browser.find_element("id", "difficulty")).select_by_value(difficulty)
        browser.find_element("id", "shuffle").click()
        settle(browser)
        tiles = shown_board(browser)
        assert 0 < exact3.get(tiles, -1) <= deepest, tiles  # solvable, not the goal, no deeper than asked
        assert text(browser, "moves") == "0"
    browser.find_element("id", "hint").click()
    wait_for(browser, lambda d: "Hint: slide" in text(d, "status"))
    hinted = browser.find_element("css selector", "#board .tile.hint")
    assert f"({exact3[tiles]} moves from here" in text(browser, "status")
    hinted.click()
    settle(browser)
    assert exact3[shown_board(browser)] == exact3[tiles] - 1


@pytest.mark.browser
@pytest.mark.parametrize("browser", ["phone"], indirect=True)
def test_a_tap_slides_a_tile_and_a_swipe_moves_the_tile_that_way(browser, page: Path) -> None:
    open_page(browser, page, "?board=1,2,3,4,0,5,7,8,6")

    def touch(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def centre(tile: int) -> tuple[float, float]:
        box = browser.find_element("css selector", f'#board [data-tile="{tile}"]').rect
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    x, y = centre(5)  # a tap on the 5, right of the blank: it slides left
    touch("touchStart", x, y)
    touch("touchEnd", x, y)
    settle(browser)
    assert shown_board(browser) == (1, 2, 3, 4, 5, 0, 7, 8, 6) and text(browser, "moves") == "1"
    x, y = centre(6)  # a swipe up anywhere: the 6, below the blank, goes up
    touch("touchStart", x, y)
    touch("touchMove", x, y - 60)
    touch("touchEnd", x, y - 60)
    settle(browser)
    assert shown_board(browser) == Board.goal(3).tiles and text(browser, "moves") == "2"


@pytest.mark.browser
@pytest.mark.parametrize("browser", ["desktop"], indirect=True)
def test_the_page_stays_responsive_while_it_searches_and_stop_ends_the_search(browser, page: Path) -> None:
    tiles = (0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1)  # 80 moves: seconds of search
    open_page(browser, page, "?board=" + ",".join(map(str, tiles)))
    browser.find_element("id", "solve").click()
    wait_for(browser, lambda d: "nodes so far" in text(d, "status"))  # the Worker reports its progress
    lag = browser.execute_script("""const t = performance.now();
        return new Promise(done => setTimeout(() => done(performance.now() - t), 0));""")
    assert lag < 250, f"the page's own thread was blocked for {lag:.0f} ms"
    assert browser.find_element("id", "solve").get_attribute("disabled") == "true"
    browser.find_element("id", "cancel").click()
    assert text(browser, "status") == "Stopped."
    assert browser.find_element("id", "solve").get_attribute("disabled") is None
    browser.execute_script("return new Promise(done => setTimeout(done, 500))")
    assert text(browser, "status") == "Stopped." and shown_board(browser) == tiles  # nothing arrives late
