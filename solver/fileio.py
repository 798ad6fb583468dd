"""File edges: read an input file, write an answer atomically, the user cache folder and the C programs
compiled into it."""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
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


def c_compiler() -> str | None:
    """The system C compiler: ``$CC``, else ``cc``, ``gcc`` or ``clang``; None when there is none."""
    named = os.environ.get("CC", "").strip()
    if named:
        return shutil.which(named)
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _private(folder: Path) -> bool:
    """Whether ``folder`` is a real folder of ours that nobody else may write: what is compiled into it is
    loaded or run (as root, for the grader's sandbox init), so a folder another user made first is refused."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o022


def compiled(sources: Sequence[Path], flags: Sequence[str], stem: str, suffix: str = "",
             fallback: Sequence[Sequence[str]] = ()) -> Path:
    """``sources`` compiled with ``flags`` into the cache folder (once: the name carries a hash of the sources,
    the flags, the compiler and the machine type, so an edited source or another machine never finds a stale
    build); written under a temporary name and renamed, so concurrent first uses are safe. Falls back to a
    folder of ours in the temp folder when the cache is not writable; a folder someone else made is never used.
    ``fallback``: flags tried in turn when those before fail to compile; a build already made with any of them
    is taken first, so a machine where ``flags`` cannot work does not try them again at every start.

    Raises RuntimeError (no compiler, a failed compile, no usable folder) or OSError.
    """
    compiler = c_compiler()
    if compiler is None:
        raise RuntimeError("no C compiler found ($CC, cc, gcc or clang)")
    choices = [(list(each), _build_name(sources, each, compiler, stem, suffix)) for each in (flags, *fallback)]
    folders = [folder for folder in (cache_dir() / "native", Path(tempfile.gettempdir()) /
                                     f"npuzzle-native-{os.geteuid()}") if _usable(folder)]
    for _, name in choices:
        for folder in folders:
            if (folder / name).is_file() and os.stat(folder / name).st_uid == os.geteuid():
                return folder / name
    failure = RuntimeError("no writable folder of ours for the compiled program")
    for each, name in choices:
        for folder in folders:
            try:
                return _compile_into(folder / name, compiler, each, sources)
            except OSError as exc:  # an unwritable cache: compile into the temp folder instead
                failure = RuntimeError(f"cannot write {folder}: {exc.strerror or exc}")
            except RuntimeError as exc:
                failure = exc
                break  # the compiler refused these flags: the next ones, if any
    raise failure


def _build_name(sources: Sequence[Path], flags: Sequence[str], compiler: str, stem: str, suffix: str) -> str:
    digest = hashlib.sha256()
    for part in [*(Path(s).read_bytes() for s in sources), " ".join(flags).encode(), compiler.encode(),
                 platform.machine().encode(), platform.system().encode()]:
        digest.update(part)
        digest.update(b"\0")
    return f"{stem}-{platform.machine()}-{digest.hexdigest()[:20]}{suffix}"


def _usable(folder: Path) -> bool:
    """Whether ``folder`` exists (made now if need be) and is :func:`_private`."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return False
    return _private(folder)


def _compile_into(target: Path, compiler: str, flags: Sequence[str], sources: Sequence[Path]) -> Path:
    """Compile to a temporary name beside ``target``, then rename it into place. Raises RuntimeError
    (the compiler failed) or OSError (the folder cannot be written)."""
    handle, partial = tempfile.mkstemp(dir=target.parent, prefix=".partial-", suffix=target.suffix)
    os.close(handle)
    try:
        done = subprocess.run([compiler, *flags, "-o", partial, *map(str, sources)], stdin=subprocess.DEVNULL,
                              check=False, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{Path(compiler).name} failed: {done.stderr.strip()[:500]}")
        os.chmod(partial, 0o755)
        os.replace(partial, target)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return target


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
