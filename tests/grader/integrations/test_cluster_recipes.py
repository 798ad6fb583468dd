"""The cluster recipes, run as each engine would run them: its variables set per array element, then the merge.

No Slurm, Kubernetes or GitHub here: each recipe's own commands run under the variables the engine
sets (Slurm: SLURM_ARRAY_TASK_ID/COUNT/MIN/MAX; an Indexed Job: JOB_COMPLETION_INDEX plus the
manifest's env; a matrix: the job's env with strategy.job-index/job-total), with `grade` on PATH
meaning this checkout. Every engine's slices must merge into exactly the results of one whole run.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from grader.integrations.clusters import RECIPES, recipe_path
from tests.grader.sampleclass import SUBMISSIONS, TESTSET, Graded, normalized
from tests.support import REPO

pytestmark = pytest.mark.slow


@pytest.fixture()
def grade_on_path(tmp_path: Path) -> dict[str, str]:
    """An environment whose `grade` is this checkout's, as an installed script would be."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "grade"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m grader.cli "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return {"PATH": f"{bin_dir}:{os.environ['PATH']}", "PYTHONPATH": str(REPO), "HOME": str(tmp_path)}


def _run(argv: list[str], env: dict[str, str], cwd: Path) -> None:
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def _same_as_one_run(merged: Path, graded: Graded) -> None:
    document = json.loads(merged.read_text(encoding="utf-8"))
    assert document["shard"] is None and "missing_slices" not in document
    assert json.dumps(_placeless(document), sort_keys=True) == json.dumps(_placeless(graded.document), sort_keys=True)


def _placeless(document: dict) -> dict:
    """Timings zeroed, and the paths that name where the files sat on this machine dropped."""
    document = normalized(document)
    document.pop("testset_path")
    document["assignment"].pop("source")  # the assignment.toml's path, where the set was copied to
    for submission in document["submissions"]:
        submission.pop("source")
    return document


def _yaml(name: str) -> dict:
    return YAML(typ="safe").load(recipe_path(name).read_text(encoding="utf-8"))


def test_every_recipe_ships_and_parses() -> None:
    for name in RECIPES:
        path = recipe_path(name)
        if name.endswith(".sh"):
            assert os.access(path, os.X_OK)
            assert subprocess.run(["bash", "-n", str(path)], check=False).returncode == 0
        else:
            assert _yaml(name)


def test_slurm_array_then_merge(graded: Graded, grade_on_path: dict[str, str], tmp_path: Path) -> None:
    script = recipe_path("slurm-array.sh").read_text(encoding="utf-8")
    low, high = map(int, re.search(r"#SBATCH --array=(\d+)-(\d+)", script).groups())
    out = tmp_path / "grading"
    env = {**grade_on_path, "SUBMISSIONS": str(SUBMISSIONS), "TESTCASES": str(TESTSET), "OUT": str(out)}
    for task in range(low, high + 1):  # what sbatch --array does: one task per id, these variables set
        _run(["bash", str(recipe_path("slurm-array.sh"))], {
            **env, "SLURM_ARRAY_JOB_ID": "77", "SLURM_ARRAY_TASK_ID": str(task),
            "SLURM_ARRAY_TASK_COUNT": str(high - low + 1), "SLURM_ARRAY_TASK_MIN": str(low),
            "SLURM_ARRAY_TASK_MAX": str(high), "SLURM_CPUS_PER_TASK": "1"}, tmp_path)
    shards = sorted(json.loads(p.read_text())["shard"]["index"] for p in out.glob("slice-*/results.json"))
    assert shards == list(range(1, high - low + 2))
    _run(["bash", str(recipe_path("slurm-merge.sh"))], env, tmp_path)
    _same_as_one_run(out / "merged" / "results.json", graded)


def _container(manifest: dict) -> dict:
    return manifest["spec"]["template"]["spec"]["containers"][0]


def test_kubernetes_indexed_job_then_merge(graded: Graded, grade_on_path: dict[str, str], tmp_path: Path) -> None:
    job = _yaml("k8s-indexed-job.yml")
    spec, container = job["spec"], _container(job)
    assert spec["completionMode"] == "Indexed"
    manifest_env = {item["name"]: item["value"] for item in container.get("env", [])}
    assert manifest_env["NPUZZLE_SHARD_COUNT"] == str(spec["completions"])
    course = tmp_path / "course"
    course.mkdir()
    (course / "submissions").symlink_to(SUBMISSIONS)
    (course / "testcases").symlink_to(TESTSET)

    def command(item: dict) -> list[str]:
        return [*item["command"], *(arg.replace("/course", str(course)) for arg in item["args"])]

    for index in range(spec["completions"]):  # the Job controller's pods, one per completion index
        _run(command(container), {**grade_on_path, **manifest_env, "JOB_COMPLETION_INDEX": str(index)}, tmp_path)
    _run(command(_container(_yaml("k8s-merge-job.yml"))), grade_on_path, tmp_path)
    _same_as_one_run(course / "grading" / "merged" / "results.json", graded)


def _expression(text: str, values: dict[str, str]) -> str:
    return re.sub(r"\$\{\{\s*([\w.-]+)\s*\}\}", lambda m: values[m.group(1)], text)


def test_github_matrix_then_merge(graded: Graded, grade_on_path: dict[str, str], tmp_path: Path) -> None:
    workflow = _yaml("github-matrix.yml")
    grading, merging = workflow["jobs"]["grade"], workflow["jobs"]["merge"]
    slices = grading["strategy"]["matrix"]["slice"]
    assert merging["needs"] == "grade" and merging["if"] == "always()"
    work = tmp_path / "repo"
    work.mkdir()
    (work / "submissions").symlink_to(SUBMISSIONS)
    (work / "testcases").symlink_to(TESTSET)
    step = next(s for s in grading["steps"] if s.get("name") == "Grade one slice")
    artifacts = tmp_path / "artifacts"
    for index, value in enumerate(slices):  # one job per matrix entry
        values = {"matrix.slice": str(value), "strategy.job-index": str(index), "strategy.job-total": str(len(slices))}
        env = {k: _expression(str(v), values) for k, v in grading["env"].items()}
        _run(["bash", "-e", "-c", _expression(step["run"], values)], {**grade_on_path, **env}, work)
        # upload-artifact slice-N (path slice-N/results.json), then download-artifact into the merge job's folder
        (artifacts / f"slice-{value}").mkdir(parents=True)
        sliced = (work / f"slice-{value}" / "results.json").read_bytes()
        (artifacts / f"slice-{value}" / "results.json").write_bytes(sliced)
    merge = next(s for s in merging["steps"] if "grade merge" in s.get("run", ""))
    _run(["bash", "-e", "-c", merge["run"]], grade_on_path, artifacts)
    _same_as_one_run(artifacts / "grading-results" / "results.json", graded)
