"""Where the bundled test sets are: a clone's ``testcases/``, or the installed package ``npuzzle_testcases``.

In a clone (or an editable install) the sets are the folder ``testcases/`` beside ``grader/``.
A wheel (``pip install``, ``pipx install``) installs that folder as the package
``npuzzle_testcases`` (setup.py maps it), so the sets travel with the code. :func:`bundled_root`
looks beside the code first, so a checkout run with ``PYTHONPATH`` uses its own sets even where
another copy is installed.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

DEFAULT_SET = "cmpe160"
PACKAGE = "npuzzle_testcases"
_BESIDE_THE_CODE = Path(__file__).resolve().parents[2] / "testcases"


def _holds_sets(folder: Path) -> bool:
    return (folder / DEFAULT_SET / "manifest.json").is_file()


def bundled_root() -> Path | None:
    """The folder holding the bundled sets (``cmpe160/``, ``princeton/``, ...), or ``None`` if none is installed."""
    if _holds_sets(_BESIDE_THE_CODE):
        return _BESIDE_THE_CODE
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if _holds_sets(Path(location)):
            return Path(location)
    return None


def bundled_names() -> list[str]:
    """The bundled sets' names, sorted."""
    root = bundled_root()
    if root is None:
        return []
    return sorted(p.name for p in root.iterdir() if (p / "manifest.json").is_file())


def bundled_set(name: str = DEFAULT_SET) -> Path:
    """The folder of the bundled set ``name``; the path it would have when the sets are not installed
    (so the error that follows names a real place to look)."""
    root = bundled_root()
    return (root if root is not None else _BESIDE_THE_CODE) / name


def resolve_testset(path: Path) -> Path:
    """``path`` itself, or the bundled set of that name when ``path`` is a bare name that is not a folder here
    (``--testcases princeton`` works from any folder)."""
    path = Path(path)
    if not path.exists() and len(path.parts) == 1 and path.name in bundled_names():
        return bundled_set(path.name)
    return path


def default_testset(cwd: Path | None = None) -> Path:
    """``./testcases`` when it holds a manifest, else ``./testcases/cmpe160``, else the bundled set."""
    cwd = cwd or Path.cwd()
    if (cwd / "testcases" / "manifest.json").is_file():
        return cwd / "testcases"
    if (cwd / "testcases" / "cmpe160").is_dir():
        return cwd / "testcases" / "cmpe160"
    return bundled_set()
