"""The assignment's driver (``[java] sources``: the specification's test client) and a submission in any package.

A driver written for the unnamed package cannot see a student's ``package puzzle8;`` classes (nothing in a named
package can import the unnamed one). :func:`install` therefore compiles each driver into the package of the
student classes it uses: its ``package`` line is set (or removed) and single-type imports are added for the
classes it uses from other packages; package-private classes then work too. A driver that needs the
unnamed-package library (the pre-2015 ``In`` with no import) stays in the unnamed package, the only one that can
see it, and imports the student's classes instead. A student file declaring the driver's own class where the
driver goes is left out (the assignment's copy wins).

When javac fails, :func:`diagnose` decides whose fault it is, so that a student never gets a compile error in a
file they never saw:

- errors in the student's files: ``CE`` with those errors only (the driver's follow from them);
- errors only in a driver, each about a member or type of the student's classes (``cannot find symbol ...
  location: variable solver of type Solver``, a constructor that does not fit): ``CE`` that says which part of the
  specification's API the student's classes lack. The driver only calls that API; the fault is the submission's,
  and a ``JE`` would tell the student to wait for a fix that will not come;
- any other error in a driver (a library class it needs is missing, a typo in it): ``JE`` naming the driver file
  and the cause: the assignment's configuration is at fault, and every student would get it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from grader.intake.java.algs4 import PACKAGE
from grader.intake.java.java_source import JavaSource, Read, SourceReader, parse_java

_DIAGNOSTIC_RE = re.compile(r"^(?P<file>\S[^\n]*?\.java):(?P<line>\d+): error: (?P<message>[^\n]*)$", re.M)
_DETAIL_RE = re.compile(r"^\s+(symbol|location|required|found|reason)\s*:\s*(.*)$")
LISTED_ERRORS = 6
JDK_OR_ALGS4_HINTS = frozenset({"In", "Out", "StdIn", "StdOut", "StdRandom", "StdDraw", "StdStats", "MinPQ",
                                "MaxPQ", "Queue", "Stack", "Bag", "Stopwatch"})
"""Library class names a driver may use that a student is not expected to write, even when no library that
supplies them is configured (a driver missing one of these is a configuration problem)."""


@dataclass(frozen=True)
class JavaType:
    """A type a student's file declares: its simple name, package (``None``: the unnamed one) and file."""

    name: str
    package: str | None
    path: Path

    @property
    def qualified(self) -> str:
        return f"{self.package}.{self.name}" if self.package else self.name


def declared_types(files: Iterable[Path], read: Read | None = None) -> list[JavaType]:
    """Every class, interface, enum and record the files declare (nested and local ones too), with its package."""
    read = read or SourceReader()
    found = []
    for path in files:
        source = read(path)
        found += [JavaType(name, source.package or None, path) for name in sorted(source.declared)]
    return found


@dataclass(frozen=True)
class InstalledDriver:
    """A driver as compiled: where it was written, its package, and the student classes it uses."""

    source: Path
    path: Path
    package: str | None
    uses: tuple[str, ...]
    replaces: tuple[Path, ...] = ()

    @property
    def class_name(self) -> str:
        return f"{self.package}.{self.path.stem}" if self.package else self.path.stem


def names_used(source: JavaSource) -> set[str]:
    """The simple names a source uses as types or qualifiers (outside its imports), less the types it declares."""
    return set(source.names - source.declared)


def target_package(uses: Iterable[str], types: Sequence[JavaType]) -> str | None:
    """The package holding most of the student classes a driver uses (ties: the one named first, by name)."""
    counts: dict[str | None, int] = {}
    for name in sorted(set(uses)):
        for package in {t.package for t in types if t.name == name}:
            counts[package] = counts.get(package, 0) + 1
    if not counts:
        return None
    return sorted(counts, key=lambda p: (-counts[p], p or ""))[0]


def rewrite(text: str, package: str | None, imports: Iterable[str]) -> str:
    """The driver's source with its package declaration set to ``package`` (removed for ``None``) and
    ``imports`` added after it, all on the line the declaration was on (or the first line): javac's line
    numbers stay those of the driver as the assignment wrote it (a declaration over several lines leaves its line
    breaks). The declaration is found by the parser, so ``package`` in a comment or string is left alone."""
    data = text.encode("utf-8", "surrogateescape")
    span = parse_java(data, header_only=True).package_span
    added = " ".join(([f"package {package};"] if package else []) + [f"import {name};" for name in sorted(imports)])
    if span is not None:
        start, end = span
        kept_lines = b"\n" * data.count(b"\n", start, end)
        data = data[:start] + added.encode("utf-8") + kept_lines + data[end:]
        return data.decode("utf-8", "surrogateescape")
    return f"{added} {text}" if added else text


def unnamed_library_uses(source: JavaSource, unnamed_names: Iterable[str]) -> set[str]:
    """Names of the unnamed-package library a driver uses without importing them from elsewhere."""
    if PACKAGE in source.on_demand():
        return set()
    return (names_used(source) & set(unnamed_names)) - source.single_imports()


def install(drivers: Sequence[Path], extras: Path, student_files: Sequence[Path],
            unnamed_names: Iterable[str] = (), read: Read | None = None) -> list[InstalledDriver]:
    """Write each driver into ``extras`` (in the folder of its package), placed beside the student's classes.

    A driver that uses the unnamed-package library (``In`` with no import) stays in the unnamed package, the only
    one that can see it, and imports the student's classes instead (they must then be public).
    """
    read = read or SourceReader()
    types = declared_types(student_files, read)
    student_names = {t.name for t in types}
    installed = []
    for source in drivers:
        text = source.read_text(encoding="utf-8", errors="replace")
        parsed = read(source)
        uses = sorted(names_used(parsed) & student_names)
        stays_unnamed = bool(unnamed_library_uses(parsed, set(unnamed_names) - student_names)) \
            and parsed.package_span is None
        package = None if stays_unnamed else target_package(uses, types)
        imports = set()
        for name in uses:
            where = {t.package for t in types if t.name == name}
            if package not in where:
                imports |= {f"{p}.{name}" for p in where if p}
        folder = extras.joinpath(*package.split(".")) if package else extras
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / source.name
        target.write_text(rewrite(text, package, imports), encoding="utf-8")
        replaces = tuple(sorted({t.path for t in types if t.name == source.stem and t.package == package
                                 and t.path.stem == source.stem}))
        installed.append(InstalledDriver(source, target, package, tuple(uses), replaces))
    return installed


@dataclass(frozen=True)
class Diagnostic:
    """One javac error: the file as javac printed it, the line, the message and its detail lines."""

    file: str
    line: int
    message: str
    details: tuple[str, ...]
    text: str

    def summary(self) -> str:
        return " ".join([self.message, *self.details])


def diagnostics(log: str) -> list[Diagnostic]:
    """javac's errors, in order, each with the lines javac printed under it."""
    matches = list(_DIAGNOSTIC_RE.finditer(log))
    found = []
    for match, following in zip(matches, matches[1:] + [None]):
        end = following.start() if following else len(log)
        block = log[match.start():end].rstrip("\n")
        rows = block.splitlines()
        details = tuple(f"{m.group(1)}: {m.group(2).strip()}" for m in map(_DETAIL_RE.match, rows[1:]) if m)
        kept = [row for row in rows if not re.match(r"^\d+ errors?$", row)]
        found.append(Diagnostic(match.group("file"), int(match.group("line")), match.group("message").strip(),
                                details, "\n".join(kept)))
    return found


@dataclass(frozen=True)
class Diagnosis:
    """Whose fault a failed compile is: ``verdict`` is ``"CE"`` or ``"JE"``, with the message to report."""

    verdict: str
    message: str


def diagnose(log: str, grader_files: Sequence[str], student_names: Iterable[str],
             library_names: Iterable[str] = ()) -> Diagnosis | None:
    """Sort a failed javac's errors between the student's files and the grader's (``grader_files``, as javac
    names them); ``None`` when no grader file is involved (an ordinary compile error).

    ``student_names`` are the types the submission declares; ``library_names`` those a configured library
    supplies. A driver's missing class that is neither is taken to be one the submission should have declared
    (the specification names its classes); a missing library class is the configuration's fault.
    """
    errors = diagnostics(log)
    grader = [e for e in errors if e.file in grader_files]
    if not grader:
        return None
    theirs = [e for e in errors if e.file not in grader_files]
    if theirs:
        listed = "\n".join(e.text for e in theirs[:LISTED_ERRORS])
        return Diagnosis("CE", f"javac failed ({_count(len(theirs))} in your files; the assignment's test client "
                               f"could not compile against them):\n{listed}")
    names, libraries = set(student_names), set(library_names)
    drivers = sorted({Path(e.file).name for e in grader})
    if all(_about_student_class(e, names, libraries) for e in grader):
        wanted = "\n".join(f"- {_api_gap(e)}" for e in grader[:LISTED_ERRORS])
        return Diagnosis("CE", f"your classes do not provide what the assignment's test client "
                               f"({', '.join(drivers)}, supplied by the grader) calls, as the specification's API "
                               f"requires:\n{wanted}")
    listed = "\n".join(e.text for e in grader[:LISTED_ERRORS])
    return Diagnosis("JE", f"the assignment's driver {', '.join(e for e in sorted({e.file for e in grader}))} "
                           f"([java] sources) does not compile, and not because of the student's classes: a "
                           f"configuration problem (check [java] sources, classpath and [java.algs4]):\n{listed}")


def _count(number: int) -> str:
    return f"{number} error{'s' * (number != 1)}"


def _about_student_class(error: Diagnostic, names: set[str], libraries: set[str]) -> bool:
    """Whether an error in a driver is about the student's classes (what they declare, or fail to)."""
    text = error.summary()
    missing_class = re.search(r"symbol: class ([\w$]+)", text)
    if missing_class:
        name = missing_class.group(1)
        return name not in libraries and name not in JDK_OR_ALGS4_HINTS and re.fullmatch(r"[A-Z][\w$]*", name) \
            is not None
    # Every capitalised name, qualified or not (linear: no nested quantifier over a chain of a.b.c...).
    mentioned = {m.group(1) for m in re.finditer(r"(?<![\w$])([A-Z][\w$]*)", text)}
    return bool(mentioned & names)


def _api_gap(error: Diagnostic) -> str:
    """One line for a student: which class lacks what, and where the client calls it."""
    details = dict(item.split(": ", 1) for item in error.details if ": " in item)
    symbol, location = details.get("symbol"), details.get("location")
    missing_class = re.fullmatch(r"class ([\w$]+)", (symbol or "").strip())
    if error.message == "cannot find symbol" and missing_class:
        return f"the submission has no class {missing_class.group(1)} (the client uses it at line {error.line})"
    if error.message == "cannot find symbol" and symbol and location:
        owner = re.sub(r"^.* of type ", "", location).removeprefix("class ").removeprefix("interface ")
        return f"{owner.strip()} has no {symbol.strip()} (the client uses it at line {error.line})"
    return f"line {error.line}: {error.summary()}"


def empty_main_hint(class_name: str, file: str) -> str:
    """What a run of an empty ``main`` that wrote nothing needs: the student, and the TA, to know why."""
    return (f"{class_name}.main in {file} is empty, so running it does nothing. The specification's test client "
            "must be compiled in with the submission: the assignment can supply it as a driver "
            "([java] sources in assignment.toml), or main must read the input and print the answer")
