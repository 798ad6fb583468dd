"""The HTML report: one self-contained file (inline CSS, JS and SVG; it loads nothing).

It shows each submission's score, a submission×case verdict matrix, a score histogram,
and a replay player: pick any cell of the matrix and the submission's printed path for
that case plays board by board (play, pause, step), the first illegal step marked and
the optimal length beside the printed one.

Legality is decided here, in Python, with the solver's own move rules
(:meth:`Board.move_to`); the page only decodes the result. The matrix shows one page of
rows at a time (:data:`PAGE_ROWS` in the script) and sorts by any column, so a class of
a thousand opens as fast as a class of fifty.

The page is filled in one pass by Jinja2 with autoescaping: student text (ids, messages,
API messages) is escaped for where it lands, the data travels as JSON that cannot close
its ``<script>`` (:func:`~grader.reports.escaping.json_in_script`), and a
Content-Security-Policy lets only the page's own style and script run, by their SHA-256. Each path travels as its
first board plus one letter per step (``U D L R`` for the blank's move, ``*`` for a
step that is not a move, whose board is stored whole), which keeps a class of hundreds
of submissions in a file of a few hundred kilobytes.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click
import jinja2
from markupsafe import Markup

from grader.judging.verdicts import SEVERITY, Verdict
from grader.model.results import GradingResults
from grader.reports.escaping import json_in_script
from solver.board import Board, Move
from solver.fileio import write_atomic

MAX_REPLAY_BOARDS = 2_000
"""A runaway output is replayed up to here; the rest is summed up."""

HISTOGRAM_BINS = 10
TEMPLATES = Path(__file__).resolve().parent / "templates"
LETTERS = {Move.UP: "U", Move.DOWN: "D", Move.LEFT: "L", Move.RIGHT: "R"}
"""The page's letter for each of the solver's moves of the blank."""


def _valid(tiles: Sequence[int]) -> Board | None:
    """``tiles`` as a board if they are an N×N board (each of 0..N²-1 once, N ≥ 2), else ``None``."""
    try:
        return Board.from_tiles(tiles)
    except (ValueError, TypeError):
        return None


@functools.lru_cache(maxsize=64)
def _letters(n: int) -> tuple[dict[int, str], ...]:
    """For each blank position of an N×N board, where the solver lets the blank go (:meth:`Board.successors`,
    asked once per position) and the page's letter for that move."""
    table = []
    for blank in range(n * n):
        tiles = list(range(n * n))
        tiles[0], tiles[blank] = tiles[blank], 0
        table.append({child.tiles.index(0): LETTERS[move] for move, child in Board(tuple(tiles), n).successors()})
    return tuple(table)


def _step(before: tuple[int, ...], blank: int, after: tuple[int, ...], n: int) -> str | None:
    """The letter of the move that turns ``before`` (a valid board, its blank at ``blank``) into ``after``, or
    ``None``: the blank goes where the solver allows and nothing else changes (so ``after`` is valid too)."""
    if len(after) != len(before):
        return None
    try:
        target = after.index(0)
    except ValueError:
        return None
    letter = _letters(n)[blank].get(target)
    if letter is None:
        return None
    expected = list(before)
    expected[blank], expected[target] = expected[target], 0
    return letter if tuple(expected) == after else None


def replay(path: Sequence[Sequence[int]] | None, start: Sequence[int] | None) -> dict[str, Any] | None:
    """The compact replay of one printed path, with its first illegal step.

    ``illegal`` is the index of the first board that is not one legal move after the
    board before it (0 when the first board is not the case's input), or ``None``;
    ``repeat`` is ``[i, j]`` when board ``i`` is the first to repeat an earlier board ``j``.
    ``None`` when the path is empty or holds a board that is not an N×N board of one size.

    >>> r = replay([[1, 2, 0, 3], [1, 2, 3, 0], [0, 2, 3, 1]], [1, 2, 0, 3])
    >>> r["steps"], r["jumps"], r["illegal"]
    ('R*', {'2': [0, 2, 3, 1]}, 2)
    """
    if not path:
        return None
    shown = path[:MAX_REPLAY_BOARDS]
    first = _valid(shown[0])
    if first is None:
        return None
    expected = _valid(start) if start else None
    illegal: int | None = 0 if expected is not None and expected != first else None
    steps, jumps = [], {}
    seen = {first.tiles: 0}
    repeat: list[int] | None = None
    previous, blank = first.tiles, first.blank
    for index in range(1, len(shown)):
        after = tuple(shown[index])
        letter = _step(previous, blank, after, first.n)
        if letter is None:
            checked = _valid(after)
            if checked is None or checked.n != first.n:
                return None
            letter = "*"
            jumps[str(index)] = list(after)
            if illegal is None:
                illegal = index
        steps.append(letter)
        if repeat is None and after in seen:
            repeat = [index, seen[after]]
        seen.setdefault(after, index)
        previous, blank = after, after.index(0)
    return {"n": first.n, "first": list(first.tiles), "steps": "".join(steps), "jumps": jumps,
            "illegal": illegal, "repeat": repeat, "boards": len(path), "shown": len(shown)}


def _case_inputs(results: GradingResults) -> dict[str, list[int] | None]:
    """Each case's input board (row-major tiles), from results.json's top-level ``cases``."""
    return {case.id: list(case.board) if case.board is not None else None for case in results.cases}


def _compact(full: dict[str, Any] | None, start: Sequence[int] | None) -> dict[str, Any] | None:
    """A replay as the page carries it: what the page can rebuild (the size, a first board equal to
    the case's input, no jumps, no illegal step) is left out."""
    if full is None:
        return None
    compact = {"steps": full["steps"], "boards": full["boards"]}
    if start is None or list(start) != full["first"]:
        compact["first"] = full["first"]
    for key in ("jumps", "illegal", "repeat"):
        if full[key]:
            compact[key] = full[key]
    if full["illegal"] == 0:
        compact["illegal"] = 0
    if full["shown"] != full["boards"]:
        compact["shown"] = full["shown"]
    return compact


def _goal(n: Any, blank_first: bool) -> list[int] | None:
    """The assignment's goal board for a case (blank last, or blank first), as the replay shows it."""
    return list(Board.goal(n, blank_first).tiles) if isinstance(n, int) and n >= 2 else None


def report_data(results: GradingResults) -> dict[str, Any]:
    """Everything the page's script needs, as compact JSON-ready data.

    ``submissions[i].cells[k]`` is ``[verdict, points, message, seconds, moves, replay]`` for
    ``cases[k]`` (``null`` when that case was not graded); ``message`` indexes ``messages``, where
    each distinct text appears once (hundreds of students share a few dozen messages). A submission with API
    tests has ``api[t]``: ``[passed, points, max_points, message]`` for ``api_names[t]`` (``null`` if not run).
    ``severity`` is the grader's verdict order, worst first, by which a case column sorts. ``moves`` is each
    step letter's (row, column) move of the blank, from the solver's :class:`~solver.board.Move`;
    ``api_verdicts`` the verdicts an API test shows when it passes and when it fails.
    """
    inputs = _case_inputs(results)
    blank_first = results.assignment.get("goal") == "blank-first"
    cases = [{"id": case.id, "n": case.n, "optimal": case.optimal_moves, "solvable": case.solvable,
              "points": case.points, "visibility": case.visibility, "input": inputs.get(case.id),
              "goal": _goal(case.n, blank_first)}
             for case in results.cases]
    order = {case["id"]: index for index, case in enumerate(cases)}
    messages: dict[str, int] = {}
    api_names: dict[str, None] = {}  # every API test's name, in the order first seen
    api_tests: list[dict[str, list[Any]]] = []  # one pass over the submissions: their API cells are made after it
    submissions = []
    for submission in results.submissions:
        cells: list[list[Any] | None] = [None] * len(cases)
        for case in submission.cases:
            if case.case not in order:
                continue
            start = inputs.get(case.case)
            text = messages.setdefault(case.message, len(messages))
            cells[order[case.case]] = [case.verdict.value, case.points, text,
                                       round(case.seconds, 3), case.moves, _compact(replay(case.path, start), start)]
        entry = {"id": submission.id, "score": submission.score, "max_score": submission.max_score, "cells": cells}
        by_name = {test.name: [test.passed, test.points, test.max_points,
                               messages.setdefault(test.message, len(messages))] for test in submission.api}
        api_names.update(dict.fromkeys(by_name))
        api_tests.append(by_name)
        submissions.append(entry)
    for entry, by_name in zip(submissions, api_tests):
        if by_name:
            entry["api"] = [by_name.get(name) for name in api_names]
    return {"testset": results.title, "cases": cases, "messages": list(messages),
            "submissions": submissions, "severity": [verdict.value for verdict in SEVERITY],
            "api_names": list(api_names),
            # The page decodes steps with the solver's moves and shows API tests with the vocabulary's verdicts.
            "moves": {letter: list(move.value) for move, letter in LETTERS.items()},
            "api_verdicts": [Verdict.AC.value, Verdict.WA.value]}


def _fmt(value: float | int | None) -> str:
    if value is None:
        return "–"
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


def _percent(score: float, max_score: float) -> float:
    return 100.0 * float(score) / float(max_score) if max_score else 0.0


def histogram_svg(percents: Sequence[float], bins: int = HISTOGRAM_BINS) -> str:
    """An inline SVG bar chart of scores in ``bins`` equal bands of 0–100 % (100 % in the last)."""
    counts = [0] * bins
    for value in percents:
        counts[min(bins - 1, max(0, int(value * bins // 100)))] += 1
    width, height, left, bottom, top = 480, 170, 36, 34, 16
    plot_w, plot_h = width - left - 10, height - bottom - top
    peak = max(counts) or 1
    ticks = sorted({0, peak} | ({math.ceil(peak / 2)} if peak > 1 else set()))
    bar_w = plot_w / bins
    parts = [f'<svg class="histogram" role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             f'xmlns="http://www.w3.org/2000/svg"><title>Score histogram: {len(percents)} submissions</title>']
    for tick in ticks:
        y = top + plot_h - plot_h * tick / peak
        parts.append(f'<line x1="{left}" x2="{width - 10}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick}</text>')
    for index, count in enumerate(counts):
        h = plot_h * count / peak
        x = left + index * bar_w
        low, high = index * 100 // bins, (index + 1) * 100 // bins
        label = f"{low}–{high}%: {count} submission{'s' if count != 1 else ''}"
        parts.append(f'<rect class="bar" x="{x + 2:.1f}" y="{top + plot_h - h:.1f}" width="{bar_w - 4:.1f}" '
                     f'height="{h:.1f}" data-count="{count}"><title>{label}</title></rect>')
        if count:
            parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{top + plot_h - h - 3:.1f}" '
                         f'text-anchor="middle">{count}</text>')
        parts.append(f'<text x="{x:.1f}" y="{height - bottom + 16}" text-anchor="middle">{low}</text>')
    parts.append(f'<text x="{width - 10}" y="{height - bottom + 16}" text-anchor="middle">100</text>'
                 f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" text-anchor="middle">score (%)</text>'
                 f'<line x1="{left}" x2="{width - 10}" y1="{top + plot_h}" y2="{top + plot_h}" class="axis"/></svg>')
    return "".join(parts)


def _case_heads(cases: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What a matrix column's head shows (plain text: the template escapes it)."""
    return [{"id": c["id"], "visibility": c["visibility"], "points_text": _fmt(c["points"]),
             "optimum": _fmt(c["optimal"]) if c["solvable"] else "unsolvable"} for c in cases]


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


@functools.cache
def _page_parts() -> tuple[jinja2.Template, Markup, Markup, str]:
    """The template, the page's own style and script, and the CSP that allows exactly those two."""
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                                     undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    style = (TEMPLATES / "report.css").read_text(encoding="utf-8")
    script = (TEMPLATES / "report.js").read_text(encoding="utf-8")
    csp = (f"default-src 'none'; script-src {_sha256(script)}; style-src {_sha256(style)}; "
           "base-uri 'none'; form-action 'none'")
    return environment.get_template("report.html"), Markup(style), Markup(script), csp


def render(results: GradingResults, title: str = "N-puzzle grading report") -> str:
    """The whole HTML page for a results.json document, filled in one pass with every text escaped."""
    data = report_data(results)
    percents = [_percent(s["score"], s["max_score"]) for s in data["submissions"]]
    ordered = sorted(percents)
    median = (ordered[len(ordered) // 2] + ordered[(len(ordered) - 1) // 2]) / 2 if ordered else 0.0
    template, style, script, csp = _page_parts()
    return template.render(
        csp=csp, title=title, style=style, script=script, submissions=len(data["submissions"]),
        cases=_case_heads(data["cases"]), testset=str(data["testset"]),
        mean=f"{sum(percents) / len(percents) if percents else 0.0:.1f}", median=f"{median:.1f}",
        verdicts=list(Verdict), histogram=Markup(histogram_svg(percents)),
        data=json_in_script(data))


def write_report(results: GradingResults, path: Path) -> Path:
    """Write the report atomically; returns its path."""
    write_atomic(path, render(results))
    return Path(path)


@click.command("report")
@click.argument("results_json", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--out", "out", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Where to write the page (default: report.html beside RESULTS_JSON).")
def report_command(results_json: Path, out: Path | None) -> int:
    """Write the HTML report (scores, verdict matrix, path replays, histogram) for a results.json."""
    from grader.reports.json_results import (
        read_results,  # json_results is the heavier import; only this command needs it
    )

    path = write_report(read_results(results_json), out or results_json.with_name("report.html"))
    click.echo(f"wrote {path}")
    return 0
