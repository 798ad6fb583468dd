#!/usr/bin/env bash
# Grade a class as a Slurm array job: each array task grades one slice (grade --shard auto reads
# SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT), then one dependent job merges the slices.
#
#   export SUBMISSIONS=/shared/course/submissions TESTCASES=/shared/course/testcases/cmpe160 OUT=/shared/course/grading
#   jobid=$(sbatch --parsable --export=ALL slurm-array.sh)
#   sbatch --dependency=afterok:"$jobid" --export=ALL slurm-merge.sh
#
# The array must be one range with step 1 (--array=0-N); SUBMISSIONS, TESTCASES and OUT must be on a
# file system every node sees. Each task writes $OUT/slice-<task>/results.json.
#SBATCH --job-name=npuzzle-grade
#SBATCH --array=0-3
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=01:00:00
#SBATCH --output=npuzzle-grade-%A_%a.log
set -euo pipefail
: "${SUBMISSIONS:?set SUBMISSIONS to the folder of submissions}"
: "${OUT:?set OUT to the results folder}"
GRADE="${GRADE:-grade}"
"$GRADE" "$SUBMISSIONS" ${TESTCASES:+--testcases "$TESTCASES"} --shard auto \
  --jobs "${SLURM_CPUS_PER_TASK:-1}" --out "$OUT/slice-${SLURM_ARRAY_TASK_ID}" --no-progress
