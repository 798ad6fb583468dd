"""Finding what to run: the Java main class (packages, empty mains, drivers) and the Python entry."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from grader.intake.build import build, choose_main, java_main_classes, java_sources, python_entry
from grader.testsets.assignment import Assignment, JavaConfig, load_assignment
from tests.support import REPO, require_tool

TESTSET = REPO / "tests" / "grader" / "data" / "testset"


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


MAIN = "public class {0} {{ public static void main(String[] args) {{ run(); }} }}"
EMPTY = ("public class {0} {{\n  // the course client drives this class\n"
         "  public static void main(String[] args) {{ }}\n}}")


DEFAULTS = Assignment()


def main_for(tmp_path: Path, files: dict[str, str], assignment: Assignment = DEFAULTS) -> str | None:
    write(tmp_path, files)
    extras = tmp_path / ".grader"
    extras.mkdir(exist_ok=True)
    sources, _ = java_sources(tmp_path, extras)
    drivers = sorted(extras.rglob("*.java"))
    return choose_main(java_main_classes(sources, drivers), assignment)


def test_main_inside_a_package(tmp_path: Path) -> None:
    files = {"src/board/Solver.java": "package board;\n" + MAIN.format("Solver"),
             "src/board/Board.java": "package board;\n" + MAIN.format("Board")}
    assert main_for(tmp_path, files) == "board.Solver"


def test_commented_out_main_does_not_count(tmp_path: Path) -> None:
    files = {"Helper.java": "public class Helper { /* public static void main(String[] a) {} */ }",
             "App.java": MAIN.format("App")}
    assert main_for(tmp_path, files) == "App"


def test_empty_main_runs_the_driver(tmp_path: Path) -> None:
    files = {"Solver.java": EMPTY.format("Solver"), "Board.java": MAIN.format("Board"),
             ".grader/PuzzleChecker.java": MAIN.format("PuzzleChecker")}
    assert main_for(tmp_path, files) == "PuzzleChecker"


def test_own_main_wins_over_the_driver(tmp_path: Path) -> None:
    files = {"Solver.java": MAIN.format("Solver"), ".grader/PuzzleChecker.java": MAIN.format("PuzzleChecker")}
    assert main_for(tmp_path, files) == "Solver"


def test_configured_main_class(tmp_path: Path) -> None:
    assignment = dataclasses.replace(Assignment(), java=JavaConfig(main_class="Checker"))
    files = {"src/p/Checker.java": "package p;\n" + MAIN.format("Checker"), "Solver.java": MAIN.format("Solver")}
    assert main_for(tmp_path, files, assignment) == "p.Checker"


def test_python_entry_order(tmp_path: Path) -> None:
    write(tmp_path, {"helper.py": "", "run_me.py": "if __name__ == '__main__':\n    pass\n"})
    assert python_entry(tmp_path, Assignment())[0] == ["run_me.py"]
    write(tmp_path, {"main.py": ""})
    assert python_entry(tmp_path, Assignment())[0] == ["main.py"]
    write(tmp_path, {"solver/__main__.py": ""})
    assert python_entry(tmp_path, Assignment())[0] == ["-m", "solver"]


def test_oversized_submission_is_refused(tmp_path: Path, monkeypatch) -> None:
    from grader.intake import build as build_module
    from grader.intake.build import build

    monkeypatch.setattr(build_module, "MAX_SUBMISSION_FILES", 3)
    write(tmp_path / "sub", {f"m{i}.py": "" for i in range(4)})
    (tmp_path / "work").mkdir()
    result = build(tmp_path / "sub", tmp_path / "work", Assignment())
    assert result.failure is not None and result.failure.value == "CE"
    assert "past 3 files" in result.message and "hand in source files only" in result.message


def _fake_javac(plant):
    """A stand-in for javac (a process of the submission's uid): writes classes-out, then ``plant(out)``."""
    from grader.sandbox import runner

    def run_command(argv, workdir, limits, **kwargs):
        out = Path(workdir) / "classes-out"
        out.mkdir()
        (out / "Solver.class").write_bytes(b"\xca\xfe\xba\xbe")
        plant(out)
        return runner.Outcome(exit_code=0, signal=None, timed_out=False, memory_exceeded=False, wall_seconds=0.1,
                              cpu_seconds=0.1, stdout=b"", stderr=b"", stdout_truncated=False, stderr_truncated=False)
    return run_command


@pytest.mark.parametrize("planted", ["Leak.class", "pkg", "Solver.class"])
def test_a_link_in_javacs_output_is_refused_never_copied(tmp_path: Path, monkeypatch, planted: str) -> None:
    from grader.intake.build import build
    from grader.sandbox import runner

    require_tool("javac")
    victim = tmp_path / "victim" / "secret.txt"
    victim.parent.mkdir()
    victim.write_text("victim: never to be read\n")

    def plant(out: Path) -> None:
        (out / planted).unlink(missing_ok=True)
        (out / planted).symlink_to(victim.parent if planted == "pkg" else victim)

    monkeypatch.setattr(runner, "run_command", _fake_javac(plant))
    write(tmp_path / "sub", {"Solver.java": MAIN.format("Solver")})
    (tmp_path / "work").mkdir()
    result = build(tmp_path / "sub", tmp_path / "work", Assignment())
    assert result.failure is not None and result.failure.value == "CE", result.message
    if planted == "Solver.class":  # the main class itself a link: not a class javac produced
        assert "javac produced no Solver class" in result.message
    else:
        assert f"classes-out/{planted}: is a symbolic link" in result.message
    copied = [p for p in (tmp_path / "work").rglob("*") if p.is_file() and not p.is_symlink()]
    assert all(b"victim" not in p.read_bytes() for p in copied)


@pytest.mark.java
def test_javac_runs_on_the_quick_compiler_and_the_students_runs_keep_the_default_ones(tmp_path: Path,
                                                                                     monkeypatch) -> None:
    # A compile is a short JVM run: C2's threads cost javac ~40 % more CPU than they return (bench/javac_flags.py).
    # The students' own programs are long searches: their runs must keep the JVM's default compilers.
    from grader.intake.build import JAVAC_JVM, build
    from grader.sandbox import runner

    require_tool("javac")
    real, argvs = runner.run_command, []

    def recording(argv, *args, **kwargs):
        argvs.append(list(argv))
        return real(argv, *args, **kwargs)

    monkeypatch.setattr(runner, "run_command", recording)
    write(tmp_path / "sub", {"Solver.java": "public class Solver { public static void main(String[] a) { } }"})
    (tmp_path / "work").mkdir()
    built = build(tmp_path / "sub", tmp_path / "work", Assignment())
    assert built.ok, built.message
    [javac] = argvs
    assert javac[1:1 + len(JAVAC_JVM)] == list(JAVAC_JVM)
    assert {"-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"} <= set(JAVAC_JVM)
    assert built.run_argv is not None and not any("Tiered" in arg for arg in built.run_argv)


SIGNATURES = ["public static synchronized void main(String[] args)", "static final public void main(String... args)",
              "public static void main(java.lang.String args[])", "@SuppressWarnings(\"all\") public static void main("
              "final String[] args)"]


@pytest.mark.parametrize("signature", SIGNATURES)
def test_every_legal_main_signature_builds_and_runs(tmp_path: Path, signature: str) -> None:
    from grader.pipeline import grade
    from tests.support import REPO

    require_tool("javac")
    sample = REPO / "examples" / "submissions" / "AC-java-princeton-padded"
    project = tmp_path / "subs" / "student"
    shutil.copytree(sample, project)
    solver = project / "src" / "puzzle" / "Solver.java"
    text = solver.read_text()
    assert "public static void main(String[] args)" in text
    solver.write_text(text.replace("public static void main(String[] args)", signature)
                      + "\nclass Decoy { /* public static void main(String[] a) */ "
                        "String s = \"static void main(\"; }\n")
    # One case shows the entry found and run (the padded board is the one this sample's format is about).
    [submission] = grade(tmp_path / "subs", REPO / "tests" / "grader" / "data" / "testset", None, jobs=2,
                         cases=["3x3-d20-padded"]).submissions
    assert submission.build.entry == "puzzle.Solver" and submission.verdict.value == "AC", submission.build


@pytest.mark.java
def test_empty_main_without_a_driver_says_so(tmp_path: Path) -> None:
    from grader.intake.build import build

    require_tool("javac")
    write(tmp_path / "sub", {"src/puzzle8/Solver.java": "package puzzle8;\n" + EMPTY.format("Solver"),
                             "src/puzzle8/Board.java": "package puzzle8;\npublic class Board { }\n"})
    (tmp_path / "work").mkdir()
    built = build(tmp_path / "sub", tmp_path / "work", Assignment())
    assert built.ok and built.entry == "puzzle8.Solver"
    assert "main class puzzle8.Solver (its main is empty)" in built.message
    assert built.run_hint.startswith("puzzle8.Solver.main in src/puzzle8/Solver.java is empty, so running it does "
                                     "nothing")
    assert "([java] sources in assignment.toml)" in built.run_hint


def test_links_are_left_out_named_and_counted(tmp_path: Path) -> None:
    # A link never fails the build by itself: it is left out and named; past 20, the rest are counted.
    source = tmp_path / "sub"
    source.mkdir()
    (source / "main.py").write_text("if __name__ == '__main__':\n    print('No solution possible')\n")
    for index in range(25):
        (source / f"link{index:02d}").symlink_to("/etc/passwd")
    (source / "folder").mkdir()
    (source / "folder" / "dangling").symlink_to(tmp_path / "nowhere")
    workdir = tmp_path / "work"
    workdir.mkdir()
    built = build(source, workdir, load_assignment(TESTSET / "assignment.toml"))
    assert built.ok, built.message
    assert built.left_out[0] == ("folder/dangling: left out, a symbolic link to "
                                 f"'{tmp_path / 'nowhere'}' (links are never followed: hand in the file itself)")
    assert len(built.left_out) == 21 and built.left_out[-1] == "… and 6 more links, also left out"
    assert not any(p.is_symlink() for p in (workdir / "bundle").rglob("*"))
