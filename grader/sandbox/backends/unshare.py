"""The ``unshare`` backend (root only): util-linux ``unshare`` gives no network and own PID, mount, IPC
and UTS namespaces, with the reaper shim as the namespace's init (it cannot die of the runner's kill),
but the host's file system stays visible: file permissions and the uid drop are then the only
protection. The shim mounts a private, size-capped ``/tmp``, ``/var/tmp`` and ``/dev/shm``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from grader.sandbox.backends.bare import join_argv, reaper_argv
from grader.sandbox.backends.base import (
    TMP_SIZE_BYTES,
    Backend,
    LayerStatus,
    Wrapping,
    install_prefixes,
    tool,
    try_command,
)


def prefix(unshare: str) -> list[str]:
    """Namespaces by util-linux ``unshare`` (root); the reaper shim inside drops the uid."""
    return [unshare, "--net", "--pid", "--fork", "--kill-child", "--mount-proc", "--ipc", "--uts", "--"]


class Unshare(Backend):
    name = "unshare"
    layers = ("unshare", "no-network", "pid-namespace", "mount-namespace", "reaper")
    namespaces = True
    private_view = False
    held = False
    userns = False
    tmp_view = f"/tmp, /var/tmp and /dev/shm private {TMP_SIZE_BYTES >> 20} MB tmpfs"
    as_fallback = "unshare (namespaces, but the host files stay visible)"

    def wrap(self, argv: Sequence[str], run: Wrapping) -> list[str]:
        shim, identity = reaper_argv(run)
        private_tmp = ["--private-tmp", str(TMP_SIZE_BYTES)]
        for path in dict.fromkeys([run.workdir, *(Path(p).resolve() for p in run.readable),
                                   *install_prefixes(argv[0])]):
            private_tmp += ["--keep", str(path)]
        return join_argv(run) + prefix(tool("unshare")) + shim + private_tmp + identity + list(argv)

    def probe(self, drop_uid: int | None) -> LayerStatus:
        unshare = shutil.which("unshare")
        if unshare is None:
            return LayerStatus("unshare", False, "util-linux unshare is not installed")
        if os.geteuid() != 0:
            return LayerStatus("unshare", False, "needs root (without root it needs the user namespaces bwrap uses)")
        why = try_command(prefix(unshare) + ["/bin/true"])
        if why is not None:
            return LayerStatus("unshare", False, f"{unshare} fails: {why}")
        return LayerStatus("unshare", True, "no network, own PID/mount namespaces; host files stay visible")
