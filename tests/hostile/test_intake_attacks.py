"""Hostile submissions against the grader's own, host-side work: links and the grader's own names.

Each runs through the whole pipeline (:func:`grader.pipeline.grade`) beside a well-behaved
submission. The links point at a "victim" file this test makes (never a real host file),
readable by anyone, so a leak would show: the victim must stay byte-identical, its content
must appear nowhere in the results, and the well-behaved neighbour's results must be the
same as when it is graded alone.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import stat
import tempfile
import zipfile
from pathlib import Path

import pytest

from grader.pipeline import grade
from tests.grader.intake import test_zips
from tests.support import REPO

HOSTILE = Path(__file__).resolve().parent
TESTSET = REPO / "tests" / "grader" / "data" / "testset"
WELL_BEHAVED = REPO / "examples" / "submissions" / "AC-python-correct"
SECRET = "victim-7f3a: the grader must never read or write this"


@pytest.fixture
def victim() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="npuzzle-victim-"))
    folder.chmod(0o755)
    path = folder / "secret.txt"
    path.write_text(SECRET + "\n")
    path.chmod(0o644)
    yield path
    shutil.rmtree(folder, ignore_errors=True)


def submissions(tmp_path: Path, name: str, victim: Path) -> Path:
    """The hostile folder ``name`` beside the well-behaved one, with the victim's path in victim.path."""
    subs = tmp_path / "subs"
    shutil.copytree(HOSTILE / name, subs / name, symlinks=True)
    (subs / name / "victim.path").write_text(str(victim))
    shutil.copytree(WELL_BEHAVED, subs / "well-behaved")
    return subs


def graded(subs: Path, testset: Path = TESTSET) -> dict:
    results = grade(subs, testset, subs.parent / "out", jobs=2).to_json()
    text = json.dumps(results)
    assert SECRET not in text
    assert SECRET not in "".join(p.read_text() for p in (subs.parent / "out").rglob("*") if p.is_file())
    by_id = {s["id"]: s for s in results["submissions"]}
    assert by_id["well-behaved"]["verdict"] == "AC"
    return by_id


def verdicts(submission: dict) -> set[str]:
    return {case["verdict"] for case in submission["cases"]}


def messages(submission: dict) -> str:
    return "\n".join(case["message"] for case in submission["cases"])


def left_out(submission: dict) -> str:
    return "\n".join(submission["build"].get("left_out", []))


def test_input_link_is_left_out_and_never_written_through(tmp_path: Path, victim: Path) -> None:
    # The link is not copied, so the case's input is written fresh beside the program: it is graded.
    subs = submissions(tmp_path, "symlink_input", victim)
    (subs / "symlink_input" / "input.txt").symlink_to(victim)
    hostile = graded(subs)["symlink_input"]
    assert hostile["build"]["ok"] and "CE" not in verdicts(hostile)
    assert "AC" in verdicts(hostile)  # it prints the unsolvable wording: right on the unsolvable cases
    assert f"input.txt: left out, a symbolic link to '{victim}'" in left_out(hostile)
    assert victim.read_text() == SECRET + "\n"


def test_folder_link_is_left_out_and_never_read_through(tmp_path: Path, victim: Path) -> None:
    subs = submissions(tmp_path, "symlink_folder", victim)
    (subs / "symlink_folder" / "lib").symlink_to(victim.parent)
    (subs / "symlink_folder" / "dangling").symlink_to(tmp_path / "nowhere")
    (subs / "symlink_folder" / "deeper").mkdir()
    (subs / "symlink_folder" / "deeper" / "loop").symlink_to("loop")
    hostile = graded(subs)["symlink_folder"]
    assert hostile["build"]["ok"] and verdicts(hostile) == {"NO"}  # it printed nothing: lib was not there
    notes = left_out(hostile)
    assert f"lib: left out, a symbolic link to '{victim.parent}'" in notes
    assert "dangling: left out" in notes and "deeper/loop: left out, a symbolic link to 'loop'" in notes


def test_a_linked_entry_file_fails_the_build_naming_it(tmp_path: Path, victim: Path) -> None:
    # Only what needed the link fails: here the entry file itself, so there is nothing to run.
    subs = tmp_path / "subs"
    (subs / "entry_link").mkdir(parents=True)
    (subs / "entry_link" / "main.py").symlink_to(victim)
    shutil.copytree(WELL_BEHAVED, subs / "well-behaved")
    hostile = graded(subs)["entry_link"]
    assert verdicts(hostile) == {"CE"}
    assert "no .java or .py files found" in hostile["build"]["message"]
    assert f"main.py: left out, a symbolic link to '{victim}'" in hostile["build"]["message"]


def test_a_link_entry_in_a_zip_is_left_out(tmp_path: Path, victim: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    with zipfile.ZipFile(subs / "zipped.zip", "w") as archive:
        for path in sorted(WELL_BEHAVED.rglob("*")):
            if path.is_file():
                archive.write(path, f"zipped/{path.relative_to(WELL_BEHAVED)}")
        link = zipfile.ZipInfo("zipped/secret.txt")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, str(victim))
    shutil.copytree(WELL_BEHAVED, subs / "well-behaved")
    hostile = graded(subs)["zipped"]
    assert verdicts(hostile) == {"AC"}
    assert f"zipped/secret.txt: left out, a symbolic link to '{victim}'" in left_out(hostile)
    feedback = (tmp_path / "out" / "feedback" / "zipped.txt").read_text()
    assert "Left out of the submission:" in feedback and "secret.txt" in feedback


def test_lone_link_is_not_unwrapped(tmp_path: Path, victim: Path) -> None:
    # A folder holding only one folder is unwrapped; a lone link to a folder must not be.
    subs = tmp_path / "subs"
    (subs / "unwrap").mkdir(parents=True)
    (subs / "unwrap" / "code").symlink_to(victim.parent)
    shutil.copytree(WELL_BEHAVED, subs / "well-behaved")
    hostile = graded(subs)["unwrap"]
    assert verdicts(hostile) == {"CE"} and "code: left out, a symbolic link" in hostile["build"]["message"]


def test_link_planted_by_a_build_step_is_left_out(tmp_path: Path, victim: Path) -> None:
    testset = tmp_path / "testset"
    shutil.copytree(TESTSET, testset)
    (testset / "assignment.toml").write_text(
        'format_version = 1\nname = "command"\nio = "files"\nlanguage = "command"\n'
        '[command]\nbuild = ["/bin/sh", "build.sh"]\nrun = ["/bin/cat", "leak.txt"]\n'
        '[limits]\nwall_seconds = 5\nmemory_mb = 512\n')
    subs = tmp_path / "subs"
    shutil.copytree(HOSTILE / "planted_link_at_build", subs / "planted")
    (subs / "planted" / "victim.path").write_text(str(victim))
    results = grade(subs, testset, tmp_path / "out", jobs=1).to_json()
    [hostile] = results["submissions"]
    assert SECRET not in json.dumps(results)
    assert verdicts(hostile) == {"RTE"}  # cat finds no leak.txt: only the run that needed the link fails
    assert f"leak.txt: left out, a symbolic link to '{victim}'" in left_out(hostile)


BROKEN_ZIPS = {"encrypted": test_zips.encrypted, "deflate64": test_zips.method(9),
               "corrupt": test_zips.corrupt_deflate, "truncated": test_zips.truncated, "bad-crc": test_zips.bad_crc,
               "bomb": test_zips.bomb}


@pytest.mark.parametrize("jobs", [2, 4])
def test_broken_zips_are_each_their_students_ce(tmp_path: Path, jobs: int) -> None:
    # They stopped the whole class with an internal error; each is now its own CE, and the
    # well-behaved neighbour's results are byte-identical to its results graded alone.
    alone = tmp_path / "alone"
    shutil.copytree(WELL_BEHAVED, alone / "well-behaved")
    expected = grade(alone, TESTSET, None, jobs=jobs).to_json()["submissions"][0]
    subs = tmp_path / "subs"
    shutil.copytree(WELL_BEHAVED, subs / "well-behaved")
    for name, make in BROKEN_ZIPS.items():
        (subs / f"{name}.zip").write_bytes(make())
    results = grade(subs, TESTSET, tmp_path / "out", jobs=jobs).to_json()
    by_id = {s["id"]: s for s in results["submissions"]}
    for name in BROKEN_ZIPS:
        assert verdicts(by_id[name]) == {"CE"}
        assert by_id[name]["build"]["message"].startswith(f"cannot extract {name}.zip: ")
    assert strip_timing(by_id["well-behaved"]) == strip_timing(expected)


def strip_timing(submission: dict) -> dict:
    """A submission's results without what differs between two runs of the same program (times)."""
    timing = {"seconds", "cpu_seconds"}
    cases = [{k: v for k, v in case.items() if k not in timing} for case in submission["cases"]]
    build = {k: v for k, v in submission["build"].items() if k != "seconds"}
    return {**submission, "cases": cases, "build": build, "source": None}


def test_output_link_made_at_run_time_is_not_read(tmp_path: Path, victim: Path) -> None:
    hostile = graded(submissions(tmp_path, "output_link_at_run", victim))["output_link_at_run"]
    assert verdicts(hostile) == {"NO"}
    assert "output.txt is a link or not a regular file, so it was not read" in messages(hostile)


def test_the_graders_own_names_never_collide(tmp_path: Path, victim: Path) -> None:
    hostile = graded(submissions(tmp_path, "reserved_names", victim))["reserved_names"]
    assert verdicts(hostile) == {"NO"}, messages(hostile)  # never JE; the shipped output.txt is not an answer
    assert "output.txt was not created" in messages(hostile)


def test_a_students_folder_cannot_shadow_the_api_harness(tmp_path: Path) -> None:
    from grader.apitests.battery import Battery
    from grader.apitests.run import run_api_tests
    from grader.intake.build import build
    from grader.testsets.assignment import load_assignment
    from grader.testsets.model import load_testset

    api_data = REPO / "tests" / "grader" / "apitests" / "data"
    assignment = load_assignment(api_data / "testset" / "assignment.toml")
    battery = Battery(load_testset(api_data / "testset").cases, assignment.api)
    sample = api_data / "python" / "manhattan-counts-blank"
    submission = tmp_path / "sub"
    shutil.copytree(sample, submission)
    shutil.copytree(HOSTILE / "api_harness_shadow" / "_npuzzle_api", submission / "_npuzzle_api")
    base = Path(tempfile.mkdtemp(prefix="npuzzle-api-hostile-"))
    base.chmod(0o711)

    def folder(label: str = "run") -> Path:
        made = Path(tempfile.mkdtemp(prefix=f"{label}-", dir=base))
        made.chmod(0o711)
        return made

    try:
        built = build(submission, folder("build"), assignment)
        results = run_api_tests(built, battery, assignment.api, assignment, folder)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    failed = sorted(r.name for r in results if not r.passed)
    assert failed == json.loads((sample / "expected.json").read_text())["fails"]


def test_names_that_are_not_utf8_never_stop_the_batch(tmp_path: Path, victim: Path) -> None:
    # Folder and file names are bytes; Python keeps the invalid ones as lone surrogates, which no
    # report can encode. They were an "internal error" for the whole batch; now they are shown escaped.
    subs = submissions(tmp_path, "symlink_input", victim)
    weird = os.path.join(bytes(subs), b"caf\xe9-latin1")
    os.makedirs(weird)
    shutil.copytree(WELL_BEHAVED, os.fsdecode(weird), dirs_exist_ok=True)
    with open(os.path.join(bytes(subs / "symlink_input"), b"notes-\xff.txt"), "wb") as notes:
        notes.write(b"x")
    os.symlink(bytes(victim), os.path.join(bytes(subs / "symlink_input"), b"input.txt"))
    by_id = graded(subs)
    assert by_id["caf\\xe9-latin1"]["verdict"] == "AC"
    assert "input.txt: left out" in left_out(by_id["symlink_input"])


def test_mutated_zips_of_a_real_submission_each_end_in_their_own_verdict(tmp_path: Path) -> None:
    # Whole-pipeline fuzz: a correct submission zipped, then damaged at random (seeded). Each mutant
    # is graded or is its own CE with a message; none is a JE, and the neighbour is unaffected.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(WELL_BEHAVED.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                archive.write(path, f"code/{path.relative_to(WELL_BEHAVED)}")
    rng = random.Random(29)
    alone = tmp_path / "alone"
    shutil.copytree(WELL_BEHAVED, alone / "well-behaved")
    expected = grade(alone, TESTSET, None, jobs=2).to_json()["submissions"][0]
    subs = tmp_path / "subs"
    shutil.copytree(WELL_BEHAVED, subs / "well-behaved")
    for index in range(10):
        (subs / f"mutant{index}.zip").write_bytes(test_zips.mutate(buffer.getvalue(), rng))
    results = grade(subs, TESTSET, tmp_path / "out", jobs=2).to_json()
    by_id = {s["id"]: s for s in results["submissions"]}
    for index in range(10):
        mutant = by_id[f"mutant{index}"]
        assert "JE" not in verdicts(mutant), mutant["build"]["message"]
        if not mutant["build"]["ok"] and mutant["build"]["message"].startswith("cannot extract"):
            assert verdicts(mutant) == {"CE"}
    assert strip_timing(by_id["well-behaved"]) == strip_timing(expected)
