"""The one Java reader (tree-sitter): what a file declares and uses, data-driven over ``data/java-reading``.

Each file starts with ``// key: values`` lines (themselves comments, so never read as names):
``package``, ``imports`` (``static:`` and ``.*`` as written), ``types`` (top level, in order), ``declared``
(every type, exactly), ``uses`` (names that must be read as used), ``not-uses`` (names that must not:
they appear only in comments, strings, text blocks, imports, or after a dot), ``qualified`` (dotted names
written in the code) and ``errors`` (whether tree-sitter had to make ERROR nodes). Where a file compiles
apart from missing classes, javac 17 named exactly the ``uses`` among the library names as missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.errors import SetupRefused
from grader.intake.discovery import Submission
from grader.intake.java.driver import install, rewrite
from grader.intake.java.java_source import (
    MAX_PARSED_BYTES,
    SourceReader,
    parse_java,
    read_java,
)
from grader.intake.java.prelex import prelex
from grader.intake.preflight import require_libraries
from grader.intake.timecap import HostStepTimeout
from grader.testsets.assignment import Assignment

DATA = Path(__file__).resolve().parent / "data" / "java-reading"
FILES = sorted(DATA.glob("*.java"))


def expectations(data: bytes) -> dict[str, list[str]]:
    return {key: values.split() for key, values in re.findall(r"^// ([a-z-]+):(.*)$", data.decode(), re.M)}


def imports_as_written(source) -> list[str]:
    return [("static:" if i.static else "") + i.name + (".*" if i.wildcard else "") for i in source.imports]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_reading(path: Path) -> None:
    data = path.read_bytes()
    expected = expectations(data)
    source = parse_java(data)
    if "package" in expected:
        assert source.package == ".".join(expected["package"])
    if "imports" in expected:
        assert imports_as_written(source) == expected["imports"]
    if "types" in expected:
        assert list(source.types) == expected["types"]
    assert source.declared == set(expected["declared"])
    assert set(expected.get("uses", ())) <= source.names, set(expected["uses"]) - source.names
    assert not set(expected.get("not-uses", ())) & source.names
    assert set(expected.get("qualified", ())) <= source.qualified
    assert source.has_errors == (expected["errors"] == ["yes"])


# (source, package, imports, expected): the driver's package line set or removed, imports added, lines kept
REWRITES = {
    "replaced": ("// client\npackage checker;\nclass C { }\n", "puzzle8", (),
                 "// client\npackage puzzle8;\nclass C { }\n"),
    "removed": ("package checker;\nclass C { }\n", None, (), "\nclass C { }\n"),
    "added-with-imports": ("class C { }\n", "p", ("q.B", "a.A"), "package p; import a.A; import q.B; class C { }\n"),
    "only-in-a-comment": ("/* package fake; */ class C { }", None, (), "/* package fake; */ class C { }"),
    "only-in-a-string": ('class C { String s = "package fake;"; }', "p", (),
                         'package p; class C { String s = "package fake;"; }'),
    "over-three-lines": ("package a\n  . /* x */\n  b;\nclass C { }\n", "p", ("q.B",),
                         "package p; import q.B;\n\n\nclass C { }\n"),
    "after-a-bom": ("\ufeffpackage a;\nclass C { }\n", "b", (), "\ufeffpackage b;\nclass C { }\n"),
    "spelled-with-an-escape": ("\\u0070ackage a;\nclass Ç\\u00e9 { }\n", "b", (), "package b;\nclass Ç\\u00e9 { }\n"),
}


@pytest.mark.parametrize("name", sorted(REWRITES))
def test_rewrite(name: str) -> None:
    text, package, imports, expected = REWRITES[name]
    assert rewrite(text, package, imports) == expected
    assert rewrite(text, package, imports).count("\n") == text.count("\n")  # javac's line numbers stay the driver's


# (file, translated, file offsets of each translated byte that starts a character)
ESCAPES = {
    "letter": (b"M\\u0069nPQ", b"MinPQ"),
    "many-u": (b"\\uuuu0041", b"A"),
    "escaped-backslash-is-not-an-escape": (b"\\\\u0041", b"\\\\u0041"),
    "odd-run": (b"\\\\\\u0041", b"\\\\A"),
    "produced-backslash-starts-nothing": (b"\\u005cu0041", b"\\u0041"),
    "surrogate-pair": (b"\\uD83D\\uDE00", "\U0001F600".encode()),
    "lone-surrogate": (b"\\uD83D x", "\ufffd x".encode()),
    "not-four-hex-digits": (b"\\u00g1 \\u12", b"\\u00g1 \\u12"),
    "bom": (b"\xef\xbb\xbfclass \\u0041", b"class A"),
}


@pytest.mark.parametrize("name", sorted(ESCAPES))
def test_unicode_escapes_are_translated_as_javac_does(name: str) -> None:
    raw, translated = ESCAPES[name]
    code, offsets = prelex(raw)
    assert code == translated
    assert offsets.original(len(code)) == len(raw)  # the end maps to the end
    assert offsets.original(0) == (3 if raw.startswith(b"\xef\xbb\xbf") else 0)


def test_lines_of_mains_are_the_files_own_after_an_escaped_line_break() -> None:
    # javac counts the file's own lines: "\u000a" ends a comment but does not start a line of the file
    source = parse_java(b"// x \\u000a int y;\nclass A {\n  public static void main(String[] a) { }\n}\n")
    assert [(m.name, m.line) for m in source.mains] == [("A", 3)]


def test_a_file_over_the_cap_gives_its_package_and_imports_only(tmp_path: Path) -> None:
    header = b"package big;\nimport org.junit.Test;\nimport java.util.*;\n"
    body = b"class Big {\n" + b"  int[] table = {" + b"1, " * MAX_PARSED_BYTES + b"};\n" \
        b"  public static void main(String[] a) { new Stack<Integer>(); }\n}\n"
    (tmp_path / "Big.java").write_bytes(header + body)
    source = SourceReader()(tmp_path / "Big.java")
    assert (source.package, imports_as_written(source), source.complete) == ("big", ["org.junit.Test", "java.util.*"],
                                                                            False)
    assert source.mains == () and source.names == frozenset() and source.declared == frozenset()
    assert read_java(header + b"class Small { }").complete


@pytest.mark.parametrize("data", [bytes(range(256)) * 400, b"\xff\xfe" + "class Ä { }".encode("utf-16-le"),
                                  b"class A { String s = \"\\u00", b"\\" * 50_001 + b"u0041"],
                         ids=["binary", "utf-16", "cut-escape", "backslash-run"])
def test_garbage_is_read_without_a_crash(data: bytes) -> None:
    # tree-sitter puts what it cannot parse into ERROR nodes and still returns a tree; nothing raises
    assert read_java(data).has_errors


def test_one_cap_covers_all_of_a_builds_files(tmp_path: Path) -> None:
    # "A<B<A<B<..." is tree-sitter's slowest input known here (seconds per few kB: generic or comparison,
    # both kept open); the reader's cap, shared by the build's files, turns it into the student's CE
    (tmp_path / "Fine.java").write_text("class Fine { }")
    (tmp_path / "Slow.java").write_text("class Slow { Object o = " + "A<B<" * 8_000 + "; }")
    read = SourceReader(seconds=0.2)
    assert read(tmp_path / "Fine.java").declared == {"Fine"}
    with pytest.raises(HostStepTimeout, match="reading the Java sources"):
        read(tmp_path / "Slow.java")
    # The thread's parser starts afresh after a stopped parse: the next file read here is read right
    after = read_java(b"class After { }")
    assert after.declared == {"After"} and not after.has_errors


def test_a_build_reads_each_file_once(tmp_path: Path) -> None:
    (tmp_path / "A.java").write_text("class A { }")
    read = SourceReader()
    first = read(tmp_path / "A.java")
    (tmp_path / "A.java").write_text("class B { }")  # a build's files do not change under it; nor does its reading
    assert read(tmp_path / "A.java") is first


def test_the_driver_is_placed_by_what_its_code_uses_not_its_comments(tmp_path: Path) -> None:
    (tmp_path / "sub" / "p").mkdir(parents=True)
    (tmp_path / "sub" / "q").mkdir()
    (tmp_path / "sub" / "p" / "Board.java").write_text("package p;\npublic class Board { }\n")
    (tmp_path / "sub" / "q" / "Solver.java").write_text("package q;\npublic class Solver { }\n")
    (tmp_path / "sub" / "q" / "Node.java").write_text("package q;\nclass Node { }\n")
    client = ('/** Drives Board and Node: "Board", Board.class */\npublic class Client {\n'
              '    public static void main(String[] a) { String s = "Board Node"; Solver s2 = null; }\n}\n')
    (tmp_path / "Client.java").write_text(client)
    [placed] = install([tmp_path / "Client.java"], tmp_path / "extras", sorted((tmp_path / "sub").rglob("*.java")))
    assert (placed.package, placed.uses) == ("q", ("Solver",))


USES = {"import": "import edu.princeton.cs.algs4.MinPQ;\nclass A { }",
        "static-import": "import static edu.princeton.cs.algs4.StdOut.println;\nclass A { }",
        "written-in-full": "class A { void f() { edu.princeton.cs.algs4.StdOut.println(1); } }",
        "escaped": "import edu.princeton.cs.\\u0061lgs4.MinPQ;\nclass A { }",
        "import-before-a-huge-body": "import edu.princeton.cs.algs4.*;\nclass A { int[] t = {"
                                     + "1, " * MAX_PARSED_BYTES + "}; }"}
NOT_USES = {"comment": "// import edu.princeton.cs.algs4.MinPQ;\nclass A { }",
            "string": 'class A { String s = "edu.princeton.cs.algs4.MinPQ"; }',
            "javadoc": "/** See {@link edu.princeton.cs.algs4.MinPQ}. */\nclass A { }",
            "own-package": "package edu.princeton.cs.algs5;\nclass A { }"}


@pytest.mark.parametrize("name", sorted(USES) + sorted(NOT_USES))
def test_preflight_counts_only_real_library_uses(tmp_path: Path, name: str) -> None:
    submissions = []
    for student in ("alice", "bob"):
        (tmp_path / student).mkdir()
        (tmp_path / student / "A.java").write_text(USES.get(name) or NOT_USES[name])
        submissions.append(Submission(student, tmp_path / student, tmp_path / student))
    if name in USES:
        with pytest.raises(SetupRefused, match=re.escape("2 of 2 Java submissions import edu.princeton.cs.algs4")):
            require_libraries(submissions, Assignment())
    else:
        require_libraries(submissions, Assignment())
