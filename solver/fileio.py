"""File edges: read an input file, write an answer atomically, the user cache folder."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from solver.errors import MissingInputError, OutputError

CACHE_ENV = "NPUZZLE_CACHE_DIR"


def cache_dir() -> Path:
    """The folder for built tables and other caches (``$NPUZZLE_CACHE_DIR``, else the user cache folder)."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs  # only when something is actually cached: keeps plain solving light

    return Path(platformdirs.user_cache_dir("npuzzle-grader", appauthor=False))


def read_input(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a puzzle file, or ``-`` for standard input."""
    if str(path) == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise MissingInputError(str(path), None, "a puzzle file", "no such file") from None
    except IsADirectoryError:
        raise MissingInputError(str(path), None, "a puzzle file", "a directory") from None
    except OSError as exc:
        raise MissingInputError(str(path), None, "a readable puzzle file", exc.strerror or str(exc)) from None


def write_atomic(path: str | os.PathLike[str], text: str | bytes | Iterable[str]) -> None:
    """Write ``text`` to ``path`` so that readers see either the old file or the whole new one.

    The data goes to a temp file in the same folder, is flushed to disk, and is renamed
    over the target; a crash at any point leaves no partial file behind. ``text`` may be an
    iterable of pieces, written as they come (a large file is never whole in memory).
    """
    target = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    except OSError as exc:
        raise OutputError(f"{target}: cannot write here: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                for piece in data:
                    handle.write(piece.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
        raise


def remove_stale(path: str | os.PathLike[str]) -> None:
    """Remove an old answer so a failed run never leaves one that looks like its own."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        pass
