"""Hints about Python runs name the assignment's interpreter and the packages it provides."""

from __future__ import annotations

import pytest

from grader.judging.hints import Context, explain

NUMPY = Context(python="CPython 3.11.2", packages=("numpy>=1.24,<2",))


@pytest.mark.parametrize("stderr", [
    "Traceback (most recent call last):\n  File \"main.py\", line 1, in <module>\nModuleNotFoundError: No module named "
    "'scipy'\n",
    "Traceback (most recent call last):\n  File \"main.py\", line 1, in <module>\nModuleNotFoundError: No module named "
    "'scipy.optimize'\n",
    # Python 2 words it without quotes.
    "Traceback (most recent call last):\n  File \"main.py\", line 1, in <module>\nImportError: No module named scipy\n",
])
def test_a_missing_module_names_what_the_assignment_provides(stderr: str) -> None:
    assert explain(stderr, NUMPY) == ("the module 'scipy' is not available where submissions run: the assignment "
                                      "provides numpy>=1.24,<2 and the standard library")


def test_without_packages_only_the_standard_library_is_promised() -> None:
    assert explain("ModuleNotFoundError: No module named 'numpy'\n", Context()).endswith(
        "the assignment provides the standard library only")


def test_python2_code_in_a_module_names_the_interpreter() -> None:
    stderr = ("  File \"/run/helpers.py\", line 4\n    print 'x'\n    ^\n"
              "SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?\n")
    assert explain(stderr, NUMPY) == ("this is Python 2 code (a print statement); the assignment runs submissions "
                                      "with CPython 3.11.2")
