"""stdout and stderr through pipes with a cap, stdin fed from a thread: no file on the host disk."""

from __future__ import annotations

import subprocess

from grader.sandbox import pipes


def run(argv: list[str], cap: int, data: bytes | None = None) -> tuple[bytes, bool, bytes, bool]:
    capture = pipes.Capture(cap)
    stdin, feeder = pipes.feed(data) if data is not None else (subprocess.DEVNULL, None)
    child = subprocess.Popen(argv, stdin=stdin, stdout=capture.out_write, stderr=capture.err_write)
    capture.close_child_ends()
    if data is not None:
        import os
        os.close(stdin)
    while not capture.pump(0.1, also=None) and child.poll() is None:
        pass
    child.wait()
    capture.drain(2.0)
    capture.close()
    if feeder is not None:
        feeder.join(5)
    return capture.result()


def test_output_is_cut_one_byte_past_the_cap_and_the_writer_is_not_stalled():
    # 10 MB on each stream: far past the pipe buffer; the writer must end (EPIPE), not hang.
    out, out_cut, err, err_cut = run(["/bin/sh", "-c", "head -c 10000000 /dev/zero; head -c 10000000 /dev/zero >&2"],
                                     cap=1000)
    assert (len(out), out_cut, len(err), err_cut) == (1000, True, 1000, True)


def test_exact_output_is_kept_whole():
    assert run(["/bin/echo", "hello"], cap=6) == (b"hello\n", False, b"", False)


def test_large_stdin_is_fed_without_blocking_the_grader():
    data = bytes(range(256)) * 4096  # 1 MB: more than a pipe holds
    out, cut, _, _ = run(["/bin/cat"], cap=len(data), data=data)
    assert out == data and not cut
