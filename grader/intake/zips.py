"""Extract one student's zip into the staging folder, or say in one sentence why it cannot be.

A zip is the student's upload: every way it can be broken (not a zip, truncated, an
encrypted entry, a compression method Python cannot read, a corrupt deflate stream, a bad
CRC, a header that lies about a size, a bomb) is that student's ``CE`` with a message,
raised here as :class:`ZipProblem`; it never escapes as another exception and never stops
the class. Writing the staged files is the grader's own work: a failure there (a full
disk) is a :class:`StagingError`, a grader fault for that submission only.

No entry is written outside the target (absolute names, ``..`` and drive letters are
refused), counts and sizes are capped on what really comes out of the decompressor, and a
symbolic-link entry is never created: it is left out and named in the returned notes, so
the rest of the submission is still graded (and only what needed the link fails).
"""

from __future__ import annotations

import errno
import shutil
import stat
import struct
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from grader.intake import safe_copy

MAX_ZIP_ENTRIES = 2_000
MAX_ZIP_BYTES = 50_000_000
LINK_TARGET_BYTES = 200
"""How much of a link entry's target is read, to name it in the note."""
IGNORED_TOP = frozenset({"__MACOSX", ".DS_Store", "Thumbs.db", ".git", ".idea", ".vscode", "__pycache__"})
READABLE_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate", zipfile.ZIP_BZIP2: "bzip2",
                    zipfile.ZIP_LZMA: "lzma"}
METHOD_NAMES = {1: "shrink", 6: "implode", 9: "deflate64", 10: "PKWARE implode", 19: "IBM LZ77", 93: "zstd",
                95: "xz", 96: "JPEG", 97: "WavPack", 98: "PPMd", 99: "AES encryption"}
# Everything the zipfile module and its decompressors raise on a damaged archive (zlib.error,
# lzma.LZMAError and bz2's OSError included, EOFError for a truncated stream, struct.error
# and UnicodeDecodeError for mangled headers, RuntimeError for encryption, NotImplementedError
# for an unknown method). Caught per zip: each becomes the student's message.
DAMAGE: tuple[type[BaseException], ...] = (
    zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, ValueError, RuntimeError,
    NotImplementedError, struct.error, KeyError, IndexError, OverflowError, MemoryError, RecursionError)
try:
    import lzma
    DAMAGE += (lzma.LZMAError,)
except ImportError:  # pragma: no cover - a Python built without lzma cannot read lzma entries at all
    pass


class ZipProblem(ValueError):
    """A zip that cannot be extracted, and why, in words a student can act on."""


class StagingError(Exception):
    """Writing the extracted files failed on the grader's side (the disk): not the student's fault."""


def extract_zip(path: Path, target: Path) -> tuple[str, ...]:
    """Extract ``path`` into ``target`` (made fresh); the notes on entries left out (links).

    Raises :class:`ZipProblem` naming the offending entry (nothing is left in ``target``),
    or :class:`StagingError`.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            plan, notes = _plan(archive)
            _write(archive, plan, target)
            return notes
    except (ZipProblem, StagingError):
        shutil.rmtree(target, ignore_errors=True)
        raise
    except DAMAGE as exc:
        shutil.rmtree(target, ignore_errors=True)
        raise ZipProblem(_describe(exc)) from None


def _describe(exc: BaseException, entry: str | None = None) -> str:
    """A damaged archive in words: what broke, and that uploading it again is the fix."""
    where = f"entry {entry!r} " if entry else "the archive "
    if isinstance(exc, RuntimeError) and "encrypt" in str(exc).lower():
        return f"{where}is password-protected (encrypted); upload the zip without a password"
    if isinstance(exc, NotImplementedError):
        return f"{where}uses a compression method the grader cannot read ({exc}); zip it again with plain deflate"
    if isinstance(exc, (zlib.error, EOFError)) or "lzma" in type(exc).__module__:
        return f"{where}is damaged (its compressed data is corrupt or cut short: {exc}); upload the zip again"
    if isinstance(exc, zipfile.BadZipFile) and "CRC" in str(exc):
        return f"{where}is damaged (its checksum does not match its data); upload the zip again"
    if isinstance(exc, MemoryError):
        return f"{where}has headers too large to read; upload the zip again"
    detail = (str(exc) or type(exc).__name__)[:200]
    if entry:
        return f"{where}cannot be read ({detail}); upload the zip again"
    return f"the archive is not a readable zip ({detail}); upload the zip again"


def _plan(archive: zipfile.ZipFile) -> tuple[list[tuple[zipfile.ZipInfo, PurePosixPath]], tuple[str, ...]]:
    """What to write, checked before anything is written: names, counts, sizes, encryption, methods."""
    infos = archive.infolist()
    if len(infos) > MAX_ZIP_ENTRIES:
        raise ZipProblem(f"{len(infos):,} entries (at most {MAX_ZIP_ENTRIES:,}); hand in source files only")
    total = 0
    plan: list[tuple[zipfile.ZipInfo, PurePosixPath]] = []
    notes: list[str] = []
    for info in infos:
        name = PurePosixPath(info.filename.replace("\\", "/"))
        if name.is_absolute() or ".." in name.parts or (name.parts and name.parts[0].endswith(":")):
            raise ZipProblem(f"entry {info.filename!r} points outside the archive")
        if name.parts and name.parts[0] in IGNORED_TOP:
            continue
        if stat.S_ISLNK(info.external_attr >> 16):
            notes.append(safe_copy.link_left_out(name, _link_target(archive, info)))
            continue
        if info.flag_bits & 0x1:
            raise ZipProblem(f"entry {info.filename!r} is password-protected (encrypted); upload the zip "
                             "without a password")
        if info.compress_type not in READABLE_METHODS:
            method = METHOD_NAMES.get(info.compress_type, f"method {info.compress_type}")
            raise ZipProblem(f"entry {info.filename!r} uses a compression method the grader cannot read "
                             f"({method}); zip it again with plain deflate")
        total += info.file_size
        if total > MAX_ZIP_BYTES:
            raise ZipProblem(f"more than {MAX_ZIP_BYTES:,} bytes uncompressed; hand in source files only")
        plan.append((info, name))
    return plan, tuple(notes)


def _link_target(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> str | None:
    """Where a link entry points (its data, a few bytes), or ``None`` when that cannot be read."""
    if info.flag_bits & 0x1 or info.compress_type not in READABLE_METHODS:
        return None
    try:
        with archive.open(info) as source:
            data = source.read(LINK_TARGET_BYTES)
    except DAMAGE:
        return None
    return data.decode("utf-8", "backslashreplace")


def _os_failure(exc: OSError, entry: str) -> Exception:
    """A failed write: the entry's own name (too long, not encodable, a file where a folder must be) is the
    student's; anything else (a full or broken disk) is the grader's."""
    if exc.errno in (errno.ENAMETOOLONG, errno.EILSEQ, errno.EINVAL, errno.ENOTDIR, errno.EISDIR, errno.EEXIST):
        return ZipProblem(f"entry {entry!r} cannot be a file name here ({exc.strerror or exc})")
    return StagingError(f"cannot write {entry!r} into the staging folder: {exc.strerror or exc}")


def _write(archive: zipfile.ZipFile, plan: list[tuple[zipfile.ZipInfo, PurePosixPath]], target: Path) -> None:
    try:
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    except OSError as exc:
        raise StagingError(f"cannot make the staging folder {target}: {exc.strerror or exc}") from None
    written_total = 0
    for info, name in plan:
        if not name.parts:
            continue
        if info.is_dir():
            try:
                safe_copy.make_folders(target, PurePosixPath(*name.parts))
            except safe_copy.SubmissionFileError as exc:
                raise ZipProblem(f"entry {info.filename!r}: {exc}") from None
            except OSError as exc:
                raise _os_failure(exc, info.filename) from None
            continue
        written_total += _write_entry(archive, info, name, target, MAX_ZIP_BYTES - written_total)


def _write_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: PurePosixPath, target: Path,
                 budget: int) -> int:
    """One file entry, counted as it comes out (a header's file_size may lie); the bytes written."""
    try:
        # Created O_EXCL | O_NOFOLLOW below the fresh target: an entry named twice is refused.
        sink = safe_copy.open_new(target, name)
    except FileExistsError:
        raise ZipProblem(f"entry {info.filename!r} appears twice, or is both a file and a folder") from None
    except safe_copy.SubmissionFileError as exc:
        raise ZipProblem(f"entry {info.filename!r}: {exc}") from None
    except OSError as exc:
        raise _os_failure(exc, info.filename) from None
    written = 0
    with sink:
        try:
            source = archive.open(info)
        except DAMAGE as exc:
            raise ZipProblem(_describe(exc, info.filename)) from None
        with source:
            while True:
                try:
                    chunk = source.read(1 << 16)
                except DAMAGE as exc:
                    raise ZipProblem(_describe(exc, info.filename)) from None
                if not chunk:
                    return written
                written += len(chunk)
                if written > info.file_size or written > budget:
                    raise ZipProblem(f"entry {info.filename!r} is larger than its header says (a zip bomb?)")
                try:
                    sink.write(chunk)
                except OSError as exc:
                    raise _os_failure(exc, info.filename) from None
