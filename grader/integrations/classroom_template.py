"""``grade classroom template``: a GitHub Classroom template repository's grading files, with nothing left to fill.

It writes, into the template repository's folder:

- ``.github/workflows/classroom.yml``, the autograding workflow (``templates/classroom/autograding.yml``) with
  ``GRADER_PACKAGE`` set to where the workflow installs the grader from;
- ``testcases/``, the visible cases of the test set only (hidden cases never enter a repository a student reads);
- by default, a wheel of this very grader in ``.github/npuzzle-grader/``, which the workflow installs: the
  course needs no package index and students grade with the same version as the grade of record.

``--install-from`` names a pip requirement instead (a course's own index or a git URL), and ``--wheel`` a wheel
built elsewhere. A requirement that still holds a placeholder is refused.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from grader.errors import ConfigError, OutputDirError
from grader.testsets.export import export_visible

TEMPLATE = Path(__file__).resolve().parent / "templates" / "classroom" / "autograding.yml"
SLOT = "@GRADER_PACKAGE@"
WHEEL_FOLDER = Path(".github") / "npuzzle-grader"
WORKFLOW = Path(".github") / "workflows" / "classroom.yml"
# What a requirement copied from a doc without editing still holds.
_PLACEHOLDER = re.compile(r"YOUR[-_]|<[^>]*>|@GRADER_PACKAGE@|example\.(com|org)", re.IGNORECASE)


@dataclass(frozen=True)
class Template:
    """What was written: the workflow, the exported cases and where the grader installs from."""

    workflow: Path
    testcases: Path
    visible_cases: int
    left_out: tuple[str, ...]
    installs: str


def workflow_text(requirement: str) -> str:
    """The workflow with ``GRADER_PACKAGE`` set to ``requirement`` (a pip requirement or a repository path)."""
    if not requirement.strip() or _PLACEHOLDER.search(requirement) or any(ord(c) < 32 for c in requirement):
        raise ConfigError("--install-from", "$", f"{requirement!r} is not a pip requirement the workflow can "
                          "install: name the course's package, a git URL, or leave it out to commit a wheel")
    text = TEMPLATE.read_text(encoding="utf-8")
    # A JSON string is a YAML double-quoted scalar: quotes and backslashes in the requirement stay data.
    return text.replace(f'"{SLOT}"', json.dumps(requirement))


def source_tree() -> Path | None:
    """The checkout this grader runs from, when it runs from one (a wheel can then be built from it)."""
    root = Path(__file__).resolve().parents[2]
    pyproject = root / "pyproject.toml"
    if pyproject.is_file() and 'name = "npuzzle-grader"' in pyproject.read_text(encoding="utf-8"):
        return root
    return None


def build_wheel(into: Path) -> Path:
    """A wheel of this grader's checkout, built into ``into``."""
    root = source_tree()
    if root is None:
        raise ConfigError("--wheel", "$", "this grader is installed, not a checkout, so no wheel can be built "
                          "here: give --wheel PATH (python -m build in a clone) or --install-from REQUIREMENT")
    with tempfile.TemporaryDirectory(prefix="npuzzle-wheel-") as scratch:
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                               "-w", scratch, str(root)], stdin=subprocess.DEVNULL, check=False, capture_output=True,
                              text=True, timeout=600)
        wheels = sorted(Path(scratch).glob("npuzzle_grader-*.whl"))
        if done.returncode != 0 or len(wheels) != 1:
            tail = " / ".join((done.stderr or done.stdout).strip().splitlines()[-2:])
            raise ConfigError("--wheel", "$", f"building a wheel of {root} failed: {tail}")
        into.mkdir(parents=True, exist_ok=True)
        return Path(shutil.copy2(wheels[0], into / wheels[0].name))


def write_template(testset: Path, out: Path, install_from: str | None, wheel: Path | None,
                   force: bool) -> Template:
    """Write the workflow, the visible cases and (by default) the grader's wheel into ``out``."""
    workflow = out / WORKFLOW
    if workflow.exists() and not force:
        raise OutputDirError(f"{workflow}: already exists (use --force to replace it)")
    if install_from is not None and wheel is not None:
        raise ConfigError("--wheel", "$", "give --wheel or --install-from, not both")
    if wheel is not None and not (wheel.is_file() and wheel.name.endswith(".whl")):
        raise ConfigError(str(wheel), "$", "not a wheel file (*.whl)")
    if install_from is not None:
        workflow_text(install_from)  # a bad one is refused before anything is written
    exported = export_visible(testset, out / "testcases", force=force)
    if install_from is None:
        folder = out / WHEEL_FOLDER
        shutil.rmtree(folder, ignore_errors=True)
        if wheel is not None:
            folder.mkdir(parents=True)
            copied = Path(shutil.copy2(wheel, folder / wheel.name))
        else:
            copied = build_wheel(folder)
        install_from = "./" + copied.relative_to(out).as_posix()
    text = workflow_text(install_from)
    try:
        workflow.parent.mkdir(parents=True, exist_ok=True)
        workflow.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise OutputDirError(f"{workflow}: cannot write: {exc.strerror or exc}") from None
    return Template(workflow, exported.folder, exported.kept, exported.left_out, install_from)
