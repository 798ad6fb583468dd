#!/usr/bin/env bash
# NOT PART OF CI (it installs and starts Slurm daemons): the Slurm recipe against a real single-node
# Slurm (Debian's slurm-wlm). Run it by hand, as root, from the repository root:
#
#   bash tests/clusters/slurm_single_node.sh
#
# It starts munged, slurmctld and slurmd with their state in a temp folder (nothing under /etc is
# touched), submits grader/integrations/clusters/slurm-array.sh with sbatch --array on the sample
# class, then slurm-merge.sh with --dependency=afterok, and checks the merged results.json equals one
# whole `grade` run (timings and machine paths aside). It stops the daemons it started, by pid.
# tests/grader/integrations/test_cluster_recipes.py covers the same recipe in CI with Slurm's
# variables simulated.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
[ "$(id -u)" = 0 ] || { echo "run as root (it starts slurmctld and slurmd)" >&2; exit 2; }
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

work="$(mktemp -d /tmp/npuzzle-slurm-XXXXXX)"
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# munge: its own key, socket and state, so a munged of the machine (if any) is not disturbed.
mkdir -p "$work/munge"
chmod 700 "$work/munge"
mungekey --create --keyfile "$work/munge/munge.key" --force
chmod 400 "$work/munge/munge.key"
munged --foreground --force --key-file "$work/munge/munge.key" --socket "$work/munge/munge.socket" \
  --pid-file "$work/munge/munged.pid" --log-file "$work/munge/munged.log" --seed-file "$work/munge/seed" &
pids+=($!)
sleep 1

node="$(hostname -s)"
cpus="$(nproc)"
mkdir -p "$work/state" "$work/spool" "$work/log"
cat > "$work/slurm.conf" <<EOF
ClusterName=npuzzle-test
SlurmctldHost=$node
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$node CPUs=$cpus RealMemory=8000 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"
slurmctld -D -f "$SLURM_CONF" &
pids+=($!)
slurmd -D -f "$SLURM_CONF" &
pids+=($!)
for _ in $(seq 60); do
  sinfo -h -o '%T' 2>/dev/null | grep -qE 'idle|mixed' && break
  sleep 1
done
sinfo

# `grade` on the jobs' PATH is this checkout's.
mkdir -p "$work/bin"
printf '#!/bin/sh\nexec %s -m grader.cli "$@"\n' "$(command -v python3)" > "$work/bin/grade"
chmod 755 "$work/bin/grade"
export PATH="$work/bin:$PATH" PYTHONPATH="$repo"
export SUBMISSIONS="$repo/tests/grader/data/sample-class/submissions"
export TESTCASES="$repo/tests/grader/data/sample-class/testset"
export OUT="$work/grading"
mkdir -p "$OUT"
cd "$work"
array=$(sbatch --parsable --export=ALL --mem=1G --cpus-per-task=1 "$repo/grader/integrations/clusters/slurm-array.sh")
echo "array job $array"
sbatch --wait --dependency=afterok:"$array" --export=ALL "$repo/grader/integrations/clusters/slurm-merge.sh"
grade "$SUBMISSIONS" --testcases "$TESTCASES" --out "$work/single" --no-progress >/dev/null
python3 - "$OUT/merged/results.json" "$work/single/results.json" <<'PY'
import json, sys
def placeless(path):
    document = json.load(open(path))
    document.pop("testset_path")
    def zero(value):
        if isinstance(value, dict):
            return {k: (0 if k in ("seconds", "cpu_seconds") and v is not None else zero(v)) for k, v in value.items()}
        return [zero(v) for v in value] if isinstance(value, list) else value
    for submission in document["submissions"]:
        submission.pop("source")
    return zero(document)
merged, single = map(placeless, sys.argv[1:])
assert merged == single, "the merged slices differ from one whole run"
print(f"OK: {len(merged['submissions'])} submissions from the Slurm array slices merge into the whole run's results")
PY
ls "$OUT"
