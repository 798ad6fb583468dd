"""A Java file's bytes as javac's lexer sees them, with a map back to the file's own byte offsets.

javac reads a file in two steps: it first turns every Unicode escape (``\\u0041``, JLS 3.3) into the
character it stands for, then splits the result into tokens. tree-sitter's grammar only does the
second step, so ``M\\u0069nPQ`` would be an ``ERROR`` to it and ``"\\u0022 + In"`` a string, while
to javac they are ``MinPQ`` and an empty string followed by ``+ In``. :func:`prelex` does the first
step (and drops a UTF-8 byte-order mark), in one pass over the bytes, so the reader sees the same
names javac does. :class:`Offsets` maps a position in the result back to the file, for the one
caller that edits a file in place (``driver.rewrite``) and for line numbers.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

BOM = b"\xef\xbb\xbf"
_HEX = frozenset(b"0123456789abcdefABCDEF")
_BACKSLASH, _U = 0x5C, 0x75


@dataclass(frozen=True)
class Offsets:
    """Where each replaced stretch of the file went: ``(start, end)`` in the result, ``(start, end)`` in the file."""

    spans: tuple[tuple[int, int, int, int], ...] = ()

    def original(self, offset: int) -> int:
        """The file's byte offset for ``offset`` in the result (inside a replaced stretch: that stretch's start)."""
        index = bisect.bisect_right(self.spans, (offset, float("inf"))) - 1
        if index < 0:
            return offset
        start, end, original_start, original_end = self.spans[index]
        return original_start if start <= offset < end else offset - end + original_end


def prelex(source: bytes) -> tuple[bytes, Offsets]:
    """``source`` without its byte-order mark and with its Unicode escapes translated (JLS 3.3).

    A backslash starts an escape only when an even number of backslashes precede it (``\\\\u0041``
    is a backslash escape and the letters ``u0041``); a character an escape produces never starts
    another escape. An escaped surrogate pair becomes one character; a lone surrogate U+FFFD
    (javac reports such a file itself).
    """
    spans: list[tuple[int, int, int, int]] = []
    start = 0
    if source.startswith(BOM):
        spans.append((0, 0, 0, len(BOM)))
        start = len(BOM)
    if b"\\u" not in source:
        return source[start:], Offsets(tuple(spans))
    out = bytearray()
    copied = start
    escapes = _escapes(source, start)
    index = 0
    while index < len(escapes):
        begin, end, unit = escapes[index]
        if 0xD800 <= unit < 0xDC00 and index + 1 < len(escapes) and escapes[index + 1][0] == end \
                and 0xDC00 <= escapes[index + 1][2] < 0xE000:
            low_end, low = escapes[index + 1][1:]
            char, end = chr(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)), low_end
            index += 1
        else:
            char = "\ufffd" if 0xD800 <= unit < 0xE000 else chr(unit)
        out += source[copied:begin]
        result_start = len(out)
        out += char.encode("utf-8")
        spans.append((result_start, len(out), begin, end))
        copied = end
        index += 1
    out += source[copied:]
    return bytes(out), Offsets(tuple(spans))


def _escapes(source: bytes, start: int) -> list[tuple[int, int, int]]:
    """Every Unicode escape: (start, end, UTF-16 code unit), in order."""
    found = []
    size = len(source)
    slash = source.find(b"\\", start)
    while slash >= 0:
        run_end = slash
        while run_end < size and source[run_end] == _BACKSLASH:
            run_end += 1
        last = run_end - 1  # only the run's last backslash can be followed by 'u'
        marker = run_end
        while marker < size and source[marker] == _U:
            marker += 1
        digits = source[marker:marker + 4]
        if (last - slash) % 2 == 0 and marker > run_end and len(digits) == 4 and all(d in _HEX for d in digits):
            found.append((last, marker + 4, int(digits, 16)))
            run_end = marker + 4
        slash = source.find(b"\\", run_end)
    return found
