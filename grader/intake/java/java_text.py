"""Java source as text, in linear time: comments and literals blanked out so that their words are not taken
for names, with every offset and line break kept (so positions and javac's line numbers still match).

A student controls these files: the scan uses ``str.find`` from each opening token, never a backtracking
pattern, so an unterminated ``/*`` or a megabyte of quotes costs one pass.
"""

from __future__ import annotations

import re

_OPENING_RE = re.compile(r"//|/\*|\"|'")
_NOT_NEWLINE_RE = re.compile(r"[^\n]")


def blank_comments(text: str) -> str:
    """``text`` with comments and string/char literals replaced by spaces, newlines and offsets kept."""
    parts: list[str] = []
    position, size = 0, len(text)
    while position < size:
        match = _OPENING_RE.search(text, position)
        if match is None:
            parts.append(text[position:])
            break
        start, token = match.start(), match.group()
        parts.append(text[position:start])
        if token == "//":
            end = text.find("\n", start)
            end = size if end < 0 else end
        elif token == "/*":
            end = text.find("*/", start + 2)
            end = size if end < 0 else end + 2
        else:
            end = _literal_end(text, start, token)
        segment = text[start:end]
        parts.append(_NOT_NEWLINE_RE.sub(" ", segment) if "\n" in segment else " " * len(segment))
        position = end
    return "".join(parts)


def _literal_end(text: str, start: int, quote: str) -> int:
    """Just past a string or char literal opened at ``start``: its closing quote, else the end of the line."""
    index, size = start + 1, len(text)
    while index < size:
        char = text[index]
        if char == quote:
            return index + 1
        if char == "\n":
            return index
        index += 2 if char == "\\" else 1
    return size
