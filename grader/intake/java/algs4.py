"""algs4 flavours: which edition of Princeton's library each Java submission is compiled against.

The library exists in two editions, and no single classpath grades both:

- ``packaged`` (since 2015): ``edu.princeton.cs.algs4.MinPQ`` and friends, named by an import;
- ``unnamed`` (the older ``stdlib.jar`` and ``algs4.jar``): ``In``, ``StdOut``, ``Queue``, ``Stack``, ``MinPQ``... in
  the unnamed package, used with no import. Java resolves a simple name to a class of the same package before
  an on-demand import, so on the classpath these hide ``java.util.Queue`` and ``java.util.Stack`` from a student
  who writes ``import java.util.*``.

:func:`scan` reads what a submission's sources import, declare and use; :func:`plan` turns that into an ordered
list of :class:`Attempt` (library sets to compile with). The build compiles with the first and tries the next
only while javac's errors are about library names (:func:`blames_library`), then reports the one that compiled.
An unnamed jar is compiled against without the classes whose names the student's on-demand imports (or
``java.lang``) supply and the student uses, unless the student uses another class of that jar (:func:`held_back`):
Java's ``Queue`` wins for whoever wrote with ``stdlib.jar`` alone, algs4's ``Stack`` for whoever had the old
``algs4.jar``; javac settles the rest by retry. The full library stays on the run's classpath (bytecode names
classes in full, so nothing is hidden at run time).

Where a course gets the jars: ``https://algs4.cs.princeton.edu/code/algs4.jar`` is the packaged edition (the
Coursera project zips carry the same file as ``.lift/algs4.jar``); the unnamed edition is the pre-2015
``stdlib.jar`` + ``algs4.jar`` pair from a course's own archive. ``assignment.toml`` names either with an
absolute path or an environment variable (``[java.algs4]``), so nothing has to be copied beside it.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import zipfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from grader.intake.java.java_source import JavaSource

PACKAGE = "edu.princeton.cs.algs4"
FLAVOURS = ("packaged", "unnamed")
MAX_ATTEMPTS = 3
JDK_PACKAGES_FILE = Path(__file__).with_name("jdk_packages.json")
"""Public top-level types of the JDK packages students import on demand (JDK 17; see its ``_how`` key)."""

_ERROR_RE = re.compile(r"^\S.*?:\d+: error: ", re.M)


@dataclass(frozen=True)
class Library:
    """One configured edition: its jars (or class folders) and the simple names of the classes it supplies."""

    flavour: str
    jars: tuple[Path, ...]
    names: frozenset[str]
    per_jar: tuple[frozenset[str], ...] = ()
    """The names each jar supplies, in ``jars`` order (empty: all in one)."""


@dataclass(frozen=True)
class Usage:
    """What a submission's sources say about the library.

    ``packaged``: names imported from (or written in full as) ``edu.princeton.cs.algs4``, ``*`` for an on-demand
    import. ``unnamed``: unnamed-library names that unnamed-package files use with no import or declaration of
    their own, and that no JDK on-demand import supplies. ``java_wins``: unnamed-library names the student uses
    that an on-demand import or ``java.lang`` also supplies (Java's class is meant).
    """

    packaged: frozenset[str] = frozenset()
    unnamed: frozenset[str] = frozenset()
    java_wins: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Attempt:
    """One library set to compile with: the editions on the classpath, and the unnamed classes held back."""

    flavours: tuple[str, ...]
    held_back: frozenset[str] = frozenset()

    def describe(self, libraries: Mapping[str, Library]) -> str:
        """How the build log, the feedback and results.json name the choice."""
        if not self.flavours:
            return "no algs4 library"
        parts = []
        for flavour in self.flavours:
            jars = ", ".join(jar.name for jar in libraries[flavour].jars)
            label = f"packaged ({PACKAGE})" if flavour == "packaged" else "unnamed package"
            parts.append(f"{label}: {jars}")
        text = "algs4 " + " + ".join(parts)
        if self.held_back:
            text += (f"; {', '.join(sorted(self.held_back))} left to the Java library the sources import "
                     "(import ...*)")
        return text


def library_names(flavour: str, location: Path) -> frozenset[str]:
    """The simple names of the top-level classes an edition's jar (or class folder) supplies.

    Raises OSError or zipfile.BadZipFile for an unreadable jar.
    """
    prefix = "" if flavour == "unnamed" else PACKAGE.replace(".", "/") + "/"
    if location.is_dir():
        entries: Iterable[str] = (p.relative_to(location).as_posix() for p in location.rglob("*.class"))
    else:
        entries = _jar_entries(location, location.stat().st_mtime_ns)
    names = set()
    for entry in entries:
        if entry.startswith(prefix) and entry.endswith(".class"):
            rest = entry[len(prefix):-len(".class")]
            if "/" not in rest and "$" not in rest and rest and rest not in ("module-info", "package-info"):
                names.add(rest)
    return frozenset(names)


@functools.lru_cache(maxsize=16)
def _jar_entries(jar: Path, _mtime: int) -> tuple[str, ...]:
    with zipfile.ZipFile(jar) as archive:
        return tuple(archive.namelist())


class LibraryUnreadable(Exception):
    """A configured jar that cannot be listed (the message names it): the assignment's setup is at fault."""


def load_library(flavour: str, jars: Iterable[Path]) -> Library:
    """An edition from its configured jars; raises :class:`LibraryUnreadable` naming a jar that cannot be read."""
    jars = tuple(jars)
    per_jar = []
    for jar in jars:
        try:
            per_jar.append(library_names(flavour, jar))
        except (OSError, zipfile.BadZipFile) as exc:
            raise LibraryUnreadable(f"{jar}: {getattr(exc, 'strerror', None) or exc}") from None
    return Library(flavour, jars, frozenset().union(*per_jar), tuple(per_jar))


@functools.lru_cache(maxsize=1)
def jdk_packages() -> Mapping[str, frozenset[str]]:
    data = json.loads(JDK_PACKAGES_FILE.read_text(encoding="utf-8"))
    return {package: frozenset(names) for package, names in data.items() if not package.startswith("_")}


def scan(sources: Iterable[JavaSource], unnamed_names: frozenset[str] = frozenset()) -> Usage:
    """What the sources (:mod:`grader.intake.java.java_source`) import, declare and use, against the unnamed
    edition's class names."""
    sources = list(sources)
    declared = frozenset().union(*(source.declared for source in sources))
    packaged: set[str] = set()
    unnamed: set[str] = set()
    java_wins: set[str] = set()
    jdk = jdk_packages()
    for source in sources:
        packaged |= packaged_names(source)
        if source.package:
            continue  # a named package cannot see the unnamed one at all
        on_demand = source.on_demand()
        used = (source.names & unnamed_names) - declared - source.single_imports()
        if PACKAGE in on_demand:
            used = frozenset()  # the packaged import supplies them
        from_java = {name for name in used if any(name in jdk.get(package, ()) for package in on_demand)}
        java_wins |= from_java
        unnamed |= used - from_java
    return Usage(frozenset(packaged), frozenset(unnamed), frozenset(java_wins))


def packaged_names(source: JavaSource) -> set[str]:
    """The packaged edition's classes a file imports (``*`` for the whole package) or writes in full."""
    imported = [i.name for i in source.imports]
    found = {"*"} if PACKAGE in imported else set()  # import edu.princeton.cs.algs4.*;
    for name in imported + sorted(source.qualified):
        if name.startswith(PACKAGE + "."):
            found.add(name[len(PACKAGE) + 1:].split(".")[0])
    return found


def plan(usage: Usage, libraries: Mapping[str, Library]) -> list[Attempt]:
    """The library sets to try, best first (at most :data:`MAX_ATTEMPTS`); empty when none is configured.

    The sources' evidence decides the first; the others are there for javac to settle what reading the sources
    could not (a student's ``Queue`` meant as algs4's although ``java.util.*`` is imported; a name the scan
    missed).
    """
    if not libraries:
        return []
    hold = usage.java_wins if "unnamed" in libraries else frozenset()
    likely = held_back(usage, libraries["unnamed"]) if "unnamed" in libraries else frozenset()
    candidates: list[Attempt] = []
    if usage.packaged and usage.unnamed:
        candidates += [Attempt(("packaged", "unnamed"), likely), Attempt(("packaged", "unnamed"), hold),
                       Attempt(("packaged", "unnamed"))]
    elif usage.unnamed:
        candidates += [Attempt(("unnamed",), likely), Attempt(("unnamed",), hold), Attempt(("unnamed",))]
    # With nothing to go on, the packaged edition first: it hides nothing (its classes need an import).
    candidates += [Attempt(("packaged",)), Attempt(("unnamed",), hold), Attempt(("unnamed",)),
                   Attempt(("packaged", "unnamed"), hold)]
    attempts: list[Attempt] = []
    for attempt in candidates:
        if all(flavour in libraries for flavour in attempt.flavours) and attempt not in attempts:
            attempts.append(attempt)
    return attempts[:MAX_ATTEMPTS]


def held_back(usage: Usage, library: Library) -> frozenset[str]:
    """The names to hold back from an unnamed edition: those Java also supplies, from each jar the student shows
    no other sign of having had.

    A student who uses ``MinPQ`` from the old ``algs4.jar`` compiled with all of it, so its ``Stack`` (which
    iterates from the top, unlike ``java.util.Stack``) is the one they meant even beside ``import java.util.*``; a
    student who uses only ``stdlib.jar``'s ``In`` and ``StdOut`` meant ``java.util``'s.
    """
    held: set[str] = set()
    for names in library.per_jar or (library.names,):
        if not names & usage.unnamed:
            held |= names & usage.java_wins
    return frozenset(held)


def blames_library(log: str, libraries: Mapping[str, Library], held_back: frozenset[str] = frozenset()) -> bool:
    """Whether a failed javac's errors name the library (its package, or one of its classes).

    Only then can another edition help: a student's own mistake is reported from the first attempt.
    """
    names = set(held_back).union(*(library.names for library in libraries.values())) if libraries else set(held_back)
    starts = [m.start() for m in _ERROR_RE.finditer(log)]
    for begin, end in zip(starts, starts[1:] + [len(log)]):
        block = log[begin:end]
        if PACKAGE in block or any(re.search(rf"(?<![\w$.]){re.escape(name)}\b", block) for name in names):
            return True
    return False


def error_count(log: str) -> int:
    """How many errors javac reported (its summary line, else the error lines)."""
    match = re.search(r"^(\d+) errors?$", log, re.M)
    return int(match.group(1)) if match else len(_ERROR_RE.findall(log))


def materialise(attempt: Attempt, libraries: Mapping[str, Library], folder: Path) -> tuple[list[Path], list[Path]]:
    """Copies of the attempt's jars inside ``folder``: (to compile with, to run with).

    Held-back classes are left out of the compile-time copy of the unnamed edition only.
    """
    folder.mkdir(parents=True, exist_ok=True)
    compile_with, run_with = [], []
    for flavour in attempt.flavours:
        for index, jar in enumerate(libraries[flavour].jars):
            target = folder / f"{flavour}-{index}-{jar.name}"
            if not target.exists():
                (shutil.copytree if jar.is_dir() else shutil.copy2)(jar, target)
            run_with.append(target)
            if flavour == "unnamed" and attempt.held_back:
                held = folder / f"compile-{'-'.join(sorted(attempt.held_back))}-{index}-{jar.name}"
                if not held.exists():
                    write_without(jar, attempt.held_back, held)
                compile_with.append(held)
            else:
                compile_with.append(target)
    return compile_with, run_with


def write_without(source: Path, names: frozenset[str], target: Path) -> None:
    """A copy of an unnamed-package jar (or class folder) without the top-level classes ``names`` and their
    nested classes."""
    def dropped(entry: str) -> bool:
        return "/" not in entry and entry.endswith(".class") and entry.split(".")[0].split("$")[0] in names

    if source.is_dir():
        shutil.copytree(source, target, ignore=lambda folder, items: [
            item for item in items if Path(folder) == source and dropped(item)])
        return
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as copy:
        for info in original.infolist():
            if not dropped(info.filename):
                copy.writestr(info, original.read(info))


@dataclass(frozen=True)
class Compiled:
    """The outcome of compiling with the planned editions: the attempt kept, and what each attempt said."""

    ok: bool
    log: str
    build_dir: str
    attempt: Attempt
    run_classpath: tuple[Path, ...] = ()
    tried: tuple[str, ...] = field(default=())
    timed_out: bool = False

    def describe(self, libraries: Mapping[str, Library]) -> str | None:
        return self.attempt.describe(libraries) if libraries else None


CompileOnce = Callable[[list[Path], str], tuple[bool, str, bool]]
"""``(extra classpath entries, output folder name) -> (compiled, javac's log, timed out)``."""


def compile_with_editions(attempts: list[Attempt], libraries: Mapping[str, Library], folder: Path,
                          compile_once: CompileOnce) -> Compiled:
    """Compile with each attempt in turn until one compiles or javac's errors stop naming the library.

    ``folder`` receives the jars' copies. When every attempt fails, the one with the fewest errors is kept
    (the right edition leaves the student's own mistakes): its log is the one reported.
    """
    if not attempts:
        attempts = [Attempt(())]
    results: list[Compiled] = []
    tried: list[str] = []
    for index, attempt in enumerate(attempts):
        compile_with, run_with = materialise(attempt, libraries, folder)
        build_dir = "classes-out" if index == 0 else f"classes-out-{index + 1}"
        ok, log, timed_out = compile_once(compile_with, build_dir)
        tried.append(f"{attempt.describe(libraries)}: {'compiled' if ok else f'{error_count(log)} errors'}")
        results.append(Compiled(ok, log, build_dir, attempt, tuple(run_with), timed_out=timed_out))
        if ok or timed_out or not blames_library(log, libraries, attempt.held_back):
            break
    kept = results[-1] if results[-1].ok else min(results, key=lambda r: error_count(r.log) or 10**6)
    return replace(kept, tried=tuple(tried))
