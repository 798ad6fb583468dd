"""Shared test plumbing: the golden-file flag and tool requirements."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support import HYPOTHESIS_PROFILE

# Hypothesis profiles (docs/testing.md): "ci", the default, keeps `python -m pytest` under 10 minutes;
# "thorough" (HYPOTHESIS_PROFILE=thorough) runs ten times the examples, and the fuzz tests their full
# counts (tests.support.examples), for a long run before a release or after changing a parser.
settings.register_profile("ci", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(HYPOTHESIS_PROFILE)

# Sample submissions and other programs kept as test data are run by the tests, never imported.
collect_ignore_glob = ["*/data/*", "data/*", "hostile/*/*"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite golden files from the current output (review the diff)")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session", autouse=True)
def _submissions_can_reach_temp_folders(tmp_path_factory: pytest.TempPathFactory) -> None:
    """As root without bubblewrap, submissions run as their own uids and reach their folders by their
    host paths, which the grader refuses when a parent is not passable (workdir.check_reachable).
    pytest makes its temp root 0700; grant passage only (0711: others cannot list it)."""
    if os.geteuid() != 0:
        return
    base = tmp_path_factory.getbasetemp()
    for folder in (base.parent, base):
        mode = folder.stat().st_mode
        if not mode & 0o001:
            folder.chmod((mode & 0o777) | 0o011)


@pytest.fixture
def tmp_path(tmp_path: Path) -> Path:
    """pytest's own tmp_path, passable by the uids submissions run as (see above)."""
    if os.geteuid() == 0:
        tmp_path.chmod(0o711)
    return tmp_path
