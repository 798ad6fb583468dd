"""``[limits] stop_after_tle``: a time budget per submission, counted across the worker threads.

After a submission has ``limit`` TLE cases, its remaining cases are TLE without running: one looping
student costs at most ``limit`` wall caps instead of one per case. Off (``limit`` None) by default.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping

from grader.judging.verdicts import Verdict


class TleBudget:
    """Each submission's TLE cases so far (thread-safe); :meth:`spent` says why a case is not run, if it is not."""

    def __init__(self, limit: int | None, held: Mapping[str, Iterable[Verdict]] = {}) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        # a resumed run counts the TLEs its journal already holds
        self._tles = {sid: sum(v is Verdict.TLE for v in verdicts) for sid, verdicts in held.items()}

    def spent(self, submission_id: str) -> str | None:
        """The message of a case not run because the submission's budget is spent, else None."""
        if self.limit is None:
            return None
        with self._lock:
            count = self._tles.get(submission_id, 0)
        if count < self.limit:
            return None
        return (f"not run: {count} earlier case{'s' * (count != 1)} of this submission went over the time limit, "
                f"and the assignment stops a submission's runs after {self.limit} ([limits] stop_after_tle)")

    def count(self, submission_id: str, verdict: Verdict) -> None:
        if verdict is Verdict.TLE:
            with self._lock:
                self._tles[submission_id] = self._tles.get(submission_id, 0) + 1
