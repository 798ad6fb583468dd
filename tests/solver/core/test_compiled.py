"""C programs compiled into the cache folder (solver.fileio.compiled): built once, found again, and never taken
from a folder someone else could write (the grader runs its sandbox init from there as root)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from solver import fileio

SOURCE = "int main(void) { return 7; }\n"


@pytest.fixture
def places(tmp_path, monkeypatch) -> tuple[Path, Path]:
    if fileio.c_compiler() is None:
        pytest.skip("no C compiler here")
    cache, temp = tmp_path / "cache", tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv(fileio.CACHE_ENV, str(cache))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    source = tmp_path / "seven.c"
    source.write_text(SOURCE)
    return source, cache


def test_it_compiles_once_and_finds_the_build_again(places):
    source, cache = places
    first = fileio.compiled([source], ("-O2",), "seven")
    assert first.parent == cache / "native" and os.access(first, os.X_OK)
    made = first.stat().st_mtime_ns
    assert fileio.compiled([source], ("-O2",), "seven") == first and first.stat().st_mtime_ns == made
    source.write_text(SOURCE.replace("7", "8"))  # an edited source is another build
    assert fileio.compiled([source], ("-O2",), "seven") != first


def test_a_cache_folder_others_may_write_is_not_used(places):
    source, cache = places
    (cache / "native").mkdir(parents=True)
    (cache / "native").chmod(0o777)  # as if another user had made it first, or opened it to all
    built = fileio.compiled([source], ("-O2",), "seven")
    assert built.parent == Path(tempfile.gettempdir()) / f"npuzzle-native-{os.geteuid()}"


@pytest.mark.skipif(os.geteuid() != 0, reason="a folder of another uid needs root to make")
def test_a_folder_of_another_uid_is_not_used_either(places):
    source, cache = places
    for folder in (cache / "native", Path(tempfile.gettempdir()) / f"npuzzle-native-{os.geteuid()}"):
        folder.mkdir(parents=True, mode=0o700)
        os.chown(folder, 12345, 12345)
    with pytest.raises(RuntimeError, match="no writable folder of ours"):
        fileio.compiled([source], ("-O2",), "seven")


def test_without_a_compiler_it_says_so(places, monkeypatch):
    source, _ = places
    monkeypatch.setenv("CC", "no-such-compiler-here")
    with pytest.raises(RuntimeError, match="no C compiler"):
        fileio.compiled([source], ("-O2",), "seven")


def test_flags_the_compiler_refuses_fall_back_and_are_not_tried_again(places, monkeypatch):
    source, _ = places
    refused, plain = ("-O2", "-no-such-flag-here"), ("-O2",)
    built = fileio.compiled([source], refused, "seven", fallback=[plain])
    assert built == fileio.compiled([source], plain, "seven")  # the fallback's own build
    calls = []
    real = fileio.subprocess.run
    monkeypatch.setattr(fileio.subprocess, "run", lambda *a, **k: calls.append(a) or real(*a, **k))
    assert fileio.compiled([source], refused, "seven", fallback=[plain]) == built
    assert calls == []  # the build found is taken: the refused flags are not compiled again
    with pytest.raises(RuntimeError, match="failed"):
        fileio.compiled([source], refused, "seven")
