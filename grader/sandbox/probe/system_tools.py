"""The system tools grading and the test suite use, and ``grade doctor --install``, which installs the missing ones.

pip installs the Python side; these come from the system's package manager (Debian and Ubuntu package
names). Each is optional in the sense that grading degrades instead of stopping (no bubblewrap: a weaker
sandbox; no JDK: Java submissions cannot be built) and that a test needing one skips with the reason, but a
course grading for real wants all of the first group. ``.ci/run`` installs through this same list.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from grader.errors import GraderError


class InstallFailed(GraderError):
    """``grade doctor --install``: the tools could not be installed here (not root, no apt-get, or apt failed)."""

    exit_code = 12


@dataclass(frozen=True)
class Tool:
    """One system tool: what needs it, how to tell it is there, and the package that brings it."""

    name: str
    used_for: str
    package: str
    present: Callable[[], bool]
    for_tests_only: bool = False


def _command(name: str) -> Callable[[], bool]:
    return lambda: shutil.which(name) is not None


def _any_file(*paths: str) -> Callable[[], bool]:
    return lambda: any(os.path.exists(p) for p in paths)


def _python_venv() -> bool:
    done = subprocess.run(["/usr/bin/python3", "-c", "import ensurepip, venv"], stdin=subprocess.DEVNULL, check=False,
                          capture_output=True, timeout=60) if os.path.exists("/usr/bin/python3") else None
    return done is not None and done.returncode == 0


TOOLS: tuple[Tool, ...] = (
    Tool("javac", "building and running Java submissions", "default-jdk-headless", _command("javac")),
    Tool("asm.jar", "the Java API tests (counting priority-queue operations)", "libasm-java",
         _any_file("/usr/share/java/asm.jar", "/usr/share/java/asm-9.jar")),
    Tool("bwrap", "the sandbox's private view of the machine (bubblewrap)", "bubblewrap", _command("bwrap")),
    Tool("cc", "the solver's native 4x4 kernel and table builder", "gcc", _command("cc")),
    Tool("python3-venv", "[python] packages environments built with the system Python", "python3-venv",
         _python_venv),
    Tool("Xvfb", "tests of the desktop game (a virtual screen)", "xvfb", _command("Xvfb"), True),
    Tool("xdotool", "tests of the desktop game (clicks and keys)", "xdotool", _command("xdotool"), True),
    Tool("import", "tests of the desktop game (screenshots, ImageMagick)", "imagemagick", _command("import"), True),
    Tool("chromium", "tests of the HTML report and the web game", "chromium", _command("chromium"), True),
    Tool("chromedriver", "tests of the HTML report and the web game", "chromium-driver",
         _command("chromedriver"), True),
    Tool("pypy3", "tests of a configured second interpreter", "pypy3", _command("pypy3"), True),
    Tool("slurmctld", "the test of the Slurm recipe on a real single-node Slurm", "slurm-wlm",
         _command("slurmctld"), True),
    Tool("munged", "the test of the Slurm recipe (Slurm's authentication)", "munge", _command("munged"), True),
)


def missing(tools: Sequence[Tool] | None = None, with_test_tools: bool = True) -> list[Tool]:
    """The tools that are not here, of ``tools`` (default :data:`TOOLS`; test-only ones left out unless
    ``with_test_tools``)."""
    return [t for t in (TOOLS if tools is None else tools)
            if (with_test_tools or not t.for_tests_only) and not t.present()]


def install_command(packages: Sequence[str]) -> list[list[str]]:
    """The commands that install ``packages`` with apt-get, non-interactively."""
    return [["apt-get", "update", "-qq"],
            ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages]]


def install(tools: Sequence[Tool], echo: Callable[[str], None]) -> None:
    """Install ``tools`` with apt-get; raise :class:`InstallFailed` naming what to do instead."""
    packages = sorted({t.package for t in tools})
    if not packages:
        return
    typed = " && ".join(" ".join(argv) for argv in install_command(packages))
    if shutil.which("apt-get") is None:
        raise InstallFailed(f"no apt-get here: install these with your system's package manager: "
                            f"{', '.join(packages)} (Debian/Ubuntu names)")
    if os.geteuid() != 0:
        raise InstallFailed(f"installing system packages needs root: sudo sh -c '{typed}'")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for argv in install_command(packages):
        echo("$ " + " ".join(argv))
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, check=False, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise InstallFailed(f"{' '.join(argv[:2])} failed (exit {done.returncode}): " + " / ".join(tail))
    still = [t.name for t in tools if not t.present()]
    if still:
        raise InstallFailed(f"installed {', '.join(packages)}, but still missing: {', '.join(still)}")
