"""The grader → solver boundary: the grader imports only the solver's core, and the import-linter contract
that says so (pyproject.toml) really breaks when a grader module reaches past it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # the package's own dependency on 3.10
    import tomli as tomllib

CONTRACT = "grader imports only the solver's core (board, move rules, formats, the optimal-length oracle)"

CORE = {
    "solver",  # the package itself (its __init__ re-exports nothing)
    "solver.board", "solver.tiles",  # the board and its move rules
    "solver.formats", "solver.notes",  # the puzzle and solution formats, and what the lenient reading forgave
    "solver.fileio", "solver.errors", "solver.clikit",  # file edges and the cache folder, errors, the CLI kit
    "solver.solve",  # the optimal-length oracle
}
"""What the grader may import from the solver (docs/architecture.md)."""


def _contract() -> dict:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return next(c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == CONTRACT)


def _solver_modules() -> list[str]:
    modules = []
    for path in sorted((REPO / "solver").rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


def test_every_solver_module_is_core_or_forbidden_to_the_grader() -> None:
    # A new solver module must be placed on one side: else the grader could start using it unchecked.
    forbidden = _contract()["forbidden_modules"]
    unplaced = [m for m in _solver_modules()
                if m not in CORE and not any(m == f or m.startswith(f + ".") for f in forbidden)]
    assert unplaced == []
    assert not CORE & set(forbidden)


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    lint = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    return subprocess.run([lint, "--no-cache", "--contract", "grader_core_only", "pyproject.toml"], cwd=root,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)}, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, check=False, timeout=300)


@pytest.fixture(scope="module")
def tree_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two packages' modules and the contracts, copied: probes are added to the copy, never to the tree."""
    root = tmp_path_factory.mktemp("contracts")
    for package in ("solver", "grader"):
        for path in (REPO / package).rglob("*.py"):
            target = root / path.relative_to(REPO)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    config = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    # An id lets the run check this one contract alone.
    (root / "pyproject.toml").write_text(config.replace(f'name = "{CONTRACT}"', f'id = "grader_core_only"\nname = '
                                                        f'"{CONTRACT}"'), encoding="utf-8")
    return root


PROBES = [
    ("grader/judging/probe_kernel.py", "from solver.search import kernel\n", "solver.search.kernel"),
    ("grader/judging/probe_gui.py", "from solver.assignment.desktop import gui_app\n",
     "solver.assignment.desktop.gui_app"),
    ("grader/reports/probe_api.py", "import solver.api\n", "solver.api"),
    ("grader/intake/probe_astar.py", "from solver.search.astar import astar\n", "solver.search.astar"),
    ("grader/judging/probe_core.py", "from solver.board import Board\nfrom solver.solve import solve\n", None),
]


@pytest.mark.parametrize(("path", "source", "reached"), PROBES, ids=[p[0].rsplit("/", 1)[1] for p in PROBES])
def test_contract_breaks_for_a_grader_module_importing_past_the_core(tree_copy: Path, path: str, source: str,
                                                                     reached: str | None) -> None:
    probe = tree_copy / path
    probe.write_text(source, encoding="utf-8")
    try:
        done = _lint_imports(tree_copy)
    finally:
        probe.unlink()
    output = done.stdout + done.stderr
    if reached is None:
        assert done.returncode == 0, output
        assert "KEPT" in output
    else:
        assert done.returncode != 0, output
        module = path.removesuffix(".py").replace("/", ".")
        assert f"{module} -> {reached}" in output, output


def test_the_tree_itself_keeps_the_contract(tree_copy: Path) -> None:
    done = _lint_imports(tree_copy)
    assert done.returncode == 0, done.stdout + done.stderr
