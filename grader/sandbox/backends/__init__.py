"""The sandbox backends, one object per isolation mode, strongest first: ``bubblewrap.py``,
``unshare.py`` and ``bare.py`` (the reaper shim alone), each a :class:`base.Backend`.
:func:`grader.sandbox.isolation.probe` picks one per process; everything else asks that object.

May import :mod:`grader.sandbox.cgroups`, :mod:`grader.sandbox.rlimits` and :mod:`grader.sandbox.seccomp`
only (never the runner, the plan or the slots, which use it).
"""

from __future__ import annotations

from grader.sandbox.backends.bare import Bare
from grader.sandbox.backends.base import Backend
from grader.sandbox.backends.bubblewrap import Bubblewrap
from grader.sandbox.backends.unshare import Unshare

BUBBLEWRAP, UNSHARE, BARE = Bubblewrap(), Unshare(), Bare()
NAMESPACED: tuple[Backend, ...] = (BUBBLEWRAP, UNSHARE)  # probed in this order; BARE when none works
__all__ = ["BARE", "BUBBLEWRAP", "NAMESPACED", "UNSHARE", "Backend"]
