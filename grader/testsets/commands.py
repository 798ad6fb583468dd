"""``grade testcases``: generate, import and validate certified test sets.

A thin layer: each command maps its flags onto the plain functions of
:mod:`grader.testsets.generate`, :mod:`grader.testsets.importer`,
:mod:`grader.testsets.validate` and :mod:`grader.testsets.write`.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import click

from grader.errors import ConfigError, TestsetInvalid
from grader.model.manifest import Visibility
from grader.testsets.certify import STYLES
from grader.testsets.model import GOALS, MANIFEST, VISIBILITIES, goal_name
from solver.clikit import ProgressLines

OTHER_GROUPS = ("random_3x3", "buckets", "two_by_two", "unsolvable_sizes", "solved_sizes", "corners", "hardest")
"""generate's options for the groups other than the deep 4x4 boards (refused with --deep-only)."""


def _echo_err(message: str) -> None:
    click.echo(message, err=True)


def _sizes(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(v) for v in value.split(",") if v.strip())
    except ValueError:
        raise click.BadParameter(f"expected comma-separated board sizes like 2,3,4, found {value!r}") from None
    if any(n < 2 for n in sizes):
        raise click.BadParameter(f"board sizes start at 2, found {value!r}")
    return sizes


def _range(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", value)
    if not match or int(match[1]) > int(match[2]):
        raise click.BadParameter(f"expected LO-HI like 50-56, found {value!r}")
    return int(match[1]), int(match[2])


@click.group("testcases")
def testcases() -> None:
    """Make, import and check test sets whose every answer the reference solver certified."""


@testcases.command("generate")
@click.argument("out_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--seed", required=True, help="Any text; the same seed and options give the same files.")
@click.option("--style", type=click.Choice(STYLES), default="plain", show_default=True,
              help="Layout of the puzzle files: plain, padded like the Princeton files, or CRLF like CMPE 160's.")
@click.option("--name", default=None, help="The set's name (default: the folder's name).")
@click.option("--description", default="", help="A line describing the set, for the manifest.")
@click.option("--random-3x3", type=click.IntRange(0), default=12, show_default=True,
              help="Uniform random solvable 3x3 boards.")
@click.option("--bucket", "buckets", multiple=True, metavar="N:LO-HI:COUNT",
              help="COUNT boards of size N with optimum LO..HI, from random walks (repeatable; replaces the "
                   "default 4:20-29:2 4:30-39:2 5:20-29:1 5:30-39:1).")
@click.option("--deep-4x4", type=click.IntRange(0), default=2, show_default=True,
              help="4x4 boards of --deep-range moves, tagged hard.")
@click.option("--deep-range", callback=_range, default="50-56", show_default=True)
@click.option("--deep-max-effort", type=click.IntRange(1), default=None, metavar="NODES",
              help="Keep only deep boards that IDA* with Manhattan distance solves within NODES expanded nodes "
                   "(a proxy for how long a student's A* takes).")
@click.option("--deep-only", is_flag=True,
              help="Only the deep 4x4 boards (the same boards the full plan would hold), for a stress tier kept "
                   "as its own set; the options of the other groups are then refused.")
@click.option("--two-by-two", type=click.IntRange(0), default=3, show_default=True, help="Random solvable 2x2 boards.")
@click.option("--unsolvable", "unsolvable_sizes", callback=_sizes, default="2,3,3,4,4,5", show_default=True,
              help="Sizes of the unsolvable boards, one entry per board.")
@click.option("--solved-sizes", callback=_sizes, default="3,4", show_default=True,
              help="Sizes of the already-solved boards.")
@click.option("--corners/--no-corners", default=True, show_default=True,
              help="3x3 boards with the blank in each corner.")
@click.option("--hardest/--no-hardest", default=True, show_default=True, help="The two 31-move 3x3 positions.")
@click.option("--points", type=click.FloatRange(0), default=1, show_default=True)
@click.option("--hard-time-limit", type=click.FloatRange(0, min_open=True), default=30, show_default=True,
              help="time_limit_seconds of the cases tagged hard.")
@click.option("--visible-every", type=click.IntRange(1), default=3, show_default=True,
              help="Make every K-th case of each group visible (the rest hidden; hard cases stay hidden).")
@click.option("--goal", type=click.Choice(GOALS), default=None,
              help="The goal the answers are certified for (default: the goal of OUT_DIR's assignment.toml, "
                   "else blank-last); blank-first is 0 1 2 ...")
@click.option("--preset", default="cmpe160", show_default=True, metavar="NAME",
              help="The course preset the assignment.toml written beside a new set starts from (cmpe160, "
                   "coursera-princeton, cos226-campus); an existing assignment.toml is kept.")
@click.option("--force", is_flag=True, help="Replace a set already in OUT_DIR.")
@click.option("-q", "--quiet", is_flag=True, help="No line per case.")
def generate_command(out_dir: Path, seed: str, style: str, name: str | None, description: str, random_3x3: int,
                     buckets: tuple[str, ...], deep_4x4: int, deep_range: tuple[int, int],
                     deep_max_effort: int | None, deep_only: bool, two_by_two: int,
                     unsolvable_sizes: tuple[int, ...], solved_sizes: tuple[int, ...], corners: bool, hardest: bool,
                     points: float, hard_time_limit: float, visible_every: int, goal: str | None, preset: str,
                     force: bool, quiet: bool) -> int:
    """Generate a certified test set into OUT_DIR from a seed."""
    from grader.testsets.generate import Bucket, Plan, generate
    from grader.testsets.write import write_set

    try:
        parsed = tuple(Bucket.parse(b) for b in buckets) if buckets else Plan().buckets
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--bucket") from None
    plan = Plan(random_3x3=random_3x3, buckets=parsed, deep_4x4=deep_4x4, deep_range=deep_range,
                deep_max_effort=deep_max_effort,
                two_by_two=two_by_two, unsolvable_sizes=unsolvable_sizes, solved_sizes=solved_sizes,
                corners=corners, hardest_3x3=hardest, visible_every=visible_every, points=points,
                hard_time_limit=hard_time_limit)
    if deep_only:
        ctx = click.get_current_context()
        default = click.core.ParameterSource.DEFAULT
        given = ["/".join(p.opts + p.secondary_opts) for p in ctx.command.params
                 if p.name in OTHER_GROUPS and ctx.get_parameter_source(p.name) is not default]
        if given:
            raise click.UsageError(f"--deep-only makes only the deep 4x4 boards; found {', '.join(given)} as well")
        if not deep_4x4:
            raise click.BadParameter("--deep-only needs at least one deep board, found 0", param_hint="--deep-4x4")
        plan = plan.deep_only()
    began = time.perf_counter()
    goal = _goal(out_dir, goal)
    _check_preset(preset)
    cases = generate(seed, plan, style, progress=(lambda m: None) if quiet else _echo_err,
                     blank_first=goal == GOALS[1])
    set_name = name or _safe_name(out_dir)
    flags = f" --goal {goal}" if goal != GOALS[0] else ""
    manifest = write_set(out_dir, set_name, cases, description,
                         source=f"grade testcases generate --seed {seed} --style {style}{flags}", force=force,
                         goal=goal)
    click.echo(f"{manifest}: {len(cases)} cases, every count certified ({time.perf_counter() - began:.1f} s)")
    _write_assignment(out_dir, preset, goal)
    return 0


@testcases.command("import")
@click.argument("source_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="The set folder to create (or, with --append, to add to).")
@click.option("--pattern", default="*.txt", show_default=True, help="Which files of SOURCE_DIR are puzzles.")
@click.option("--style", type=click.Choice(("keep",) + STYLES), default="keep", show_default=True,
              help="keep copies each file byte for byte; the others rewrite it.")
@click.option("--prefix", default="", help="Prefix for the case ids and file names.")
@click.option("--visibility", type=click.Choice(VISIBILITIES), default="visible", show_default=True)
@click.option("--points", type=click.FloatRange(0), default=1, show_default=True)
@click.option("--tag", "tags", multiple=True, help="An extra tag for every imported case (repeatable).")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=None,
              help="time_limit_seconds for every case (default: the assignment's).")
@click.option("--hard-time-limit", type=click.FloatRange(0, min_open=True), default=None,
              help="time_limit_seconds of the cases tagged hard (4x4 and up, 45+ moves).")
@click.option("--expect", multiple=True, metavar="NAME=COUNT",
              help="A known optimal count (or 'unsolvable') for a file whose name does not carry it (repeatable).")
@click.option("--name", default=None, help="The set's name (default: the folder's name).")
@click.option("--description", default="", help="A line describing the set, for the manifest.")
@click.option("--goal", type=click.Choice(GOALS), default=None,
              help="The goal the answers are certified for (default: the goal of --out's set or assignment.toml, "
                   "else blank-last); blank-first is 0 1 2 ...")
@click.option("--preset", default="cmpe160", show_default=True, metavar="NAME",
              help="The course preset the assignment.toml written beside a new set starts from (cmpe160, "
                   "coursera-princeton, cos226-campus); an existing assignment.toml is kept.")
@click.option("--append", is_flag=True, help="Add the cases to the set already in --out.")
@click.option("--force", is_flag=True, help="Replace a set already in --out.")
@click.option("--skip-bad", is_flag=True, help="Leave out files with problems instead of writing nothing.")
@click.option("-q", "--quiet", is_flag=True, help="Only the summary and the problems.")
def import_command(source_dir: Path, out_dir: Path, pattern: str, style: str, prefix: str, visibility: Visibility,
                   points: float, tags: tuple[str, ...], time_limit: float | None, hard_time_limit: float | None,
                   expect: tuple[str, ...], name: str | None, description: str, goal: str | None, preset: str,
                   append: bool, force: bool, skip_bad: bool, quiet: bool) -> int:
    """Import the puzzle files of SOURCE_DIR as a certified test set, cross-checking counts in file names."""
    from grader.testsets.importer import ImportOptions, import_dir, parse_expectations
    from grader.testsets.write import append_to_set, existing_boards, write_set

    try:
        expectations = parse_expectations(expect)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--expect") from None
    goal = _goal(out_dir, goal, existing_set=append)
    _check_preset(preset)
    options = ImportOptions(pattern=pattern, style=style, prefix=prefix, visibility=visibility, points=points,
                            tags=tags, time_limit=time_limit, hard_time_limit=hard_time_limit, expect=expectations,
                            blank_first=goal == GOALS[1])
    taken = existing_boards(out_dir) if append else None
    began = time.perf_counter()
    report = import_dir(source_dir, options, taken, progress=(lambda m: None) if quiet else click.echo)
    seconds = time.perf_counter() - began
    for problem in report.problems:
        click.echo(f"problem: {problem}")
    click.echo(f"{source_dir}: {report.certified} boards certified in {seconds:.1f} s; "
               f"{report.checked} counts stated by file names or --expect, {report.agreed} agree, "
               f"{report.checked - report.agreed} disagree; {report.duplicates} duplicate board(s) left out")
    if report.problems and not skip_bad:
        raise TestsetInvalid(f"{source_dir}: {len(report.problems)} problem(s) listed above; nothing written "
                             "(--skip-bad writes the rest)")
    if not report.cases:
        raise TestsetInvalid(f"{source_dir}: no puzzle to import")
    if append:
        manifest = append_to_set(out_dir, report.cases, goal)
    else:
        manifest = write_set(out_dir, name or _safe_name(out_dir), report.cases, description,
                             source=f"imported from {source_dir.name}/", force=force, goal=goal)
    click.echo(f"{manifest}: {'added' if append else 'wrote'} {len(report.cases)} cases")
    _write_assignment(out_dir, preset, goal)
    return 0


@testcases.command("validate")
@click.argument("set_dir", type=click.Path(path_type=Path))
@click.option("-v", "--verbose", is_flag=True, help="A line per case as it is re-derived (on stderr).")
def validate_command(set_dir: Path, verbose: bool) -> int:
    """Check a test set: schema, files, solvability, optimal lengths, duplicates, unknown files.

    Every problem is printed on its own line naming the file and the field; the exit
    status is then 8.
    """
    from grader.testsets.validate import validate_testset

    total = _case_count(set_dir)
    with ProgressLines("validating", "cases") as lines:
        checked = 0
        lines.update(0, total)

        def progress(message: str) -> None:  # one message per case re-derived
            nonlocal checked
            checked += 1
            lines.update(checked)
            if verbose:
                _echo_err(message)

        report = validate_testset(set_dir, progress=progress)
    for problem in report.problems:
        click.echo(problem)
    if report.problems:
        raise TestsetInvalid(f"{set_dir}: {len(report.problems)} problem(s) listed above")
    slowest = f"; slowest {report.slowest[1]} {report.slowest[0]:.2f} s" if report.slowest[1] else ""
    click.echo(f"{set_dir}: OK, {report.cases} cases, every answer re-derived by the reference solver "
               f"in {report.seconds:.1f} s{slowest}")
    return 0


@testcases.command("export")
@click.argument("set_dir", type=click.Path(path_type=Path))
@click.option("--visible", "visible_only", is_flag=True, required=True,
              help="Keep only the visible cases (required: the one kind of export).")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), required=True, help="Folder to write.")
@click.option("--force", is_flag=True, help="Replace OUT if it exists.")
def export_command(set_dir: Path, visible_only: bool, out_dir: Path, force: bool) -> int:
    """Copy a test set with only its visible cases, e.g. for a GitHub Classroom template repository.

    Hidden cases' inputs (and any board file no visible case uses) are left out; the set's other
    files (assignment.toml, libraries, drivers) are kept.
    """
    from grader.testsets.bundled import resolve_testset
    from grader.testsets.export import export_visible

    exported = export_visible(resolve_testset(set_dir), out_dir, force)
    click.echo(f"wrote {exported.folder}: {exported.kept} visible cases; left out {len(exported.left_out)} "
               "cases that are not visible")
    return 0


def _check_preset(preset: str) -> None:
    from grader.testsets import presets

    if preset not in presets.names():
        raise click.BadParameter(f"expected one of {', '.join(presets.names())}, found {preset!r}",
                                 param_hint="--preset")


def _write_assignment(out_dir: Path, preset: str, goal: str) -> None:
    """An ``assignment.toml`` beside a new set (``grade`` refuses a set without one); one already there is kept."""
    from grader.testsets import presets
    from grader.testsets.assignment import FILE_NAME

    path = out_dir / FILE_NAME
    if path.exists():
        return
    goal_line = f'\n[output]\ngoal = "{goal}"\n' if goal != GOALS[0] else ""
    path.write_text(f"# How this set's submissions are run and judged: the course preset {preset!r}, whose settings\n"
                    f"# {presets.preset_path(preset).name} holds; any key set here overrides the preset's (see\n"
                    f"# testcases/README.md: io, answer, [output], [limits], [java], [python], [command]).\n"
                    f'preset = "{preset}"\n{goal_line}', encoding="utf-8")
    click.echo(f"{path}: wrote the assignment (preset {preset}); edit it to match how your students' programs "
               "read the puzzle and answer")


def _case_count(set_dir: Path) -> int | None:
    """How many cases the set's manifest lists, for progress lines (None when it cannot be read)."""
    from grader.testsets.model import MANIFEST, read_manifest_json

    manifest = set_dir / MANIFEST if set_dir.is_dir() else set_dir
    try:
        cases = read_manifest_json(manifest).get("cases")
    except (ConfigError, AttributeError):
        return None
    return len(cases) if isinstance(cases, list) else None


def _safe_name(out_dir: Path) -> str:
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", out_dir.resolve().name).strip("-._")
    return name or "testset"


def _goal(out_dir: Path, given: str | None, existing_set: bool = False) -> str:
    """The goal to certify for: as given, else the set's being appended to, else ``assignment.toml``'s there."""
    from grader.testsets.assignment import FILE_NAME, load_assignment
    from grader.testsets.model import load_testset

    if given is not None:
        return given
    if existing_set and (out_dir / MANIFEST).is_file():
        return load_testset(out_dir).goal
    if (out_dir / FILE_NAME).is_file():
        return goal_name(load_assignment(out_dir / FILE_NAME).blank_first)
    return GOALS[0]
