"""Shared test plumbing: the golden-file flag and tool requirements."""

from __future__ import annotations

import pytest

# Sample submissions and other programs kept as test data are run by the tests, never imported.
collect_ignore_glob = ["*/data/*", "data/*", "hostile/*/*"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite golden files from the current output (review the diff)")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))
