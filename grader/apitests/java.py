"""Launching the Java worker: compiled once per grading process, run beside each submission's classes.

The worker (``harness/java/NpzApiWorker.java`` and the ``NpzApi*`` classes beside it, Java 16+)
decides nothing: it answers the judge's calls (:mod:`grader.apitests.judge`) on a Unix socket. It
reaches the student's ``Board`` and ``Solver`` by reflection, so it compiles without them and a
submission in any package, with any API mistakes, still runs it: a missing or mistyped member is
named by ``api.conformance`` and fails only the tests that need it. ``NpzApiAgent`` is packed as
a java agent (``-javaagent``) so the memory measures use the JVM's own ``Instrumentation`` and
priority-queue operations are counted. The reference Board (compiled under the student's Board's
name) is copied only into the Solver tests' worker.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from grader.apitests.prepared import Prepared
from grader.intake import safe_copy
from grader.intake.build import JAVAC_JVM, RUN_NAMES, Build
from grader.intake.timecap import StudentFault
from grader.testsets.assignment import Assignment

HARNESS = Path(__file__).resolve().parent / "harness" / "java"
FOLDER = "_npuzzle_api"
AGENT_JAR = "npzapi-agent.jar"
QUEUES_JAR = "npzapi-queues.jar"
ASM_JAR_ENV = "NPUZZLE_ASM_JAR"
ASM_JARS = ("/usr/share/java/asm.jar", "/usr/share/java/asm-9.jar")
MAIN_CLASS = "NpzApiWorker"
BOARD_NAMES = ("Board", "Puzzle")
COMPILE_SECONDS = 180
_lock = threading.Lock()
_compiled: dict[str, Path] = {}
_references: dict[str, Path] = {}
_reference_locks: dict[str, threading.Lock] = {}  # one per Board name: workers wanting the same one wait, not recompile
_QUALIFIED = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*")


class HarnessBuildError(RuntimeError):
    """The grader's own harness did not compile: a grader fault (no JDK, a broken install)."""


def compiled_harness() -> Path:
    """The folder holding the compiled harness and its agent jar, built on first use in this process."""
    with _lock:
        if "path" in _compiled and (_compiled["path"] / AGENT_JAR).is_file():
            return _compiled["path"]
        javac, jar = shutil.which("javac"), shutil.which("jar")
        if javac is None or jar is None:
            raise HarnessBuildError("the grading machine has no javac/jar: install a JDK 16+ to run the Java API tests")
        folder = Path(tempfile.mkdtemp(prefix="npuzzle-api-harness-"))
        atexit.register(shutil.rmtree, folder, True)
        out = folder / "classes"
        out.mkdir()
        asm = asm_jar()
        if asm is None:
            raise HarnessBuildError("the Java API tests count priority-queue operations with ASM, which is not "
                                    "installed: apt-get install libasm-java (or set NPUZZLE_ASM_JAR to an asm.jar)")
        queues = folder / "queues"
        queues.mkdir()
        _tool([javac, *JAVAC_JVM, "-encoding", "UTF-8", "-nowarn", "--release", "11", "-d", str(queues),
               *sorted(str(p) for p in (HARNESS / "npzapi").glob("*.java"))], folder)
        sources = sorted(str(p) for p in HARNESS.glob("NpzApi*.java"))
        # 16: the worker reaches the judge through a Unix domain socket (java.net.UnixDomainSocketAddress).
        try:
            _tool([javac, *JAVAC_JVM, "-encoding", "UTF-8", "-nowarn", "--release", "16", "-d", str(out),
                   "-cp", f"{asm}:{queues}", *sources], folder)
        except HarnessBuildError as exc:
            if "release" in str(exc) and "not supported" in str(exc):
                raise HarnessBuildError(f"the Java API worker needs a JDK 16 or later (it reaches the judge "
                                        f"through a Unix domain socket); {javac} is older") from None
            raise
        # Only in its own jar, for the boot class path: a second copy on the class path would be a second counter.
        _tool([jar, "cf", str(out / QUEUES_JAR), "-C", str(queues), "npzapi"], folder)
        shutil.copyfile(asm, out / "asm.jar")
        manifest = folder / "MANIFEST.MF"
        manifest.write_text("Premain-Class: NpzApiAgent\nCan-Retransform-Classes: true\nClass-Path: asm.jar\n",
                            encoding="ascii")
        agent = ["NpzApiAgent.class", *sorted(p.name for p in out.glob("NpzApiQueueTransformer*.class"))]
        _tool([jar, "cfm", str(out / AGENT_JAR), str(manifest), *(a for name in agent for a in ("-C", str(out), name))],
              folder)
        for path in folder.rglob("*"):  # the sandbox's uid reads them from each run's copy, never from here
            path.chmod(0o755 if path.is_dir() else 0o644)
        folder.chmod(0o700)
        _compiled["path"] = out
        return out


def asm_jar() -> str | None:
    """ASM (Debian's libasm-java, or ``$NPUZZLE_ASM_JAR``): the bytecode library the agent counts queues with."""
    for candidate in (os.environ.get(ASM_JAR_ENV), *ASM_JARS):
        if candidate and Path(candidate).is_file():
            return str(Path(candidate).resolve())
    return None


def _tool(argv: list[str], cwd: Path) -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    try:
        done = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=COMPILE_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise HarnessBuildError(f"building the Java API harness failed: {exc}") from None
    if done.returncode != 0:
        log = (done.stdout + done.stderr).decode("utf-8", "replace")[-2000:]
        raise HarnessBuildError(f"building the Java API harness failed ({Path(argv[0]).name}):\n{log}")


def reference_board(qualified: str) -> Path | None:
    """A folder holding the reference Board compiled as ``qualified`` (the student's Board's name), or None.

    The student's Solver then runs on it (``NpzApiSubstitute``), as the Princeton assessment substitutes its
    own Board: a Board bug costs only Board tests, and the reference Board counts the Solver's calls.
    """
    if not _QUALIFIED.fullmatch(qualified):
        return None
    with _lock:
        if qualified in _references:
            return _references[qualified]
        compiling = _reference_locks.setdefault(qualified, threading.Lock())
    with compiling:
        with _lock:
            if qualified in _references:  # another worker compiled it while this one waited
                return _references[qualified]
        out = _compile_reference(qualified)
        if out is not None:
            with _lock:
                _references[qualified] = out
        return out


def _compile_reference(qualified: str) -> Path | None:
    package, _, name = qualified.rpartition(".")
    folder = Path(tempfile.mkdtemp(prefix="npuzzle-api-refboard-"))
    atexit.register(shutil.rmtree, folder, True)
    source = folder / "src" / f"{name}.java"
    source.parent.mkdir()
    text = (HARNESS / "RefBoard.java.txt").read_text(encoding="utf-8")
    source.write_text(text.replace("__PACKAGE__", f"package {package};" if package else "")
                      .replace("__NAME__", name), encoding="utf-8")
    out = folder / "classes"
    out.mkdir()
    try:
        _tool([shutil.which("javac") or "javac", *JAVAC_JVM, "-encoding", "UTF-8", "-nowarn", "--release", "11",
               "-d", str(out), str(source)], folder)
    except HarnessBuildError:
        return None
    for path in folder.rglob("*"):  # each run's copy is read by the sandbox's uid ...
        path.chmod(0o755 if path.is_dir() else 0o644)
    folder.chmod(0o700)  # ... but no run reaches this one (a Board tests' worker must find no reference Board)
    return out


def find_class(classes: Path, names: Sequence[str]) -> str | None:
    """The qualified name of the first of ``names`` compiled into ``classes`` (any package; the shallowest wins)."""
    for name in names:
        found = sorted((p for p in classes.rglob(f"{name}.class") if FOLDER not in p.parts and not p.is_symlink()),
                       key=lambda p: (len(p.parts), str(p)))
        if found:
            return ".".join(found[0].relative_to(classes).with_suffix("").parts)
    return None


def prepare(build: Build, workdir: Path, assignment: Assignment, reference: bool) -> Prepared:
    """Fill ``workdir`` with the student's classes and the worker (with the reference Board when ``reference``);
    the judge adds its socket's path to the argv and sends ``hello`` as the first line."""
    try:
        harness = compiled_harness()
    except HarnessBuildError as exc:
        return Prepared((), problem=f"{exc} (a grader fault)")
    assert build.bundle is not None
    try:  # no link followed, and a student's own _npuzzle_api/ cannot shadow the worker's classes
        safe_copy.copy_tree(build.bundle, workdir, into_existing=True,
                            skip=lambda rel, is_dir: str(rel) in (FOLDER, *RUN_NAMES))
    except StudentFault as exc:
        return Prepared((), problem=f"not run: the compiled classes cannot be copied for the API tests: {exc}")
    shutil.copytree(harness, workdir / FOLDER)
    config = assignment.api
    board = find_class(build.bundle, config.board_classes if config else BOARD_NAMES)
    solver = find_class(build.bundle, config.solver_classes if config else ("Solver",))
    argv = list(build.run_argv)
    java = argv[0]
    classpath = argv[argv.index("-cp") + 1] if "-cp" in argv[:-1] else "."
    heap = next((a for a in argv if a.startswith("-Xmx")), f"-Xmx{assignment.limits.heap_mb}m")
    # The memory measures walk collections' private fields (a kept PriorityQueue must count), and measure in the
    # sheet's 64-bit model (16-byte object headers, 8-byte references), not the JVM's compressed default.
    opens = [arg for package in ("java.util", "java.lang")
             for arg in ("--add-opens", f"java.base/{package}=ALL-UNNAMED")]
    command = (java, heap, "-Xss8m", "-XX:+UseSerialGC", "-XX:-UseCompressedOops", "-XX:-UseCompressedClassPointers",
               *opens, f"-javaagent:{FOLDER}/{AGENT_JAR}" + (f"={board.replace('.', '/')}" if board else ""),
               "-cp", f"{FOLDER}:{classpath}", MAIN_CLASS)
    compiled = reference_board(board) if board and reference else None
    if compiled is not None:
        shutil.copytree(compiled, workdir / FOLDER / "ref", dirs_exist_ok=True)
    hello = {"board": board, "solver": solver, "refboard": f"{FOLDER}/ref" if compiled is not None else None}
    return Prepared(command, readable=build.readable, hello=hello)
