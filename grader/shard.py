"""Deterministic slices of a class, so a CI matrix or a batch system can grade in parallel.

``--shard i/n`` (1 ≤ i ≤ n) grades the i-th of n round-robin slices of the submission
ids in sorted order: sorted ids ``a b c d e`` with ``n = 2`` give ``a c e`` to shard 1
and ``b d`` to shard 2. Round-robin over sorted ids keeps the slices balanced whatever
the ids look like, and every id lands in exactly one slice. Each slice's results.json
records its shard, and ``grade merge`` (:mod:`grader.merge`) refuses a set of slices
with one missing, repeated or graded on another test set.

``--shard auto`` takes the slice from the engine that started the job
(:func:`shard_from_environment`), so one command line serves every element of an
array job:

- Slurm array jobs: ``SLURM_ARRAY_TASK_ID`` within ``SLURM_ARRAY_TASK_MIN`` ..
  ``SLURM_ARRAY_TASK_MAX`` (``SLURM_ARRAY_TASK_COUNT`` elements, with step 1);
- Kubernetes Indexed Jobs: ``JOB_COMPLETION_INDEX`` (0-based), with the count in
  ``NPUZZLE_SHARD_COUNT`` (the manifest sets it to ``spec.completions``);
- GitHub Actions matrices and anything else: ``NPUZZLE_SHARD_INDEX`` (0-based, e.g.
  ``${{ strategy.job-index }}``) with ``NPUZZLE_SHARD_COUNT`` (``${{ strategy.job-total }}``),
  or ``NPUZZLE_SHARD=i/n``.

Recipes for each engine ship in ``grader/integrations/clusters/`` (``grade cluster recipe``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import click

_SHARD_RE = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")
AUTO = "auto"


@dataclass(frozen=True)
class Shard:
    """Slice ``index`` (1-based) of ``count``; ``source`` says where it came from (for the log)."""

    index: int
    count: int
    source: str = field(default="--shard", compare=False)

    def __post_init__(self) -> None:
        if self.count < 1 or not 1 <= self.index <= self.count:
            raise ValueError(f"expected i/n with 1 <= i <= n, found {self.index}/{self.count}")

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def select(self, ids: Iterable[str]) -> list[str]:
        """The ids this shard grades, in sorted order.

        >>> Shard(1, 2).select(["e", "a", "d", "b", "c"]), Shard(2, 2).select(["e", "a", "d", "b", "c"])
        (['a', 'c', 'e'], ['b', 'd'])
        """
        return sorted(set(ids))[self.index - 1::self.count]

    def to_json(self) -> dict[str, int]:
        return {"index": self.index, "count": self.count}


def parse_shard(text: str) -> Shard:
    """``"2/5"`` -> ``Shard(2, 5)``; raises ``ValueError`` saying what was expected and found."""
    match = _SHARD_RE.match(text)
    if not match:
        raise ValueError(f"expected a shard as i/n (for example 2/5) or 'auto', found {text!r}")
    return Shard(int(match.group(1)), int(match.group(2)))


def _integer(env: Mapping[str, str], name: str) -> int:
    value = env[name].strip()
    if not re.fullmatch(r"\d+", value):
        raise ValueError(f"{name} should be a whole number, found {env[name]!r}")
    return int(value)


def _from_slurm(env: Mapping[str, str]) -> Shard:
    task, count = _integer(env, "SLURM_ARRAY_TASK_ID"), _integer(env, "SLURM_ARRAY_TASK_COUNT")
    low = _integer(env, "SLURM_ARRAY_TASK_MIN") if "SLURM_ARRAY_TASK_MIN" in env else 0
    high = _integer(env, "SLURM_ARRAY_TASK_MAX") if "SLURM_ARRAY_TASK_MAX" in env else low + count - 1
    if high - low + 1 != count:
        # --array=0-9:2 or 1,4,7: task ids are not one contiguous range, so they cannot name slices.
        raise ValueError(f"the Slurm array must be one range with step 1 (--array=0-{count - 1}), found "
                         f"{count} tasks in {low}..{high}")
    if not low <= task <= high:
        raise ValueError(f"SLURM_ARRAY_TASK_ID={task} lies outside SLURM_ARRAY_TASK_MIN..MAX ({low}..{high})")
    return Shard(task - low + 1, count, f"Slurm array task {task} of {low}-{high}")


def _from_index(env: Mapping[str, str], name: str, engine: str) -> Shard:
    if "NPUZZLE_SHARD_COUNT" not in env:
        raise ValueError(f"{name} is set ({engine}), but NPUZZLE_SHARD_COUNT is not: set it to the number of "
                         "slices (a Kubernetes Indexed Job's spec.completions, a matrix's strategy.job-total)")
    index, count = _integer(env, name), _integer(env, "NPUZZLE_SHARD_COUNT")
    if count < 1 or index >= count:
        raise ValueError(f"{name}={index} needs 0 <= index < NPUZZLE_SHARD_COUNT={count}")
    return Shard(index + 1, count, f"{engine} index {index} of {count}")


def shard_from_environment(env: Mapping[str, str]) -> Shard:
    """The slice an engine assigned to this job, from its environment variables (see the module doc).

    Raises ``ValueError`` naming the variables when none is set, when a value is malformed,
    or when two engines' variables disagree.
    """
    found: list[Shard] = []
    if "NPUZZLE_SHARD" in env:
        found.append(Shard(*_pair(env["NPUZZLE_SHARD"]), "NPUZZLE_SHARD"))
    if "SLURM_ARRAY_TASK_ID" in env:
        if "SLURM_ARRAY_TASK_COUNT" not in env:
            raise ValueError("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (not an array job?)")
        found.append(_from_slurm(env))
    if "JOB_COMPLETION_INDEX" in env:
        found.append(_from_index(env, "JOB_COMPLETION_INDEX", "Kubernetes Indexed Job"))
    if "NPUZZLE_SHARD_INDEX" in env:
        found.append(_from_index(env, "NPUZZLE_SHARD_INDEX", "NPUZZLE_SHARD_INDEX"))
    if not found:
        raise ValueError("--shard auto found no slice in the environment: expected SLURM_ARRAY_TASK_ID and "
                         "SLURM_ARRAY_TASK_COUNT (Slurm), JOB_COMPLETION_INDEX and NPUZZLE_SHARD_COUNT "
                         "(Kubernetes), NPUZZLE_SHARD_INDEX and NPUZZLE_SHARD_COUNT, or NPUZZLE_SHARD=i/n")
    if len(set(found)) > 1:
        raise ValueError("the environment names different slices: " + "; ".join(f"{s} from {s.source}"
                                                                               for s in found))
    return found[0]


def _pair(text: str) -> tuple[int, int]:
    shard = parse_shard(text)
    return shard.index, shard.count


class ShardType(click.ParamType):
    """``--shard i/n`` or ``--shard auto`` as a click option type: bad values are a usage error (exit 2)."""

    name = "i/n|auto"

    def convert(self, value: str | Shard, param: click.Parameter | None, ctx: click.Context | None) -> Shard:
        if isinstance(value, Shard):
            return value
        try:
            if str(value).strip().lower() == AUTO:
                import os

                return shard_from_environment(os.environ)
            return parse_shard(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)
