"""Verified table files: where the solver's lookup tables are cached, and how they are read and written.

A table file is ``MAGIC``, a 4-byte little-endian header length, a JSON header
``{"format": 1, "key": ..., "size": ..., "sha256": ...}`` and the payload. The key names
what the table is (kind, board size, pattern tiles, builder version), so a file built by an
older builder or for another pattern is never mistaken for the one asked for. A file whose
magic, header, key, size or checksum is wrong is reported as :class:`CorruptTableError`,
and callers rebuild it: a damaged cache is never trusted.

The cache folder (:func:`solver.fileio.cache_dir`) is ``$NPUZZLE_CACHE_DIR`` when set, otherwise the
user cache dir (``~/.cache/npuzzle-grader`` on Linux, via platformdirs).

Some tables also ship with the package, as xz-compressed table files (:func:`unpack_shipped`):
a fresh machine unpacks them in about a second instead of building them for a minute. They
are verified exactly like a cached file, and ``python -m solver tables --rebuild
--check-shipped`` (run by CI) builds them from source and compares.
"""

from __future__ import annotations

import hashlib
import json
import struct
from io import BufferedIOBase
from pathlib import Path

from solver.fileio import write_atomic

MAGIC = b"NPZTABLE"
FORMAT = 1


class CorruptTableError(Exception):
    """A table file that is truncated, damaged or holds another table; ``reason`` says which."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path, self.reason = path, reason
        super().__init__(f"{path}: {reason}")


def _read_header(handle: BufferedIOBase, path: Path, key: str) -> tuple[int, str]:
    """Check a table file's magic, header and key; return the payload's size and sha256."""
    start = handle.read(len(MAGIC) + 4)
    if not start.startswith(MAGIC[:len(start)]) or len(start) < len(MAGIC):
        raise CorruptTableError(path, "not a table file (bad magic bytes)")
    if len(start) < len(MAGIC) + 4:
        raise CorruptTableError(path, "truncated inside the header")
    (header_len,) = struct.unpack_from("<I", start, len(MAGIC))
    try:
        header = json.loads(handle.read(header_len).decode("utf-8"))
        size, digest, found_key = int(header["size"]), str(header["sha256"]), header["key"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise CorruptTableError(path, "unreadable header") from None
    if header.get("format") != FORMAT or found_key != key:
        raise CorruptTableError(path, f"holds table {found_key!r}, expected {key!r}")
    return size, digest


def _check_payload(path: Path, payload: memoryview | bytes, size: int, extra: bool, digest: str) -> None:
    if len(payload) != size or extra:
        found = f"{len(payload):,}{'+' if extra else ''}"
        raise CorruptTableError(path, f"size {found} bytes, expected {size:,} (truncated or padded)")
    if hashlib.sha256(payload).hexdigest() != digest:
        raise CorruptTableError(path, "checksum mismatch (the file is damaged)")


def read_table(path: Path, key: str) -> bytes | None:
    """The verified payload of ``path``; ``None`` if the file does not exist or cannot be opened.

    Raises :class:`CorruptTableError` if anything about the file is wrong.
    """
    try:
        handle = path.open("rb")
    except OSError:  # missing or unreadable: the caller builds it afresh
        return None
    with handle:
        size, digest = _read_header(handle, path, key)
        payload = handle.read()
    _check_payload(path, payload, size, False, digest)
    return payload


def read_table_into(path: Path, key: str, out: memoryview) -> bool:
    """Read a table's payload straight into ``out`` (no second copy in memory) and verify it.

    Returns ``False`` if the file does not exist or cannot be opened; raises :class:`CorruptTableError` if
    anything is wrong, including a payload of another size than ``out``.
    """
    try:
        handle = path.open("rb")
    except OSError:  # missing or unreadable: the caller builds it afresh
        return False
    with handle:
        _read_into(handle, path, key, out)
    return True


def _read_into(handle: BufferedIOBase, path: Path, key: str, out: memoryview) -> None:
    size, digest = _read_header(handle, path, key)
    if size != len(out):
        raise CorruptTableError(path, f"header says {size:,} bytes, expected {len(out):,}")
    got = handle.readinto(out)
    extra = bool(handle.read(1))
    _check_payload(path, out[:got], size, extra, digest)


def shipped_path(folder: Path, key: str) -> Path:
    """Where the package keeps the shipped copy of table ``key``: an xz-compressed table file."""
    return folder / f"{key}.bin.xz"


def unpack_shipped(shipped: Path, key: str, out: memoryview, cached: Path | None) -> bool:
    """Unpack the shipped copy of table ``key`` into ``out``, verified, and keep it in the cache as ``cached``
    (unless ``None``).

    Returns ``False`` if there is no shipped copy. Raises :class:`CorruptTableError` (naming the
    shipped file) if it is not a readable xz stream or not a valid table file of ``key``. A cache that
    cannot be written costs only this unpacking again next time.
    """
    import io
    import lzma

    from solver.errors import OutputError

    try:
        packed = shipped.read_bytes()
    except OSError:
        return False
    try:
        data = lzma.decompress(packed)
    except lzma.LZMAError as exc:
        raise CorruptTableError(shipped, f"not a readable xz stream ({exc})") from None
    _read_into(io.BytesIO(data), shipped, key, out)
    if cached is None:
        return True
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(cached, data)
    except (OSError, OutputError):
        pass
    return True


def pack_for_shipping(table_file: Path, shipped: Path) -> None:
    """Write ``shipped``: the table file ``table_file`` xz-compressed (the strongest preset; once, by a maintainer)."""
    import lzma

    shipped.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(shipped, lzma.compress(table_file.read_bytes(), preset=9 | lzma.PRESET_EXTREME))


def encode_table(key: str, payload: bytes) -> bytes:
    """The bytes of a table file holding ``payload``."""
    header = json.dumps({"format": FORMAT, "key": key, "size": len(payload),
                         "sha256": hashlib.sha256(payload).hexdigest()}).encode("utf-8")
    return MAGIC + struct.pack("<I", len(header)) + header + payload


def write_table(path: Path, key: str, payload: bytes) -> None:
    """Write a table file atomically, creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, encode_table(key, payload))
