"""Which types of a parsed Java file declare a launchable ``main``, and the types it declares.

A launchable ``main`` (JLS 12.1.4, and what ``java`` accepts up to JDK 24): a method named ``main``,
``static``, returning ``void``, with one parameter of type ``String[]`` (or ``String...``,
``String args[]``, ``java.lang.String``), ``public`` or declared in an interface (whose methods are
public). A ``static`` main that is not public still counts, marked ``public = False``: newer JDKs run
it, older ones say why they do not. Comments and strings that mention ``main`` are not methods, so a
parser (not a pattern) decides; the tree is walked with explicit stacks, never recursion.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tree_sitter import Node

from grader.intake.java.java_tree import COMMENTS, dotted, text

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


def main_methods(root: Node, package: str, line_of: Callable[[Node], int]) -> tuple[list[MainMethod], list[str]]:
    """The file's launchable mains (at most one per type) and its top-level type names, in order."""
    mains: list[MainMethod] = []
    types: list[str] = []
    prefix = package + "." if package else ""
    for declaration, names in _type_declarations(root):
        if len(names) == 1:
            types.append(names[0])
        in_interface = declaration.type in ("interface_declaration", "annotation_type_declaration")
        for member in _members(declaration):
            found = _main_of(member, in_interface) if member.type == "method_declaration" else None
            if found is not None:
                empty, public = found
                mains.append(MainMethod(prefix + "$".join(names), names[-1], line_of(member), empty, public))
                break
    return mains, types


def _modifiers(node: Node) -> set[str]:
    for child in node.children:
        if child.type == "modifiers":
            return {text(c) for c in child.children if not c.is_named or c.type in ("static", "public")}
    return set()


def _string_array_parameter(parameters: Node) -> bool:
    """Exactly one parameter, of type String[] in any of its spellings."""
    params = [c for c in parameters.named_children if c.type in ("formal_parameter", "spread_parameter")]
    others = [c for c in parameters.named_children
              if c.type not in ("formal_parameter", "spread_parameter", *COMMENTS)]
    if len(params) != 1 or others:
        return False
    param = params[0]
    dims = 0
    if param.type == "spread_parameter":
        dims = 1
        type_node = next((c for c in param.named_children
                          if c.type not in ("modifiers", "variable_declarator", *COMMENTS)), None)
        declarator = next((c for c in param.named_children if c.type == "variable_declarator"), None)
        if declarator is not None and declarator.child_by_field_name("dimensions") is not None:
            return False
    else:
        type_node = param.child_by_field_name("type")
        extra = param.child_by_field_name("dimensions")  # String args[]
        if extra is not None:
            dims += text(extra).count("[")
    if type_node is None:
        return False
    if type_node.type == "array_type":
        dimensions = type_node.child_by_field_name("dimensions")
        dims += text(dimensions).count("[") if dimensions is not None else 0
        type_node = type_node.child_by_field_name("element")
    return dims == 1 and type_node is not None and dotted(type_node) in _STRING_TYPES


def _main_of(method: Node, in_interface: bool) -> tuple[bool, bool] | None:
    """(empty, public) when ``method`` is a launchable main, else None."""
    name = method.child_by_field_name("name")
    kind = method.child_by_field_name("type")
    parameters = method.child_by_field_name("parameters")
    body = method.child_by_field_name("body")
    if name is None or text(name) != "main" or kind is None or kind.type != "void_type" or parameters is None:
        return None
    if body is None:
        return None
    modifiers = _modifiers(method)
    if "static" not in modifiers or not _string_array_parameter(parameters):
        return None
    empty = all(c.type in COMMENTS for c in body.named_children)
    return empty, in_interface or "public" in modifiers


def _type_declarations(root: Node) -> Iterator[tuple[Node, tuple[str, ...]]]:
    """Every type declared at the top level or as a member of another, with its enclosing names."""
    stack: list[tuple[Node, tuple[str, ...]]] = [
        (child, ()) for child in reversed(root.named_children) if child.type in TYPE_DECLARATIONS]
    while stack:
        node, outer = stack.pop()
        name = node.child_by_field_name("name")
        if name is None:
            continue
        names = (*outer, text(name))
        yield node, names
        if len(names) >= MAX_TYPE_DEPTH:
            continue
        # enum constants' bodies are anonymous classes: not launchable, not entered
        members = [(child, names) for child in _members(node) if child.type in TYPE_DECLARATIONS]
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
