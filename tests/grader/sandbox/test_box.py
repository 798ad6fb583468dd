"""A case's box: a run folder reused by a worker, empty for every run, capped per run, never on disk as root."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from grader.sandbox import isolation, runner
from grader.sandbox.folders import box

PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
LIMITS = runner.Limits(wall_seconds=10)


def run_python(place: box.Box, code: str, limits: runner.Limits = LIMITS) -> runner.Outcome:
    return place.run([PYTHON, "-c", code], limits)


def test_a_run_reads_what_the_grader_put_in_and_leaves_its_answer_for_the_grader():
    with box.box() as place:
        (place.path / "input.txt").write_text("2 3\n")
        outcome = run_python(place, "a, b = map(int, open('input.txt').read().split())\n"
                                    "open('output.txt', 'w').write(str(a * b))\n"
                                    "print('done')")
        assert (outcome.exit_code, outcome.stdout) == (0, b"done\n"), outcome
        assert (place.path / "output.txt").read_text() == "6"
        # root's again before its uid can serve another run, so no later run can change the answer
        assert (place.path / "output.txt").stat().st_uid == os.geteuid()
        assert place.path.stat().st_uid == os.geteuid() and place.path.stat().st_mode & 0o777 == 0o700


def test_each_run_finds_its_box_empty_whatever_the_run_before_left():
    """The next run in the same box (one worker: the same folder) sees nothing of the last one."""
    leave = ("import os\n"
             "os.makedirs('deep/er', exist_ok=True); open('deep/er/secret', 'w').write('answer')\n"
             "os.symlink('/etc/passwd', 'link'); os.mkfifo('fifo'); os.chmod('deep', 0)\n"
             "open('.hidden', 'w').write('x')\n")
    with box.box() as first:
        assert run_python(first, leave).exit_code == 0
        used = first.path
    with box.box() as second:  # one thread: the box just put back is lent again
        assert second.path == used
        assert list(second.path.iterdir()) == []
        outcome = run_python(second, "import os; print(sorted(os.listdir('.')))")
        assert outcome.stdout == b"['.tmp']\n", outcome


def test_boxes_lent_at_once_are_different_folders():
    seen: list[Path] = []
    ready = threading.Barrier(2)

    def hold() -> None:
        with box.box() as place:
            seen.append(place.path)
            ready.wait(timeout=10)

    threads = [threading.Thread(target=hold) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(seen)) == 2


def test_as_root_a_box_is_a_tmpfs_capped_at_what_it_holds_plus_the_room_to_write():
    if not isolation.plan().workdir_tmpfs:
        pytest.skip("a tmpfs box needs root")
    limits = runner.Limits(wall_seconds=20)
    with box.box() as place:
        assert os.path.ismount(place.path)
        (place.path / "data.bin").write_bytes(b"d" * (3 * 2**20))  # more than the room: the cap follows it
        outcome = run_python(place, "import os\n"
                                    "assert len(open('data.bin', 'rb').read()) == 3 * 2**20\n"
                                    "written = 0\n"
                                    "try:\n"
                                    "    for n in range(20):\n"  # 200 MB in files under the file-size limit
                                    "        open(f'big{n}', 'wb').write(b'x' * (10 * 2**20)); written += 10\n"
                                    "except OSError as exc:\n"
                                    "    print(exc.strerror, written)\n", limits)
        written = outcome.stdout.split()[-1]
        assert outcome.stdout.startswith(b"No space left on device"), outcome
        assert 40 <= int(written) <= 70, outcome  # the room (64 MB), not what the last run had nor the disk
    with box.box() as again:  # emptied, and open again for the grader's next copy
        assert list(again.path.iterdir()) == []
        (again.path / "bundle.bin").write_bytes(b"b" * (80 * 2**20))


def test_as_root_a_run_cannot_make_files_without_end():
    """Emptying a box costs a bounded time: a run may add at most ROOM_ENTRIES files and folders."""
    if not isolation.plan().workdir_tmpfs:
        pytest.skip("a tmpfs box needs root")
    with box.box() as place:
        outcome = run_python(place, "import os\n"
                                    "n = 0\n"
                                    "try:\n"
                                    "    while n < 100000:\n"
                                    "        open(f'f{n}', 'w').close(); n += 1\n"
                                    "except OSError as exc:\n"
                                    "    print(exc.strerror, n)\n", runner.Limits(wall_seconds=30))
        made = int(outcome.stdout.split()[-1])
        assert outcome.stdout.startswith(b"No space left on device") and made <= box.ROOM_ENTRIES, outcome
    with box.box() as again:
        assert list(again.path.iterdir()) == []
