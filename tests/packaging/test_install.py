"""A real (non-editable) install carries the bundled test sets: `grade` in an empty folder grades on them.

The wheel is built from this checkout and installed, without its dependencies, into a fresh venv
that sees the test run's own site-packages (so its dependencies need no download, whether pytest
runs from a venv or not), then `grade` runs from an empty folder with no PYTHONPATH: what it imports
and reads must come from the install. The same wheel goes through `pipx install`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support import REPO

pytestmark = pytest.mark.slow
SUBMISSION = REPO / "examples" / "submissions" / "AC-python-correct"
CASES = ["--cases", "2x2-rand-0*", "--cases", "course-p3io-input3"]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(extra)
    return env


def _run(argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env=_env(**env), capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL, check=False)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("source") / "npuzzle-grader"
    # A copy without build leftovers, as a fresh clone would be.
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__",
                                                                 ".pytest_cache", "grading-results"))
    # Without the wheel package here, pip builds in an isolated environment (setuptools from the index).
    flags = ["--no-build-isolation"] if _has("wheel") and _has("setuptools") else []
    done = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", *flags, "-w", str(out), str(source)], out)
    assert done.returncode == 0, done.stdout + done.stderr
    (path,) = out.glob("npuzzle_grader-*.whl")
    return path


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def test_the_wheel_holds_every_bundled_set_and_no_numba(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    for folder in ("cmpe160", "cmpe160-hard", "princeton"):
        manifest = json.loads((REPO / "testcases" / folder / "manifest.json").read_text(encoding="utf-8"))
        assert f"npuzzle_testcases/{folder}/manifest.json" in names
        for case in manifest["cases"]:
            assert f"npuzzle_testcases/{folder}/{case['input']}" in names
    assert not any(name.startswith("testcases/") for name in names)  # no top-level package named "testcases"
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    core = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:") and "extra ==" not in line]
    assert not [line for line in core if "numba" in line or "llvmlite" in line], core


def _grades_on_the_bundled_set(grade: Path, installed_under: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    (empty / "subs").mkdir(parents=True)
    shutil.copytree(SUBMISSION, empty / "subs" / "alice")
    done = _run([str(grade), "subs", *CASES, "-j", "2", "--no-progress"], empty)
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((empty / "grading-results" / "results.json").read_text(encoding="utf-8"))
    assert results["testset"] == "cmpe160"
    assert Path(results["testset_path"]).resolve().is_relative_to(installed_under.resolve())
    assert [case["verdict"] for case in results["submissions"][0]["cases"]] == ["AC"] * 4
    version = _run([str(grade), "--version"], empty)
    assert version.returncode == 0 and version.stdout.startswith("grade ") and "unknown" not in version.stdout
    zipped = _run([str(grade), "gradescope", "build", "--out", "autograder.zip"], empty)
    assert zipped.returncode == 0, zipped.stderr
    assert "testcases/manifest.json" in zipfile.ZipFile(empty / "autograder.zip").namelist()


def _see_our_site_packages(venv: Path) -> None:
    """Let ``venv`` import the dependencies installed where this test runs.

    ``--system-site-packages`` would not do: from inside a venv it shows the *base* interpreter's
    packages, not the venv's. A ``.pth`` line adds each of our site-packages folders to sys.path
    without running the ``.pth`` files in them, so this checkout's editable install stays out.
    """
    (site_packages,) = venv.glob("lib/python*/site-packages")
    ours = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    (site_packages / "test-run-dependencies.pth").write_text("".join(p + "\n" for p in ours), encoding="utf-8")


def test_pip_install_into_a_fresh_venv(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    # Without a pip of its own (ensurepip costs more than the rest of the install): the venv's python runs the
    # pip it sees through our site-packages, which installs into the venv's prefix as its own pip would.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    _see_our_site_packages(venv)
    done = _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)],
                tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    _grades_on_the_bundled_set(venv / "bin" / "grade", venv, tmp_path)


def test_pipx_install(wheel: Path, tmp_path: Path) -> None:
    if not _has("pipx"):
        if os.environ.get("CI"):
            pytest.fail("pipx is not installed, but CI must install it (the [test] extra)")
        pytest.skip("pipx is not installed")
    home, bin_dir = tmp_path / "pipx-home", tmp_path / "pipx-bin"
    env = {"PIPX_HOME": str(home), "PIPX_BIN_DIR": str(bin_dir), "PIPX_MAN_DIR": str(tmp_path / "man")}
    done = _run([sys.executable, "-m", "pipx", "install", "--system-site-packages", "--python", sys.executable,
                 str(wheel)], tmp_path, **env)
    assert done.returncode == 0, done.stdout + done.stderr
    _grades_on_the_bundled_set(bin_dir / "grade", home, tmp_path)
