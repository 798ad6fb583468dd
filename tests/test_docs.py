"""The README and docs/ are what a TA reads first: every link they give must lead somewhere, and the README's
set-up must be the commands CI runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support import REPO

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), REPO / "testcases" / "README.md"]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    targets = [t for t in LINK.findall(page.read_text(encoding="utf-8"))
               if "://" not in t and not t.startswith("mailto:")]
    broken = [t for t in targets if not (page.parent / t).exists()]
    assert broken == [], f"{page.name} links to missing files: {broken}"


def test_the_readme_is_one_screen_and_its_test_command_is_what_ci_runs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 100
    setup = readme.split("## Set-up", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in setup.strip().splitlines()]
    assert commands[1] == "python -m pytest"
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m pytest" in ci and "doctor --install" in ci and "grade doctor --install" in commands[0]
