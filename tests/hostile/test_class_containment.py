"""Issue 29's "done when", one attack class at a time, through whole grading runs.

For each class in :data:`ATTACKS` (its own attacker folders under ``tests/hostile/``), a small
class is graded: the attackers and two well-behaved students, at ``-j 2`` and ``-j 4``, with
``--strict``, while a second ``grade`` process (:func:`neighbour`) keeps grading another class on
the same machine: lock-channel attackers publishing the same test set's hidden boards. Then:

- every well-behaved student's results.json entry, feedback, JUnit file and Gradescope results
  are byte-identical (timings stripped) to a run of the class without the attackers;
- every attacker gets the verdict it earns, and the text saying why where it matters;
- nothing a student sees (feedback, the visible cases' messages and stderr in results.json,
  JUnit, Gradescope's visible tests) names a hidden case or holds a hidden board, no run's
  stderr names its case or its student, no output of either grader holds a ``LEAK``, and
  every writer escapes the hostile ids (well-formed XML, no raw control characters, no formula
  in a CSV cell, no markup in the HTML);
- the copy back from the runs' tmpfs wrote the host no more than the answers.

The test set is four cases of cmpe160: two visible, and two hidden whose ids tell their answers
(``3x3-unsolvable-01``). Only ever run inside the fresh PID namespace that
``test_pid_namespace.py`` makes.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from grader import pipeline
from grader.integrations.gradescope import gradescope_results
from grader.reports.escaping import safe_name
from grader.reports.json_results import results_from_json
from grader.reports.junit import junit_file_name
from grader.sandbox.folders import copyback
from grader.sandbox.probe import jvm_probe
from tests.grader.intake import test_zips
from tests.hostile.conftest import current_plan
from tests.support import REPO

HOSTILE = Path(__file__).resolve().parent
SOURCE_SET = REPO / "testcases" / "cmpe160"
VISIBLE, HIDDEN = ("3x3-rand-01", "3x3-rand-04"), ("3x3-unsolvable-01", "3x3-rand-02")
WELL_BEHAVED = {"alice": REPO / "examples" / "submissions" / "AC-python-correct",
                "bob": REPO / "examples" / "submissions" / "SUB-python-suboptimal"}
# Control characters, a bidirectional override, a spreadsheet formula and markup: every writer's escaping.
HOSTILE_ID = "=HYPERLINK(1)\x1b[31m\x07<img src=x onerror=alert(1)>\u202e&amp;"
TIMINGS = {"seconds", "cpu_seconds", "execution_time"}
OUTPUT_LIMIT = 1_000_000  # the answer file's cap (cmpe160 keeps the default)


def copy_of(name: str) -> Callable[[Path], None]:
    return lambda target: shutil.copytree(HOSTILE / name, target)


def zipped(make: Callable[[], bytes]) -> Callable[[Path], None]:
    return lambda target: target.with_suffix(".zip").write_bytes(make())


def well_behaved_with_links(target: Path) -> None:
    """A correct submission with what students commit by accident: an editor's and a build folder's links."""
    shutil.copytree(WELL_BEHAVED["alice"], target)
    (target / ".idea").mkdir()
    (target / ".idea" / "workspace.xml").symlink_to("/etc/passwd")
    (target / "build").symlink_to("/usr")
    (target / "solver" / "notes.txt").symlink_to("../../../../../../etc/hostname")


@dataclasses.dataclass(frozen=True)
class Attack:
    name: str
    students: dict[str, Callable[[Path], None]]  # student id -> what puts its submission at a path
    verdicts: frozenset[str]                    # every case of every attacker gets one of these
    says: str = ""                              # in each attacker's feedback or visible stderr (" || ": either)
    needs_filter: bool = False                  # what it checks holds only with the seccomp filter
    needs_java: bool = False


ATTACKS = [
    # 1. a hidden case's run publishes its board as locks on a host file; a visible run reads it (within
    # one grader the schedule keeps them apart; across graders only the filter does)
    Attack("lock-channel", {"mallory": copy_of("lock_channel"), "trudy": copy_of("lock_channel")},
           frozenset({"PE"}), needs_filter=True),
    # 2. a run prints its cwd, environment, argv, mounts and the folders around it
    Attack("case-snoop", {"snoopy-0451": copy_of("path_snoop")}, frozenset({"PE"}), says="SNOOP cwd="),
    # 3. a sparse answer, 300 hard links and 20,000 files for the copy back (the 12 MB answer is over
    # the output limit: RTE, read no further than the limit; or, in a worker's box, whose file count is
    # capped, the program's own crash on ENOSPC comes first: RTE either way, and nothing is copied back)
    Attack("copy-back", {"amplifier": copy_of("disk_amplifier")}, frozenset({"RTE"}),
           says="printed more than the output limit allows || No space left on device"),
    # 4. zips no reader can open: each its own student's CE
    Attack("broken-zips", {"encrypted": zipped(test_zips.encrypted), "ppmd": zipped(test_zips.method(98)),
                           "corrupt": zipped(test_zips.corrupt_deflate), "bomb": zipped(test_zips.lying_size)},
           frozenset({"CE"})),
    # 5. a megabyte of unsolvable wordings, each a note of its own
    Attack("note-flood", {"flood": copy_of("note_flood")}, frozenset({"PE", "WA"})),
    # 6. the JVM's start-up failure text, printed by a JVM that started
    Attack("jvm-start-text", {"javer": copy_of("jvm_start_text")}, frozenset({"RTE"}), needs_java=True),
    # 6b. every runtime's out-of-memory text, printed by a program that holds a few MB
    Attack("oom-text", {"claimer": copy_of("oom_text")}, frozenset({"RTE"}),
           says="(grader: the program said it ran out of memory, but"),
    Attack("jvm-oom-text", {"heaper": copy_of("jvm_oom_text")}, frozenset({"RTE"}), needs_java=True,
           says="(grader: the program said it ran out of memory, but"),
    # 7. a correct submission under an id every writer must escape
    Attack("hostile-ids", {HOSTILE_ID: lambda target: shutil.copytree(WELL_BEHAVED["alice"], target)},
           frozenset({"AC"})),
    # 8. a correct answer in Arabic-Indic digits with U+2028 line breaks, under --strict
    Attack("strict-digits", {"digits": copy_of("unicode_digits")}, frozenset({"PE"})),
    # 9. a correct submission with committed links: left out, said so, the rest graded
    Attack("committed-link", {"linker": well_behaved_with_links}, frozenset({"AC"}),
           says="Left out of the submission:"),
    # 10. io_uring, bpf, perf_event_open, userfaultfd, keyrings, ptrace, namespaces, locks
    Attack("syscalls", {"prober": copy_of("syscall_probe")}, frozenset({"PE"}), says="allowed: none",
           needs_filter=True),
]


# ---------------------------------------------------------------- the class and its grading
@pytest.fixture(scope="module")
def testset(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("testset")
    manifest = json.loads((SOURCE_SET / "manifest.json").read_text(encoding="utf-8"))
    manifest["cases"] = [case for case in manifest["cases"] if case["id"] in VISIBLE + HIDDEN]
    assert {case["id"]: case["visibility"] for case in manifest["cases"]} == {
        **{case: "visible" for case in VISIBLE}, **{case: "hidden" for case in HIDDEN}}
    (folder / "cases").mkdir()
    for case in manifest["cases"]:
        shutil.copyfile(SOURCE_SET / case["input"], folder / case["input"])
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    shutil.copyfile(SOURCE_SET / "assignment.toml", folder / "assignment.toml")
    return folder


@dataclasses.dataclass
class Graded:
    out: Path
    document: dict
    copied_back: int  # data bytes the copy back wrote to the host for the whole class

    def submission(self, sid: str) -> dict:
        return next(s for s in self.document["submissions"] if s["id"] == sid)


def grade_class(folder: Path, testset: Path, attackers: dict[str, Callable[[Path], None]], jobs: int,
                monkeypatch: pytest.MonkeyPatch) -> Graded:
    submissions = folder / "submissions"
    for sid, source in WELL_BEHAVED.items():
        shutil.copytree(source, submissions / sid)
    for sid, place in attackers.items():
        place(submissions / sid)
    written = [0]
    lock = threading.Lock()
    real = copyback._copy_range

    def counted(source, target, start, end):  # every byte the copy back writes to the host disk
        with lock:
            written[0] += end - start
        real(source, target, start, end)

    with monkeypatch.context() as patch:
        patch.setattr(copyback, "_copy_range", counted)
        pipeline.grade(submissions, testset, folder / "out", jobs=jobs, strict=True)
    document = json.loads((folder / "out" / "results.json").read_text(encoding="utf-8"))
    return Graded(folder / "out", document, written[0])


@pytest.fixture(scope="module")
def baselines(testset, tmp_path_factory) -> Callable[[int], Graded]:
    """The class without attackers at ``jobs``, graded once per module and shared."""
    made: dict[int, Graded] = {}

    def baseline(jobs: int) -> Graded:
        if jobs not in made:
            with pytest.MonkeyPatch.context() as patch:
                made[jobs] = grade_class(tmp_path_factory.mktemp(f"baseline-j{jobs}"), testset, {}, jobs, patch)
        return made[jobs]
    return baseline


@pytest.fixture(scope="module")
def neighbour(testset, tmp_path_factory):
    """A second ``grade`` on the machine, grading another class again and again until the module ends:
    two lock-channel attackers (whose hidden runs publish this test set's hidden boards) and alice."""
    folder = tmp_path_factory.mktemp("neighbour")
    other = folder / "class"
    for sid in ("eve", "oscar"):
        shutil.copytree(HOSTILE / "lock_channel", other / sid)
    shutil.copytree(WELL_BEHAVED["alice"], other / "alice")
    stop, runs = threading.Event(), []

    def loop() -> None:
        while not stop.is_set():
            out = folder / f"out{len(runs)}"
            done = subprocess.run([sys.executable, "-m", "grader.cli", str(other), "--testcases", str(testset),
                                   "-j", "2", "--out", str(out), "--no-progress"],
                                  env=dict(os.environ, PYTHONPATH=str(REPO)), stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=600, check=False)
            runs.append((done, out))

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    yield thread
    stop.set()
    thread.join(timeout=600)
    assert runs, "the second grader never finished a run"
    for done, out in runs:
        assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
        results = json.loads((out / "results.json").read_text(encoding="utf-8"))
        verdicts = {s["id"]: {case["verdict"] for case in s["cases"]} for s in results["submissions"]}
        assert verdicts == {"alice": {"AC"}, "eve": {"PE"}, "oscar": {"PE"}}
        assert not any("LEAK" in path.read_text(errors="replace") for path in out.rglob("*") if path.is_file())


# ---------------------------------------------------------------- what is compared and scanned
def stripped(value):
    """results.json data without what varies from run to run: timings and the submission's host path."""
    if isinstance(value, dict):
        return {k: stripped(v) for k, v in value.items() if k not in TIMINGS and k != "source"}
    if isinstance(value, list):
        return [stripped(v) for v in value]
    return value


def seen_by(graded: Graded, sid: str) -> dict[str, str]:
    """Everything of ``sid``'s that a student may see, by where it is shown (timings stripped)."""
    submission = graded.submission(sid)
    single = dict(graded.document, submissions=[submission])
    gradescope = gradescope_results(results_from_json(single), 0.0)
    return {
        "results.json": json.dumps(stripped(submission), sort_keys=True),
        "feedback": re.sub(r"\(\d+\.\d\d s", "(- s", (graded.out / "feedback" / f"{safe_name(sid)}.txt").read_text()),
        "junit": re.sub(r' time="[0-9.]+"', "", (graded.out / "junit" / junit_file_name(sid)).read_text()),
        "gradescope": json.dumps({k: v for k, v in gradescope.items() if k != "execution_time"}, sort_keys=True),
    }


def student_visible(graded: Graded, sid: str) -> str:
    """The parts a student is shown: not the TA's view of hidden cases in results.json or Gradescope."""
    submission = graded.submission(sid)
    gradescope = gradescope_results(results_from_json(dict(graded.document, submissions=[submission])), 0.0)
    # results.json leaves a case's default values out (format 2): "visible", "", [] when absent
    shown_cases = [{k: case.get(k, "" if k == "stderr" else []) for k in ("case", "message", "stderr", "notes",
                                                                          "problems")}
                   for case in submission["cases"] if case.get("visibility", "visible") == "visible"]
    shown_tests = [test for test in gradescope["tests"] if test["visibility"] == "visible"]
    views = seen_by(graded, sid)
    return "\n".join([views["feedback"], views["junit"], json.dumps(shown_cases), json.dumps(submission["build"]),
                      json.dumps(submission.get("api", [])), gradescope["output"], json.dumps(shown_tests)])


def hidden_secrets(testset: Path) -> list[re.Pattern]:
    """A hidden case's id, and its board with any separators (as a LEAK line or a path would print it)."""
    manifest = json.loads((testset / "manifest.json").read_text(encoding="utf-8"))
    found = []
    for case in manifest["cases"]:
        if case["visibility"] == "hidden":
            tiles = (testset / case["input"]).read_text(encoding="ascii").split()[1:]
            found.append(re.compile(re.escape(case["id"])))
            found.append(re.compile(r"(?<![0-9])" + r"[^0-9]{1,6}".join(tiles) + r"(?![0-9])"))
    return found


def assert_nothing_leaks(graded: Graded, testset: Path) -> None:
    secrets = hidden_secrets(testset)
    case_ids = [case["id"] for case in graded.document["cases"]]
    for submission in graded.document["submissions"]:
        sid = submission["id"]
        shown = student_visible(graded, sid)
        for secret in secrets:
            assert not secret.search(shown), f"{sid!r} is shown {secret.pattern!r}"
        for case in submission["cases"]:  # no run learns its case or its student, hidden ones included
            for name in [*case_ids, sid]:
                assert name not in case.get("stderr", ""), f"a run of {sid!r} printed {name!r}"
        assert "\x1b" not in shown and "\u202e" not in shown, f"{sid!r}: raw control characters"
        ET.fromstring((graded.out / "junit" / junit_file_name(sid)).read_bytes())  # well-formed XML
    for path in graded.out.rglob("*"):
        if path.is_file():
            assert "LEAK" not in path.read_text(errors="replace"), f"{path.name} holds a leaked board"
    assert "<img src=x" not in (graded.out / "report.html").read_text(encoding="utf-8")
    with open(graded.out / "grades.csv", newline="", encoding="utf-8") as table:
        for row in csv.reader(table):
            assert not any(cell[:1] in ("=", "+", "-", "@") for cell in row), f"a formula in grades.csv: {row}"


# ---------------------------------------------------------------- the test
@pytest.mark.parametrize("jobs", [2, 4])
@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_each_attack_gets_its_own_verdict_and_changes_nothing_else(attack: Attack, jobs: int, testset, baselines,
                                                                   neighbour, tmp_path, monkeypatch):
    if attack.needs_filter and current_plan().seccomp is None:
        pytest.skip("no seccomp filter on this machine")
    if attack.needs_java:
        if shutil.which("javac") is None:
            pytest.skip("no JDK")
        jvm_probe.forget()
    baseline = baselines(jobs)
    assert neighbour.is_alive(), "the second grader must be running"
    graded = grade_class(tmp_path, testset, attack.students, jobs, monkeypatch)

    for sid in WELL_BEHAVED:
        assert seen_by(graded, sid) == seen_by(baseline, sid), f"the attack changed {sid}'s results"
    attackers = [s for s in graded.document["submissions"] if s["id"] not in WELL_BEHAVED]
    assert len(attackers) == len(attack.students)
    for submission in attackers:
        got = {case["verdict"] for case in submission["cases"]}
        assert got <= attack.verdicts and len(submission["cases"]) == 4, (submission["id"], got,
                                                                          submission["cases"][0]["message"][:1500])
        for case in submission["cases"]:  # the size budget: no output bloats a case's entry
            assert len(json.dumps(case)) < 20_000, (submission["id"], case["case"], len(json.dumps(case)))
        if attack.says:
            evidence = student_visible(graded, submission["id"])
            assert any(text in evidence for text in attack.says.split(" || ")), (attack.says, evidence[:3000])
    assert_nothing_leaks(graded, testset)
    # The copy back wrote the answers (each read no further than the output limit) and nothing else:
    # the amplifier's runs each hold a 12 MB sparse answer and 300 links to 2 MB, 600 MB copied naively.
    runs = sum(len(s["cases"]) for s in graded.document["submissions"])
    assert graded.copied_back <= runs * (OUTPUT_LIMIT + 4096), graded.copied_back
