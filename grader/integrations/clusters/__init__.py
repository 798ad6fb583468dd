"""Recipes for grading a class on an existing engine, slice by slice, then merging (``grade cluster recipes``).

Each engine starts the same command in every element of an array job; ``grade --shard auto``
reads the element's slice from the engine's own variables (:func:`grader.shard.shard_from_environment`),
each slice writes ``slice-<n>/results.json``, and a last step runs ``grade merge``, which refuses a
missing or repeated slice. The files here are the recipes, shipped with the package:

- ``github-matrix.yml``: a GitHub Actions workflow, a matrix of grading jobs and a merge job;
- ``slurm-array.sh`` and ``slurm-merge.sh``: an ``sbatch --array`` script and its dependent merge job;
- ``k8s-indexed-job.yml`` and ``k8s-merge-job.yml``: a Kubernetes Indexed Job and its merge Job.

``tests/grader/integrations/test_cluster_recipes.py`` runs each recipe's commands with the
engine's variables set as the engine sets them, and checks the merge equals one whole run.

May import click and the solver's file edges only: the recipes run the ``grade`` command, not the grader's code.
"""

from __future__ import annotations

from pathlib import Path

import click

from solver.fileio import write_atomic

FOLDER = Path(__file__).resolve().parent
RECIPES = ("github-matrix.yml", "slurm-array.sh", "slurm-merge.sh", "k8s-indexed-job.yml", "k8s-merge-job.yml")


def recipe_path(name: str) -> Path:
    """The shipped recipe file ``name`` (one of :data:`RECIPES`)."""
    if name not in RECIPES:
        raise ValueError(f"no recipe {name!r}; the recipes are {', '.join(RECIPES)}")
    return FOLDER / name


@click.group("cluster")
def cluster_command() -> None:
    """Grade a class on GitHub Actions, Slurm or Kubernetes, in slices (grade --shard auto) then merged."""


@cluster_command.command("recipes")
@click.option("--out", "out", type=click.Path(path_type=Path, file_okay=False), default=Path("grading-recipes"),
              show_default=True, help="Folder to write the recipes into.")
def recipes_command(out: Path) -> int:
    """Write the recipes (a matrix workflow, an sbatch --array script, an Indexed Job manifest, and their
    merge steps) into OUT; each file says how to use it."""
    out.mkdir(parents=True, exist_ok=True)
    for name in RECIPES:
        source = recipe_path(name)
        write_atomic(out / name, source.read_text(encoding="utf-8"))
        (out / name).chmod(source.stat().st_mode & 0o777)
        click.echo(f"wrote {out / name}")
    return 0
