"""feedback/<id>.txt: what a student reads: the score, then each case's verdict and message.

Hidden cases show their verdict but not their id (which may tell the answer, as ``3x3-unsolvable-01``
does), message or input, so the test set stays private; ``after_due_date`` cases are treated like hidden
ones here. The file is plain text a TA may ``cat``: control characters and bidirectional overrides from
ids and messages are written as visible escapes (:func:`~grader.reports.escaping.terminal_safe`), newlines
kept.
"""

from __future__ import annotations

from pathlib import Path

from grader.judging.verdicts import SEVERITY, Verdict
from grader.model.results import GradingResults, SubmissionResult
from grader.reports.api_views import feedback_lines
from grader.reports.escaping import safe_name, terminal_safe
from solver.fileio import write_atomic


def feedback_text(submission: SubmissionResult, results: GradingResults) -> str:
    verdict = submission.verdict
    lines = [f"Submission: {submission.id}",
             f"Assignment: {results.title}",
             f"Score:      {submission.score:g} / {submission.max_score:g}"
             + (f"  (overall: {verdict.value}, {verdict.meaning})" if verdict else ""),
             f"Language:   {submission.language}" + (f" ({submission.build.entry})"
                                                     if submission.build.entry else "")]
    if submission.build.algs4:
        lines.append(f"Library:    {submission.build.algs4}")
    if not submission.complete:
        lines.append("Grading was interrupted: only the cases below were run.")
    if not submission.build.ok:
        lines += ["", "Build failed:", _indent(submission.build.message)]
    elif submission.build.left_out:  # a failed build's message names them already
        lines += ["", "Left out of the submission:", *(_indent(note) for note in submission.build.left_out)]
    counts = ", ".join(f"{count} {name}" for name, count in submission.counts.items())
    lines += ["", f"Cases: {counts}" if counts else "Cases: none graded"]
    skipped = sum(1 for case in submission.cases if case.runs == 0)
    if skipped:
        lines.append(f"Time budget: {skipped} case{'s were' if skipped != 1 else ' was'} not run (TLE) after earlier "
                     "cases went over the time limit ([limits] stop_after_tle).")
    lines.append("")
    build_failed = not submission.build.ok
    hidden = 0
    for case in submission.cases:
        shown = case.case
        if case.visibility != "visible":  # a case's id may tell its answer ("3x3-unsolvable-01"): a number only
            hidden += 1
            shown = f"hidden case {hidden}"
        head = f"[{case.verdict.value:>3}] {shown}  {case.points:g}/{case.max_points:g}  ({case.seconds:.2f} s" \
               + (", run twice: it ended near the time limit)" if case.runs > 1 else ", not run)" if case.runs == 0
                  else ")")
        lines.append(head)
        if build_failed or case.verdict is Verdict.AC:
            continue
        if case.visibility != "visible" and case.runs != 0:  # a case not run reveals nothing of its input
            lines.append("      (hidden case: details are not shown)")
        else:
            lines.append(_indent(case.message, 6))
    lines += feedback_lines(submission.api)
    legend = sorted({case.verdict for case in submission.cases}, key=SEVERITY.index)
    if legend:
        lines += ["", "Verdicts:"] + [f"  {v.value:>3}  {v.meaning}" for v in legend]
    return terminal_safe("\n".join(lines), keep_newlines=True) + "\n"


def _indent(text: str, width: int = 2) -> str:
    return "\n".join(" " * width + line if line else "" for line in text.splitlines())


def write_feedback(results: GradingResults, folder: Path) -> None:
    """One file per submission; feedback files of submissions no longer graded are removed."""
    folder.mkdir(parents=True, exist_ok=True)
    wanted = set()
    for submission in results.submissions:  # one pass: a large class's are read back one at a time
        name = f"{safe_name(submission.id)}.txt"
        write_atomic(folder / name, feedback_text(submission, results))
        wanted.add(name)
    if not results.interrupted:
        for stale in folder.glob("*.txt"):
            if stale.name not in wanted:
                stale.unlink()
