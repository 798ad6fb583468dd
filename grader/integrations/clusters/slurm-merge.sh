#!/usr/bin/env bash
# The merge step of slurm-array.sh: run after every array task succeeded
# (sbatch --dependency=afterok:<array job id> slurm-merge.sh). It refuses a missing or repeated slice.
#SBATCH --job-name=npuzzle-merge
#SBATCH --time=00:10:00
#SBATCH --output=npuzzle-merge-%j.log
set -euo pipefail
: "${OUT:?set OUT to the results folder}"
GRADE="${GRADE:-grade}"
"$GRADE" merge "$OUT/merged" "$OUT"/slice-*/results.json
