"""Course presets: each loads with its course's I/O, wordings and driver; an assignment overrides them key by key;
every worked configuration in testcases/README.md loads."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from grader.errors import ConfigError
from grader.testsets import presets
from grader.testsets.assignment import load_assignment
from tests.support import REPO

README = REPO / "testcases" / "README.md"
WORKED_RE = re.compile(r"```toml\n(# worked configuration: (?P<name>[\w-]+)\n.*?)```", re.S)


def load_text(tmp_path: Path, text: str, name: str = "assignment.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_assignment(path)


@pytest.fixture
def stand_in_jars(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Empty jars where the worked configurations' environment variables point."""
    old = tmp_path / "algs4-2014"
    old.mkdir()
    for jar in (tmp_path / "algs4.jar", old / "stdlib.jar", old / "algs4.jar"):
        with zipfile.ZipFile(jar, "w") as archive:
            archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
    monkeypatch.setenv("ALGS4_JAR", str(tmp_path / "algs4.jar"))
    monkeypatch.setenv("ALGS4_OLD", str(old))
    return tmp_path


EXPECTED = {
    "coursera-princeton": ("argv", ("No solution possible",), "CourseraTestClient.java"),
    "cos226-campus": ("argv", ("Unsolvable puzzle",), "CampusTestClient.java"),
    "cmpe160": ("files", ("No solution found.", "No solution possible", "Unsolvable puzzle", "Board is unsolvable"),
                None),
}


def test_every_shipped_preset_is_described() -> None:
    assert presets.names() == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_preset_alone(tmp_path: Path, name: str) -> None:
    assignment = load_text(tmp_path, f'preset = "{name}"\n')
    io, wordings, driver = EXPECTED[name]
    assert (assignment.io, assignment.unsolvable_wordings, assignment.preset) == (io, wordings, name)
    assert assignment.limits.wall_seconds == 10 and assignment.limits.memory_mb == 1024
    assert [p.name for p in assignment.java.sources] == ([driver] if driver else [])
    assert all(p.is_file() for p in assignment.java.sources)
    assert assignment.to_json()["preset"] == name
    if io == "files":
        assert (assignment.input_file, assignment.output_file) == ("input.txt", "output.txt")


def test_keys_override_the_preset_one_by_one(tmp_path: Path) -> None:
    assignment = load_text(tmp_path, 'preset = "cos226-campus"\nname = "COS 226, fall"\n[limits]\nmemory_mb = 512\n'
                                     '[output]\nunsolvable_wordings = ["Unsolvable puzzle", "No solution possible"]\n')
    assert assignment.name == "COS 226, fall"
    assert assignment.limits.memory_mb == 512 and assignment.limits.wall_seconds == 10  # the table is merged
    assert assignment.unsolvable_wordings == ("Unsolvable puzzle", "No solution possible")  # a list is replaced
    assert assignment.io == "argv" and assignment.java.sources[0].name == "CampusTestClient.java"


def test_own_driver_replaces_the_preset_one(tmp_path: Path) -> None:
    (tmp_path / "Checker.java").write_text("public class Checker {}\n")
    assignment = load_text(tmp_path, 'preset = "coursera-princeton"\n[java]\nsources = ["Checker.java"]\n')
    assert assignment.java.sources == ((tmp_path / "Checker.java").resolve(),)
    assert assignment.java.preferred_mains[0] == "Solver"


def test_unknown_preset_names_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_text(tmp_path, 'preset = "princeton"\n')
    assert str(info.value) == (f"{tmp_path / 'assignment.toml'}::$.preset: unknown preset 'princeton' "
                               "(known: cmpe160, cos226-campus, coursera-princeton)")


def test_library_paths_absolute_or_from_the_environment(stand_in_jars: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    jar = stand_in_jars / "algs4.jar"
    assignment = load_text(folder, f'[java]\nclasspath = ["{jar}"]\n[java.algs4]\npackaged = ["$ALGS4_JAR"]\n'
                                   'unnamed = ["${ALGS4_OLD}/stdlib.jar", "$ALGS4_OLD/algs4.jar"]\n')
    assert assignment.java.classpath == (jar,)
    assert assignment.java.algs4.packaged == (jar,)
    assert [p.parent.name + "/" + p.name for p in assignment.java.algs4.unnamed] == [
        "algs4-2014/stdlib.jar", "algs4-2014/algs4.jar"]
    monkeypatch.delenv("ALGS4_OLD")
    with pytest.raises(ConfigError) as info:
        load_text(folder, '[java.algs4]\nunnamed = ["$ALGS4_OLD/algs4.jar"]\n')
    assert "$.java.algs4.unnamed[0]: '$ALGS4_OLD/algs4.jar' names the environment variable ALGS4_OLD, which is " \
           "not set" in str(info.value)


def test_worked_configurations_are_all_there() -> None:
    names = [m.group("name") for m in WORKED_RE.finditer(README.read_text(encoding="utf-8"))]
    assert {"coursera-princeton", "cos226-campus", "princeton-mixed", "cmpe160"} <= set(names)
    assert len(names) == len(set(names))


@pytest.mark.parametrize("match", list(WORKED_RE.finditer(README.read_text(encoding="utf-8"))),
                         ids=lambda m: m.group("name"))
def test_worked_configuration_loads(stand_in_jars: Path, tmp_path: Path, match: re.Match[str]) -> None:
    assignment = load_text(tmp_path, match.group(1), f"{match.group('name')}.toml")
    if match.group("name") == "princeton-mixed":
        assert assignment.unsolvable_wordings == ("No solution possible", "Unsolvable puzzle")
        assert set(assignment.java.algs4.editions()) == {"packaged", "unnamed"}
        assert assignment.java.sources[0].name == "CourseraTestClient.java"
    elif match.group("name") in EXPECTED:
        io, wordings, _ = EXPECTED[match.group("name")]
        assert (assignment.io, assignment.unsolvable_wordings) == (io, wordings)
