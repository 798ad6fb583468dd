"""Fixtures for the grader's acceptance tests: test sets on disk and graded example folders."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support import REPO, require_tool

DATA = REPO / "tests" / "grader" / "data"


@pytest.fixture(scope="session")
def princeton_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Princeton-style set with its stand-in library compiled into lib/algs4-standin.jar."""
    javac, jar = require_tool("javac"), require_tool("jar")
    root = tmp_path_factory.mktemp("princeton") / "set"
    shutil.copytree(DATA / "testset-princeton", root)
    classes = root / "lib-classes"
    sources = [str(p) for p in (root / "lib-src").rglob("*.java")]
    subprocess.run([javac, "-d", str(classes), *sources], check=True)
    (root / "lib").mkdir()
    subprocess.run([jar, "cf", str(root / "lib" / "algs4-standin.jar"), "-C", str(classes), "."], check=True)
    return root
