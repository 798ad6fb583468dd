"""The journal: every finished (submission, case) result on disk, so ``grade --resume`` loses nothing.

Layout, under the results folder::

    .journal/run.json                          the run's key (a hash of the test set + assignment)
    .journal/<submission>-<hash>/cases.jsonl   one line per finished result, appended as it finishes
    .journal/<submission>-<hash>/api/results.json   the submission's finished API part, if it has one

Each result is one ``write`` of one whole line to a file opened for appending, from the main thread;
once the call returns, the line is in the kernel's page cache, so a ``kill -9`` of the grader at any
moment loses no finished result. What only a crash of the machine itself could lose is made durable
by a group commit: one ``fsync`` per submission when its last case is recorded (and for every open
file when the run ends or is interrupted), instead of one per result on the main thread. A line
torn by a machine crash, or one that is not a valid entry (:mod:`grader.model.journal`, whose schema is
``grader/schemas/journal.schema.json``), is ignored: that case is simply run again. Journals of the older
layout (one ``<case>.json`` per result) are still read.

A run that keeps a journal holds only which cases are done: :class:`Submissions` reads each submission back
from here when a report comes to it (:meth:`Journal.read_back`), its printed paths still coded, and keeps what it
read while that stays under :data:`READ_BACK_BYTES` of journal text (each report goes over the class once).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast, overload

from pydantic import TypeAdapter, ValidationError

from grader.errors import ConfigError, OutputDirError
from grader.model import pathcode
from grader.model.apiresult import ApiResult
from grader.model.journal import JOURNAL_API, JOURNAL_CASE, JournalApi, JournalCase, Language
from grader.model.results import TRUSTED, BuildRecord, CaseResult, LazySubmissions, SubmissionResult
from grader.reports.feedback import safe_name
from solver.errors import OutputError
from solver.fileio import write_atomic

FOLDER = ".journal"
KEY_FILE = "run.json"
E = TypeVar("E")
API_ENTRY = Path("api") / "results.json"
CASES_FILE = "cases.jsonl"
FORMAT_VERSION = 2
"""2: results as results.json format 2 writes them (coded paths, defaults left out); format 1 is read alike."""
READ_BACK_BYTES = 4 * 2**20
"""How much journal text :class:`Submissions` keeps read back (as results), the least recently asked for going
first: the six reports of a class read each submission once, not six times (checking an entry again costs
~20 us), while a class too large for it is read back per report as before, in bounded memory."""


@dataclass(frozen=True)
class Finished:
    """What the journal holds for one submission: its build and the cases already graded."""

    language: Language
    build: BuildRecord
    source: str
    cases: dict[str, CaseResult]
    api: tuple[ApiResult, ...] | None = None
    """The API part, when it finished (an assignment with ``[api]``)."""


def run_key(testset_name: str, cases: list[dict[str, Any]], assignment: Mapping[str, Any],
            time_limit: float | None) -> str:
    """A hash of everything that shapes a result: the cases (boards, answers, points, limits), the
    assignment's settings (not its path on this machine) and a ``--time-limit`` override."""
    settings = {"testset": testset_name, "cases": cases, "time_limit": time_limit,
                "assignment": {k: v for k, v in assignment.items() if k != "source"}}
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()


class Journal:
    """The journal of one results folder. :meth:`start` ties it to a run; :meth:`record` appends a result
    (call it from one thread), :meth:`commit` makes a submission's lines durable, :meth:`close` all of them."""

    def __init__(self, out_dir: Path, resume: bool) -> None:
        self.root = Path(out_dir) / FOLDER
        self.resume = resume
        self.key: str | None = None
        self.found = False
        """With ``resume``: whether a journal was there to continue (else everything is graded)."""
        self.reused = 0
        """With ``resume``: how many finished results the journal supplied."""
        self.reused_api = 0
        """With ``resume``: how many submissions' finished API parts the journal supplied."""
        self._open: dict[str, int] = {}  # submission id -> its cases.jsonl, open for appending until committed

    def start(self, key: str) -> dict[str, Finished]:
        """Tie the journal to ``key``; with ``resume``, return the finished results, else start empty.

        Resuming a journal written for another test set or assignment is refused (exit 3): its
        results would be mixed with results graded against different answers.
        """
        key_file = self.root / KEY_FILE
        if self.root.parent.exists() and not self.root.parent.is_dir():
            raise OutputDirError(f"{self.root.parent}: expected a results folder, found a file")
        finished: dict[str, Finished] = {}
        if self.resume and key_file.exists():
            try:
                stored = json.loads(key_file.read_text(encoding="utf-8")).get("key")
            except (OSError, ValueError, AttributeError):
                stored = None
            if stored != key:
                raise ConfigError(str(key_file), "$.key",
                                  "this journal was written for a different test set or assignment (expected key "
                                  f"{key[:12]}…, found {str(stored)[:12]}…); resume with the same --testcases, "
                                  "--assignment, --cases and --time-limit, or grade again without --resume")
            finished = self._read(key)
            self.found = True
            self.reused = sum(len(held.cases) for held in finished.values())
            self.reused_api = sum(held.api is not None for held in finished.values())
        elif not self.resume and self.root.exists():
            shutil.rmtree(self.root)  # a fresh run: old entries must not leak into a later --resume
        self.key = key
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            write_atomic(key_file, json.dumps({"format_version": FORMAT_VERSION, "key": key}) + "\n")
        except (OSError, OutputError) as exc:
            raise OutputDirError(f"{self.root}: cannot write the journal: {getattr(exc, 'strerror', None) or exc}") \
                from None
        return finished

    def record(self, submission_id: str, source: str, language: str, build: BuildRecord,
               result: CaseResult) -> None:
        """Append one finished result (one whole line, one ``write``): safe from a ``kill -9`` on return."""
        assert self.key is not None, "start() first"
        entry = JournalCase(key=self.key, submission=submission_id, source=source, build=build, result=result,
                            language=cast(Language, language)).to_json()  # the record checks it
        line = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            fd = self._open.get(submission_id)
            if fd is None:
                folder = self._folder(submission_id)
                folder.mkdir(parents=True, exist_ok=True)
                fd = os.open(folder / CASES_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW,
                             0o644)
                self._open[submission_id] = fd
            written = os.write(fd, line)
            while written < len(line):  # a regular file takes it whole; a short write (a full disk) is finished
                written += os.write(fd, line[written:])
        except OSError as exc:
            raise OutputDirError(f"{self._folder(submission_id)}: cannot write the journal: {exc.strerror or exc}") \
                from None

    def commit(self, submission_id: str) -> None:
        """Make the submission's recorded lines durable (one ``fsync``) and close its file."""
        fd = self._open.pop(submission_id, None)
        if fd is None:
            return
        try:
            os.fsync(fd)
        except OSError as exc:
            raise OutputDirError(f"{self._folder(submission_id)}: cannot write the journal: {exc.strerror or exc}") \
                from None
        finally:
            os.close(fd)

    def close(self) -> None:
        """Commit every submission still open (the run ended, or was interrupted)."""
        for submission_id in list(self._open):
            self.commit(submission_id)

    def read_back(self, submission_id: str) -> tuple[dict[str, CaseResult], int]:
        """The submission's finished results as the journal holds them now (a later line for a case wins), and the
        bytes of journal text they came from: a run reads each submission back from here when a report comes to
        it, instead of holding them all. Its lines were checked when the run started (resumed ones) or written by
        this run, so their paths stay coded, unchecked (:data:`~grader.model.results.TRUSTED`); a line that does
        not parse (torn by a crash) is left out, as :meth:`start` leaves it out."""
        assert self.key is not None, "start() first"
        folder = self._folder(submission_id)
        try:
            lines = (folder / CASES_FILE).read_bytes().splitlines()
        except FileNotFoundError:
            lines = []
        except OSError as exc:
            raise OutputDirError(f"{folder}: cannot read the journal back: {exc.strerror or exc}") from None
        held: dict[str, CaseResult] = {}
        texts = [*_older(folder), *lines]
        for text in texts:
            entry = _valid(JOURNAL_CASE, text, trusted=True)
            if entry is not None and entry.key == self.key and entry.submission == submission_id:
                held[entry.result.case] = entry.result
        return held, sum(map(len, texts))

    def _folder(self, submission_id: str) -> Path:
        # The hash keeps ids that differ only in unsafe characters ("a b", "a_b") apart.
        return self.root / f"{safe_name(submission_id)}-{hashlib.sha256(submission_id.encode()).hexdigest()[:8]}"

    def record_api(self, submission_id: str, source: str, language: str, build: BuildRecord,
                   api: tuple[ApiResult, ...]) -> None:
        """The submission's whole API part, once it has finished (a resumed run does not run it again)."""
        assert self.key is not None, "start() first"
        entry = JournalApi(key=self.key, submission=submission_id, source=source, build=build, api=api,
                           language=cast(Language, language)).to_json()  # the record checks it
        folder = self._folder(submission_id)
        name = API_ENTRY
        try:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            write_atomic(folder / name, json.dumps(entry, ensure_ascii=False))
        except (OSError, OutputError) as exc:
            raise OutputDirError(f"{folder}: cannot write the journal: {getattr(exc, 'strerror', None) or exc}") \
                from None

    def _read(self, key: str) -> dict[str, Finished]:
        finished: dict[str, Finished] = {}

        def held_by(entry: JournalCase | JournalApi) -> Finished:
            return finished.setdefault(entry.submission, Finished(entry.language, entry.build, entry.source, {}))

        for entry in [*self._entries("*/*.json", JOURNAL_CASE, key), *self._lines(key)]:
            held_by(entry).cases[entry.result.case] = entry.result
        for api in self._entries(f"*/{API_ENTRY.as_posix()}", JOURNAL_API, key):
            finished[api.submission] = dataclasses.replace(held_by(api), api=api.api)
        return finished

    def _lines(self, key: str) -> Iterator[JournalCase]:
        """The results in every ``cases.jsonl`` that parse, pass the schema and belong to run ``key``, in order
        (a later line for the same case wins); a torn or damaged line is left out, so its case runs again."""
        for path in sorted(self.root.glob(f"*/{CASES_FILE}")):
            try:
                lines = path.read_bytes().splitlines()
            except OSError:
                continue
            for line in lines:
                entry = _valid(JOURNAL_CASE, line)
                if entry is not None and entry.key == key:
                    yield entry

    def _entries(self, pattern: str, adapter: TypeAdapter[E], key: str) -> Iterator[E]:
        """The journal's entries matching ``pattern`` that parse, pass ``schema`` and belong to run ``key``; any
        other is left out, so its case is graded again, or its API part run again."""
        for path in sorted(self.root.glob(pattern)):
            try:
                text = path.read_bytes()
            except OSError:
                continue
            entry = _valid(adapter, text)
            if entry is not None and entry.key == key:  # type: ignore[attr-defined]
                yield entry


def _older(folder: Path) -> Iterator[bytes]:
    """The submission's entries in the older layout (one ``<case>.json`` each), if the run resumed from one."""
    for path in sorted(folder.glob("*.json")):
        try:
            yield path.read_bytes()
        except OSError:
            continue


def _valid(adapter: TypeAdapter[E], text: bytes, trusted: bool = False) -> E | None:
    """A journal entry, or ``None`` for one torn, damaged or of another version (its work is done again);
    ``trusted``: read back by the run that checked it, its coded paths kept coded."""
    try:
        return adapter.validate_python(json.loads(text), context={TRUSTED: True} if trusted else None)
    except (ValueError, ValidationError):  # json.JSONDecodeError and UnicodeDecodeError are ValueErrors
        return None


class Submissions(LazySubmissions):
    """A run's submissions, each read back from the journal when it is asked for, its cases in ``order``:
    what a class's reports need is never in memory all at once, beyond the last ``keep_bytes`` of journal text
    read back (:data:`READ_BACK_BYTES`). ``shells`` are the submissions without their cases (build, API part,
    whether complete)."""

    def __init__(self, journal: Journal, shells: tuple[SubmissionResult, ...], order: Mapping[str, int],
                 keep_bytes: int = READ_BACK_BYTES) -> None:
        self.journal, self.shells, self.order = journal, shells, order
        self.keep_bytes = keep_bytes
        self._kept: OrderedDict[int, tuple[SubmissionResult, int]] = OrderedDict()  # index: (submission, its bytes)
        self._kept_bytes = 0
        self._last: int | None = None

    def __len__(self) -> int:
        return len(self.shells)

    @overload
    def __getitem__(self, index: int) -> SubmissionResult: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[SubmissionResult, ...]: ...

    def __getitem__(self, index: int | slice) -> SubmissionResult | tuple[SubmissionResult, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        index = range(len(self))[index]  # a negative index, or IndexError
        last = self._kept.get(self._last) if self._last is not None and self._last != index else None
        if last is not None:  # the boards a report decoded from the last one's paths go: kept ones stay coded
            _forget_boards(last[0])
        self._last = index
        if index in self._kept:
            self._kept.move_to_end(index)
            return self._kept[index][0]
        shell = self.shells[index]
        held, size = self.journal.read_back(shell.id)
        cases = sorted((held[case] for case in held if case in self.order), key=lambda r: self.order[r.case])
        submission = dataclasses.replace(shell, cases=tuple(cases))
        if size <= self.keep_bytes:  # the journal is closed: what was read back stays true
            self._kept[index] = (submission, size)
            self._kept_bytes += size
            while self._kept_bytes > self.keep_bytes:
                self._kept_bytes -= self._kept.popitem(last=False)[1][1]
        return submission


def _forget_boards(submission: SubmissionResult) -> None:
    """Drop the boards decoded from the submission's coded paths (they are decoded again if looked at)."""
    for case in submission.cases:
        if isinstance(case.path, pathcode.Coded):
            case.path.decoded = None
