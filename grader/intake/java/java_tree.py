"""tree-sitter's Java grammar, one parser per thread, and the few node helpers the readers share.

tree-sitter parses in linear time without recursion in Python and tolerates syntax errors: what it
cannot fit into the grammar becomes an ``ERROR`` node (or a zero-width ``MISSING`` one) and the rest
of the file is still read, so a file javac will reject never stops the grader (javac reports it).
"""

from __future__ import annotations

import functools
import threading
import time

from tree_sitter import Language, Node, Parser, Tree

from grader.intake.timecap import PARSE_SECONDS, HostStepTimeout

COMMENTS = frozenset({"line_comment", "block_comment"})
NAMES = frozenset({"identifier", "type_identifier"})
CLOSER = b"\n//*/"
"""Parsed after every file. A file that ends inside a block comment gets it closed (javac rejects such a file
anyway), and anywhere else it is a line comment. Without it tree-sitter's error recovery rescans to the end of
the file from every ``/*`` after an unclosed one: 100 kB of ``/* `` took 16 s instead of a millisecond."""

# A tree-sitter Parser is not thread-safe: two grading workers parsing at once crashed the process
# (a segfault at -j 2). Each thread gets its own parser; the Language is immutable and shared.
_local = threading.local()


@functools.lru_cache(maxsize=1)
def language() -> Language:
    import tree_sitter_java

    return Language(tree_sitter_java.language())


def _parser() -> Parser:
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = Parser(language())
    return parser


def parse(source: bytes, deadline: float | None) -> Tree:
    """The tree of ``source`` (followed by :data:`CLOSER`); :class:`HostStepTimeout` once ``deadline`` passes."""
    source += CLOSER
    if deadline is None:
        return _parser().parse(source)

    def read(offset: int, _point: object) -> bytes:
        return source[offset:offset + 65536]

    def cancel(*_state: object) -> bool:  # tree-sitter asks every few thousand steps; True stops the parse
        return time.monotonic() > deadline

    try:
        return _parser().parse(read, progress_callback=cancel)
    except ValueError:  # "Parsing failed": the only way a parse with no language problem fails is cancel()
        # A cancelled parser resumes the stopped parse on its next call: this thread's next file (another
        # student's, maybe) would get a wrong tree, or crash tree-sitter. Start it afresh.
        _parser().reset()
        raise HostStepTimeout("reading the Java sources", PARSE_SECONDS) from None


def text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def code_children(node: Node) -> list[Node]:
    """The named children that are code, not comments."""
    return [child for child in node.named_children if child.type not in COMMENTS]


def dotted(node: Node) -> str:
    """A (scoped) name without the comments, spaces, annotations or type arguments a source may put in it."""
    if node.type in NAMES:
        return text(node)
    parts: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in NAMES:
            parts.append(text(current))
        elif current.type not in ("annotation", "marker_annotation", "type_arguments", *COMMENTS):
            stack.extend(reversed(current.named_children))
    return ".".join(parts)


def chain(node: Node) -> str | None:
    """``a.b.C`` for a name qualified by names only (a field access, a scoped identifier or type); ``None``
    when its leftmost part is an expression (``f().x``, ``this.x``) or a generic type (``Outer<T>.Inner``)."""
    parts: list[str] = []
    while node.type in ("field_access", "scoped_identifier", "scoped_type_identifier"):
        children = code_children(node)
        if len(children) < 2 or children[-1].type not in NAMES:
            return None
        parts.append(text(children[-1]))
        node = children[0]
    if node.type not in NAMES:
        return None
    parts.append(text(node))
    return ".".join(reversed(parts))
