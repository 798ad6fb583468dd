"""The assignment's driver: compiled into the student's package, and its compile errors never blamed on the student
as errors in a file they never saw."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from grader.intake.build import build
from grader.intake.java.driver import diagnose, install, rewrite
from grader.testsets.assignment import Assignment, JavaConfig
from tests.support import require_tool

CLIENT = """import java.util.Scanner;

/** A test client. */
public class Client {
    public static void main(String[] args) {
        Solver solver = new Solver(new Board(new int[][] {{1, 0}, {2, 3}}));
        System.out.println(solver.moves());
    }
}
"""


def write(root: Path, files: dict[str, str]) -> list[Path]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return [root / name for name in files]


def test_driver_goes_into_the_students_package(tmp_path: Path) -> None:
    student = write(tmp_path / "sub", {"src/puzzle8/Board.java": "package puzzle8;\nclass Board { }\n",
                                       "src/puzzle8/Solver.java": "package puzzle8;\npublic class Solver { }\n"})
    (tmp_path / "Client.java").write_text(CLIENT)
    [placed] = install([tmp_path / "Client.java"], tmp_path / "extras", student)
    assert (placed.package, placed.class_name, placed.uses) == ("puzzle8", "puzzle8.Client", ("Board", "Solver"))
    assert placed.path == tmp_path / "extras" / "puzzle8" / "Client.java"
    text = placed.path.read_text()
    assert text.splitlines()[0] == "package puzzle8; import java.util.Scanner;"
    assert len(text.splitlines()) == len(CLIENT.splitlines())  # javac's line numbers stay the driver's own


def test_classes_in_two_packages_get_an_import(tmp_path: Path) -> None:
    student = write(tmp_path / "sub", {"board/Board.java": "package board;\npublic class Board { }\n",
                                       "solver/Solver.java": "package solver;\npublic class Solver { }\n",
                                       "solver/Node.java": "package solver;\nclass Node { }\n"})
    (tmp_path / "Client.java").write_text(CLIENT)
    [placed] = install([tmp_path / "Client.java"], tmp_path / "extras", student)
    assert placed.package == "board"  # one class each: the first package by name
    assert placed.path.read_text().startswith("package board; import solver.Solver; import java.util.Scanner;")


def test_a_driver_package_line_is_replaced_or_removed() -> None:
    packaged = "// the course's client\npackage checker;\n\npublic class Client { }\n"
    assert rewrite(packaged, "puzzle8", ()) == "// the course's client\npackage puzzle8;\n\npublic class Client { }\n"
    assert rewrite(packaged, None, ()) == "// the course's client\n\n\npublic class Client { }\n"
    assert rewrite("/* package fake; */ class A { }", None, ()) == "/* package fake; */ class A { }"


def test_students_copy_of_the_driver_is_left_out(tmp_path: Path) -> None:
    student = write(tmp_path / "sub", {"Board.java": "class Board { }", "Solver.java": "class Solver { }",
                                       "Client.java": "class Client { }"})
    (tmp_path / "Client.java").write_text(CLIENT)
    [placed] = install([tmp_path / "Client.java"], tmp_path / "extras", student)
    assert placed.replaces == (tmp_path / "sub" / "Client.java",)


# javac's own wording (JDK 17), with the file names javac is given
API_GAP = """.grader/puzzle8/Client.java:6: error: cannot find symbol
        System.out.println(solver.isSolvable());
                                 ^
  symbol:   method isSolvable()
  location: variable solver of type Solver
1 error
"""
CONSTRUCTOR = """.grader/Client.java:6: error: constructor Board in class Board cannot be applied to given types;
        Solver solver = new Solver(new Board(new int[][] {{1, 0}, {2, 3}}));
                                   ^
  required: int[]
  found:    int[][]
  reason: argument mismatch; int[][] cannot be converted to int[]
1 error
"""
NO_BOARD = """.grader/Client.java:6: error: cannot find symbol
        Solver solver = new Solver(new Board(new int[][] {{1, 0}, {2, 3}}));
                                       ^
  symbol:   class Board
  location: class Client
1 error
"""
LIBRARY_MISSING = """.grader/Client.java:5: error: cannot find symbol
        In in = new In(args[0]);
        ^
  symbol:   class In
  location: class Client
1 error
"""
BOTH = """Solver.java:3: error: ';' expected
    int moves = 0
                 ^
.grader/Client.java:7: error: cannot find symbol
        System.out.println(solver.moves());
                                 ^
  symbol:   method moves()
  location: variable solver of type Solver
2 errors
"""


@pytest.mark.parametrize("log, verdict, fragments", [
    (API_GAP, "CE", ["(Client.java, supplied by the grader)", "Solver has no method isSolvable() (the client uses it "
                                                                 "at line 6)"]),
    (CONSTRUCTOR, "CE", ["line 6: constructor Board in class Board cannot be applied", "required: int[]"]),
    (NO_BOARD, "CE", ["the submission has no class Board"]),
    (LIBRARY_MISSING, "JE", [".grader/Client.java ([java] sources) does not compile", "a configuration problem",
                             "symbol:   class In"]),
    (BOTH, "CE", ["1 error in your files", "Solver.java:3: error: ';' expected"]),
], ids=["missing-method", "constructor", "missing-class", "missing-library", "student-errors-first"])
def test_diagnose(log: str, verdict: str, fragments: list[str]) -> None:
    grader_files = [".grader/Client.java", ".grader/puzzle8/Client.java"]
    diagnosis = diagnose(log, grader_files, {"Solver", "Node"} | ({"Board"} if log is not NO_BOARD else set()))
    assert diagnosis is not None and diagnosis.verdict == verdict
    for fragment in fragments:
        assert fragment in diagnosis.message
    if log is BOTH:
        assert ".grader" not in diagnosis.message


def test_student_only_errors_are_not_diagnosed() -> None:
    assert diagnose("Solver.java:3: error: ';' expected\n1 error\n", [".grader/Client.java"], {"Solver"}) is None


EMPTY_MAIN = "package puzzle8;\n\npublic class Solver {\n    public Solver(Board b) { }\n    public int moves() { " \
             "return 0; }\n    public static void main(String[] args) {\n        // the client drives this\n    }\n}\n"


def java_build(tmp_path: Path, files: dict[str, str], driver: str) -> object:
    require_tool("javac")
    write(tmp_path / "sub", files)
    (tmp_path / "Client.java").write_text(driver)
    (tmp_path / "work").mkdir()
    assignment = dataclasses.replace(Assignment(), java=JavaConfig(sources=(tmp_path / "Client.java",)))
    return build(tmp_path / "sub", tmp_path / "work", assignment)


@pytest.mark.java
def test_packaged_submission_runs_through_the_driver(tmp_path: Path) -> None:
    built = java_build(tmp_path, {"src/puzzle8/Board.java": "package puzzle8;\nclass Board {\n    Board(int[][] t) "
                                  "{ }\n}\n", "src/puzzle8/Solver.java": EMPTY_MAIN}, CLIENT)
    assert built.ok, built.message
    assert built.entry == "puzzle8.Client" and (built.bundle / "puzzle8" / "Client.class").is_file()


@pytest.mark.java
def test_broken_driver_is_a_judge_error_naming_it(tmp_path: Path) -> None:
    driver = CLIENT.replace("System.out.println(solver.moves());", "In in = new In(args[0]);")
    built = java_build(tmp_path, {"src/puzzle8/Board.java": "package puzzle8;\npublic class Board {\n    public "
                                  "Board(int[][] t) { }\n}\n", "src/puzzle8/Solver.java": EMPTY_MAIN}, driver)
    assert built.failure is not None and built.failure.value == "JE"
    assert ".grader/Client.java ([java] sources) does not compile" in built.message  # kept unnamed: it uses In
    assert "symbol:   class In" in built.message


@pytest.mark.java
def test_missing_api_method_is_the_students_compile_error(tmp_path: Path) -> None:
    driver = CLIENT.replace("solver.moves()", "solver.isSolvable()")
    built = java_build(tmp_path, {"Board.java": "class Board {\n    Board(int[][] t) { }\n}\n",
                                  "Solver.java": EMPTY_MAIN.replace("package puzzle8;\n", "")}, driver)
    assert built.failure is not None and built.failure.value == "CE"
    assert "Solver has no method isSolvable() (the client uses it at line 7)" in built.message


@pytest.mark.java
def test_a_submissions_own_grader_folder_is_not_taken_for_the_drivers(tmp_path: Path) -> None:
    # .grader/ is where the grader puts drivers and libraries: a student's folder of that name is left behind
    built = java_build(tmp_path, {"src/puzzle8/Board.java": "package puzzle8;\nclass Board {\n    Board(int[][] t) "
                                  "{ }\n}\n", "src/puzzle8/Solver.java": EMPTY_MAIN,
                                  ".grader/puzzle8/Client.java": "package puzzle8; class Client { oops }"}, CLIENT)
    assert built.ok, built.message
    assert built.entry == "puzzle8.Client"


def test_driver_on_the_unnamed_library_stays_unnamed_and_imports_the_students_classes(tmp_path: Path) -> None:
    # the pre-2015 client: In and StdOut with no import, which only the unnamed package can see
    student = write(tmp_path / "sub", {"src/puzzle8/Board.java": "package puzzle8;\npublic class Board { }\n",
                                       "src/puzzle8/Solver.java": "package puzzle8;\npublic class Solver { }\n"})
    old_client = CLIENT.replace("System.out.println(solver.moves());", "StdOut.println(new In(args[0]));")
    (tmp_path / "Client.java").write_text(old_client)
    [placed] = install([tmp_path / "Client.java"], tmp_path / "extras", student, {"In", "StdOut", "MinPQ"})
    assert placed.package is None and placed.path == tmp_path / "extras" / "Client.java"
    assert placed.path.read_text().startswith("import puzzle8.Board; import puzzle8.Solver; import java.util.Scanner;")
    packaged = "import edu.princeton.cs.algs4.*;\n" + old_client
    (tmp_path / "Client.java").write_text(packaged)
    [placed] = install([tmp_path / "Client.java"], tmp_path / "extras2", student, {"In", "StdOut", "MinPQ"})
    assert placed.package == "puzzle8"
