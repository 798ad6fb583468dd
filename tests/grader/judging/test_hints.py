"""Crash hints: each stderr sample from a real kind of failure gets the sentence a TA would write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.judging.hints import Context, excerpt, explain

DATA = Path(__file__).resolve().parent.parent / "data" / "stderr"
CASES = json.loads((DATA / "cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_hint_for_stderr(name: str) -> None:
    case = CASES[name]
    hint = explain((DATA / name).read_bytes(), Context(io=case["io"]))
    if case["hint"] is None:
        assert hint is None
    else:
        assert hint is not None and case["hint"] in hint


def test_every_sample_is_listed() -> None:
    assert sorted(p.name for p in DATA.glob("*.txt")) == sorted(CASES)


def test_files_mode_input_name_is_not_blamed_on_the_student() -> None:
    # In files mode, failing to open input.txt is not a hard-coded name (the generic rule answers).
    hint = explain((DATA / "python-no-such-file.txt").read_text(), Context(io="files"))
    assert hint is not None and "hard-code" not in hint


def test_excerpt_keeps_the_java_exception_head() -> None:
    text = (DATA / "java-hardcoded-name.txt").read_text()
    assert excerpt(text, lines=2).splitlines() == text.splitlines()[:2]
