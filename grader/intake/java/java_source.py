"""What a Java source file declares, read with a real parser (tree-sitter and its Java grammar).

:func:`read_java` gives a file's package, its imports and every type that declares a
launchable ``main``. Regular expressions cannot do this right (comments and strings that
mention ``main``, modifiers in any order, ``java.lang.String[]``, ``String...``,
``String args[]``, annotations, nested types), and the ones the grader had took
quadratic time on blank lines. tree-sitter parses in linear time without recursion in
Python, tolerates syntax errors (javac reports those), and this module walks the tree
with an explicit stack, so no source can raise ``RecursionError`` here.

A launchable ``main`` (JLS 12.1.4, and what ``java`` accepts up to JDK 24): a method
named ``main``, ``static``, returning ``void``, with one parameter of type ``String[]``
(or ``String...``, ``String args[]``, ``java.lang.String``), ``public`` or declared in an
interface (whose methods are public). A ``static`` main that is not public still counts,
marked ``public = False``: newer JDKs run it, older ones say why they do not.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from grader.intake.timecap import PARSE_SECONDS, HostStepTimeout

if TYPE_CHECKING:  # tree-sitter is imported when the first source is read (the grader's start stays fast)
    from tree_sitter import Language, Node, Parser, Point, Tree

TYPE_DECLARATIONS = frozenset({"class_declaration", "interface_declaration", "enum_declaration",
                               "record_declaration", "annotation_type_declaration"})
_BODY_MEMBERS = frozenset({"class_body", "interface_body", "enum_body", "enum_body_declarations",
                           "annotation_type_body"})
_STRING_TYPES = frozenset({"String", "java.lang.String"})
MAX_TYPE_DEPTH = 16
"""Member types nested deeper than this are not searched for ``main`` (no real program has one there)."""


@dataclass(frozen=True)
class MainMethod:
    """A type that declares a launchable ``main``.

    ``name`` is what ``java`` is given: the package, then the type and its enclosing types
    joined by ``$`` (``pkg.Outer$Inner``). ``empty`` is true when the body holds nothing but
    comments (Princeton's skeleton); ``line`` is 1-based.
    """

    name: str
    simple: str
    line: int
    empty: bool
    public: bool


@dataclass(frozen=True)
class Import:
    name: str
    static: bool = False
    wildcard: bool = False


@dataclass(frozen=True)
class JavaSource:
    """A source file's package (``""`` for the default one), imports, main methods and top-level types."""

    package: str
    imports: tuple[Import, ...]
    mains: tuple[MainMethod, ...]
    types: tuple[str, ...]
    has_errors: bool

    def imports_from(self, *prefixes: str) -> bool:
        """Whether an import names a package or class under one of ``prefixes`` (``"org.junit"``)."""
        return any(i.name == p or i.name.startswith(p + ".") for i in self.imports for p in prefixes)


# A tree-sitter Parser is not thread-safe: two grading workers parsing at once crashed the process
# (a segfault at -j 2). Each thread gets its own parser; the Language is immutable and shared.
_local = threading.local()


@functools.lru_cache(maxsize=1)
def _language() -> Language:
    import tree_sitter_java
    from tree_sitter import Language

    return Language(tree_sitter_java.language())


def _parser() -> Parser:
    parser = getattr(_local, "parser", None)
    if parser is None:
        from tree_sitter import Parser

        parser = _local.parser = Parser(_language())
    return parser


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _dotted(node: Node) -> str:
    """A (scoped) name without the comments or spaces a source may put between its parts."""
    if node.type in ("identifier", "type_identifier"):
        return _text(node)
    parts: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in ("identifier", "type_identifier"):
            parts.append(_text(current))
        elif current.type not in ("annotation", "marker_annotation", "line_comment", "block_comment",
                                  "type_arguments"):
            stack.extend(reversed(current.named_children))
    return ".".join(parts)


def _modifiers(node: Node) -> set[str]:
    for child in node.children:
        if child.type == "modifiers":
            return {_text(c) for c in child.children if not c.is_named or c.type in ("static", "public")}
    return set()


def _string_array_parameter(parameters: Node) -> bool:
    """Exactly one parameter, of type String[] in any of its spellings."""
    params = [c for c in parameters.named_children if c.type in ("formal_parameter", "spread_parameter")]
    others = [c for c in parameters.named_children
              if c.type not in ("formal_parameter", "spread_parameter", "line_comment", "block_comment")]
    if len(params) != 1 or others:
        return False
    param = params[0]
    dims = 0
    type_node = None
    if param.type == "spread_parameter":
        dims = 1
        type_node = next((c for c in param.named_children if c.type not in ("modifiers", "variable_declarator")
                          and c.type not in ("line_comment", "block_comment")), None)
        declarator = next((c for c in param.named_children if c.type == "variable_declarator"), None)
        if declarator is not None and declarator.child_by_field_name("dimensions") is not None:
            return False
    else:
        type_node = param.child_by_field_name("type")
        extra = param.child_by_field_name("dimensions")  # String args[]
        if extra is not None:
            dims += _text(extra).count("[")
    if type_node is None:
        return False
    if type_node.type == "array_type":
        dimensions = type_node.child_by_field_name("dimensions")  # always there in an array_type
        dims += _text(dimensions).count("[") if dimensions is not None else 0
        type_node = type_node.child_by_field_name("element")
    return dims == 1 and type_node is not None and _dotted(type_node) in _STRING_TYPES


def _main_of(method: Node, in_interface: bool) -> tuple[bool, bool] | None:
    """(empty, public) when ``method`` is a launchable main, else None."""
    name = method.child_by_field_name("name")
    kind = method.child_by_field_name("type")
    parameters = method.child_by_field_name("parameters")
    body = method.child_by_field_name("body")
    if name is None or _text(name) != "main" or kind is None or kind.type != "void_type" or parameters is None:
        return None
    if body is None:
        return None
    modifiers = _modifiers(method)
    if "static" not in modifiers or not _string_array_parameter(parameters):
        return None
    empty = all(c.type in ("line_comment", "block_comment") for c in body.named_children)
    return empty, in_interface or "public" in modifiers


def _type_declarations(root: Node) -> Iterator[tuple[Node, tuple[str, ...]]]:
    """Every type declared at the top level or as a member of another, with its enclosing names."""
    stack: list[tuple[Node, tuple[str, ...]]] = [(child, ()) for child in reversed(root.named_children)
                                                  if child.type in TYPE_DECLARATIONS]
    while stack:
        node, outer = stack.pop()
        name = node.child_by_field_name("name")
        if name is None:
            continue
        chain = (*outer, _text(name))
        yield node, chain
        if len(chain) >= MAX_TYPE_DEPTH:
            continue
        body = node.child_by_field_name("body")
        members: list[tuple[Node, tuple[str, ...]]] = []
        pending = [body] if body is not None else []
        while pending:  # enum constants' bodies are anonymous classes: not launchable, not entered
            container = pending.pop()
            for child in container.named_children:
                if child.type in TYPE_DECLARATIONS:
                    members.append((child, chain))
                elif child.type in _BODY_MEMBERS:
                    pending.append(child)
        stack.extend(reversed(members))


def _members(declaration: Node) -> Iterator[Node]:
    body = declaration.child_by_field_name("body")
    pending = [body] if body is not None else []
    while pending:
        container = pending.pop()
        for child in container.named_children:
            if child.type in _BODY_MEMBERS:
                pending.append(child)
            else:
                yield child


def _parse_tree(source: bytes, deadline: float | None) -> Tree:
    if deadline is None:
        return _parser().parse(source)

    def read(offset: int, _point: Point) -> bytes:
        return source[offset:offset + 65536]

    def cancel(*_state: object) -> bool:  # tree-sitter asks every few thousand steps; True stops the parse
        return time.monotonic() > deadline

    try:
        return _parser().parse(read, progress_callback=cancel)
    except ValueError:  # "Parsing failed": the only way a parse with no language problem fails is cancel()
        raise HostStepTimeout("reading the Java sources", PARSE_SECONDS) from None


def parse_java(source: bytes, deadline: float | None = None) -> JavaSource:
    """Read one source file's bytes (UTF-8; a BOM and invalid bytes are tolerated).

    Raises :class:`grader.intake.timecap.HostStepTimeout` when ``deadline`` (a
    ``time.monotonic()`` value) passes during the parse.
    """
    if source.startswith(b"\xef\xbb\xbf"):
        source = source[3:]
    tree = _parse_tree(source, deadline)
    root = tree.root_node
    package = ""
    imports: list[Import] = []
    for child in root.named_children:
        if child.type == "package_declaration":
            name = next((c for c in child.named_children if c.type in ("identifier", "scoped_identifier")), None)
            if name is not None and not package:
                package = _dotted(name)
        elif child.type == "import_declaration":
            name = next((c for c in child.named_children if c.type in ("identifier", "scoped_identifier")), None)
            if name is not None:
                words = {_text(c) for c in child.children if not c.is_named}
                imports.append(Import(_dotted(name), "static" in words,
                                      any(c.type == "asterisk" for c in child.named_children)))
    mains: list[MainMethod] = []
    types: list[str] = []
    prefix = package + "." if package else ""
    for declaration, chain in _type_declarations(root):
        if len(chain) == 1:
            types.append(chain[0])
        in_interface = declaration.type in ("interface_declaration", "annotation_type_declaration")
        for member in _members(declaration):
            if member.type != "method_declaration":
                continue
            found = _main_of(member, in_interface)
            if found is not None:
                empty, public = found
                mains.append(MainMethod(prefix + "$".join(chain), chain[-1], member.start_point[0] + 1, empty,
                                        public))
                break
    return JavaSource(package, tuple(imports), tuple(mains), tuple(types), root.has_error)
