"""CLI plumbing shared by ``python -m solver`` and ``grade``.

Two things live here: a click group that runs a default command when the first
argument is not a subcommand (so ``grade submissions/`` and ``python -m solver
puzzle.txt`` work), loading subcommands lazily to keep start-up fast; and
:func:`run`, the one place errors become a message on stderr and an exit code.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import IO, Any, TypeVar

import click

F = TypeVar("F", bound=Callable)


class DefaultGroup(click.Group):
    """A group whose unknown first argument goes to ``default`` and whose commands load on use.

    ``lazy`` maps a command name to ``"module:attribute"``; the module is imported only
    when that command runs or when help lists it.
    """

    def __init__(self, *args: Any, default: str, lazy: dict[str, str] | None = None, bare_help: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.default = default
        self.lazy = dict(lazy or {})
        self.bare_help = bare_help

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy and name not in self.commands:
            module, _, attr = self.lazy[name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        known = set(self.commands) | set(self.lazy)
        if not args and self.bare_help:
            # No arguments at all: the default command would only complain about a missing one.
            click.echo(ctx.get_help())
            ctx.exit(0)
        if not args or (args[0] not in known and args[0] not in ("--help", "-h", "--version")):
            args = [self.default, *args]
        return super().parse_args(ctx, args)


def run(command: click.Command, prog: str, handled: tuple[type[BaseException], ...],
        args: list[str] | None = None) -> int:
    """Run a click command; turn ``handled`` errors into one stderr line and their ``exit_code``.

    Anything unexpected is still one line (plus a traceback only when ``NPUZZLE_DEBUG``
    is set) and exit 1, so a user never sees a raw traceback.
    """
    try:
        result = command.main(args=args, prog_name=prog, standalone_mode=False)
    except handled as exc:
        click.echo(f"{prog}: {exc}", err=True)
        return int(getattr(exc, "exit_code", 1))
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo(f"{prog}: interrupted", err=True)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); silence the flush at exit too.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (for the rest of the process, closed at its exit)
        return 1
    except Exception as exc:  # the last line of defence: never a raw traceback
        if isinstance(exc, ModuleNotFoundError) and exc.name in ("numba", "numpy", "llvmlite"):
            click.echo(f"{prog}: this needs {exc.name}, which is not installed: "
                       "pip install 'npuzzle-grader[fast]'", err=True)
            return 1
        if os.environ.get("NPUZZLE_DEBUG"):
            traceback.print_exc()
        click.echo(f"{prog}: internal error: {type(exc).__name__}: {exc} "
                   "(set NPUZZLE_DEBUG=1 for details)", err=True)
        return 1
    return int(result or 0)


def version_option(prog: str) -> Callable[[F], F]:
    """``--version``: the installed npuzzle-grader's version (``unknown`` when run from a bare checkout)."""
    def show(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
        if not value or ctx.resilient_parsing:
            return
        import importlib.metadata  # here, not at the top: ~12 ms that every other start of a command would pay

        try:
            version = importlib.metadata.version("npuzzle-grader")
        except importlib.metadata.PackageNotFoundError:
            version = "unknown (not installed)"
        click.echo(f"{prog} {version}")
        ctx.exit(0)

    return click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=show,
                        help="Show the version and exit.")


def exit_codes_epilog(codes: dict[int, str]) -> str:
    """The exit-code table for a command's ``--help``."""
    lines = ["\b", "Exit codes:"]
    lines += [f"  {code:>3}  {meaning}" for code, meaning in sorted(codes.items())]
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class ProgressLines:
    """Long work's progress as plain lines on stderr, for when stderr is not a terminal (CI logs, Gradescope).

    A timer thread writes ``label: done/total unit (p%), elapsed, about t left`` every ``every``
    seconds (``NPUZZLE_PROGRESS_SECONDS``, default 5), also while one long step reports nothing, and
    a last line when work that printed any ends (shorter work stays silent). :meth:`update` is the callback the work
    calls; it is thread-safe.
    """

    def __init__(self, label: str, unit: str, every: float | None = None, stream: IO[str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.label, self.unit = label, unit
        self.every = every if every is not None else float(os.environ.get("NPUZZLE_PROGRESS_SECONDS", "5") or 5)
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.done = 0
        self.total: int | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ticked = False
        self.started = clock()

    def update(self, done: int, total: int | None = None) -> None:
        with self._lock:
            self.done = done
            if total is not None:
                self.total = total

    def line(self) -> str:
        """The current progress line."""
        with self._lock:
            done, total = self.done, self.total
        elapsed = self.clock() - self.started
        text = f"{self.label}: {done}"
        if total:
            text += f"/{total} {self.unit} ({100 * done // total}%), {_duration(elapsed)} elapsed"
            if 0 < done < total:
                text += f", about {_duration(elapsed / done * (total - done))} left"
        else:
            text += f" {self.unit}, {_duration(elapsed)} elapsed"
        return text

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed stderr must not stop the work

    def _tick(self) -> None:
        while not self._stop.wait(self.every):
            self._write(self.line())
            self._ticked = True

    def __enter__(self) -> ProgressLines:
        self.started = self.clock()
        self._thread = threading.Thread(target=self._tick, name="progress", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._ticked:  # work shorter than one interval stays silent
            self._write(self.line() + (" (stopped)" if exc[0] is not None else " (done)"))
