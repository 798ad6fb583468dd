"""A file name in assignment.toml that no student opens, while most open one same other name, is refused before
any build (every run would fail to find its input: a class of RTE with exit 0); names students share are not."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.errors import SetupRefused
from grader.intake.discovery import Submission
from grader.intake.preflight import require_file_names
from grader.testsets.assignment import Assignment

JAVA = 'class Solver {{ void main() {{ new FileReader("{inp}"); new PrintWriter("{out}"); }} }}\n'
PY = "open('{inp}').read()\nopen(r'data/{out}', 'w')\n"


def _class(tmp_path: Path, names: list[tuple[str, str]]) -> list[Submission]:
    """One submission per (input, output) pair, Java and Python alternately."""
    found = []
    for number, (inp, out) in enumerate(names):
        root = tmp_path / f"s{number}"
        root.mkdir()
        if number % 2:
            (root / "solver.py").write_text(PY.format(inp=inp, out=out))
        else:
            (root / "Solver.java").write_text(JAVA.format(inp=inp, out=out))
        found.append(Submission(root.name, root, root))
    return found


CASES = [
    # (what, students' names, assignment keys, refusal or None)
    ("the handout's names", [("input.txt", "output.txt")] * 4, {}, None),
    ("input named otherwise", [("input.txt", "output.txt")] * 4, {"input_file": "puzzle.txt"},
     'says input_file = "puzzle.txt", but no submission names that file, while 4 of 4 name "input.txt"'),
    ("output named otherwise", [("input.txt", "output.txt")] * 3, {"output_file": "answer.txt"},
     'output_file = "answer.txt", but no submission names that file, while 3 of 3 name "output.txt"'),
    ("output read from stdout", [("input.txt", "output.txt")] * 3, {"output_file": "answer.txt", "answer": "stdout"},
     None),
    ("one student names the file", [("input.txt", "output.txt")] * 3 + [("puzzle.txt", "output.txt")],
     {"input_file": "puzzle.txt"}, None),
    ("no majority elsewhere", [("a.txt", "output.txt"), ("b.txt", "output.txt"), ("c.txt", "output.txt"),
                               ("d.txt", "output.txt")], {"input_file": "puzzle.txt"}, None),
    ("both named otherwise", [("input.txt", "output.txt")] * 3, {"input_file": "puzzle.txt", "output_file": "a.txt"},
     'input_file = "puzzle.txt", but no submission names that file, while 3 of 3 name "input.txt" (e.g. s0, s1); '
     '3 of 3 name "output.txt"'),
    ("a class of one", [("input.txt", "output.txt")], {"input_file": "puzzle.txt"}, None),
    ("input on argv", [("input.txt", "output.txt")] * 4, {"input_file": "puzzle.txt", "io": "argv"}, None),
]


@pytest.mark.parametrize("what, names, keys, refusal", CASES, ids=[case[0] for case in CASES])
def test_file_names(tmp_path: Path, what: str, names: list[tuple[str, str]], keys: dict[str, str],
                    refusal: str | None) -> None:
    submissions = _class(tmp_path, names)
    assignment = Assignment(**keys)  # type: ignore[arg-type]
    if refusal is None:
        require_file_names(submissions, assignment)
        return
    with pytest.raises(SetupRefused) as raised:
        require_file_names(submissions, assignment)
    assert refusal in str(raised.value)
    key = next(iter(keys))
    assert f"Set {key} to the name the handout gives" in str(raised.value)


def test_a_link_in_a_submission_is_not_read(tmp_path: Path) -> None:
    """Submissions are untrusted: a link named like code, pointing at a file naming input.txt, is not followed."""
    outside = tmp_path / "outside.py"
    outside.write_text("open('input.txt')\n")
    submissions = []
    for name in ("a", "b", "c"):
        root = tmp_path / name
        root.mkdir()
        (root / "solver.py").symlink_to(outside)
        submissions.append(Submission(name, root, root))
    require_file_names(submissions, Assignment(input_file="puzzle.txt"))
