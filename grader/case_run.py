"""One case of one built submission: prepare its folder, run it in the sandbox, read the answer, judge it.

Kattis problemtools keeps "run one case" (``execute.py``) apart from scheduling many; so does this module:
:mod:`grader.pipeline` schedules builds and cases over worker threads, resumes and records, and calls
:meth:`CaseRunner.run` for each (submission, case). Nothing here holds state shared between threads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from grader.intake import safe_copy
from grader.intake.build import RUN_NAMES, Build
from grader.intake.timecap import CHECK_SECONDS, COPY_SECONDS, StudentFault, capped, deadline_after
from grader.judging import time_limit as timing
from grader.judging.hints import Context, tail
from grader.judging.judge import Answer, judge, jvm_start_failure
from grader.judging.scoring import case_points
from grader.judging.verdicts import RunFacts, Verdict, run_verdict
from grader.judging.verify import Expected, Rules, Verification, verify
from grader.model.results import CaseResult
from grader.sandbox import runner
from grader.sandbox.folders import box
from grader.sandbox.probe import jvm_probe
from grader.testsets.assignment import Assignment
from grader.testsets.model import Case

STDERR_LINES = 20
"""How many of the run's last stderr lines a case result keeps."""
ARGV_INPUT_NAME = "puzzle.txt"
"""The case's input file as an ``io = "argv"`` run gets it: one neutral name for every case."""


@dataclass(frozen=True)
class CaseRunner:
    """What running a case needs from its grading run; ``folder(kind, name)`` makes a fresh folder (for the
    JVM probe; the case's own runs are in a :func:`grader.sandbox.folders.box.box`)."""

    assignment: Assignment
    expected: dict[str, Expected]
    rules: Rules
    context: Context
    time_limit: float | None
    folder: Callable[[str, str], Path]

    def run(self, built: Build, case: Case) -> CaseResult:
        """Run ``case`` (again if its time was near the limit) and judge it."""
        assignment = self.assignment
        case_limit = self.time_limit or case.time_limit_seconds or assignment.limits.wall_seconds
        cpu_limit = assignment.limits.cpu_seconds if self.time_limit is None and assignment.limits.cpu_seconds \
            else case_limit
        policy = timing.TimePolicy(cpu_limit, assignment.limits.wall_cap_factor, assignment.limits.rerun_margin)
        outcome, answer, truncated = self._run_once(built, case, policy)
        # Judged as measured: a run whose waiting for a CPU the sandbox could not see may get a second run.
        policy = dataclasses.replace(policy, measured=outcome.cpu_wait_seconds is not None)
        call = timing.classify(policy, outcome.cpu_seconds, outcome.active_seconds, outcome.timed_out)
        rerun = ""
        if call is timing.TimeCall.NEAR:  # judged on the second run; near the limit twice is over it
            rerun = timing.rerun_note(outcome.cpu_seconds, outcome.wall_seconds, call, policy)
            outcome, answer, truncated = self._run_once(built, case, policy)
            call = timing.classify(policy, outcome.cpu_seconds, outcome.active_seconds, outcome.timed_out)
            if call is timing.TimeCall.NEAR:
                call = timing.TimeCall.OVER_CPU
        over = call in (timing.TimeCall.OVER_CPU, timing.TimeCall.OVER_WALL)
        expected = self.expected[case.id]
        facts = RunFacts(over, outcome.memory_exceeded, outcome.exit_code, outcome.signal, truncated,
                         outcome.wall_seconds, policy.limit, assignment.limits.memory_mb,
                         timing.tle_message(call, policy, outcome.cpu_seconds, outcome.wall_seconds,
                                            outcome.cpu_wait_seconds) if over else "",
                         memory_claim_refuted=bool(outcome.grader_note))
        fault = None
        # A run that hit its own process limit did it itself (it has a uid and a cgroup of its own): no JE.
        if built.jvm and outcome.exit_code not in (0, None) and outcome.active_seconds < 5 \
                and not outcome.process_limit_hit:
            fault = jvm_start_failure(outcome.stdout, outcome.stderr, assignment.limits.memory_mb)
            # The run's text is evidence only: JE when the JVM, without the student's code, fails too.
            if fault is not None and jvm_probe.jvm_starts(built.run_argv, self._limits(built, policy),
                                                          lambda: self.folder("runs", "jvm-probe")):
                fault = None
        try:
            verification, (verdict, message) = capped("checking the output", CHECK_SECONDS, self._check, answer,
                                                      expected, facts, case.solvable, fault)
        except StudentFault as exc:
            stopped = run_verdict(facts)  # what the run itself earned still stands
            verification, verdict = None, stopped[0] if stopped else Verdict.PE
            message = f"{stopped[1]}; " if stopped else ""
            message += str(exc)
        if verdict is Verdict.NO and built.run_hint:
            message += f"\n{built.run_hint}"
        if rerun:
            message += f"\n({rerun})"
        if outcome.grader_note:  # the grader's own measurement, beside what the program printed
            message += f"\n(grader: {outcome.grader_note})"
        problems = tuple(p.describe(answer.where) for p in verification.problems) if verification else ()
        notes = tuple(f"line {n.line}: {n.message}" for n in verification.notes) if verification else ()
        path = tuple(b.tiles for b in verification.boards) if verification and verification.boards else None
        return CaseResult(
            case=case.id, verdict=verdict, points=case_points(verdict, case.points, assignment.suboptimal_credit),
            max_points=case.points, message=message, visibility=case.visibility,
            seconds=round(outcome.wall_seconds, 3),  # as results.json holds it, so a merge rewrites the same feedback
            cpu_seconds=outcome.cpu_seconds, exit_code=outcome.exit_code, signal=outcome.signal,
            moves=verification.moves if verification else None, optimal_moves=case.optimal_moves,
            solvable=case.solvable, problems=problems, notes=notes, path=path,
            stderr=tail(answer.stderr, STDERR_LINES), runs=2 if rerun else 1)

    def _run_once(self, built: Build, case: Case,
                  policy: timing.TimePolicy) -> tuple[runner.Outcome, Answer, bool]:
        """One run of the case in an empty box (emptied after): its outcome and answer."""
        with box.box() as place:
            self._prepare(built, case, place.path)
            limits = self._limits(built, policy)
            assignment = self.assignment
            board = ",".join(map(str, self.expected[case.id].board.tiles))
            argv = [a.replace("{input}", self._input_name).replace("{output}", assignment.output_file)
                    .replace("{board}", board) for a in built.run_argv]
            if assignment.io == "board-arg" and not any("{board}" in a for a in built.run_argv):
                argv.append(board)  # a run command that does not place the board gets it last
            outcome = place.run(argv, limits, stdin_data=self._input(case) if assignment.io == "stdin" else None,
                                readable=built.readable)
            answer, truncated = self._answer(outcome, place.path)
        return outcome, answer, truncated

    @property
    def _input_name(self) -> str:
        # Under argv the file is named for no case: a hidden case's file name could tell its answer.
        return self.assignment.input_file if self.assignment.io == "files" else ARGV_INPUT_NAME

    def _prepare(self, built: Build, case: Case, workdir: Path) -> None:
        """The built submission and the case's input in the empty ``workdir``."""
        assert built.bundle is not None
        # The student's own input and output files stay out: the case's input is written fresh
        # (never through a link), and a shipped output.txt cannot pass for the run's answer.
        grader_names = {*RUN_NAMES, self._input_name, self.assignment.output_file}
        try:
            safe_copy.copy_tree(built.bundle, workdir, into_existing=True,
                                skip=lambda rel, is_dir: str(rel) in grader_names,
                                deadline=deadline_after(COPY_SECONDS), seconds=COPY_SECONDS,
                                step="copying the built submission")
        except safe_copy.SubmissionFileError as exc:
            raise StudentFault(f"the built submission cannot be run: {exc}") from None
        if self.assignment.io in ("files", "argv"):
            safe_copy.write_new(workdir, self._input_name, self._input(case))

    def _input(self, case: Case) -> bytes:
        """The puzzle as the assignment's programs read it: the case's file, or its rows without the N line."""
        if self.assignment.input_format == "rows":
            board = self.expected[case.id].board
            rows = [board.tiles[r * board.n:(r + 1) * board.n] for r in range(board.n)]
            return "".join(" ".join(map(str, row)) + "\n" for row in rows).encode()
        return case.input_path.read_bytes()

    def _limits(self, built: Build, policy: timing.TimePolicy) -> runner.Limits:
        limits = self.assignment.limits
        return runner.Limits(wall_seconds=policy.wall_cap, cpu_seconds=policy.cpu_cap, memory_mb=limits.memory_mb,
                             output_bytes=limits.output_bytes, jvm=built.jvm)

    def _check(self, answer: Answer, expected: Expected, facts: RunFacts, solvable: bool,
               fault: str | None) -> tuple[Verification | None, tuple[Verdict, str]]:
        """Parse and verify the answer, then judge it with the run's facts (one capped host-side step)."""
        # A moves answer may rightly be empty (a board already at the goal): verify judges that.
        data = answer.data
        readable = data is not None and (data.strip() or self.rules.output_format == "moves")
        verification = verify(data, expected, self.rules) if data is not None and readable else None
        return verification, judge(facts, answer, verification, self.context, solvable, fault)

    def _answer(self, outcome: runner.Outcome, workdir: Path) -> tuple[Answer, bool]:
        """The answer and whether it was cut at the output limit."""
        name = self.assignment.output_file
        # Paths inside the run folder read better (and compare equal across runs) without it.
        stderr = outcome.stderr.replace(f"{workdir}/".encode(), b"").replace(f"{runner.RUN_FOLDER}/".encode(), b"")
        if self.assignment.answer_in_file:
            data, truncated = safe_copy.read_regular(workdir, name, self.assignment.limits.output_bytes)
            elsewhere = ""
            if data is None and safe_copy.exists(workdir, name):
                elsewhere = f"{name} is a link or not a regular file, so it was not read"
            elif data is None and outcome.stdout.strip():
                lines = len(outcome.stdout.splitlines())
                elsewhere = f"the program printed {lines} line{'s' * (lines != 1)} on standard output instead"
            return Answer(name, data, stderr, elsewhere), truncated
        elsewhere = ""
        if safe_copy.is_regular(workdir, name):
            elsewhere = (f"it also wrote {name}, which is not graded: in this assignment the answer goes to "
                         "standard output")
        return Answer("standard output", outcome.stdout, stderr, elsewhere), outcome.stdout_truncated

