"""Student-chosen text made safe for where a report puts it: file names, spreadsheet cells, terminals.

A submission id is a folder or zip name that a student chose; a case message may quote
anything the program printed. Each report channel has its own hazard:

- :func:`safe_name`: a file name per submission (feedback, JUnit). It keeps a plain id as
  it is (so existing results folders and golden files do not change) and is injective:
  two ids never get the same name, even when they differ only in characters a file name
  cannot carry (``dup x`` and ``dup_x``; ``çağrı`` and ``cagri``).
- :func:`csv_cell`: a spreadsheet reads a cell starting with ``=``, ``+``, ``-``, ``@``, a tab
  or a carriage return as a formula (OWASP "CSV Injection"); such a cell gets a leading
  apostrophe, which spreadsheets show as text and do not display. Control characters
  inside a cell are escaped first: an unquoted carriage return would start a new row.
- :func:`terminal_safe`: control characters (escape sequences that recolour, move the
  cursor, retitle the window or clear the screen) and bidirectional overrides (which
  reorder what is shown) are written as visible ``\\x1b``/``\\u202e`` escapes.
- :func:`xml_text`: XML 1.0 cannot carry most control characters even as ``&#1;``; they, and
  the bidirectional overrides a CI page would obey, are written as visible escapes (ElementTree
  escapes ``& < > "`` itself).
- :func:`html_text`: text or a quoted attribute value of an HTML page (``& < > " '`` escaped).
- :func:`json_in_script`: JSON to embed inside ``<script>``: ``< > &`` and U+2028/U+2029 as
  ``\\u`` escapes, so no string can close the element or open a comment.
- :func:`json_text`: a JSON file (compact, or indented when asked); a lone surrogate from an
  undecodable file name is written as its ``\\u`` escape instead of failing the write.
- :func:`markdown_cell`: one cell of a GitHub Markdown table (HTML escaped, no ``|`` or line break).

Every writer calls the helper of its output kind; ``tests/grader/reports/test_hostile_text.py``
feeds all of them the same hostile text.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import Any

from markupsafe import Markup, escape

_PLAIN_RE = re.compile(r"[A-Za-z0-9._-]+")
_UNSAFE_RE = re.compile(r"[^A-Za-z0-9._-]")
_HASHED_RE = re.compile(r"-[0-9a-f]{16}")
MAX_PLAIN = 100
"""Longer ids are shortened and hashed: a file name has at most 255 bytes."""


def safe_name(submission_id: str) -> str:
    """A file name (without extension) for a submission id: the id itself when it is plain, else
    the id with every other character replaced by ``_``, shortened, plus ``-`` and 16 hex digits
    of the SHA-256 of the exact id.

    Plain: only ``A-Z a-z 0-9 . _ -``, at most 100 characters, not starting with a dot and not
    ending like a hashed name does. So a plain name is never a hashed one, and two hashed names
    are equal only if their 64-bit hashes are.

    >>> safe_name("alice"), safe_name("dup_x") != safe_name("dup x")
    ('alice', True)
    """
    if (_PLAIN_RE.fullmatch(submission_id) and len(submission_id) <= MAX_PLAIN
            and not submission_id.startswith(".") and not _HASHED_RE.fullmatch(submission_id[-17:])):
        return submission_id
    digest = hashlib.sha256(submission_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    stem = _UNSAFE_RE.sub("_", _ascii(submission_id[:MAX_PLAIN]))[:MAX_PLAIN // 2].lstrip(".")
    return f"{stem or '_'}-{digest}"


_LETTERS = str.maketrans({"ı": "i", "ß": "ss", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D",
                          "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE"})


def _ascii(text: str) -> str:
    """Latin letters without their accents (ç->c, ğ->g, ı->i), for a readable hashed name."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_LETTERS))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
"""OWASP's list, plus a newline and the full-width forms some spreadsheets also evaluate."""


def csv_cell(value: str) -> str:
    """``value`` as a spreadsheet shows it and never evaluates it, on one row.

    >>> csv_cell("=1+2"), csv_cell("alice"), csv_cell("a\\rb")
    ("'=1+2", 'alice', 'a\\\\x0db')
    """
    value = terminal_safe(value)
    return "'" + value if value.startswith(FORMULA_STARTS) else value


_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_ESCAPES = {code: (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
            for code in [*range(0x20), *range(0x7f, 0xa0), 0x2028, 0x2029, *map(ord, _BIDI)]}
_ESCAPES_BUT_NEWLINE = {code: text for code, text in _ESCAPES.items() if code != 0x0a}


def terminal_safe(text: str, keep_newlines: bool = False) -> str:
    """``text`` with every control character shown as an escape (newlines kept when asked).

    >>> terminal_safe("a\\x1b[2Jb\\u202e")
    'a\\\\x1b[2Jb\\\\u202e'
    """
    return text.translate(_ESCAPES_BUT_NEWLINE if keep_newlines else _ESCAPES)


# What XML 1.0 forbids (C0 controls but tab, newline and carriage return), and what a CI page showing
# the file would obey: the C1 controls and the bidirectional overrides, as in a terminal.
_XML_ILLEGAL = {code: text for code, text in _ESCAPES.items() if code not in (0x09, 0x0a, 0x0d)}
_XML_ILLEGAL_RE = re.compile("[\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """``text`` as XML 1.0 can carry it: the characters it forbids (C0 controls but tab, newline
    and carriage return; lone surrogates; U+FFFE/U+FFFF), C1 controls and bidirectional
    overrides as visible escapes.

    >>> xml_text("a\\x1bb\\tc")
    'a\\\\x1bb\\tc'
    """
    return _XML_ILLEGAL_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text.translate(_XML_ILLEGAL))


def html_text(text: object) -> Markup:
    """``text`` for an HTML page's text or a quoted attribute value."""
    return escape(str(text))


_SCRIPT_UNSAFE = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                  ("\u2029", "\\u2029"))
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def json_text(value: Any, pretty: bool = False) -> str:
    """``value`` as JSON text, compact unless ``pretty``; non-ASCII kept as is, lone surrogates escaped.

    Outside strings JSON has only ASCII, so replacing a surrogate by its escape is exact.
    """
    text = json.dumps(value, ensure_ascii=False, indent=2 if pretty else None,
                      separators=None if pretty else (",", ":"))
    try:
        text.encode("utf-8")  # the common case, in C: no surrogate, no regex pass over a class's worth of text
        return text
    except UnicodeEncodeError:
        pass
    return _SURROGATE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def json_in_script(value: Any) -> Markup:
    """``value`` as JSON that can sit inside ``<script type="application/json">`` and still parse:
    no ``</script>``, ``<!--`` or line separator can appear in it.

    >>> str(json_in_script({"m": "</script>"}))
    '{"m":"\\\\u003c/script\\\\u003e"}'
    """
    text = json_text(value)
    for character, escaped in _SCRIPT_UNSAFE:  # str.replace: a few times faster than translate on megabytes
        text = text.replace(character, escaped)
    return Markup(text)


def markdown_cell(text: str, limit: int = 200) -> str:
    """The first line of ``text`` as one cell of a GitHub Markdown table: HTML escaped (the summary
    renders HTML), pipes escaped, control characters visible, at most ``limit`` characters."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return str(escape(terminal_safe(first[:limit]))).replace("|", "\\|")
