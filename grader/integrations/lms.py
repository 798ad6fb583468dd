"""``grade export --lms canvas|moodle|blackboard``: grades as a gradebook CSV each LMS imports as is.

The grader knows submissions by id (the folder or zip name); a gradebook knows students by
its own keys. A roster CSV maps one to the other: it has a column holding the submission
ids (``--id-column``, default ``submission``) and the identity columns the LMS needs, under
the LMS's own names or these aliases (case and spaces ignored):

============  ==========================================================================
LMS           identity columns written (roster column names accepted)
============  ==========================================================================
Canvas        ``Student`` (name), ``ID`` (canvas_id), ``SIS User ID`` (sis_user_id),
              ``SIS Login ID`` (sis_login_id, login), ``Section`` (section); one of ID,
              SIS User ID or SIS Login ID is needed per student
Moodle        ``First name`` (first_name), ``Last name`` (last_name), ``ID number``
              (id_number, idnumber), ``Email address`` (email); ID number or email needed
Blackboard    ``Last Name``, ``First Name``, ``Username`` (username; needed),
              ``Student ID`` (student_id)
============  ==========================================================================

An LMS's own gradebook file is a valid roster as it is, when the submissions were graded under the names
that LMS's "download all" gives them (:mod:`grader.intake.lms_names`): with no ``submission`` column, each
submission id yields the LMS's own key, matched against its own column:

============  ===================================================  ======================================
LMS           downloaded as                                        matched in the gradebook file on
============  ===================================================  ======================================
Canvas        ``lastnamefirstname_12345_67890_solver.py``          ``ID`` (12345) of the gradebook CSV;
                                                                   anonymous grading's ``anon_...`` names
                                                                   match no row (listed)
Moodle        ``First Last_1000703_assignsubmission_file``         ``Identifier`` (``Participant 1000703``)
                                                                   of the grading worksheet, which is
                                                                   written back with ``Grade`` filled in;
                                                                   where the worksheet has a ``Full name``,
                                                                   the name must be the download's too (a
                                                                   team's folder carries its group's id)
Blackboard    ``Project_jdoe_attempt_2024-03-01-10-20-30_x.py``   ``Username`` (jdoe) of the Grade Center
                                                                   download (comma-delimited, or its
                                                                   tab-delimited UTF-16 file); a student's
                                                                   latest attempt counts
============  ===================================================  ======================================

Otherwise add a ``submission`` column, or point ``--id-column`` at the column that already holds
the submission ids, e.g. ``SIS Login ID``. A roster that matches no submission at all is refused
(exit 10): an import of empty grades would change nothing and say nothing.

The grade column, after the identity columns, follows each LMS's import rules:

- Canvas: ``<name> (<assignment id>)`` updates that assignment; a plain ``<name>`` creates
  one. A second row, ``Points Possible``, gives the maximum (as Canvas's own export does).
- Moodle: one column named ``<name>``; on import the user is matched through "Map from"
  (ID number or Email address) and the column is mapped to the grade item.
- Blackboard Learn: ``<name> [Total Pts: <max> Score] |<column id>`` updates that column;
  a plain ``<name>`` creates one. Every value is quoted, as its comma-delimited upload asks.

Submissions without a roster row, and roster rows without a submission, are listed; the
latter stay in the file with an empty grade (an LMS leaves an empty cell unchanged).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import click

from grader.errors import ConfigError, OutputDirError, SetupRefused
from grader.integrations.lms_match import (
    KEY_COLUMNS,
    RowMatch,
    column,
    rows_by_id,
    rows_by_key,
)
from grader.model.results import GradingResults
from grader.reports.escaping import csv_cell, terminal_safe
from solver.errors import OutputError
from solver.fileio import write_atomic


@dataclass(frozen=True)
class Layout:
    """One LMS's gradebook CSV: the identity columns (with roster aliases) and the keys it matches on."""

    name: str
    identity: tuple[tuple[str, tuple[str, ...]], ...]
    keys: tuple[str, ...]
    quote_all: bool = False


LAYOUTS: dict[str, Layout] = {
    "canvas": Layout("Canvas", (("Student", ("student", "name", "student name")),
                                ("ID", ("id", "canvas id", "canvas_id", "student id")),
                                ("SIS User ID", ("sis user id", "sis_user_id")),
                                ("SIS Login ID", ("sis login id", "sis_login_id", "login", "login id")),
                                ("Section", ("section",))),
                     keys=("ID", "SIS User ID", "SIS Login ID")),
    "moodle": Layout("Moodle", (("First name", ("first name", "first_name", "firstname")),
                                ("Last name", ("last name", "last_name", "lastname")),
                                ("ID number", ("id number", "id_number", "idnumber")),
                                ("Email address", ("email address", "email"))),
                     keys=("ID number", "Email address")),
    "blackboard": Layout("Blackboard", (("Last Name", ("last name", "last_name", "lastname")),
                                        ("First Name", ("first name", "first_name", "firstname")),
                                        ("Username", ("username", "user name", "user_name")),
                                        ("Student ID", ("student id", "student_id"))),
                         keys=("Username",), quote_all=True),
}
CANVAS_POINTS_ROW = "    Points Possible"


@dataclass(frozen=True)
class Export:
    """The CSV text and what did not match: submission ids without a roster row, roster ids without a submission."""

    text: str
    rows: int
    unmatched_submissions: tuple[str, ...]
    missing_submissions: tuple[str, ...]


MOODLE_GRADE = "Grade"


def read_roster(path: Path, id_column: str | None) -> tuple[list[str], list[dict[str, str]]]:
    """The roster's header and rows; raises :class:`ConfigError` naming the file and line.

    Read as each LMS saves its own file: UTF-8 (with or without a byte-order mark) or UTF-16 with one
    (Blackboard's tab-delimited Grade Center download), and comma-, tab- or semicolon-delimited (the delimiter
    the header line uses most; Canvas writes semicolons where a comma is the decimal mark)."""
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ConfigError(source, "$", "no such file") from None
    except OSError as exc:
        raise ConfigError(source, "$", f"cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-16") if data[:2] in (b"\xff\xfe", b"\xfe\xff") else data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(source, "$", f"cannot read as UTF-8 or UTF-16 text: {exc}") from None
    first = text.split("\n", 1)[0]
    delimiter = max(",\t;", key=first.count)
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
        header = list(reader.fieldnames or [])
        rows = [dict(row) for row in reader]
    except csv.Error as exc:
        raise ConfigError(source, "$", f"not a valid CSV file: {exc}") from None
    if not header:
        raise ConfigError(source, "line 1", "expected a header row, found an empty file")
    if id_column is not None and column(header, (id_column,)) is None:
        raise ConfigError(source, "line 1", f"expected a column {id_column!r} holding the submission ids "
                                            f"(--id-column), found {', '.join(map(repr, header))}")
    return header, rows


def grade_header(lms: str, name: str, max_score: float, column_id: str | None) -> str:
    """The grade column's header as the LMS reads it (see the module doc)."""
    if lms == "canvas" and column_id:
        return f"{name} ({column_id})"
    if lms == "blackboard" and column_id:
        return f"{name} [Total Pts: {_number(max_score)} Score] |{column_id}"
    return name


def _number(value: float) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:.4f}".rstrip("0").rstrip(".")


def export_grades(results: GradingResults, roster_path: Path, lms: str, *, id_column: str | None = "submission",
                  assignment_name: str | None = None, column_id: str | None = None,
                  id_prefix: str = "") -> Export:
    """The gradebook CSV for ``lms`` from a results.json document and a roster.

    ``id_column`` names the roster column holding submission ids; ``None`` (or the default ``submission`` when
    the roster has no such column) matches each LMS's own key instead (see the module doc). ``id_prefix`` is
    stripped from submission ids before matching (e.g. GitHub Classroom's ``assignment-`` before each
    username). Raises :class:`ConfigError` for a roster without the column to match on, without any of the
    LMS's key columns, or with a student that has no key; :class:`SetupRefused` when no row matches.
    """
    header, rows = read_roster(roster_path, None)
    if id_column is not None and column(header, (id_column,)) is None and id_column != "submission":
        read_roster(roster_path, id_column)  # raises, naming the column
    by_id = id_column is not None and column(header, (id_column,)) is not None
    scores = {s.id[len(id_prefix):] if id_prefix and s.id.startswith(id_prefix) else s.id: s.score
              for s in results.submissions}
    match = (rows_by_id(header, id_column or "", scores) if by_id
             else rows_by_key(header, rows, lms, scores, str(roster_path), LAYOUTS[lms].name))
    name = assignment_name or results.title or "N-puzzle"
    max_score = results.max_score
    if not by_id and lms == "moodle":
        exported = _moodle_worksheet(header, rows, match, scores)
    else:
        exported = _gradebook(header, rows, lms, match, scores, name, max_score, column_id, str(roster_path))
    if scores and exported.rows and len(exported.missing_submissions) == exported.rows:
        how = f"the roster's {id_column!r} column" if by_id else \
            f"the {KEY_COLUMNS[lms]} column, keyed by the names {LAYOUTS[lms].name}'s download gives"
        raise SetupRefused(
            f"{roster_path}: none of its {exported.rows} students matches a graded submission through {how} "
            f"(submission ids: {', '.join(sorted(scores)[:5])}{' ...' if len(scores) > 5 else ''}); importing it would "
            "change no grade. Grade the folders or files as the LMS downloaded them, or add a 'submission' column "
            "holding each student's submission id (or name one with --id-column)")
    return exported


def _moodle_worksheet(header: list[str], rows: list[dict[str, str]], match: RowMatch,
                      scores: Mapping[str, float]) -> Export:
    """Moodle's grading worksheet, as downloaded, with its Grade column filled in (what "Upload grading
    worksheet" reads); a student without a submission keeps the cell as it was."""
    grade_column = column(header, (MOODLE_GRADE,)) or MOODLE_GRADE
    columns = header if grade_column in header else [*header, grade_column]
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\r\n", extrasaction="ignore")
    writer.writeheader()
    seen, missing = set(), []
    for line, row in enumerate(rows, start=2):
        sid = match(row)
        if sid:
            seen.add(sid)
            writer.writerow({**row, grade_column: _number(scores[sid])})
        else:
            missing.append(f"{row.get(header[0]) or ''} (line {line})".strip())
            writer.writerow(row)
    return Export(out.getvalue(), len(rows), tuple(sorted(set(scores) - seen)), tuple(missing))


def _gradebook(header: list[str], rows: list[dict[str, str]], lms: str, match: RowMatch,
               scores: Mapping[str, float], name: str, max_score: float, column_id: str | None,
               source: str) -> Export:
    layout = LAYOUTS[lms]
    columns = {target: column(header, (target, *aliases)) for target, aliases in layout.identity}
    if not any(columns[key] for key in layout.keys):
        raise ConfigError(source, "line 1", f"{layout.name} matches students on {' or '.join(layout.keys)}: "
                                            f"expected one of those columns, found {', '.join(map(repr, header))}")
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL if layout.quote_all else csv.QUOTE_MINIMAL, lineterminator="\r\n")
    # Roster names and the column name are text to the gradebook, never formulas (escaping.csv_cell).
    writer.writerow([target for target, _ in layout.identity] + [csv_cell(grade_header(lms, name, max_score,
                                                                                        column_id))])
    if lms == "canvas":
        writer.writerow([CANVAS_POINTS_ROW] + [""] * (len(layout.identity) - 1) + [_number(max_score)])
    seen: set[str] = set()
    missing = []
    written = 0
    for line, row in enumerate(rows, start=2):
        if any((value or "").strip() == CANVAS_POINTS_ROW.strip() for value in row.values()):
            continue  # the "Points Possible" row of a Canvas gradebook export used as the roster
        identity = [(row.get(found) or "").strip() if (found := columns[target]) else ""
                    for target, _ in layout.identity]
        keyed = {target: value for (target, _), value in zip(layout.identity, identity)}
        if lms == "canvas" and not any(identity):
            continue  # Canvas's export row for hidden ("Manual Posting") assignments: no student in it
        if not any(keyed[key] for key in layout.keys):
            raise ConfigError(source, f"line {line}", f"this student has no {' or '.join(layout.keys)}, which "
                                                      f"{layout.name} needs to find them")
        sid = match(row)
        if sid and sid in scores:
            seen.add(sid)
            grade = _number(scores[sid])
        else:
            missing.append(sid or f"{identity[0] or keyed[layout.keys[0]]} (line {line})")
            grade = ""
        writer.writerow([csv_cell(value) for value in identity] + [grade])
        written += 1
    unmatched = tuple(sorted(set(scores) - seen))
    return Export(out.getvalue(), written, unmatched, tuple(missing))


def _results_file(path: Path) -> Path:
    return path / "results.json" if path.is_dir() else path


@click.command("export")
@click.argument("results", type=click.Path(path_type=Path), default=Path("grading-results"))
@click.option("--lms", type=click.Choice(sorted(LAYOUTS)), required=True, help="The gradebook to import into.")
@click.option("--roster", "roster", type=click.Path(path_type=Path, dir_okay=False), required=True,
              help="CSV mapping submission ids to students, or the LMS's own gradebook file (Canvas gradebook "
                   "export, Moodle grading worksheet, Blackboard Grade Center export) for submissions graded "
                   "under the names its download gave them.")
@click.option("--id-column", default="submission", show_default=True,
              help="The roster column holding the submission ids (folder or zip names). A roster without it is "
                   "matched on the LMS's own key (Canvas ID, Moodle Identifier, Blackboard Username), read from "
                   "the names its download gave the submissions.")
@click.option("--id-prefix", default="", help="Strip this from submission ids before matching (e.g. 'npuzzle-').")
@click.option("--name", "assignment_name", default=None,
              help="The gradebook column's name (default: the assignment's name).")
@click.option("--column-id", default=None,
              help="The LMS's id for an existing column (Canvas assignment id, Blackboard column id) to update it.")
@click.option("--out", "out", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Where to write the CSV (default: gradebook-<lms>.csv beside results.json).")
def export_command(results: Path, lms: str, roster: Path, id_column: str, id_prefix: str,
                   assignment_name: str | None, column_id: str | None, out: Path | None) -> int:
    """Write RESULTS (a results folder or results.json) as a Canvas, Moodle or Blackboard gradebook CSV.

    Submission ids without a roster row, and roster students without a submission, are listed on stderr.
    """
    from grader.reports.json_results import read_results

    path = _results_file(Path(results))
    exported = export_grades(read_results(path), roster, lms, id_column=id_column,
                             assignment_name=assignment_name, column_id=column_id, id_prefix=id_prefix)
    target = out or path.with_name(f"gradebook-{lms}.csv")
    try:
        write_atomic(target, exported.text)
    except (OSError, OutputError) as exc:
        raise OutputDirError(f"{target}: cannot write the gradebook: {getattr(exc, 'strerror', None) or exc}") \
            from None
    click.echo(f"wrote {target}: {exported.rows} students for {LAYOUTS[lms].name}")
    if exported.unmatched_submissions:
        click.echo(f"grade export: {len(exported.unmatched_submissions)} submission ids match no roster row "
                   f"(their grades are not in the file): "
                   f"{', '.join(map(terminal_safe, exported.unmatched_submissions))}", err=True)
    if exported.missing_submissions:
        click.echo(f"grade export: {len(exported.missing_submissions)} roster students have no submission "
                   f"(empty grade): {', '.join(map(terminal_safe, exported.missing_submissions))}",
                   err=True)
    return 0
