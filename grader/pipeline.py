"""The grading pipeline: test set + assignment -> discover -> build -> run -> verify -> judge -> results.

:func:`grade` is the plain function behind ``grade SUBMISSIONS_DIR``; the CLI only maps
flags onto it. Work runs on ``jobs`` threads (each run is a subprocess, so threads
suffice): a submission's cases are queued as soon as its build finishes. Ctrl-C stops
queuing, keeps every finished case and returns results marked ``interrupted``.

Extension points: ``on_result(submission_id, case_result)`` is called on the calling
thread for every finished case (a journal for ``--resume`` hooks in here), ``progress``
gets ``(done, total)``, and :func:`~grader.reports.outputs.write_reports` is the one place reporters are called.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fnmatch
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from grader.apitests.battery import Battery
from grader.apitests.run import api_tests
from grader.case_run import CaseRunner
from grader.errors import CaseFileError, ConfigError, SubmissionsError
from grader.intake import preflight, python_env
from grader.intake.build import Build, build
from grader.intake.discovery import Submission, discover, printable_id, require_folder
from grader.intake.timecap import StudentFault
from grader.journal import Finished, Journal, Submissions, run_key
from grader.judging.budget import TleBudget
from grader.judging.hints import Context
from grader.judging.scoring import total as total_points
from grader.judging.verdicts import Verdict
from grader.judging.verify import Expected, Rules
from grader.merge import over_previous
from grader.model.apiresult import ApiResult
from grader.model.results import BuildRecord, CaseEntry, CaseResult, GradingResults, SubmissionResult
from grader.model.results import Shard as ResultShard
from grader.reports.budget import within_budget
from grader.reports.outputs import write_reports
from grader.sandbox import isolation, runner, sweep
from grader.shard import Shard
from grader.testsets.assignment import Assignment, load_assignment, require_assignment
from grader.testsets.model import Case, CaseSet, load_testset, require_goal, select_cases
from solver.errors import InputError
from solver.formats import parse_puzzle

OnResult = Callable[[str, CaseResult], None]
Progress = Callable[[int, int], None]

def grade(submissions_dir: Path, testset_dir: Path, out_dir: Path | None, *, jobs: int = 1,
          only: Iterable[str] | None = None, strict: bool = False, assignment_path: Path | None = None,
          time_limit: float | None = None, progress: Progress | None = None,
          on_result: OnResult | None = None, shard: Shard | None = None,
          cases: Iterable[str] | None = None, journal: Journal | None = None,
          memory_mb: int | None = None, pretty: bool = False) -> GradingResults:
    """Grade every submission in ``submissions_dir`` on every case; write reports to ``out_dir``.

    ``only`` keeps submissions whose id matches one of the glob patterns, ``shard`` then keeps
    its slice of them (:mod:`grader.shard`); ``time_limit`` replaces every case's time limit
    (CPU seconds, :mod:`grader.judging.time_limit`); ``cases`` keeps the cases matching one of its
    patterns (see :func:`select_cases`). ``journal`` records every finished result (:mod:`grader.journal`);
    a resuming journal supplies the results already finished, which are not run again. With ``only``,
    the reports in ``out_dir`` keep the other submissions' entries; with ``cases``, each submission's
    other cases. ``memory_mb`` replaces the assignment's memory limit per run (Gradescope sizes it to
    the container). results.json records the shard and a hash of the test set and settings
    (``testset_hash``), which ``grade merge`` checks. Returns the results (``interrupted`` after Ctrl-C).
    """
    require_folder(Path(submissions_dir))
    probing = threading.Thread(target=_probe_sandbox, name="sandbox-probe", daemon=True)
    probing.start()  # its test runs wait on processes while the test set, assignment and cases load
    try:
        return _grade(submissions_dir, testset_dir, out_dir, jobs=jobs, only=only, strict=strict,
                      assignment_path=assignment_path, time_limit=time_limit, progress=progress,
                      on_result=on_result, shard=shard, cases=cases, journal=journal, memory_mb=memory_mb,
                      pretty=pretty)
    finally:
        probing.join()


def _probe_sandbox() -> None:
    """Probe the sandbox's layers now (``plan()`` probes once per process, under its lock, for whichever thread
    asks first: the set-up's own call waits for this one); a failure is raised again where the runs ask."""
    with contextlib.suppress(Exception):
        isolation.plan()


def _grade(submissions_dir: Path, testset_dir: Path, out_dir: Path | None, *,
           jobs: int, only: Iterable[str] | None, strict: bool, assignment_path: Path | None,
           time_limit: float | None, progress: Progress | None, on_result: OnResult | None, shard: Shard | None,
           cases: Iterable[str] | None, journal: Journal | None, memory_mb: int | None,
           pretty: bool) -> GradingResults:
    testset = load_testset(Path(testset_dir))
    # A config error names a case by its place in the manifest, whichever cases --cases kept.
    position = {case.id: index for index, case in enumerate(testset.cases)}
    if cases:
        testset = select_cases(testset, list(cases))
    assignment = load_assignment(assignment_path or require_assignment(testset.root))
    if strict:
        assignment = dataclasses.replace(assignment, output=dataclasses.replace(assignment.output, strict=True))
    if memory_mb is not None:
        assignment = dataclasses.replace(assignment, limits=dataclasses.replace(assignment.limits,
                                                                                memory_mb=memory_mb))
    require_goal(testset, assignment.blank_first, assignment.source)
    python = python_env.prepare(assignment) if assignment.language in ("auto", "python") else None
    if python is not None:
        python_env.prepare_fallback(assignment)  # a missing fallback is refused now, not in a build
    expected = {case.id: _expected(position[case.id], case, testset, assignment) for case in testset.cases}
    # Named after this process, so the next grader removes it if this one is killed (grader.sandbox.sweep);
    # 0711: the runs' uids may pass through to their own workdir, not list.
    temp = sweep.make_temp_folder(mode=0o711)
    (temp / "staging").mkdir(mode=0o700)  # extracted zips: no run's uid may enter
    runner.warn_if_exposed([Path(testset_dir), Path(submissions_dir)])
    try:
        submissions = discover(Path(submissions_dir), temp / "staging")
        preflight.require_libraries(submissions, assignment)  # across the whole class, before any build
        preflight.require_file_names(submissions, assignment)
        if only:
            patterns = list(only)
            everyone, submissions = submissions, [s for s in submissions
                                                  if any(fnmatch.fnmatchcase(s.id, p) for p in patterns)]
            if not submissions:  # a typo would grade nobody and exit 0
                ids = ", ".join(s.id for s in everyone[:5]) + (" ..." if len(everyone) > 5 else "")
                raise SubmissionsError(f"{submissions_dir}: --only {' '.join(patterns)} matches none of its "
                                       f"{len(everyone)} submissions ({ids}): ids are folder or zip names, "
                                       "patterns are globs")
        if shard is not None:
            chosen = set(shard.select(s.id for s in submissions))
            submissions = [s for s in submissions if s.id in chosen]
        batch = _Batch(testset, assignment, expected, temp, time_limit, python)
        key = run_key(testset.name, batch.case_table(), assignment.to_json(), time_limit)
        finished = journal.start(key) if journal else {}
        results = batch.run(submissions, max(1, jobs), progress, on_result, journal, finished)
        results = dataclasses.replace(results, testset_hash=key,
                                      shard=ResultShard(index=shard.index, count=shard.count) if shard else None)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    if out_dir is not None:
        selected = bool(cases) and len(testset.cases) < len(position)
        laid = over_previous(results, Path(out_dir), some_cases=selected) if only or selected else results
        write_reports(laid, Path(out_dir), pretty=pretty)
    return results

def _expected(index: int, case: Case, testset: CaseSet, assignment: Assignment) -> Expected:
    """The case's input board and answer; a manifest whose solvability contradicts the goal is refused."""
    try:
        board = parse_puzzle(case.input_path.read_bytes(), str(case.input_path))
    except OSError as exc:
        raise CaseFileError(f"{case.input_path}: cannot read case {case.id!r}: {exc.strerror or exc}") from None
    except InputError as exc:
        raise CaseFileError(f"case {case.id!r} of {testset.name}: {exc}") from None
    if board.standardized(assignment.blank_first).is_solvable() != case.solvable:
        goal = "blank-first" if assignment.blank_first else "blank-last"
        raise ConfigError(str(testset.manifest_path or testset.root), f"$.cases[{index}].solvable",
                          f"case {case.id!r} says solvable = {str(case.solvable).lower()}, but with the "
                          f"assignment's {goal} goal the parity rule says it is "
                          f"{'unsolvable' if case.solvable else 'solvable'}")
    return Expected(board, case.solvable, case.optimal_moves)

@dataclass
class _Recorder:
    """Takes each finished case, in the main thread: capped to its size budget, its boards shared, journaled
    (one commit per finished submission), announced and counted for the progress bar."""

    finished: dict[str, dict[str, CaseResult | None]]
    """Each submission's finished cases: with a journal, only which are done (the journal holds the results)."""
    builds: dict[str, Build]
    cases: int
    total: int
    journal: Journal | None
    on_result: OnResult | None
    progress: Progress | None
    done: int = 0
    boards: dict[tuple[int, ...], tuple[int, ...]] = dataclasses.field(default_factory=dict)

    def __call__(self, submission: Submission, result: CaseResult) -> None:
        result = within_budget(result)  # before the journal and every report see it
        if result.path and not self.journal:  # held until the reports: most students print the same boards for
            # a case, so keep one copy of each (with a journal, the journal holds the results instead)
            result = dataclasses.replace(result, path=tuple(self.boards.setdefault(b, b) for b in result.path))
        self.finished[submission.id][result.case] = None if self.journal else result
        self.done += 1
        if self.journal:
            built = self.builds[submission.id]
            self.journal.record(submission.id, printable_id(str(submission.origin)), built.language,
                                built.record(), result)
            if len(self.finished[submission.id]) == self.cases:  # group commit: one fsync per submission
                self.journal.commit(submission.id)
        if self.on_result:
            self.on_result(submission.id, result)
        if self.progress:
            self.progress(self.done, self.total)


class _Batch:
    """One grading run's shared state; the worker threads only call :meth:`_build` and :meth:`_run_case`."""

    def __init__(self, testset: CaseSet, assignment: Assignment, expected: dict[str, Expected], temp: Path,
                 time_limit: float | None, python: python_env.PythonRuntime | None = None) -> None:
        self.testset, self.assignment, self.expected, self.temp = testset, assignment, expected, temp
        self.time_limit = time_limit
        self.rules = Rules.of(assignment)
        self.context = Context(assignment.io, assignment.input_file, assignment.output_file,
                               python=python.name if python else "",
                               packages=python.packages if python else ())
        self._lock = threading.Lock()
        # The harness runs the student's code and its messages are feedback: it gets visible boards only.
        self.api_battery = Battery(testset.visible(), assignment.api) if assignment.api is not None else None
        self.cases = CaseRunner(assignment, expected, self.rules, self.context, time_limit, self._folder)

    def case_table(self) -> list[dict]:
        """The cases as results.json lists them (with the case's own time limit, for the journal key)."""
        return [{"id": c.id, "points": c.points, "n": c.n, "solvable": c.solvable, "optimal_moves": c.optimal_moves,
                 "visibility": c.visibility, "board": list(self.expected[c.id].board.tiles),
                 "time_limit_seconds": c.time_limit_seconds} for c in self.testset.cases]

    def run(self, submissions: list[Submission], jobs: int, progress: Progress | None,
            on_result: OnResult | None, journal: Journal | None = None,
            resumed: dict[str, Finished] | None = None) -> GradingResults:
        cases = self.testset.cases
        held_over = resumed or {}
        resumed = {s.id: held_over[s.id] for s in submissions if s.id in held_over}
        complete, total, finished = self._resumed(submissions, resumed, held=journal is None)
        builds: dict[str, Build] = {}
        interrupted = False
        executor = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="grade")
        pending: dict[Future, tuple[Submission, Case | None]] = {}
        api_jobs: dict[Future, Submission] = {}
        api_results: dict[str, tuple[ApiResult, ...]] = {
            sid: held.api for sid, held in resumed.items() if held.api is not None and self.assignment.api is not None}
        waiting = iter([s for s in submissions if s.id not in complete])
        # Hidden cases wait until nothing student-visible runs any more (see below).
        hidden: list[tuple[Submission, Build, Case]] = []

        def start_build() -> None:
            # Builds are started one for one as builds finish, so a submission's runs queue
            # before the next builds: results (and the progress bar) flow from the start.
            submission = next(waiting, None)
            if submission is not None:
                pending[executor.submit(self._build, submission)] = (submission, None)

        record = _Recorder(finished, builds, len(cases), total, journal, on_result, progress)  # main thread only

        try:
            if progress:
                progress(0, total)
            for _ in range(jobs):
                start_build()
            while pending or api_jobs or hidden:
                ready, _ = wait([*pending, *api_jobs], return_when=FIRST_COMPLETED)
                for future in ready:
                    if future in api_jobs:
                        submission = api_jobs.pop(future)
                        api_results[submission.id] = future.result()
                        if journal:
                            built = builds[submission.id]
                            journal.record_api(submission.id, printable_id(str(submission.origin)), built.language,
                                               built.record(), api_results[submission.id])
                        continue
                    submission, case = pending.pop(future)
                    if case is None:
                        built = future.result()
                        builds[submission.id] = built
                        start_build()
                        if self.assignment.api is not None and submission.id not in api_results:
                            api_jobs[executor.submit(self._run_api, submission, built)] = submission
                        todo = [each for each in cases if each.id not in finished[submission.id]]
                        if not built.ok:
                            for each in todo:
                                record(submission, self._not_built(each, built))
                            continue
                        for each in todo:
                            if each.visibility == "visible":
                                pending[executor.submit(self._run_case, submission, built, each)] = (submission, each)
                            else:
                                hidden.append((submission, built, each))
                    else:
                        record(submission, future.result())
                if hidden and not pending and not api_jobs:
                    # Every build, visible case and API test of the class is over: only now do hidden
                    # cases run, so no run a student sees overlaps one that holds a hidden input.
                    for submission, built, each in hidden:
                        pending[executor.submit(self._run_case, submission, built, each)] = (submission, each)
                    hidden.clear()
        except KeyboardInterrupt:
            interrupted = True
            executor.shutdown(wait=False, cancel_futures=True)
        else:
            executor.shutdown(wait=True)
        finally:
            if journal:
                journal.close()  # what is left uncommitted (Ctrl-C, a fault) is made durable too
        return self._aggregate(submissions, builds, resumed, finished, api_results, interrupted, journal)

    def _resumed(self, submissions: list[Submission], resumed: dict[str, Finished], held: bool
                 ) -> tuple[set[str], int, dict[str, dict[str, CaseResult | None]]]:
        """What the journal holds already: the submissions that are complete (every case and the API part, if
        the assignment has one: not even rebuilt), the runs left to do, and each submission's finished cases
        (the results if ``held``, else only which are done: the journal has them). Starts the TLE budget."""
        cases = self.testset.cases
        complete = {sid for sid, done in resumed.items() if all(c.id in done.cases for c in cases)
                    and (self.assignment.api is None or done.api is not None)}
        total = sum(len(cases) - len(done.cases.keys() & {c.id for c in cases}) for done in resumed.values()) \
            + len(cases) * (len(submissions) - len(resumed))
        kept = {s.id: [resumed[s.id].cases[c.id] for c in cases if s.id in resumed and c.id in resumed[s.id].cases]
                for s in submissions}
        self.budget = TleBudget(self.assignment.limits.stop_after_tle,
                                {sid: [r.verdict for r in results] for sid, results in kept.items()})
        finished: dict[str, dict[str, CaseResult | None]] = {
            sid: {r.case: r if held else None for r in results} for sid, results in kept.items()}
        if not held:  # the journal holds the results: a resumed one's cases are read back from it too
            for done in resumed.values():
                done.cases.clear()
        return complete, total, finished

    def _aggregate(self, submissions: list[Submission], builds: dict[str, Build], resumed: dict[str, Finished],
                   finished: dict[str, dict[str, CaseResult | None]], api_results: dict[str, tuple[ApiResult, ...]],
                   interrupted: bool, journal: Journal | None) -> GradingResults:
        """The run's results: each submission's cases in the test set's order, with its build and API part; with a
        journal, each submission is read back from it when a report comes to it (:class:`Submissions`)."""
        cases = self.testset.cases
        order = {case.id: index for index, case in enumerate(cases)}
        graded = []
        for submission in submissions:
            built, held = builds.get(submission.id), resumed.get(submission.id)
            results = [result for result in finished[submission.id].values() if result is not None]
            language = built.language if built else held.language if held else "unknown"
            graded.append(SubmissionResult(
                id=submission.id, language=language,
                build=built.record() if built else held.build if held else BuildRecord(),
                cases=tuple(sorted(results, key=lambda r: order[r.case])),
                max_score=total_points([self.testset.total_points, self.api_points]),
                complete=len(finished[submission.id]) == len(cases), source=printable_id(str(submission.origin)),
                api=api_results.get(submission.id, ())))
        return GradingResults(
            testset=self.testset.name, testset_path=str(self.testset.root), assignment=self.assignment.to_json(),
            cases=tuple(CaseEntry(id=c.id, points=c.points, n=c.n, solvable=c.solvable,
                                  optimal_moves=c.optimal_moves, visibility=c.visibility,
                                  board=tuple(self.expected[c.id].board.tiles)) for c in cases),
            submissions=Submissions(journal, tuple(graded), order) if journal else tuple(graded),
            isolation=tuple(runner.isolation_layers()), interrupted=interrupted, strict=self.assignment.strict,
            api_points=self.api_points)

    @property
    def api_points(self) -> float:
        return self.assignment.api.points if self.assignment.api is not None else 0.0

    def _run_api(self, submission: Submission, built: Build) -> tuple[ApiResult, ...]:
        """The submission's API tests (:mod:`grader.apitests`); never raises."""
        assert self.assignment.api is not None
        return api_tests(built, self.api_battery, self.assignment.api, self.assignment,
                         lambda label: self._folder("runs", f"{submission.id}-{label}"))

    def _folder(self, kind: str, name: str) -> Path:
        """A fresh folder with an unguessable name; parents are traversable but not listable. A run's folder
        stays root's and 0700 but while its own run's uid has it (grader.sandbox.folders.workdir); a build's is
        passable (0711) to reach the bundle inside. ``name`` (a submission, a case) is left out of the
        folder's name: a run can read its own path where no bwrap binds it at a neutral one, and neither
        its case nor its place in the queue may show there."""
        del name
        with self._lock:
            parent = self.temp / kind
            if not parent.exists():
                parent.mkdir(mode=0o711)
                parent.chmod(0o711)
        folder = Path(tempfile.mkdtemp(prefix="", dir=parent))
        if kind != "runs":
            folder.chmod(0o711)
        return folder

    def _build(self, submission: Submission) -> Build:
        built = self._build_unsafe(submission)
        # File names in a submission may be any bytes: messages name them in text every report can write.
        return dataclasses.replace(built, message=printable_id(built.message), log=printable_id(built.log))

    def _build_unsafe(self, submission: Submission) -> Build:
        if submission.root is None:
            return Build("unknown", None, failure=Verdict.JE if submission.fault else Verdict.CE,
                         message=submission.problem or "unreadable submission")
        try:
            return build(submission.root, self._folder("builds", submission.id), self.assignment,
                         submission.left_out)
        except StudentFault as exc:
            return Build("unknown", None, failure=exc.verdict, message=str(exc))
        except (RecursionError, MemoryError) as exc:  # a source nested deep enough to exhaust a parser
            return Build("unknown", None, failure=Verdict.CE,
                         message=f"a source file nests too deeply for the grader to read it ({type(exc).__name__})")
        except Exception as exc:  # a grader fault must not stop the batch
            return Build("unknown", None, failure=Verdict.JE, message=f"internal grader error while building: "
                                                                        f"{type(exc).__name__}: {exc}")

    def _not_built(self, case: Case, built: Build) -> CaseResult:
        return self._not_run(case, built.failure or Verdict.JE, built.message)

    def _not_run(self, case: Case, verdict: Verdict, message: str, runs: int = 1) -> CaseResult:
        return CaseResult(case=case.id, verdict=verdict, points=0.0, max_points=case.points, message=message,
                          seconds=0.0, visibility=case.visibility, optimal_moves=case.optimal_moves,
                          solvable=case.solvable, runs=runs)

    def _run_case(self, submission: Submission, built: Build, case: Case) -> CaseResult:
        why = self.budget.spent(submission.id)
        if why is not None:  # [limits] stop_after_tle: the submission's budget is spent
            return self._not_run(case, Verdict.TLE, why, runs=0)
        result = self._run_case_safe(submission, built, case)
        self.budget.count(submission.id, result.verdict)
        return result

    def _run_case_safe(self, submission: Submission, built: Build, case: Case) -> CaseResult:
        try:
            return self.cases.run(built, case)
        except StudentFault as exc:  # a link the build left, a host-side step past its cap...
            return self._not_run(case, exc.verdict, str(exc))
        except Exception as exc:  # a grader fault must not stop the batch
            return self._not_run(case, Verdict.JE, f"internal grader error: {type(exc).__name__}: {exc}")
