"""The grader's own bad input: one clear message, a documented exit code, never a traceback.

Data-driven: each folder under ``cases/`` is one case. Its ``expect.json`` says how to set
the case up and what must come out; files under its ``testset/`` and ``submissions/`` are
laid over a copy of the grader tests' test set and an empty submissions folder.

``expect.json`` keys (all optional but ``exit``):
  args       extra ``grade run`` arguments; ``{tmp}`` is the case's scratch folder
  examples   {"id": "examples/submissions folder"}: sample submissions to copy in
  remove     paths (under the scratch folder) to delete
  dangling   paths to replace with a symlink to nothing
  file       paths to replace with a regular file (a file where a folder is expected)
  eacces     folders whose listing fails with EACCES (see below)
  zipbomb    {"path": "kind"}: write a zip bomb there (kinds in :func:`zip_bomb`)
  exit       the exit code (grader/errors.py EXIT_CODES)
  stderr     substrings the one-line message must contain
  results    {"id": {"verdict": V, "message": [substrings]}}: per-submission results in results.json

We run as root here, and root reads any folder whatever its mode, so ``chmod 000`` cannot make
a folder unreadable. ``eacces`` simulates exactly what the kernel does for another user:
``Path.iterdir`` / ``os.scandir`` of that folder raise ``PermissionError(EACCES)``.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from grader.cli import entry
from grader.errors import EXIT_CODES
from tests.support import REPO

CASES = Path(__file__).resolve().parent / "cases"
DATA = REPO / "tests" / "grader" / "data"
EXAMPLES = REPO / "examples" / "submissions"


def zip_bomb(path: Path, kind: str) -> None:
    """``deflate``: one 60 MB entry of zeros (about 60 KB on disk); ``entries``: 5,000 empty files."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        if kind == "deflate":
            with archive.open("solver/__main__.py", "w", force_zip64=True) as sink:
                block = b"\0" * (1 << 20)
                for _ in range(60):
                    sink.write(block)
        else:
            for index in range(5000):
                archive.writestr(f"f{index}.py", "")


def deny_listing(monkeypatch: pytest.MonkeyPatch, folders: list[Path]) -> None:
    denied = {str(folder) for folder in folders}
    real_iterdir, real_scandir = Path.iterdir, os.scandir

    def refuse(path) -> None:
        if str(path) in denied:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))

    def iterdir(self: Path):
        refuse(self)
        return real_iterdir(self)

    def scandir(path=".") -> os.ScandirIterator:
        refuse(path)
        return real_scandir(path)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    monkeypatch.setattr(os, "scandir", scandir)


@pytest.mark.parametrize("name", sorted(p.name for p in CASES.iterdir() if (p / "expect.json").is_file()))
def test_bad_input(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                   capsys: pytest.CaptureFixture[str]) -> None:
    case = CASES / name
    expect = json.loads((case / "expect.json").read_text())
    assert expect["exit"] in EXIT_CODES, "every exit code is documented in grade --help"
    testset, subs = tmp_path / "testset", tmp_path / "submissions"
    shutil.copytree(DATA / "testset", testset)
    subs.mkdir()
    for overlay in ("testset", "submissions"):
        if (case / overlay).is_dir():
            shutil.copytree(case / overlay, tmp_path / overlay, dirs_exist_ok=True)
    for sid, example in expect.get("examples", {}).items():
        shutil.copytree(EXAMPLES / example, subs / sid)
    for relative in expect.get("remove", []):
        (tmp_path / relative).unlink()
    for relative in expect.get("dangling", []):
        shutil.rmtree(tmp_path / relative, ignore_errors=True)
        (tmp_path / relative).symlink_to(tmp_path / "nothing-here")
    for relative in expect.get("file", []):
        shutil.rmtree(tmp_path / relative, ignore_errors=True)
        (tmp_path / relative).write_text("a file, not a folder\n")
    for relative, kind in expect.get("zipbomb", {}).items():
        zip_bomb(tmp_path / relative, kind)
    deny_listing(monkeypatch, [tmp_path / relative for relative in expect.get("eacces", [])])
    out = tmp_path / "out"
    args = [arg.replace("{tmp}", str(tmp_path)) for arg in expect.get("args", [])]
    if "--out" not in args:
        args += ["--out", str(out)]
    code = entry(["run", str(subs), "--testcases", str(testset), "--no-progress", "-j", "2", *args])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert code == expect["exit"], err
    for text in expect.get("stderr", []):
        assert text.replace("{tmp}", str(tmp_path)) in err
    if expect["exit"] not in (0, 130):
        message = [line for line in err.splitlines() if line.startswith("grade:")]
        assert len(message) == 1, f"one message, found: {err!r}"
    if "results" in expect:
        graded = {s["id"]: s for s in json.loads((out / "results.json").read_text())["submissions"]}
        for sid, wanted in expect["results"].items():
            verdicts = {c["verdict"] for c in graded[sid]["cases"]}
            assert verdicts == {wanted["verdict"]}, graded[sid]
            for pattern in wanted.get("message", []):
                text = pattern.replace("{tmp}", str(tmp_path))
                assert all(text in c["message"] for c in graded[sid]["cases"]), graded[sid]["cases"][0]["message"]
