"""The Python that runs submissions: the assignment's interpreter, and the packages it provides.

``[python] interpreter`` names the interpreter (``python3``, ``python2.7``, ``pypy3`` or an
absolute path); everything about a Python submission uses it: the syntax check, the runs
and the hints. ``[python] packages`` names what submissions may import beyond the
standard library (pip requirement strings such as ``"numpy>=1.24,<2"``).

:func:`prepare` resolves both once per grading run into a :class:`PythonRuntime`:

- the interpreter is found on the runs' ``PATH`` (else the grader's own for the default
  ``python3``); one that is missing or does not start is a :class:`ConfigError` naming
  ``$.python.interpreter``, before any submission is graded;
- with packages, a virtual environment is made from that interpreter and ``pip install``
  run in it, once: it is cached under ``$NPUZZLE_PYENV_DIR`` (default: the user cache's
  ``python-envs/``) in a folder named by a hash of the interpreter (its real path and full
  version) and the packages, so a later run with the same configuration reuses it. A
  lock makes concurrent ``grade`` processes build it once; a half-built environment
  (no ``env.json``) is rebuilt. pip failing is a :class:`ConfigError` naming
  ``$.python.packages`` with pip's last words.

Runs get the environment's ``python``; the sandbox binds the environment read-only (and
its files are not writable by the uid that runs submissions).
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from grader.errors import ConfigError
from grader.sandbox.runner import SYSTEM_PATH
from grader.testsets.assignment import Assignment

ENV_DIR_VARIABLE = "NPUZZLE_PYENV_DIR"
PROBE_SECONDS = 30
INSTALL_SECONDS = 900
# virtualenv's last releases that run on Python 2.7 (20.22 dropped it); for interpreters without venv.
PY2_VIRTUALENV = "virtualenv>=20.15,<20.22"
ENV_FORMAT = 1
SYSTEM_PREFIXES = ("/usr/", "/bin/", "/lib/", "/lib64/", "/opt/", "/etc/")
PROBE_SCRIPT = ("import platform, sys; sys.stdout.write('%s %d.%d.%d' % ((platform.python_implementation(),) + "
                "tuple(sys.version_info[:3])) + '\\n' + sys.version.replace('\\n', ' ') + '\\n' + "
                "(sys.executable or ''))")
"""Prints how the interpreter names itself, its full version, and the program that really runs (a shim or
wrapper script, such as pyenv's, resolves to it). Valid Python 2.7 and 3.x."""


@dataclass(frozen=True)
class PythonRuntime:
    """The resolved Python of an assignment.

    ``interpreter`` is the configured one (absolute), ``python`` what runs submissions (the
    environment's when there are packages), ``name`` how it names itself (``CPython 3.11.2``),
    ``packages`` the assignment's requirement strings, ``readable`` the folders the sandbox
    must show (read-only) for ``python`` to start and find its packages.
    """

    interpreter: str
    python: str
    name: str
    packages: tuple[str, ...] = ()
    env: Path | None = None
    readable: tuple[Path, ...] = ()

    @property
    def major(self) -> int:
        return int(self.name.split()[-1].split(".")[0])

    def describe(self) -> str:
        """``CPython 3.11.2 (/usr/bin/python3) with numpy<2``, for build messages."""
        extra = f" with {', '.join(self.packages)}" if self.packages else ""
        return f"{self.name} ({self.interpreter}){extra}"


def env_root() -> Path:
    override = os.environ.get(ENV_DIR_VARIABLE)
    if override:
        return Path(override).expanduser()
    from solver.fileio import cache_dir

    return cache_dir() / "python-envs"


def find_interpreter(name: str) -> str | None:
    """The absolute path of a configured interpreter, as submissions will run it."""
    if "/" in name:
        path = Path(name)
        return str(path) if path.is_file() and os.access(path, os.X_OK) else None
    found = shutil.which(name, path=SYSTEM_PATH) or shutil.which(name)
    if found is None and name == "python3":
        return sys.executable
    return found


def _outside_system(program: str) -> tuple[Path, ...]:
    """The installation a program lives in, when a sandbox showing only system folders would hide it."""
    real = Path(program).resolve()
    if str(real).startswith(SYSTEM_PREFIXES):
        return ()
    return (real.parent.parent,)


def _probe(interpreter: str, source: str) -> tuple[str, str, str]:
    """(``CPython 3.11.2``, the full ``sys.version``, ``sys.executable``) of a configured interpreter."""
    where = "$.python.interpreter"
    try:
        done = subprocess.run([interpreter, "-E", "-s", "-c", PROBE_SCRIPT], capture_output=True, timeout=PROBE_SECONDS,
                              stdin=subprocess.DEVNULL, check=False, env={"PATH": SYSTEM_PATH, "LANG": "C.UTF-8"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ConfigError(source, where, f"the interpreter {interpreter} does not start: {exc}") from None
    lines = done.stdout.decode("utf-8", "replace").splitlines()
    if done.returncode != 0 or len(lines) < 2:
        err = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ConfigError(source, where, f"{interpreter} is not a working Python interpreter (exit "
                                         f"{done.returncode}{': ' + err[-1][:200] if err else ''})")
    executable = lines[2].strip() if len(lines) > 2 else ""
    return lines[0].strip(), lines[1].strip(), executable


def _real_program(interpreter: str) -> str | None:
    """``sys.executable`` of an interpreter started in the grader's own environment (a shim resolves there)."""
    try:
        done = subprocess.run([interpreter, "-c", "import sys; sys.stdout.write(sys.executable or '')"],
                              capture_output=True, timeout=PROBE_SECONDS, stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    real = done.stdout.decode("utf-8", "replace").strip()
    if done.returncode != 0 or not os.path.isabs(real) or not os.access(real, os.X_OK) or real == interpreter:
        return None
    return real


def env_key(interpreter: str, version: str, packages: tuple[str, ...]) -> str:
    """The cache key of an environment: the interpreter's real path and full version, and the packages."""
    text = json.dumps({"format": ENV_FORMAT, "interpreter": str(Path(interpreter).resolve()), "version": version,
                       "packages": sorted(packages)}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _run(argv: list[str], source: str, where: str, what: str, extra_env: dict[str, str] | None = None) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, timeout=INSTALL_SECONDS, stdin=subprocess.DEVNULL, check=False,
                              env={"PATH": SYSTEM_PATH, "LANG": "C.UTF-8", "HOME": os.environ.get("HOME", "/"),
                                   "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1", **(extra_env or {})})
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ConfigError(source, where, f"{what} failed: {exc}") from None
    if done.returncode != 0:
        lines = [line for line in (done.stderr + done.stdout).decode("utf-8", "replace").splitlines() if line.strip()]
        raise ConfigError(source, where, f"{what} failed (exit {done.returncode}): "
                                         + " | ".join(line.strip() for line in lines[-4:]))
    return done.stdout.decode("utf-8", "replace")


def build_environment(interpreter: str, version: str, packages: tuple[str, ...], source: str,
                      root: Path | None = None) -> Path:
    """The cached environment for ``interpreter`` with ``packages``, made now if it is not there yet.

    Raises :class:`ConfigError` (``$.python.packages``) when the environment cannot be made
    or pip cannot install the packages.
    """
    root = root or env_root()
    where = "$.python.packages"
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(source, where, f"cannot create the environment cache {root}: {exc.strerror}") from None
    key = env_key(interpreter, version, packages)
    env = root / key
    with open(root / f"{key}.lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (env / "env.json").is_file():
            return env
        shutil.rmtree(env, ignore_errors=True)
        try:
            _make(env, interpreter, version, packages, source)
        except BaseException:
            shutil.rmtree(env, ignore_errors=True)  # never leave half an environment behind
            raise
        return env


def _make(env: Path, interpreter: str, version: str, packages: tuple[str, ...], source: str) -> None:
    """Make the environment in ``env``; ``env.json`` is written last, so its presence means complete."""
    where = "$.python.packages"
    maker, maker_env = _environment_maker(env.parent, interpreter, version, source)
    _run([interpreter, *maker, str(env)], source, where,
         f"making a virtual environment with {interpreter} {' '.join(maker)} (Debian: apt-get install "
         "python3-venv)", maker_env)
    python = str(env / "bin" / "python")
    _run([python, "-m", "pip", "install", "--no-input", "--disable-pip-version-check", *packages], source,
         where, f"pip install {' '.join(packages)} with {interpreter}")
    frozen = _run([python, "-m", "pip", "freeze", "--all"], source, where, "pip freeze").split()
    for folder, dirs, files in os.walk(env):
        for name in dirs + files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                mode = os.lstat(path).st_mode
                os.chmod(path, (mode | 0o444 | (0o111 if mode & 0o100 else 0)) & ~0o022)
    record = {"format": ENV_FORMAT, "interpreter": interpreter, "version": version, "packages": list(packages),
              "installed": frozen}
    temp = env / "env.json.partial"
    temp.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    temp.rename(env / "env.json")


def _has_modules(interpreter: str, names: str) -> bool:
    try:
        return subprocess.run([interpreter, "-c", f"import {names}"], capture_output=True, stdin=subprocess.DEVNULL,
                              check=False, timeout=PROBE_SECONDS).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _environment_maker(root: Path, interpreter: str, version: str, source: str) -> tuple[list[str], dict[str, str]]:
    """How ``interpreter`` makes a virtual environment: ``-m venv``, or ``-m virtualenv`` with what it needs.

    Python 2 has no ``venv``: unless the interpreter has virtualenv already, the last virtualenv
    that runs on 2.7 is installed once with the interpreter's own pip into the cache (never into
    the interpreter), and used from there.
    """
    if _has_modules(interpreter, "venv, ensurepip"):
        return ["-m", "venv"], {}
    if _has_modules(interpreter, "virtualenv"):
        return ["-m", "virtualenv"], {}
    # Beside the environments, not among them: everything in the environment folder is a complete one.
    bootstrap = root.parent / "python-bootstrap" / f"virtualenv-{hashlib.sha256(version.encode()).hexdigest()[:12]}"
    bootstrap.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{bootstrap}.lock", "a+b") as lock:  # environments of other packages may make it at once
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (bootstrap / "complete").is_file():
            shutil.rmtree(bootstrap, ignore_errors=True)
            _run([interpreter, "-m", "pip", "install", "--target", str(bootstrap), PY2_VIRTUALENV], source,
                 "$.python.packages",
                 f"installing {PY2_VIRTUALENV} for {interpreter} (it has neither venv nor virtualenv)")
            (bootstrap / "complete").write_text(PY2_VIRTUALENV + "\n", encoding="utf-8")
    return ["-m", "virtualenv"], {"PYTHONPATH": str(bootstrap)}


def _require_reachable(env: Path, source: str) -> None:
    """Without bubblewrap's private view, the uid that runs submissions must reach the environment by its path.

    Else every import of a provided package would fail as the student's fault (``/root`` is 0700).
    """
    from grader.sandbox import isolation

    plan = isolation.plan()
    uid = plan.drop_uid
    if plan.backend.private_view or uid is None:
        return
    for folder in [env, *env.parents]:
        info = folder.stat()
        if not (info.st_mode & 0o001 or (info.st_uid == uid and info.st_mode & 0o100)):
            raise ConfigError(source, "$.python.packages",
                              f"the package environment {env} cannot be reached by uid {uid}, which runs submissions "
                              f"here without bubblewrap ({folder} is not searchable by others): set "
                              f"{ENV_DIR_VARIABLE} to a folder every user can pass through (chmod o+x), or install "
                              "bubblewrap")


@functools.lru_cache(maxsize=8)
def _prepare(interpreter_name: str, packages: tuple[str, ...], source: str) -> PythonRuntime:
    interpreter = find_interpreter(interpreter_name)
    if interpreter is None:
        looked = "" if "/" in interpreter_name else f" on {SYSTEM_PATH} or the grader's PATH"
        raise ConfigError(source, "$.python.interpreter", f"the Python interpreter {interpreter_name!r} is not "
                                                          f"installed on this machine (looked{looked or ' there'}): "
                                                          "install it, or name another one")
    try:
        name, version, executable = _probe(interpreter, source)
    except ConfigError:
        # A shim (pyenv's, asdf's) needs the TA's environment to find the real program, which the runs' clean
        # environment lacks: ask it once in the grader's own environment, then use the program it names.
        real = _real_program(interpreter)
        if real is None:
            raise
        interpreter = real
        name, version, executable = _probe(interpreter, source)
    if executable and os.path.isabs(executable) and os.access(executable, os.X_OK):
        interpreter = executable  # a shim or wrapper script would not run inside the sandbox
    readable = _outside_system(interpreter)
    if not packages:
        return PythonRuntime(interpreter, interpreter, name, (), None, readable)
    env = build_environment(interpreter, version, packages, source)
    _require_reachable(env, source)
    return PythonRuntime(interpreter, str(env / "bin" / "python"), name, packages, env, (env, *readable))


def prepare_fallback(assignment: Assignment) -> PythonRuntime | None:
    """``[python] fallback`` resolved like the interpreter (``None`` when the assignment names none)."""
    if assignment.python.fallback is None:
        return None
    try:
        return _prepare(assignment.python.fallback, assignment.python.packages, assignment.source)
    except ConfigError as exc:  # name the key the TA wrote
        raise ConfigError(assignment.source, "$.python.fallback", exc.detail) from None


def prepare(assignment: Assignment) -> PythonRuntime:
    """The assignment's Python, resolved (and its environment built) once per process.

    Raises :class:`ConfigError` naming ``$.python.interpreter`` or ``$.python.packages``.
    """
    return _prepare(assignment.python.interpreter, assignment.python.packages, assignment.source)
