"""``grade merge``: join the results.json files of several slices (``--shard i/n``) into one report.

The slices must come from the same test set and assignment (their ``cases`` and
settings are compared, and a difference is an error naming both files). Submissions
are joined and put in the pipeline's order (by id), so the merged results.json equals
a single run's, timings aside. The merged folder gets every report a grading run
writes, from the same code (:func:`grader.reports.outputs.write_reports`).

With ``replace``, a later file's submission takes the place of an earlier one with the
same id: regrade one student with ``--only ID`` and merge the new result over the old.

Each slice's results.json records its shard (``i/n``) and the hash of the test set and
settings it was graded with; :func:`check_slices` refuses to join slices when one is missing
(unless ``allow_partial``: the merged file then lists ``missing_slices``), given twice (unless
``replace``), split differently, or graded on another test set, naming the files. Recipes for a
GitHub Actions matrix, Slurm array jobs and Kubernetes Indexed Jobs, each with its merge step, are
in ``grader/integrations/clusters/`` (``grade cluster recipes``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from grader.errors import ConfigError, MergeError
from grader.model.results import GradingResults, Shard, SubmissionResult
from grader.outlock import holding
from grader.reports.class_zero import EXIT_CODE as CLASS_AT_ZERO
from grader.reports.class_zero import class_at_zero
from grader.reports.json_results import read_results
from grader.reports.outputs import write_reports

_MACHINE_SPECIFIC = ("source",)
"""Assignment keys that name paths on the grading machine, which may differ between slices."""


def _settings(results: GradingResults) -> dict[str, Any]:
    """What must be equal for two results to be joined (paths on the grading machine aside), by JSON path."""
    assignment = {k: v for k, v in results.assignment.items() if k not in _MACHINE_SPECIFIC}
    return {"format_version": results.format_version, "testset": results.testset, "cases": results.cases,
            "assignment": assignment, "strict": results.strict}


def check_slices(documents: Sequence[GradingResults], sources: Sequence[str], replace: bool,
                 allow_partial: bool) -> tuple[Shard | None, list[str]]:
    """Check that the slices of a sharded run are all there, once each, from one test set.

    Returns the merged results' ``shard`` (``None`` when the slices make a whole run) and
    the missing slices (``"3/4"``; only with ``allow_partial``). Raises :class:`MergeError`
    naming the files: a slice missing (unless ``allow_partial``) or given twice (unless
    ``replace``), slices of different counts, a whole run mixed with slices (unless ``replace``,
    where later whole runs are regrades laid over the slices), or a different test-set hash.
    """
    hashes = {document.testset_hash for document in documents}
    if len(hashes) > 1:
        first = documents[0].testset_hash
        odd = next(i for i, d in enumerate(documents) if d.testset_hash != first)
        raise MergeError(f"{sources[odd]} was graded on another test set or assignment than {sources[0]} "
                         f"(test-set hash {str(documents[odd].testset_hash)[:12]}… vs {str(first)[:12]}…): "
                         "merge only slices of one run")
    sliced = [(d.shard, s) for d, s in zip(documents, sources) if d.shard]
    if not sliced:
        return None, []
    whole = [s for d, s in zip(documents, sources) if not d.shard]
    if whole and not replace:
        raise MergeError(f"{whole[0]} is a whole run but {sliced[0][1]} is slice {_name(sliced[0][0])}: "
                         "merge the slices of one run (or use --replace to lay a regrade over them)")
    counts = {shard.count for shard, _ in sliced}
    if len(counts) > 1:
        listing = ", ".join(f"{source} is {_name(shard)}" for shard, source in sliced)
        raise MergeError(f"the slices come from runs split differently: {listing}")
    count = counts.pop()
    seen: dict[int, str] = {}
    for shard, source in sliced:
        if shard.index in seen and not replace:
            raise MergeError(f"slice {_name(shard)} is given twice: {seen[shard.index]} and {source} "
                             "(use --replace to let the later file win)")
        seen[shard.index] = source
    if len(seen) == 1 and whole and replace:
        return sliced[0][0], []  # one slice with regrades laid over it is still that slice
    missing = [f"{index}/{count}" for index in range(1, count + 1) if index not in seen]
    if missing and not allow_partial:
        have = ", ".join(f"{index}/{count} ({seen[index]})" for index in sorted(seen))
        raise MergeError(f"slice{'s' * (len(missing) > 1)} {', '.join(missing)} of {count} "
                         f"{'are' if len(missing) > 1 else 'is'} missing (given: {have}); pass every slice's "
                         "results.json, or --allow-partial to merge only these")
    return None, missing


def _name(shard: Shard) -> str:
    return f"{shard.index}/{shard.count}"


def merge_results(documents: Sequence[GradingResults], sources: Sequence[str],
                  replace: bool = False, allow_partial: bool = False) -> GradingResults:
    """One results from several slices; raises :class:`ConfigError` for files graded with
    different settings and :class:`MergeError` for slices that do not make one run (:func:`check_slices`)."""
    if not documents:
        raise ValueError("nothing to merge")
    shard, missing = check_slices(documents, sources, replace, allow_partial)
    first, first_source = documents[0], sources[0]
    reference = _settings(first)
    by_id: dict[str, tuple[SubmissionResult, str]] = {}
    isolation = list(first.isolation)
    for document, source in zip(documents, sources):
        settings = _settings(document)
        for key, value in reference.items():
            if settings[key] != value:
                raise ConfigError(source, f"$.{key}", f"differs from {first_source}: the slices were not graded "
                                                      f"with the same test set and assignment")
        for index, submission in enumerate(document.submissions):
            sid = submission.id
            if sid in by_id and not replace:
                raise ConfigError(source, f"$.submissions[{index}].id",
                                  f"submission {sid!r} is also in {by_id[sid][1]} (each submission belongs to "
                                  "one slice; use --replace to let later files win)")
            by_id[sid] = (submission, source)
        # Report only the isolation every slice had: the merged report must not promise more.
        isolation = [layer for layer in isolation if layer in document.isolation]
    return dataclasses.replace(
        first, isolation=tuple(isolation), interrupted=any(document.interrupted for document in documents),
        submissions=tuple(by_id[sid][0] for sid in sorted(by_id)), shard=shard, missing_slices=tuple(missing))


def over_previous(results: GradingResults, out_dir: Path, some_cases: bool = False) -> GradingResults:
    """``results`` merged over the results.json already in ``out_dir``: a regrade (``--only ID``)
    replaces its submissions and keeps everyone else's entries as they were. With ``some_cases`` (a
    ``--cases`` run) only the cases graded replace the same cases of each submission; the others stay."""
    previous = Path(out_dir) / "results.json"
    if not previous.is_file():
        return results
    if some_cases:
        return _over_cases(results, read_results(previous), str(previous))
    return merge_results([read_results(previous), results], [str(previous), "this run"], replace=True)


def _over_cases(results: GradingResults, base: GradingResults, source: str) -> GradingResults:
    """A ``--cases`` regrade laid case by case over the previous results of the same test set and assignment."""
    mine = _settings(results)
    for key, value in _settings(base).items():
        if key != "cases" and mine[key] != value:
            raise ConfigError(source, f"$.{key}", "differs from this run's: the regrade of some cases can only be "
                                                  "merged into results of the same test set and assignment (grade "
                                                  "every case, or into another --out)")
    table = {case.id: case for case in base.cases}
    for case in results.cases:
        if table.get(case.id) != case:
            raise ConfigError(source, "$.cases", f"case {case.id!r} is not in these results as this run has it "
                                                 "(the test set changed?): grade every case, or into another --out")
    order = {case_id: index for index, case_id in enumerate(table)}
    by_id = {submission.id: submission for submission in base.submissions}
    for new in results.submissions:
        held = by_id.get(new.id)
        if held is None:
            by_id[new.id] = dataclasses.replace(new, max_score=base.max_score, complete=False)
            continue
        cases = {case.case: case for case in held.cases} | {case.case: case for case in new.cases}
        by_id[new.id] = dataclasses.replace(
            new, cases=tuple(sorted(cases.values(), key=lambda case: order[case.case])), max_score=held.max_score,
            complete=held.complete and new.complete and len(cases) == len(table), api=new.api or held.api)
    layers = tuple(layer for layer in base.isolation if layer in results.isolation)
    return dataclasses.replace(base, submissions=tuple(by_id[sid] for sid in sorted(by_id)), isolation=layers,
                               interrupted=base.interrupted or results.interrupted)


def merge_files(out_dir: Path, paths: Sequence[Path], replace: bool = False,
                allow_partial: bool = False) -> GradingResults:
    """Merge results.json files and write every report into ``out_dir``."""
    documents = [read_results(path) for path in paths]  # all read before anything in out_dir is written
    merged = merge_results(documents, [str(p) for p in paths], replace, allow_partial)
    with holding(Path(out_dir), lambda text: click.echo(text, err=True)):  # a refused merge makes no folder
        write_reports(merged, Path(out_dir))
    return merged


@click.command("merge")
@click.argument("out_dir", type=click.Path(path_type=Path, file_okay=False))
@click.argument("results", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--replace", is_flag=True,
              help="A submission in a later file replaces the same id in an earlier one (for regrades).")
@click.option("--allow-partial", is_flag=True,
              help="Merge even with slices missing (their students are absent; results.json lists the slices).")
def merge_command(out_dir: Path, results: tuple[Path, ...], replace: bool, allow_partial: bool) -> int:
    """Join the results.json of several slices (grade --shard i/n) into OUT_DIR, with every report.

    Refuses (exit 9) a missing or repeated slice, or slices of different runs, naming them.
    """
    merged = merge_files(out_dir, list(results), replace, allow_partial)
    missing = merged.missing_slices
    if missing:
        click.echo(f"grade merge: warning: slice{'s' * (len(missing) > 1)} {', '.join(missing)} missing: their "
                   "students are not in this report", err=True)
    click.echo(f"merged {len(results)} files: {len(merged.submissions)} submissions into {out_dir / 'results.json'}")
    warning = class_at_zero(merged.submissions)
    if warning is not None:
        click.echo(f"grade merge: {warning}", err=True)
        return CLASS_AT_ZERO
    return 0
