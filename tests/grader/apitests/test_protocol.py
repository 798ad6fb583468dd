"""A student's text in a test's message is bounded and cannot carry control sequences (it reaches reports)."""

from __future__ import annotations

import pytest

from grader.apitests.protocol import MAX_MESSAGE, clean

CASES = {
    "escape-sequences-and-tabs": ("\x1b[31mred\x1b[0m\tand\nnext", "?[31mred?[0m?and\nnext"),
    "newlines-kept": ("a\nb", "a\nb"),
    "nul-and-bell": ("x\x00y\x07", "x?y?"),
    "overlong": ("y" * (MAX_MESSAGE + 50), "y" * MAX_MESSAGE),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_clean(name):
    text, expected = CASES[name]
    assert clean(text) == expected
