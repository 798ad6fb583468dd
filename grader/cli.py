"""``grade``: the grader's command line. It only maps flags onto plain functions."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from grader.errors import EXIT_CODES, GraderError
from grader.shard import Shard, ShardType
from solver.clikit import DefaultGroup, ProgressLines, exit_codes_epilog, run, version_option
from solver.errors import SolverError

if TYPE_CHECKING:  # the commands import what they use when they run (`grade --help` stays fast)
    from click._termui_impl import ProgressBar

    from grader.journal import Journal
    from grader.model.results import GradingResults
    from grader.pipeline import Progress

LAZY_COMMANDS: dict[str, str] = {
    # name: "module:click_command" -- each subsystem registers its command here.
    "classroom": "grader.integrations.classroom:classroom_command",
    "cluster": "grader.integrations.clusters:cluster_command",
    "export": "grader.integrations.lms:export_command",
    "gradescope": "grader.integrations.gradescope:gradescope_command",
    "merge": "grader.merge:merge_command",
    "report": "grader.reports.html_report:report_command",
    "doctor": "grader.sandbox.probe.doctor:doctor",
    "testcases": "grader.testsets.commands:testcases",
}

EPILOG = exit_codes_epilog(EXIT_CODES)
ANSWER_FORMATS = {"boards": ("boards", "lines"), "moves": ("moves", "lines"),
                  "path_to_goal": ("moves", "path_to_goal"), "letters": ("moves", "letters")}
"""grade check --format: (the assignment's [output] format, its moves style)."""


@click.group(cls=DefaultGroup, default="run", lazy=LAZY_COMMANDS, epilog=EPILOG, bare_help=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@version_option("grade")
def main() -> None:
    """Grade N-puzzle submissions: `grade SUBMISSIONS_DIR` runs every submission on every case."""


@main.command("run")
@click.argument("submissions_dir", metavar="SUBMISSIONS_DIR", type=click.Path(path_type=Path))
@click.option("--testcases", "testset_dir", type=click.Path(path_type=Path), default=None,
              help="Test-set folder (manifest.json, assignment.toml), or the name of a bundled set (cmpe160, "
                   "cmpe160-hard, princeton). Default: ./testcases if it has a manifest, else "
                   "./testcases/cmpe160, else the bundled cmpe160 set.")
@click.option("--assignment", "assignment_path", type=click.Path(path_type=Path), default=None,
              help="assignment.toml to use instead of the one in the test-set folder.")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=Path("grading-results"),
              show_default=True, help="Folder for results.json, grades.csv and feedback/.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Parallel runs (default: the number of CPUs, at most 4).")
@click.option("--only", multiple=True, metavar="ID", help="Grade only these submissions (glob patterns; repeatable).")
@click.option("--cases", multiple=True, metavar="PATTERN",
              help="Run only these cases: id globs, or tag:NAME (repeatable), e.g. --cases 'tag:course'.")
@click.option("--strict", is_flag=True, help="Every deviation from the exact output format is a PE.")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=None,
              help="CPU seconds per run, replacing the test set's limits (the wall clock stops a run at 3x).")
@click.option("--detail", is_flag=True, help="Also print the submission x case verdict matrix.")
@click.option("--pretty", is_flag=True, help="Indent results.json for reading (it is compact by default).")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
@click.option("--shard", type=ShardType(), default=None,
              help="Grade only slice i of n (round-robin over sorted ids); join slices with `grade merge`. "
                   "`auto` takes the slice from Slurm array, Kubernetes Indexed Job or NPUZZLE_SHARD_* "
                   "variables (`grade cluster recipes`).")
@click.option("--format", "output_format", type=click.Choice(["table", "classroom"]), default="table",
              show_default=True, help="stdout: the score table, or GitHub Classroom's result JSON (one submission).")
@click.option("--resume", is_flag=True,
              help="Continue an interrupted run into the same --out: results in its journal (--out/.journal) "
                   "are kept, not run again. Refused if the test set or assignment changed.")
def run_command(submissions_dir: Path, testset_dir: Path | None, assignment_path: Path | None, out_dir: Path,
                jobs: int | None, only: tuple[str, ...], cases: tuple[str, ...], strict: bool,
                time_limit: float | None, detail: bool, pretty: bool, no_progress: bool, shard: Shard | None,
                output_format: str, resume: bool) -> int:
    """Build and run every submission in SUBMISSIONS_DIR on every test case and print the scores."""

    from grader.integrations.container import read_capacity
    from grader.journal import Journal
    from grader.outlock import holding
    from grader.pipeline import grade
    from grader.reports.table import render
    from grader.testsets.bundled import default_testset, resolve_testset

    jobs = jobs or max(1, min(4, int(read_capacity().cpus)))
    testset = resolve_testset(testset_dir) if testset_dir else default_testset()
    if testset_dir is None:  # a course with its own set must not be graded on CMPE 160's without a word
        click.echo(f"grade: no --testcases given: grading on the test set in {testset}", err=True)
    journal = Journal(out_dir, resume)
    with holding(out_dir, lambda text: click.echo(text, err=True)), _progress_bar(enabled=not no_progress) as progress:
        results = grade(submissions_dir, testset, out_dir,
                        jobs=jobs, only=only or None, strict=strict, assignment_path=assignment_path,
                        time_limit=time_limit, progress=progress, shard=shard, cases=cases or None, journal=journal,
                        pretty=pretty)
    _warn_about_selection(results, only, resume, journal, submissions_dir, out_dir)
    if output_format == "classroom":
        from grader.integrations.classroom import classroom_json
        click.echo(classroom_json(results))
    else:
        click.echo(render(results, detail))
    click.echo(f"Results: {out_dir / 'results.json'}, {out_dir / 'grades.csv'}, {out_dir / 'report.html'}, "
               f"{out_dir / 'feedback'}/, {out_dir / 'junit'}/", err=True)
    if results.interrupted:
        click.echo(f"grade: interrupted; finished results were saved in {out_dir}/.journal: run the same command "
                   "with --resume to grade only what is left", err=True)
        return 130
    from grader.reports.class_zero import EXIT_CODE, class_at_zero
    warning = class_at_zero(results.submissions) if shard is None else None  # a slice is judged when merged
    if warning is not None:
        click.echo(f"grade: {warning}", err=True)
        return EXIT_CODE
    return 0


def _warn_about_selection(results: GradingResults, only: tuple[str, ...], resume: bool, journal: Journal,
                          submissions_dir: Path, out_dir: Path) -> None:
    """What a silent no-op would hide: --only patterns that matched nobody, --resume with nothing to resume."""
    import fnmatch

    graded = [s.id for s in results.submissions] if only else []  # each is read back from the journal
    for pattern in only:
        if not any(fnmatch.fnmatchcase(sid, pattern) for sid in graded):
            click.echo(f"grade: warning: --only {pattern!r} matches no submission in {submissions_dir} "
                       "(ids are folder or zip names; patterns are globs)", err=True)
    if resume and not journal.found:
        click.echo(f"grade: warning: --resume found no journal in {out_dir}/.journal, so everything was graded",
                   err=True)
    elif resume:
        complete = sum(1 for s in results.submissions if s.complete)
        api = f" and {journal.reused_api} API parts" if journal.reused_api else ""
        click.echo(f"grade: resumed: {journal.reused} results{api} from the journal were kept, not run again "
                   f"({complete} of {len(results.submissions)} submissions now complete)", err=True)


@main.command("check")
@click.argument("output", type=click.Path(path_type=Path))
@click.option("--input", "input_path", type=click.Path(path_type=Path), default=None,
              help="The puzzle the output answers (default: its first board).")
@click.option("--strict", is_flag=True, help="Also report every deviation from the exact format.")
@click.option("--goal", type=click.Choice(["blank-last", "blank-first"]), default=None,
              help="The goal board (default: the assignment's, else blank-last).")
@click.option("--assignment", "assignment_path", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="The assignment.toml whose output rules apply (format, moves, goal, wordings).")
@click.option("--preset", default=None, metavar="NAME",
              help="A course preset's output rules instead (coursera-princeton, cos226-campus, cmpe160).")
@click.option("--wording", "wordings", multiple=True, metavar="TEXT",
              help="An accepted way to say 'unsolvable' (repeatable; replaces the assignment's or preset's).")
@click.option("--format", "answer_format", type=click.Choice(sorted(ANSWER_FORMATS)), default=None,
              help="The answer's format, for a student without the assignment.toml: boards (the path's boards), "
                   "moves (UP/DOWN/LEFT/RIGHT per line), path_to_goal (path_to_goal: ['Up', ...]) or letters "
                   "(U D L R). Default: the assignment's, else boards.")
@click.option("--move-names", type=click.Choice(["blank", "tile"]), default=None,
              help="With a moves format: a move names the direction the blank moves (default) or the tile.")
def check_command(output: Path, input_path: Path | None, strict: bool, goal: str | None,
                  assignment_path: Path | None, preset: str | None, wordings: tuple[str, ...],
                  answer_format: str | None, move_names: str | None) -> int:
    """Check a solution file before submitting it: exit 0 when valid, else list every problem with its line."""
    import dataclasses

    from grader.errors import CheckFailed
    from grader.judging.check import check_output
    from grader.judging.verify import Rules
    from grader.testsets.assignment import assignment_from_dict, load_assignment

    if assignment_path:
        rules = Rules.of(load_assignment(assignment_path))
    elif preset:
        rules = Rules.of(assignment_from_dict({"preset": preset}, "--preset", Path.cwd()))
    else:
        rules = Rules()
    rules = dataclasses.replace(rules, strict=strict or rules.strict,
                                blank_first=rules.blank_first if goal is None else goal == "blank-first",
                                unsolvable_wordings=tuple(wordings) or rules.unsolvable_wordings)
    if answer_format is not None:
        output_format, moves_style = ANSWER_FORMATS[answer_format]
        rules = dataclasses.replace(rules, output_format=output_format, moves_style=moves_style)
    if move_names is not None:
        rules = dataclasses.replace(rules, move_names=move_names)
    report = check_output(output, input_path, rules)
    from grader.reports.escaping import terminal_safe

    for line in report.lines:  # they quote the student's output: no escape sequence reaches the terminal
        click.echo(terminal_safe(line, keep_newlines=True))
    if not report.ok:
        raise CheckFailed(f"{output}: the output has problems (listed above)")
    return 0


class _progress_bar:
    """Progress on stderr: a bar on a terminal, else a line every few seconds (CI logs, Gradescope);
    yields the pipeline's progress callback."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.lines = ProgressLines("grading", "runs") if enabled and not self.enabled else None
        self.bar: ProgressBar[int] | None = None

    def __enter__(self) -> Progress | None:
        if self.lines is not None:
            return self.lines.__enter__().update
        if not self.enabled:
            return None
        self.position = 0

        def update(done: int, total: int) -> None:
            if self.bar is None:
                self.bar = click.progressbar(length=max(total, 1), label="grading", file=sys.stderr,
                                             show_pos=True, show_eta=True)
                self.bar.__enter__()
            self.bar.update(done - self.position)
            self.position = done
        return update

    def __exit__(self, *exc: Any) -> None:
        if self.lines is not None:
            self.lines.__exit__(*exc)
        if self.bar is not None:
            self.bar.__exit__(*exc)


def entry(args: list[str] | None = None) -> int:
    import warnings

    with warnings.catch_warnings():  # restores Python's own display when the command returns
        warnings.showwarning = _show_warning
        return run(main, "grade", (GraderError, SolverError), args)


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: TextIO | None = None, line: str | None = None) -> None:
    """A warning as one line of the grader's own (``grade: warning: ...``), not Python's file:line: source
    format, which reads like a crash."""
    text = " ".join(str(message).split())
    click.echo(f"grade: warning: {text}", err=True)


if __name__ == "__main__":
    sys.exit(entry())
