"""What a Java source file says, read with a real parser (tree-sitter and its Java grammar): the grader's one
reader of Java source.

:func:`parse_java` gives a file's package (and where its declaration is), its imports, its top-level
types, every type it declares, the types with a launchable ``main``
(:mod:`grader.intake.java.main_methods`), and the simple names its code uses as a type or as the
first part of a qualified name. Everything comes from the tree, so words in comments, strings, text
blocks and character literals are never names, and modifiers, annotations, generics and comments
between a name's parts read as javac reads them. The file is first translated as javac's lexer
sees it (:mod:`grader.intake.java.prelex`: a byte-order mark, Unicode escapes).

A file with syntax errors still gives everything tree-sitter could place: the part it could not fit
becomes an ``ERROR`` node, names inside it are still collected, ``has_errors`` is set, and javac
reports the error itself. A file over :data:`MAX_PARSED_BYTES` gives its package and imports only
(:func:`read_java`). A :class:`SourceReader` reads each file of one build once, within one time cap.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node, Query, QueryCursor

from grader.intake.java.java_tree import chain, code_children, dotted, language, parse
from grader.intake.java.main_methods import MainMethod, main_methods
from grader.intake.java.prelex import Offsets, prelex
from grader.intake.timecap import PARSE_SECONDS, deadline_after

MAX_PARSED_BYTES = 200_000
"""A .java file larger than this is compiled but only its package and imports are read (from its first
this many bytes): tree-sitter's error recovery takes up to ~5 s per MB of garbage (linear, but the
grader's own time), and real solutions are a few kB to a few tens of kB per file."""

_QUERY = """
(type_identifier) @type
(method_invocation object: (identifier) @qualifier)
(field_access object: (identifier) @qualifier)
(scoped_identifier scope: (identifier) @qualifier)
(method_reference . (identifier) @qualifier)
(marker_annotation name: (identifier) @qualifier)
(annotation name: (identifier) @qualifier)
(class_declaration name: (identifier) @declared)
(interface_declaration name: (identifier) @declared)
(enum_declaration name: (identifier) @declared)
(record_declaration name: (identifier) @declared)
(annotation_type_declaration name: (identifier) @declared)
(scoped_type_identifier) @chain
(field_access) @chain
(scoped_identifier) @chain
"""
_HEADER = ("package_declaration", "import_declaration")


@dataclass(frozen=True)
class Import:
    name: str
    static: bool = False
    wildcard: bool = False


@dataclass(frozen=True)
class JavaSource:
    """What one file says.

    ``package`` is ``""`` for the unnamed one; ``package_span`` the byte range of its declaration in the
    file (``None``: none). ``types`` are the top-level types in order, ``declared`` every type declared
    anywhere (member and local ones too). ``names`` are the simple names the code uses as a type
    (``MinPQ<Node> pq``, ``new In(f)``) or as the leftmost part of a qualified name (``StdOut.println``,
    where Java decides from scope whether it is a class or a variable), outside the package and import
    declarations; ``qualified`` the dotted names written in the code (``edu.princeton.cs.algs4.MinPQ``,
    ``java.util``, ``a.b``). ``complete`` is false for a file read for its package and imports only.
    """

    package: str = ""
    imports: tuple[Import, ...] = ()
    mains: tuple[MainMethod, ...] = ()
    types: tuple[str, ...] = ()
    has_errors: bool = False
    package_span: tuple[int, int] | None = None
    declared: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    qualified: frozenset[str] = frozenset()
    complete: bool = True

    def imports_from(self, *prefixes: str) -> bool:
        """Whether an import names a package or class under one of ``prefixes`` (``"org.junit"``)."""
        return any(i.name == p or i.name.startswith(p + ".") for i in self.imports for p in prefixes)

    def single_imports(self) -> frozenset[str]:
        """The simple names that single-type imports (``import java.util.Stack;``) bring in."""
        return frozenset(i.name.rsplit(".", 1)[-1] for i in self.imports if not i.static and not i.wildcard)

    def on_demand(self) -> frozenset[str]:
        """The packages whose types the file sees by simple name: ``java.lang`` and each ``import p.*;``."""
        return frozenset({"java.lang", *(i.name for i in self.imports if i.wildcard and not i.static)})


Read = Callable[[Path], JavaSource]
"""How a file is read: a build's :class:`SourceReader` (each file once, within the build's cap)."""


@functools.lru_cache(maxsize=1)
def _query() -> Query:
    return Query(language(), _QUERY)


def parse_java(source: bytes, deadline: float | None = None, header_only: bool = False) -> JavaSource:
    """Read one source file's bytes (UTF-8; a BOM and invalid bytes are tolerated).

    Raises :class:`grader.intake.timecap.HostStepTimeout` when ``deadline`` (a
    ``time.monotonic()`` value) passes during the parse.
    """
    code, offsets = prelex(source)
    root = parse(code, deadline).root_node
    package, span, imports = _header(root, offsets)
    if header_only:
        return JavaSource(package, tuple(imports), has_errors=root.has_error, package_span=span, complete=False)

    def line_of(node: Node) -> int:
        if not offsets.spans:
            return node.start_point[0] + 1
        return source.count(b"\n", 0, offsets.original(node.start_byte)) + 1

    mains, types = main_methods(root, package, line_of)
    declared, names, qualified = _names(root)
    return JavaSource(package, tuple(imports), tuple(mains), tuple(types), root.has_error, span, declared, names,
                      qualified)


def read_java(data: bytes, deadline: float | None = None) -> JavaSource:
    """:func:`parse_java`, or only the package and imports of a file over :data:`MAX_PARSED_BYTES`."""
    if len(data) > MAX_PARSED_BYTES:
        return parse_java(data[:MAX_PARSED_BYTES], deadline, header_only=True)
    return parse_java(data, deadline)


@dataclass
class SourceReader:
    """Reads each file once, all within one time cap: one per build, never shared between submissions."""

    seconds: float = PARSE_SECONDS
    deadline: float = field(init=False)
    _read: dict[Path, JavaSource] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.deadline = deadline_after(self.seconds)

    def __call__(self, path: Path) -> JavaSource:
        """``path``'s reading (:func:`read_java`); raises :class:`HostStepTimeout` past the cap."""
        if path not in self._read:
            with path.open("rb") as handle:
                self._read[path] = read_java(handle.read(MAX_PARSED_BYTES + 1), self.deadline)
        return self._read[path]


def _header(root: Node, offsets: Offsets) -> tuple[str, tuple[int, int] | None, list[Import]]:
    package, span = "", None
    imports: list[Import] = []
    for child in root.named_children:
        if child.type not in _HEADER:
            continue
        name = next((c for c in child.named_children if c.type in ("identifier", "scoped_identifier")), None)
        if name is None:
            continue
        if child.type == "import_declaration":
            words = {c.type for c in child.children if not c.is_named}
            imports.append(Import(dotted(name), "static" in words,
                                  any(c.type == "asterisk" for c in child.named_children)))
        elif span is None:  # javac rejects a second one
            package = dotted(name)
            span = (offsets.original(child.start_byte), offsets.original(child.end_byte))
    return package, span, imports


def _names(root: Node) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(declared, names, qualified) of :class:`JavaSource`, from the code outside the package and imports."""
    declared: set[str] = set()
    names: set[str] = set()
    qualified: set[str] = set()
    cursor = QueryCursor(_query())
    for child in root.named_children:
        if child.type in _HEADER:
            continue
        for capture, nodes in cursor.captures(child).items():
            for node in nodes:
                if capture == "declared":
                    declared.add(dotted(node))
                elif capture == "chain":
                    written = chain(node)
                    if written is not None:
                        qualified.add(written)
                elif capture == "qualifier" or _leftmost(node):
                    names.add(dotted(node))
    return frozenset(declared), frozenset(names), frozenset(qualified)


def _leftmost(node: Node) -> bool:
    """Whether a type name is not the second or later part of a qualified one (``Entry`` in ``Map.Entry``)."""
    parent = node.parent
    return parent is None or parent.type != "scoped_type_identifier" or code_children(parent)[0] == node
