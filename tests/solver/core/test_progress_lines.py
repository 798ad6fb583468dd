"""Progress lines for logs: a line every interval (also while a step is silent), a last line, silence if quick."""

from __future__ import annotations

import io
import re
import time

from solver.clikit import ProgressLines


def test_lines_come_on_a_timer_and_end_with_a_last_line() -> None:
    stream = io.StringIO()
    with ProgressLines("grading", "runs", every=0.05, stream=stream) as lines:
        lines.update(0, 40)
        time.sleep(0.18)  # one long step that reports nothing: lines still come
        lines.update(10)
        time.sleep(0.12)
    text = stream.getvalue().splitlines()
    assert len(text) >= 4
    assert all(re.fullmatch(r"grading: \d+/40 runs \(\d+%\), \d+s elapsed(, about \d+s left)?( \(done\))?", line)
               for line in text), text
    assert text[0].startswith("grading: 0/40 runs (0%)") and text[-1].startswith("grading: 10/40 runs (25%)")
    assert "about" in text[-2] and text[-1].endswith("(done)")


def test_quick_work_prints_nothing() -> None:
    stream = io.StringIO()
    with ProgressLines("validating", "cases", every=5, stream=stream) as lines:
        lines.update(3, 3)
    assert stream.getvalue() == ""


def test_unknown_total_and_a_stopped_run() -> None:
    stream = io.StringIO()
    try:
        with ProgressLines("validating", "cases", every=0.03, stream=stream) as lines:
            lines.update(2)
            time.sleep(0.1)
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    assert stream.getvalue().splitlines()[-1] == "validating: 2 cases, 0s elapsed (stopped)"
