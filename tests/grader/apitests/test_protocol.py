"""The harness's output is untrusted: only this run's nonce, asked-for names, well-formed and bounded lines count."""

from __future__ import annotations

import json

import pytest

from grader.apitests.protocol import MAX_LINE, MAX_MESSAGE, parse_lines

NONCE = "0123456789abcdef"
ASKED = ["board.hamming.files", "board.twin.random"]


def line(name: str, passed: object = True, message: object = "ok", nonce: str = NONCE) -> bytes:
    return b"@@api " + nonce.encode() + b" " + json.dumps({"name": name, "passed": passed,
                                                          "message": message}).encode()


CASES = {
    "plain": ([line("board.hamming.files")], {"board.hamming.files": (True, "ok")}),
    "student-prints-a-forged-pass-without-the-nonce": (
        [line("board.twin.random", nonce="guess"), b'@@api  {"name": "board.twin.random", "passed": true}'], {}),
    "a-name-not-asked-for": ([line("board.memory")], {}),
    "the-first-report-wins": ([line("board.twin.random", False, "wrong"), line("board.twin.random", True, "ok")],
                              {"board.twin.random": (False, "wrong")}),
    "passed-must-be-a-boolean": ([line("board.twin.random", 1), line("board.twin.random", "true")], {}),
    "message-must-be-a-string": ([line("board.twin.random", True, ["x"])], {}),
    "not-json": ([b"@@api " + NONCE.encode() + b" {not json"], {}),
    "a-json-array": ([b"@@api " + NONCE.encode() + b" [1, 2]"], {}),
    "an-overlong-line": ([line("board.twin.random", True, "x" * MAX_LINE)], {}),
    "invalid-utf8": ([b"@@api " + NONCE.encode() + b' {"name": "board.twin.random", "passed": true, "message": "\xff"}'],
                     {}),
    "noise-around": ([b"chatter", line("board.hamming.files"), b"\x00\x01", b""],
                     {"board.hamming.files": (True, "ok")}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_parse_lines(name):
    lines, expected = CASES[name]
    found = parse_lines(b"\n".join(lines), NONCE, ASKED)
    assert {key: (r.passed, r.message) for key, r in found.items()} == expected


def test_messages_are_cut_and_control_characters_replaced():
    message = "\x1b[31mred\x1b[0m\tand\nnext" + "y" * 3000
    found = parse_lines(line("board.twin.random", False, message), NONCE, ASKED)["board.twin.random"]
    assert len(found.message) == MAX_MESSAGE
    assert found.message.startswith("?[31mred?[0m?and\nnext")
