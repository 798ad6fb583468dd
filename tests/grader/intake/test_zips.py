"""Broken zips: however a student's zip is damaged, it is that student's CE with a message.

Each damaged archive is made here from a valid one by editing its bytes the way real
uploads break (an encrypting tool, a compressor Python lacks, a cut-short upload, flipped
bits) or the way an attacker would (headers that lie about sizes, a bomb). Then a seeded
mutation fuzzer flips, cuts and edits bytes of valid zips at random and checks that the
intake never raises, never writes outside its folder, and never touches a neighbour.
"""

from __future__ import annotations

import io
import random
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from grader.intake import zips
from grader.intake.discovery import discover

SOURCE = b"import sys\nprint('No solution possible')\n" * 40
LOCAL, CENTRAL = b"PK\x03\x04", b"PK\x01\x02"


def valid_zip(method: int = zipfile.ZIP_DEFLATED, files: dict[str, bytes] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=method) as archive:
        for name, data in (files or {"sub/main.py": SOURCE, "sub/README.txt": b"hello\n" * 30}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _headers(data: bytes, signature: bytes) -> list[int]:
    found, start = [], 0
    while (at := data.find(signature, start)) >= 0:
        found.append(at)
        start = at + 4
    return found


def set_field(data: bytes, local_offset: int | None, central_offset: int, fmt: str, value: int) -> bytes:
    """Write ``value`` into a field of every local (at ``local_offset``) and central header."""
    out = bytearray(data)
    for signature, offset in ((LOCAL, local_offset), (CENTRAL, central_offset)):
        if offset is None:
            continue
        for at in _headers(data, signature):
            struct.pack_into(fmt, out, at + offset, value)
    return bytes(out)


def encrypted() -> bytes:
    # General-purpose flag bit 0: what zip -e and most GUI tools write for a password.
    return set_field(valid_zip(), 6, 8, "<H", 0x1)


def method(number: int) -> Callable[[], bytes]:
    return lambda: set_field(valid_zip(), 8, 10, "<H", number)


def corrupt_deflate() -> bytes:
    data = bytearray(valid_zip())
    start = _headers(bytes(data), LOCAL)[0] + 30 + len("sub/main.py")
    for at in range(start + 2, start + 12):
        data[at] ^= 0x5A
    return bytes(data)


def bad_crc() -> bytes:
    data = bytearray(valid_zip(zipfile.ZIP_STORED))
    start = _headers(bytes(data), LOCAL)[0] + 30 + len("sub/main.py")
    data[start] ^= 0x01  # a stored entry: one changed byte, only the CRC can tell
    return bytes(data)


def truncated() -> bytes:
    data = valid_zip()
    return data[: len(data) // 2]


def lying_size() -> bytes:
    # Central and local headers say 10 bytes; the stream holds far more (a bomb that hides its size).
    big = valid_zip(files={"sub/main.py": b"\0" * 5_000_000})
    return set_field(big, 22, 24, "<I", 10)


def absurd_size() -> bytes:
    return set_field(valid_zip(), 22, 24, "<I", 0xFFFF_FFF0)


def absurd_extra_length() -> bytes:
    return set_field(valid_zip(), 28, 30, "<H", 0xFFFF)


def bomb() -> bytes:
    return valid_zip(files={f"sub/{i}.bin": b"\0" * 20_000_000 for i in range(3)})


DAMAGED: list[tuple[str, Callable[[], bytes], str]] = [
    ("encrypted", encrypted, "password-protected (encrypted)"),
    ("deflate64", method(9), "compression method the grader cannot read (deflate64)"),
    ("ppmd", method(98), "compression method the grader cannot read (PPMd)"),
    ("unknown-method", method(77), "compression method the grader cannot read (method 77)"),
    ("corrupt-deflate", corrupt_deflate, "is damaged"),
    ("bad-crc", bad_crc, "checksum does not match"),
    ("truncated", truncated, "is not a readable zip"),
    ("empty-file", lambda: b"", "is not a readable zip"),
    ("not-a-zip", lambda: b"MZ\x90\x00 not a zip at all", "is not a readable zip"),
    ("lying-size", lying_size, "is damaged"),
    ("absurd-size", absurd_size, "bytes uncompressed"),
    ("absurd-extra-length", absurd_extra_length, "upload the zip again"),
    ("bomb", bomb, "bytes uncompressed"),
]


@pytest.mark.parametrize("name, make, says", DAMAGED, ids=[d[0] for d in DAMAGED])
def test_a_damaged_zip_is_the_students_ce_with_a_message(tmp_path: Path, name: str, make: Callable[[], bytes],
                                                         says: str) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "broken.zip").write_bytes(make())
    (subs / "neighbour.zip").write_bytes(valid_zip())
    broken, neighbour = discover(subs, tmp_path / "staging")
    assert broken.root is None and not broken.fault
    assert broken.problem is not None and broken.problem.startswith("cannot extract broken.zip: ")
    assert says in broken.problem
    # Nothing of the refused zip is left for a build to pick up; the neighbour is whole.
    assert not (tmp_path / "staging" / "zips" / "broken").exists()
    assert neighbour.root is not None and (neighbour.root / "main.py").read_bytes() == SOURCE


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One random damage: flipped bytes, a cut, a header field set to an edge value, or a flag set."""
    out = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0:
        for _ in range(rng.randint(1, 8)):
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    elif kind == 1:
        del out[rng.randrange(1, len(out)):]
    elif kind == 2:
        headers = _headers(data, LOCAL) + _headers(data, CENTRAL) + _headers(data, b"PK\x05\x06")
        at = rng.choice(headers) + rng.randrange(4, 30)
        width = rng.choice((1, 2, 4))
        value = rng.choice((0, 1, 0x7F, 0xFF, 0xFFFF, 0xFFFF_FFFF)) & ((1 << (8 * width)) - 1)
        out[at:at + width] = value.to_bytes(width, "little")[: len(out[at:at + width])]
    else:
        flags = _headers(data, CENTRAL)
        at = rng.choice(flags) + 8
        out[at] |= rng.choice((0x01, 0x08, 0x20, 0x40))
    return bytes(out)


BASES = [valid_zip(), valid_zip(zipfile.ZIP_STORED), valid_zip(zipfile.ZIP_BZIP2), valid_zip(zipfile.ZIP_LZMA)]


@pytest.mark.parametrize("seed", range(6))
def test_mutated_zips_never_stop_the_intake(tmp_path: Path, seed: int) -> None:
    # 50 mutants per seed, each in the same class as a well-formed neighbour folder.
    rng = random.Random(seed)
    subs = tmp_path / "subs"
    (subs / "aaa-neighbour").mkdir(parents=True)
    (subs / "aaa-neighbour" / "main.py").write_bytes(SOURCE)
    for index in range(50):
        (subs / f"m{index:02d}.zip").write_bytes(mutate(rng.choice(BASES), rng))
    found = discover(subs, tmp_path / "staging")
    assert [s.id for s in found] == ["aaa-neighbour", *(f"m{i:02d}" for i in range(50))]
    assert found[0].root == subs / "aaa-neighbour" and (found[0].root / "main.py").read_bytes() == SOURCE
    for submission in found[1:]:
        assert not submission.fault, submission.problem
        if submission.root is None:
            assert (submission.problem or "").startswith(f"cannot extract {submission.id}.zip: ")
        else:  # extracted: only below its own staging folder, and never more than the cap
            assert submission.root.is_relative_to(tmp_path / "staging" / "zips" / submission.id)
    written = sum(p.stat().st_size for p in (tmp_path / "staging").rglob("*") if p.is_file())
    assert written <= 50 * zips.MAX_ZIP_BYTES
    assert sorted(p.name for p in tmp_path.iterdir()) == ["staging", "subs"]
