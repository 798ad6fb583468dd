"""A moves-output, blank-first, stdin-input assignment graded end to end on a set certified for its goal.

The configuration is the worked one in testcases/README.md (read from there, so the README
stays true), and its search-report variant (path_to_goal in output.txt, the board as a comma
list argument). The sample programs in data/moves-submissions each have one quirk: a correct
BFS, one that names the tile's direction instead of the blank's, one whose blank wraps around
the row ends.
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from grader.judging.check import check_output
from grader.judging.verify import Rules
from grader.pipeline import grade
from grader.reports.html_report import report_data
from grader.reports.json_results import read_results
from grader.testsets.assignment import load_assignment
from grader.testsets.generate import Bucket, Plan, generate
from grader.testsets.model import load_testset
from grader.testsets.validate import validate_testset
from grader.testsets.write import write_set
from solver.board import Board
from tests.grader.reports.test_html_report import browser  # noqa: F401  (the Chromium fixture)
from tests.support import REPO

SUBMISSIONS = REPO / "tests" / "grader" / "data" / "moves-submissions"
README = REPO / "testcases" / "README.md"
PLAN = Plan(random_3x3=0, buckets=(Bucket(3, 6, 12, 3), Bucket(4, 4, 8, 1)), deep_4x4=0, two_by_two=2,
            unsolvable_sizes=(2, 3, 4), solved_sizes=(2, 3, 4), corners=False, hardest_3x3=False, visible_every=1)


def readme_configs() -> list[str]:
    """The TOML blocks of the README's moves-output section: the main configuration, then its variant."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Worked configuration: a moves-output AI course"):]
    section = section[:section.find("\n## ", 4)] if "\n## " in section[4:] else section
    return [textwrap.dedent(block) for block in re.findall(r"```toml\n(.*?)```", section, re.S)]


@pytest.fixture(scope="module")
def testset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("moves") / "ai-8puzzle"
    write_set(root, "ai-8puzzle", generate("ai-course", PLAN, "plain", blank_first=True), goal="blank-first")
    (root / "assignment.toml").write_text(readme_configs()[0], encoding="utf-8")  # a set comes with its assignment
    return root


def _grade(tmp_path: Path, testset: Path, config: str, names: list[str]):
    folder = tmp_path / "set"
    shutil.copytree(testset, folder)
    (folder / "assignment.toml").write_text(config, encoding="utf-8")
    subs = tmp_path / "subs"
    for name in names:
        shutil.copytree(SUBMISSIONS / name, subs / name)
    return grade(subs, folder, tmp_path / "out", jobs=2), folder


def test_the_readme_configurations_load() -> None:
    main, variant = readme_configs()
    for text, path in ((main, "main.toml"), (variant, "variant.toml")):
        file = Path(__file__).parent / path
        try:
            file.write_text(text, encoding="utf-8")
            assignment = load_assignment(file)
        finally:
            file.unlink()
        assert assignment.output_format == "moves" and assignment.blank_first


def test_the_set_is_certified_for_the_blank_first_goal(testset: Path) -> None:
    report = validate_testset(testset)
    assert report.ok, report.problems
    cases = load_testset(testset).cases
    assert {c.id for c in cases if c.optimal_moves == 0} == {"2x2-solved", "3x3-solved", "4x4-solved"}
    assert {c.n for c in cases} == {2, 3, 4}


def test_moves_on_stdin_graded_end_to_end(tmp_path: Path, testset: Path) -> None:
    main, _ = readme_configs()
    results, folder = _grade(tmp_path, testset, main,
                             ["AC-moves-correct", "WA-moves-tile-direction", "WA-moves-wraps-around-rows"])
    by_id = {s.id: s for s in results.submissions}
    cases = {c.id: c for c in load_testset(folder).cases}

    correct = by_id["AC-moves-correct"]
    assert [c.verdict.value for c in correct.cases] == ["AC"] * len(cases), [c.message for c in correct.cases]
    assert correct.score == correct.max_score

    # Naming the tile's direction: every path that moves is WA with the reason; no-move answers stand.
    for result in by_id["WA-moves-tile-direction"].cases:
        case = cases[result.case]
        if case.solvable and case.optimal_moves:
            assert result.verdict.value == "WA", result.message
            assert "read as the direction the tile moves, the moves are legal and reach the goal" in result.message
        else:
            assert result.verdict.value == "AC", result.message

    wraps = by_id["WA-moves-wraps-around-rows"]
    illegal = [c for c in wraps.cases if c.verdict.value == "WA"]
    assert illegal and all("is not legal" in c.message and "must stay in its row" in c.message for c in illegal)
    assert all(c.verdict.value == "AC" for c in wraps.cases if c not in illegal)

    # The report: each case carries the blank-first goal, and the replay ends on it.
    document = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert document["assignment"]["goal"] == "blank-first"
    data = report_data(read_results(tmp_path / "out" / "results.json"))
    assert all(case["goal"] == list(range(case["n"] ** 2)) for case in data["cases"])
    column = [case["id"] for case in data["cases"]].index("3x3-d6-12-01")
    replayed = data["submissions"][0]["cells"][column][5]  # [verdict, points, message, seconds, moves, replay]
    assert replayed["boards"] == cases["3x3-d6-12-01"].optimal_moves + 1 and "illegal" not in replayed


def test_the_search_report_variant_graded_end_to_end(tmp_path: Path, testset: Path) -> None:
    _, variant = readme_configs()
    results, _ = _grade(tmp_path, testset, variant, ["AC-path-to-goal-driver"])
    [driver] = results.submissions
    assert driver.build.entry == "driver.py"
    assert [c.verdict.value for c in driver.cases] == ["AC"] * len(driver.cases), [c.message for c in driver.cases]


def test_grade_check_takes_the_assignment(tmp_path: Path) -> None:
    main, _ = readme_configs()
    config = tmp_path / "assignment.toml"
    config.write_text(main, encoding="utf-8")
    puzzle, answer = tmp_path / "input.txt", tmp_path / "output.txt"
    puzzle.write_text("3\n1 4 2\n3 0 5\n6 7 8\n")
    answer.write_text("UP\nLEFT\n")
    report = check_output(answer, puzzle, Rules.of(load_assignment(config)))
    assert report.ok and "goal 0 1 2 / 3 4 5 / 6 7 8" in report.lines[0]
    answer.write_text("DOWN\nRIGHT\n")
    report = check_output(answer, puzzle, Rules.of(load_assignment(config)))
    assert not report.ok and "read as the direction the tile moves" in report.lines[0]


@pytest.mark.browser
def test_the_replay_shows_the_blank_first_goal(tmp_path: Path, testset: Path, browser) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    main, _ = readme_configs()
    results, _ = _grade(tmp_path, testset, main, ["AC-moves-correct"])
    browser.get((tmp_path / "out" / "report.html").as_uri())
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    index = [c.case for c in results.submissions[0].cases].index("3x3-d6-12-01")
    browser.find_element(By.CSS_SELECTOR, f'button[data-sub="0"][data-case="{index}"]').click()
    assert browser.find_element(By.ID, "replay-goal").text == "0 1 2 / 3 4 5 / 6 7 8"
    browser.find_element(By.ID, "replay-last").click()
    board = browser.find_element(By.ID, "replay-board")
    assert board.get_attribute("data-tiles") == " ".join(map(str, Board.goal(3, blank_first=True).tiles))
    assert "at-goal" in board.get_attribute("class").split()
    browser.find_element(By.ID, "replay-first").click()
    assert "at-goal" not in board.get_attribute("class").split()


def test_grade_check_command_with_the_assignment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from grader.cli import entry

    main, _ = readme_configs()
    config = tmp_path / "assignment.toml"
    config.write_text(main, encoding="utf-8")
    (tmp_path / "input.txt").write_text("2\n1 0\n2 3\n")
    (tmp_path / "output.txt").write_text("LEFT\n")
    args = ["check", str(tmp_path / "output.txt"), "--assignment", str(config)]
    assert entry([*args, "--input", str(tmp_path / "input.txt")]) == 0
    assert "OK: a legal 1-move path to the goal (optimal) (goal 0 1 / 2 3)" in capsys.readouterr().out
    assert entry(args) == 7
    assert "the answer is moves, which start from the puzzle: give it with --input INPUT" in capsys.readouterr().out


def test_the_bundled_ai_set_is_the_readme_configuration_certified_for_its_goal(tmp_path: Path) -> None:
    bundled = REPO / "testcases" / "ai-8puzzle"
    main, _ = readme_configs()
    assert (bundled / "assignment.toml").read_text(encoding="utf-8") == main
    report = validate_testset(bundled)
    assert report.ok, report.problems
    assert load_testset(bundled).goal == "blank-first"
    shutil.copytree(SUBMISSIONS / "AC-moves-correct", tmp_path / "subs" / "AC-moves-correct")
    [correct] = grade(tmp_path / "subs", bundled, None, jobs=2).submissions
    assert correct.score == correct.max_score, [c.message for c in correct.cases if c.verdict.value != "AC"]
