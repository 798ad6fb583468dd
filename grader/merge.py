"""``grade merge``: join the results.json files of several slices (``--shard i/n``) into one report.

The slices must come from the same test set and assignment (their ``cases`` and
settings are compared, and a difference is an error naming both files). Submissions
are joined and put in the pipeline's order (by id), so the merged results.json equals
a single run's, timings aside. The merged folder gets every report a grading run
writes, from the same code (:func:`grader.reports.outputs.write_reports`).

With ``replace``, a later file's submission takes the place of an earlier one with the
same id: regrade one student with ``--only ID`` and merge the new result over the old.

A CI matrix grades a class in slices and merges them in a last job, e.g. on GitHub Actions::

    grade:
      strategy: {matrix: {shard: [1, 2, 3, 4]}}
      steps:
        - run: grade submissions/ --shard ${{ matrix.shard }}/4 --out slice
        - uses: actions/upload-artifact@v4
          with: {name: "slice-${{ matrix.shard }}", path: slice/results.json}
    merge:
      needs: grade
      steps:
        - uses: actions/download-artifact@v4
        - run: grade merge grading-results/ slice-*/results.json
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from grader.errors import ConfigError
from grader.reports.json_results import read_results, results_from_json
from grader.reports.outputs import write_reports
from grader.reports.results import GradingResults

_MACHINE_SPECIFIC = ("source",)
"""Assignment keys that name paths on the grading machine, which may differ between slices."""


def _settings(results: Mapping[str, Any]) -> dict[str, Any]:
    assignment = {k: v for k, v in results["assignment"].items() if k not in _MACHINE_SPECIFIC}
    return {"format_version": results["format_version"], "testset": results["testset"], "cases": results["cases"],
            "assignment": assignment, "strict": results.get("strict", False)}


def merge_results(documents: Sequence[Mapping[str, Any]], sources: Sequence[str],
                  replace: bool = False) -> dict[str, Any]:
    """One results document from several slices; raises :class:`ConfigError` if they cannot be joined."""
    if not documents:
        raise ValueError("nothing to merge")
    first, first_source = documents[0], sources[0]
    reference = _settings(first)
    by_id: dict[str, tuple[Mapping[str, Any], str]] = {}
    isolation = list(first.get("isolation", []))
    for document, source in zip(documents, sources):
        settings = _settings(document)
        for key, value in reference.items():
            if settings[key] != value:
                raise ConfigError(source, f"$.{key}", f"differs from {first_source}: the slices were not graded "
                                                      f"with the same test set and assignment")
        for index, submission in enumerate(document["submissions"]):
            sid = submission["id"]
            if sid in by_id and not replace:
                raise ConfigError(source, f"$.submissions[{index}].id",
                                  f"submission {sid!r} is also in {by_id[sid][1]} (each submission belongs to "
                                  "one slice; use --replace to let later files win)")
            by_id[sid] = (submission, source)
        # Report only the isolation every slice had: the merged report must not promise more.
        isolation = [layer for layer in isolation if layer in document.get("isolation", [])]
    merged = {key: value for key, value in first.items() if key not in ("submissions",)}
    merged["isolation"] = isolation
    merged["interrupted"] = any(document.get("interrupted", False) for document in documents)
    merged["submissions"] = [by_id[sid][0] for sid in sorted(by_id)]
    return merged


def over_previous(results: GradingResults, out_dir: Path) -> GradingResults:
    """``results`` merged over the results.json already in ``out_dir``: a regrade (``--only ID``)
    replaces its submissions and keeps everyone else's entries as they were."""
    previous = Path(out_dir) / "results.json"
    if not previous.is_file():
        return results
    return results_from_json(merge_results([read_results(previous), results.to_json()],
                                           [str(previous), "this run"], replace=True))


def merge_files(out_dir: Path, paths: Sequence[Path], replace: bool = False) -> GradingResults:
    """Merge results.json files and write every report into ``out_dir``."""
    documents = [read_results(path) for path in paths]  # all read before anything in out_dir is written
    merged = results_from_json(merge_results(documents, [str(p) for p in paths], replace))
    write_reports(merged, Path(out_dir))
    return merged


@click.command("merge")
@click.argument("out_dir", type=click.Path(path_type=Path, file_okay=False))
@click.argument("results", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--replace", is_flag=True,
              help="A submission in a later file replaces the same id in an earlier one (for regrades).")
def merge_command(out_dir: Path, results: tuple[Path, ...], replace: bool) -> int:
    """Join the results.json of several slices (grade --shard i/n) into OUT_DIR, with every report."""
    merged = merge_files(out_dir, list(results), replace)
    click.echo(f"merged {len(results)} files: {len(merged.submissions)} submissions into {out_dir / 'results.json'}")
    return 0
