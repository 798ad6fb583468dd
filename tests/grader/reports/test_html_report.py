"""The HTML report: self-contained, a verdict matrix, a histogram, and path replays that work in a real browser."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from grader.cli import entry
from grader.model import pathcode
from grader.reports.html_report import histogram_svg, render, replay
from grader.reports.json_results import results_from_json
from tests.grader.sampleclass import Graded
from tests.support import REPO, require_tool

ARTIFACTS = REPO / "test-artifacts"


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_page_loads_nothing_from_outside(graded: Graded) -> None:
    page = (graded.out_dir / "report.html").read_text(encoding="utf-8")
    parser = _Tags()
    parser.feed(page)
    assert not [t for t, a in parser.tags if t in ("link", "img", "iframe", "object", "embed")]
    assert not [a for t, a in parser.tags if t == "script" and "src" in a]
    assert not [a for _, a in parser.tags if any(k in ("src", "href") for k in a)]
    assert not re.search(r"url\(|@import", page)


def _payload(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    return json.loads(match.group(1))


def test_the_data_has_a_cell_per_submission_and_case(graded: Graded) -> None:
    data = _payload((graded.out_dir / "report.html").read_text(encoding="utf-8"))
    assert [len(s["cells"]) for s in data["submissions"]] == [4] * 4
    cells = {(s["id"], data["cases"][k]["id"]): cell for s in data["submissions"] for k, cell in enumerate(s["cells"])}
    verdict, points, message, *_ = cells[("compile-error", "easy-3x3")]
    assert (verdict, points) == ("CE", 0) and data["messages"][message].startswith("main.py:3: SyntaxError")
    assert len(data["messages"]) == len(set(data["messages"]))  # each text once


def _printed(case: dict) -> list[list[int]]:
    """The boards a case result in results.json holds (its path is coded: grader.model.pathcode)."""
    return [list(board) for board in pathcode.decode(case.get("path")) or ()]


def test_compact_replays_rebuild_the_printed_path(graded: Graded) -> None:
    """What the page's decoder does, in Python: the compact replay gives back every printed board."""
    data = _payload((graded.out_dir / "report.html").read_text(encoding="utf-8"))
    for s_index, submission in enumerate(graded.document["submissions"]):
        for k, case in enumerate(submission["cases"]):
            compact = data["submissions"][s_index]["cells"][k][5]
            printed = _printed(case)
            if not printed:
                assert compact is None
                continue
            info = data["cases"][k]
            boards = [list(compact.get("first") or info["input"])]
            for index, letter in enumerate(compact["steps"], start=1):
                if letter == "*":
                    boards.append(compact["jumps"][str(index)])
                    continue
                board, n = list(boards[-1]), info["n"]
                blank = board.index(0)
                target = blank + {"U": -n, "D": n, "L": -1, "R": 1}[letter]
                board[blank], board[target] = board[target], 0
                boards.append(board)
            assert boards == printed and compact["boards"] == len(printed)


def test_replay_marks_the_first_illegal_step() -> None:
    start = [1, 2, 3, 4, 0, 6, 7, 5, 8]
    legal = replay([start, [1, 2, 3, 4, 5, 6, 7, 0, 8], [1, 2, 3, 4, 5, 6, 7, 8, 0]], start)
    assert (legal["steps"], legal["illegal"]) == ("DR", None)
    jumped = replay([start, [1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 0, 8]], start)
    assert (jumped["steps"], jumped["illegal"], jumped["jumps"]) == ("*L", 1, {"1": [1, 2, 3, 4, 5, 6, 7, 8, 0]})
    late_start = replay([[1, 2, 3, 4, 5, 6, 7, 0, 8], [1, 2, 3, 4, 5, 6, 7, 8, 0]], start)
    assert late_start["illegal"] == 0
    assert replay(None, start) is None and replay([[1, 1, 2, 3]], None) is None
    back = replay([start, [1, 2, 3, 4, 5, 6, 7, 0, 8], start, [1, 2, 3, 4, 5, 6, 7, 0, 8]], start)
    assert (back["steps"], back["illegal"], back["repeat"]) == ("DUD", None, [2, 0])


def test_histogram_counts_every_submission_once() -> None:
    svg = histogram_svg([0, 9.9, 10, 55, 100, 100])
    counts = [int(c) for c in re.findall(r'data-count="(\d+)"', svg)]
    assert counts == [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]


def test_a_message_cannot_break_out_of_the_page(graded: Graded) -> None:
    document = graded.document
    document["submissions"][0]["cases"][0]["message"] = "</script><script>alert(1)</script>"
    document["submissions"][0]["id"] = "<b>x</b>"
    page = render(results_from_json(document))
    assert "<script>alert(1)" not in page and "<b>x</b>" not in page


def test_report_command_writes_the_page(graded: Graded, tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    assert entry(["report", str(graded.out_dir / "results.json"), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == (graded.out_dir / "report.html").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- in a real browser
@pytest.fixture
def browser(tmp_path: Path):
    chromium = require_tool("chromium")
    driver_path = require_tool("chromedriver")
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1300,900",
                 f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=driver_path))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.mark.browser
def test_replay_steps_through_the_printed_path_in_a_browser(graded: Graded, browser) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get((graded.out_dir / "report.html").as_uri())
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))

    submissions = graded.document["submissions"]
    s_index = [s["id"] for s in submissions].index("illegal-move")
    case = submissions[s_index]["cases"][2]  # mid-3x3: the 2nd and 3rd boards are swapped
    assert case["case"] == "mid-3x3"
    case = {**case, "path": _printed(case)}
    browser.find_element(By.CSS_SELECTOR, f'button[data-sub="{s_index}"][data-case="2"]').click()

    board = browser.find_element(By.ID, "replay-board")
    tiles = lambda: [int(t) for t in board.get_attribute("data-tiles").split()]  # noqa: E731
    shown = [el.text for el in board.find_elements(By.CLASS_NAME, "tile")]
    assert tiles() == case["path"][0] and shown == [str(t) if t else "" for t in case["path"][0]]
    assert browser.find_element(By.ID, "replay-optimal").text == "4 moves"
    assert browser.find_element(By.ID, "replay-printed").text == "4 moves (5 boards)"

    browser.find_element(By.ID, "replay-next").click()
    assert tiles() == case["path"][1]
    assert "illegal" in board.get_attribute("class").split()
    assert browser.find_element(By.ID, "replay-illegal").text == "step 1 is not a legal move"
    browser.find_element(By.ID, "replay-next").click()
    assert tiles() == case["path"][2] and "illegal" not in board.get_attribute("class").split()
    browser.find_element(By.ID, "replay-prev").click()
    assert tiles() == case["path"][1]

    # Play runs to the last board by itself and stops there; pause stops it on the way.
    browser.find_element(By.ID, "replay-play").click()
    WebDriverWait(browser, 10).until(lambda d: tiles() == case["path"][-1])
    assert browser.find_element(By.ID, "replay-step").text == "step 4 of 4"
    assert browser.find_element(By.ID, "replay-pause").get_attribute("disabled") == "true"
    browser.find_element(By.ID, "replay-play").click()  # from the end, play starts over
    WebDriverWait(browser, 10).until(lambda d: tiles() == case["path"][1])
    browser.find_element(By.ID, "replay-pause").click()
    paused_at = tiles()
    browser.execute_script("return new Promise(done => setTimeout(done, 1200))")
    assert tiles() == paused_at and paused_at != case["path"][-1]

    # A suboptimal path: stepping to the end reaches the goal, with no illegal step.
    sub_index = [s["id"] for s in submissions].index("suboptimal")
    browser.find_element(By.CSS_SELECTOR, f'button[data-sub="{sub_index}"][data-case="1"]').click()
    browser.find_element(By.ID, "replay-last").click()
    assert tiles() == [1, 2, 3, 4, 5, 6, 7, 8, 0]
    assert not browser.find_elements(By.ID, "replay-illegal")

    browser.find_element(By.CSS_SELECTOR, f'button[data-sub="{s_index}"][data-case="1"]').click()
    browser.find_element(By.ID, "replay-next").click()
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "report.png"))
    problems = [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
    assert problems == []


def _synthetic_class(students: int) -> dict:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_html_report", REPO / "bench" / "html_report.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.synthetic_results(students)


@pytest.mark.browser
def test_scores_stay_in_view_colours_differ_and_the_filter_works(browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    document = _synthetic_class(12)
    page = tmp_path / "report.html"
    page.write_text(render(results_from_json(document)), encoding="utf-8")
    browser.get(page.as_uri())
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))

    # Scrolled all the way right, the first row's score is still where it was, beside the name, uncovered.
    scroller = browser.find_element(By.CSS_SELECTOR, ".scroll")
    score = browser.find_element(By.CSS_SELECTOR, "#matrix tbody tr td.score")
    name = browser.find_element(By.CSS_SELECTOR, "#matrix tbody tr th.sid")
    before = score.rect["x"]
    browser.execute_script("arguments[0].scrollLeft = arguments[0].scrollWidth", scroller)
    assert browser.execute_script("return arguments[0].scrollLeft", scroller) > 100
    assert abs(score.rect["x"] - before) < 1 and score.rect["x"] >= name.rect["x"] + name.rect["width"] - 1
    on_top = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === arguments[0];", score)
    assert on_top

    # Every verdict has its own colour (PE is not WA).
    colours = browser.execute_script(
        "const seen = {}; document.querySelectorAll('#matrix td.v button').forEach(b => {"
        " seen[b.textContent] = getComputedStyle(b).backgroundColor; }); return seen;")
    assert {"WA", "PE", "TLE"} <= set(colours) and len(set(colours.values())) == len(colours)

    # Search by id, then filter by verdict: the page shows only the rows that match.
    def rows():
        return browser.find_elements(By.CSS_SELECTOR, "#matrix tbody tr")
    total = len(document["submissions"])
    target = document["submissions"][3]["id"]
    browser.find_element(By.ID, "filter").send_keys(target[-6:])
    assert [r.find_element(By.CSS_SELECTOR, "th").text for r in rows()] == [target]
    assert browser.find_element(By.ID, "filter-count").text == f"1 of {total} submissions shown"
    browser.find_element(By.ID, "filter").clear()
    browser.execute_script("document.getElementById('filter').dispatchEvent(new Event('input'))")
    Select(browser.find_element(By.ID, "verdict-filter")).select_by_value("PE")
    with_pe = [s for s in document["submissions"] if any(c["verdict"] == "PE" for c in s["cases"])]
    assert len(rows()) == len(with_pe) and all("PE" in r.get_attribute("data-verdicts").split() for r in rows())
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "report-filtered.png"))
    assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []


@pytest.mark.browser
def test_a_large_class_pages_and_every_column_sorts(browser, tmp_path: Path) -> None:
    """A TA sorts the matrix by score or by a case; the page shows 100 rows at a time."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    document = _synthetic_class(230)
    page = tmp_path / "report.html"
    page.write_text(render(results_from_json(document)), encoding="utf-8")
    browser.get(page.as_uri())
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    ids = lambda: [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#matrix tbody th.sid")]  # noqa: E731
    assert len(ids()) == 100 and browser.find_element(By.ID, "page-info").text == "page 1 of 3"
    browser.find_element(By.ID, "page-next").click()
    browser.find_element(By.ID, "page-next").click()
    assert ids() == [s["id"] for s in document["submissions"][200:]]

    by_score = sorted(document["submissions"], key=lambda s: s["score"])
    browser.find_element(By.CSS_SELECTOR, "#matrix thead th.score").click()
    assert browser.find_element(By.ID, "page-info").text == "page 1 of 3"
    shown = {s["id"]: s["score"] for s in document["submissions"]}
    assert [shown[i] for i in ids()] == [s["score"] for s in by_score[:100]]
    browser.find_element(By.CSS_SELECTOR, "#matrix thead th.score").click()  # again: descending
    assert [shown[i] for i in ids()] == [s["score"] for s in by_score[::-1][:100]]

    # A case column: worst verdict first (JE, CE, TLE, ... AC), as the grader ranks them.
    from grader.judging.verdicts import SEVERITY
    rank = [v.value for v in SEVERITY]
    case_id = document["cases"][5]["id"]
    browser.find_element(By.CSS_SELECTOR, '#matrix thead th[data-case="5"]').click()
    verdict_of = {s["id"]: next((c["verdict"] for c in s["cases"] if c["case"] == case_id), None)
                  for s in document["submissions"]}
    seen = [rank.index(verdict_of[i]) for i in ids() if verdict_of[i]]
    assert seen == sorted(seen) and len(set(seen)) > 1
    assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []


# --------------------------------------------------------------------------- hostile text in a real browser
def _injected(browser) -> dict:
    """What a hostile text would leave in the page if it had become markup or script."""
    return browser.execute_script(
        "const handlers = [...document.querySelectorAll('*')].filter(e => [...e.attributes]"
        "  .some(a => a.name.startsWith('on')));"
        "return { pwned: window.pwned === undefined ? null : window.pwned,"
        "  scripts: document.scripts.length,"
        "  imgs: document.querySelectorAll('img, svg:not(.histogram), iframe').length,"
        "  handlers: handlers.length };")


@pytest.mark.browser
def test_hostile_ids_and_messages_stay_text_in_a_browser(graded: Graded, browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.grader.reports.hostile_text import HOSTILE, hostile_document

    document = hostile_document(graded.document)
    page = tmp_path / "report.html"
    page.write_text(render(results_from_json(document)), encoding="utf-8")
    browser.get(page.as_uri())
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    assert _injected(browser) == {"pwned": None, "scripts": 2, "imgs": 0, "handlers": 0}
    # Every id is shown verbatim (as text) in the matrix and the API table.
    ids = [th.get_attribute("textContent") for th in browser.find_elements(By.CSS_SELECTOR, "#matrix tbody th.sid")]
    assert ids == [s["id"] for s in document["submissions"]]
    api_ids = [th.get_attribute("textContent") for th in browser.find_elements(By.CSS_SELECTOR, "#api-matrix th.sid")]
    assert api_ids == ids
    titles = browser.execute_script(
        "return [...document.querySelectorAll('#api-matrix td[title]')].map(td => td.title);")
    assert len(titles) == 4 * len(HOSTILE)
    assert [t for t in titles if not any(t.endswith(text) for text in HOSTILE)] == []
    # The page still works: each cell loads its message, verbatim, into the player.
    for s_index, submission in enumerate(document["submissions"]):
        for c_index, case in enumerate(submission["cases"]):
            browser.find_element(By.CSS_SELECTOR, f'button[data-sub="{s_index}"][data-case="{c_index}"]').click()
            shown = browser.find_element(By.ID, "replay-message").get_attribute("textContent")
            assert shown == case["message"]
    assert _injected(browser)["pwned"] is None
    # No console message at all: no CSP violation by the page's own style or script, no error.
    assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []


@pytest.mark.browser
def test_the_policy_stops_a_script_that_escaping_let_through(graded: Graded, browser, tmp_path: Path) -> None:
    """The second line of defence: were an escaping bug to put a student's script or handler in the page, the
    Content-Security-Policy (the page's own script and style by hash) would keep it from running."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    planted = ('<script>window.pwned = 1</script><img src="data:," onerror="window.pwned = 2">'
               '<div id="styled" style="color: rgb(1, 2, 3)">x</div>')
    page = tmp_path / "report.html"
    page.write_text(render(graded.results).replace("<header>", planted + "<header>", 1), encoding="utf-8")
    browser.get(page.as_uri())
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    assert browser.execute_script("return window.pwned === undefined")
    assert browser.find_element(By.ID, "styled").value_of_css_property("color") != "rgba(1, 2, 3, 1)"
    violations = [e["message"] for e in browser.get_log("browser") if "Content Security Policy" in e["message"]]
    assert len(violations) >= 2
