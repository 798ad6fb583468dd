"""A junk Board/Solver that plays tricks in its own process scores no more than the same junk without them.

The API tests' judge runs in the grader and only reads data back from the worker that holds the
student's classes (``grader.apitests.judge``). Each trick in ``api_forgery/tricks/`` is put in front of
the junk submission's ``board.py`` (and ``<trick>.tail`` after it): printing fake reports, writing fake
answers to every descriptor, leaving early, monkey-patching the worker's measures and counters, becoming
the reference Board, reading the worker's frames, reaching the judge through the file system. The Java
junk gets the same attacks in its ``Board``'s static initializer (``api_forgery/java/tricks/``): the old
harness's forgery, reading and rewriting the worker's fields by reflection, fake output on every
stream and descriptor, zeroed counters, exit and halt mid-test, a flood on its own socket, and a
Board that borrows the reference Board wherever it can find one.

Tricks that leave the worker's channel alone must score exactly what the junk scores; the ones that
write into it can only break their own worker, so they may score less, never more. And no run, judge
request or message ever holds a hidden case's board or name.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import tempfile
from pathlib import Path

import pytest

from grader.apitests import judge
from grader.apitests.battery import Battery
from grader.apitests.remote import Channel
from grader.apitests.run import run_api_tests
from grader.intake.build import build
from grader.sandbox import runner
from grader.testsets.assignment import load_assignment
from grader.testsets.model import load_testset
from tests import support
from tests.support import REPO

HERE = Path(__file__).resolve().parent / "api_forgery"
DATA = REPO / "tests" / "grader" / "apitests" / "data"
CHANNEL_SAFE = ("fake_reports", "old_harness", "patch_worker", "reference_board", "frames", "judge_fs")
"""Tricks that do not write into the worker's socket: exactly the junk's score."""
CHANNEL_BREAKING = ("every_fd", "exit_early")
"""Tricks that corrupt or close their own worker's socket: at most the junk's score."""


@pytest.fixture(scope="module")
def setup():
    assignment = load_assignment(DATA / "testset" / "assignment.toml")
    cases = load_testset(DATA / "testset").cases
    return assignment, cases


@pytest.fixture
def folders():
    with support.run_folders("npuzzle-api-forgery-") as make:
        yield make


def junk_with(trick: str | None, folders) -> Path:
    """The junk submission, with ``trick``'s code before (and its tail after) the junk Board."""
    target = folders("sub") / "submission"
    shutil.copytree(HERE / "python" / "junk", target)
    if trick is not None:
        tail = HERE / "tricks" / f"{trick}.tail"
        board = (HERE / "tricks" / f"{trick}.py").read_text() + "\n" + (target / "board.py").read_text()
        (target / "board.py").write_text(board + (tail.read_text() if tail.exists() else ""))
    return target


def scored(trick: str | None, setup, folders) -> dict[str, bool]:
    assignment, cases = setup
    battery = Battery(cases, assignment.api)
    built = build(junk_with(trick, folders), folders("build"), assignment)
    assert built.ok, built.message
    return {r.name: r.passed for r in run_api_tests(built, battery, assignment.api, assignment, folders)}


@pytest.fixture(scope="module")
def junk_score(setup):
    base = Path(tempfile.mkdtemp(prefix="npuzzle-api-junk-"))
    base.chmod(0o711)
    counter = iter(range(10**6))

    def make(label: str = "run") -> Path:
        made = base / f"{label}-{next(counter)}"
        made.mkdir(mode=0o711)
        made.chmod(0o711)
        return made

    try:
        return scored(None, setup, make)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_the_junk_itself_earns_next_to_nothing(junk_score):
    # Only the conformance test (the methods exist) may pass: memory points need a Board that works.
    assert sorted(name for name, ok in junk_score.items() if ok) == ["api.conformance"]


@pytest.mark.parametrize("trick", CHANNEL_SAFE)
def test_a_trick_in_the_students_process_scores_exactly_the_junks(trick, setup, folders, junk_score):
    assert scored(trick, setup, folders) == junk_score


@pytest.mark.parametrize("trick", CHANNEL_BREAKING)
def test_a_trick_on_the_workers_channel_scores_no_more_than_the_junk(trick, setup, folders, junk_score):
    got = scored(trick, setup, folders)
    assert set(got) == set(junk_score)
    assert {n for n, ok in got.items() if ok} <= {n for n, ok in junk_score.items() if ok}


@pytest.mark.parametrize("language", ["python", "java"])
def test_no_hidden_case_reaches_a_run_the_judge_or_a_message(language, setup, folders, monkeypatch):
    """One case of the test set made hidden: its board (as any run could print it), file name and id appear in
    no worker's argv, environment, folder, readable paths or socket traffic, nor in any test's message."""
    if language == "java":
        from tests.support import require_tool

        require_tool("javac")
    assignment, cases = setup
    hidden = dataclasses.replace(cases[0], visibility="hidden")
    battery = Battery([hidden, *cases[1:]], assignment.api)
    seen: list[str] = []
    real_run, real_request = runner.run_command, Channel.request

    def spying_run(argv, workdir, limits, **kwargs):
        seen.append(json.dumps([list(argv), kwargs.get("env"), [str(p) for p in kwargs.get("readable", ())]]))
        for path in Path(workdir).rglob("*"):
            seen.append(str(path))
            if path.is_file():
                seen.append(path.read_bytes().decode("utf-8", "replace"))
        return real_run(argv, workdir, limits, **kwargs)

    def spying_request(self, op, seconds, **fields):
        seen.append(json.dumps([op, fields]))
        return real_request(self, op, seconds, **fields)

    monkeypatch.setattr(judge.runner, "run_command", spying_run)
    monkeypatch.setattr(Channel, "request", spying_request)
    built = build(DATA / language / "correct", folders("build"), assignment)
    results = run_api_tests(built, battery, assignment.api, assignment, folders)
    seen += [r.message for r in results]
    tiles = [int(v) for v in hidden.input_path.read_text().split()[1:]]
    n = hidden.n
    row_texts = [" ".join(str(t) for t in tiles[r * n:(r + 1) * n]) for r in range(n)]
    everything = "\n".join(seen)
    compact = everything.replace(" ", "")
    assert hidden.input_path.name not in everything
    assert hidden.id not in everything
    assert json.dumps(tiles, separators=(",", ":")) not in compact
    assert json.dumps([tiles[r * n:(r + 1) * n] for r in range(n)], separators=(",", ":")) not in compact
    assert "\n".join(row_texts) not in everything
    assert all(r.passed for r in results), [r.message for r in results if not r.passed]


JAVA_SAFE = ("old_harness", "worker_fields", "fake_output", "reset_counters", "reference_board", "judge_fs")
"""Java tricks (``api_forgery/java/tricks/``) that leave the worker's socket alone: exactly the junk's score."""
JAVA_BREAKING = ("exit_early", "halt_mid_test", "every_fd", "flood_channel")
"""Java tricks that end their own worker or write into its socket: at most the junk's score."""


def java_junk(trick: str | None, folders) -> Path:
    """The Java junk, with ``trick``'s code in Board's static block (``<trick>.txt``), or the trick's whole Board
    (``<trick>.Board.java``)."""
    from grader.apitests.catalogue import TESTS

    target = folders("sub") / "submission"
    shutil.copytree(HERE / "java" / "junk", target)
    tricks = HERE / "java" / "tricks"
    board = target / "Board.java"
    if trick is not None and (tricks / f"{trick}.Board.java").is_file():
        shutil.copyfile(tricks / f"{trick}.Board.java", board)
    elif trick is not None:
        code = (tricks / f"{trick}.txt").read_text().replace("NAMES", " ".join(t.name for t in TESTS))
        board.write_text(board.read_text().replace("/*TRICK*/", code))
    return target


def java_scored(trick: str | None, setup, folders) -> dict[str, bool]:
    assignment, cases = setup
    battery = Battery(cases, assignment.api)
    built = build(java_junk(trick, folders), folders("build"), assignment)
    assert built.ok, built.message
    return {r.name: r.passed for r in run_api_tests(built, battery, assignment.api, assignment, folders)}


@pytest.fixture(scope="module")
def java_junk_score(setup):
    from tests.support import require_tool

    require_tool("javac")
    with support.run_folders("npuzzle-api-java-junk-") as make:
        return java_scored(None, setup, make)


def test_the_java_junk_itself_earns_next_to_nothing(java_junk_score):
    assert sorted(name for name, ok in java_junk_score.items() if ok) == ["api.conformance"]


@pytest.mark.parametrize("trick", JAVA_SAFE)
def test_a_java_trick_in_the_students_jvm_scores_exactly_the_junks(trick, setup, folders, java_junk_score):
    assert java_scored(trick, setup, folders) == java_junk_score


@pytest.mark.parametrize("trick", JAVA_BREAKING)
def test_a_java_trick_on_its_own_worker_scores_no_more_than_the_junk(trick, setup, folders, java_junk_score):
    got = java_scored(trick, setup, folders)
    assert set(got) == set(java_junk_score)
    assert {n for n, ok in got.items() if ok} <= {n for n, ok in java_junk_score.items() if ok}
