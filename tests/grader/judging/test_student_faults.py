"""Whatever a student's output or source holds, the grader answers with a verdict, never a JE.

``data/hostile-outputs`` holds outputs made to break parsers: integers past Python's
4,300-digit conversion limit, NUL bytes, invalid UTF-8, escape sequences, Unicode digits,
boards of two sizes, a 100x100 board, random bytes. ``grade check`` on each ends with exit 0
or 7 and a message, never "internal error"; the pipeline's verification gives a verdict of
the closed set. A source nested deeply enough to make Python's compiler raise
``RecursionError`` is a CE, and a host-side step past its time cap is the submission's
verdict, not a stalled grader.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

from grader import case_run, pipeline
from grader.cli import entry
from grader.intake.timecap import HostStepTimeout, capped
from grader.judging.verdicts import Verdict
from grader.judging.verify import Expected, Rules, verify
from solver.formats import parse_puzzle
from tests.support import REPO

DATA = REPO / "tests" / "grader" / "data"
OUTPUTS = sorted((DATA / "hostile-outputs").iterdir())
INPUT = DATA / "outputs" / "AC-exact-format" / "input.txt"


@pytest.mark.parametrize("output", OUTPUTS, ids=lambda p: p.stem)
def test_grade_check_never_fails_internally(output: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for extra in ([], ["--input", str(INPUT)]):
        code = entry(["check", str(output), *extra])
        captured = capsys.readouterr()
        assert code in (0, 7), captured.err
        assert "internal error" not in captured.err and captured.out.strip()
        assert "\x1b" not in captured.out and "\u202e" not in captured.out


@pytest.mark.parametrize("output", OUTPUTS, ids=lambda p: p.stem)
def test_verification_gives_a_verdict(output: Path) -> None:
    expected = Expected(parse_puzzle(INPUT.read_bytes()), True, 22)
    assert verify(output.read_bytes(), expected, Rules()).verdict in set(Verdict) - {Verdict.JE}


@pytest.mark.parametrize("depth", [3_000, 200_000], ids=["RecursionError", "MemoryError"])
def test_a_source_that_overflows_the_compilers_stack_is_a_ce(tmp_path: Path, depth: int) -> None:
    subs = tmp_path / "subs"
    (subs / "deep").mkdir(parents=True)
    (subs / "deep" / "main.py").write_text("x = " + "-" * depth + "1\n")
    [submission] = pipeline.grade(subs, DATA / "testset", None, jobs=1).submissions
    assert {case.verdict for case in submission.cases} == {Verdict.CE}, submission.build


def test_capped_returns_raises_and_stops_waiting() -> None:
    assert capped("adding", 5, lambda a, b: a + b, 2, 3) == 5
    with pytest.raises(ZeroDivisionError):
        capped("dividing", 5, lambda: 1 / 0)
    started = time.monotonic()
    with pytest.raises(HostStepTimeout, match=re.escape("stopped sleeping after 0.2 s")) as stopped:
        capped("sleeping", 0.2, time.sleep, 3, verdict=Verdict.PE)
    assert stopped.value.verdict is Verdict.PE and time.monotonic() - started < 2


def test_output_checking_past_its_cap_is_the_cases_verdict(tmp_path: Path, monkeypatch) -> None:
    def stuck_verify(*args, **kwargs):
        time.sleep(5)  # a parse or verification that never ends in time

    monkeypatch.setattr(case_run, "CHECK_SECONDS", 0.3)
    monkeypatch.setattr(case_run, "verify", stuck_verify)
    subs = tmp_path / "subs"
    shutil.copytree(REPO / "examples" / "submissions" / "AC-python-correct", subs / "ok")
    started = time.monotonic()
    [submission] = pipeline.grade(subs, DATA / "testset", None, jobs=2).submissions
    assert {case.verdict for case in submission.cases} == {Verdict.PE}
    assert all("the grader stopped checking the output after 0.3 s" in case.message for case in submission.cases)
    assert time.monotonic() - started < 30  # five cases, not five times five seconds in a row


def test_copying_past_its_cap_is_a_ce(tmp_path: Path, monkeypatch) -> None:
    from grader.intake import build as build_module

    monkeypatch.setattr(build_module, "COPY_SECONDS", -1.0)  # the deadline has passed before the first file
    subs = tmp_path / "subs"
    shutil.copytree(REPO / "examples" / "submissions" / "AC-python-correct", subs / "ok")
    [submission] = pipeline.grade(subs, DATA / "testset", None, jobs=1).submissions
    assert {case.verdict for case in submission.cases} == {Verdict.CE}
    assert "the grader stopped copying the submission after -1 s" in submission.build.message
