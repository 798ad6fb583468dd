"""The layout's rules that import-linter's layer contracts do not state: no import circles at all, and
modules and folders small enough to hold in one's head (docs/architecture.md)."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import grimp
import pytest

from tests.support import REPO

MAX_MODULE_LINES = 450   # "about 400": a module past this is two concepts
MAX_FOLDER_MODULES = 16  # "about 15"


def _cycles() -> list[list[str]]:
    """Strongly connected components of the import graph with more than one module (Tarjan)."""
    graph = grimp.build_graph("solver", "grader")
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert _cycles() == []


def _sources() -> list[Path]:
    # The API harnesses run beside a student's code in the sandbox: programs, not the grader's modules.
    return [p for package in ("solver", "grader") for p in (REPO / package).rglob("*.py")
            if "harness" not in p.parts]


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(REPO)))
def test_module_is_one_concept(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(REPO)} has {lines} lines: split it by concept"


def test_no_folder_holds_more_than_about_fifteen_modules() -> None:
    crowded = {str(folder.relative_to(REPO)): count for folder in {p.parent for p in _sources()}
               if (count := sum(1 for p in folder.glob("*.py") if p.name != "__init__.py")) > MAX_FOLDER_MODULES}
    assert crowded == {}


MAX_FUNCTION_LINES = 80
WHOLE_HOT_LOOPS = {"solver/search/kernel.py"}
"""The search kernel keeps its IDA* loop whole: numba compiles it as written, and a call per node would
cost the search its speed (the C kernels are not Python and not checked here)."""


def _long_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{node.name} (line {node.lineno}): {node.end_lineno - node.lineno + 1} lines"
            for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno is not None and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]


@pytest.mark.parametrize("path", [p for p in _sources() if str(p.relative_to(REPO)) not in WHOLE_HOT_LOOPS],
                         ids=lambda p: str(p.relative_to(REPO)))
def test_no_function_is_longer_than_80_lines(path: Path) -> None:
    # Cyclomatic complexity (at most 20) is ruff's C901, configured in pyproject.toml.
    assert _long_functions(path) == [], "split it into well-named helpers"


def _packages() -> list[Path]:
    return sorted(p for package in ("solver", "grader") for p in (REPO / package).rglob("__init__.py"))


@pytest.mark.parametrize("init", _packages(), ids=lambda p: str(p.parent.relative_to(REPO)))
def test_every_package_says_what_it_owns_and_may_import(init: Path) -> None:
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    assert len(doc.split()) >= 10, f"{init.relative_to(REPO)}: no docstring saying what the package owns"
    assert re.search(r"\bmay import\b|\bimports? only\b", doc, re.IGNORECASE), \
        f"{init.relative_to(REPO)}: the docstring does not say what the package may import"


def test_the_architecture_page_names_every_module() -> None:
    # docs/architecture.md is where a newcomer finds what owns what: a module it does not name is one nobody finds.
    page = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    unnamed = [str(p.relative_to(REPO)) for p in _sources()
               if p.name != "__init__.py" and not re.search(rf"\b{re.escape(p.stem)}(\.py)?\b", page)]
    assert unnamed == []
