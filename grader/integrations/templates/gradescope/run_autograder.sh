#!/usr/bin/env bash
# Gradescope runs this for every submission: grade /autograder/submission as one submission
# and write /autograder/results/results.json. That file is written whatever happens.
root="${AUTOGRADER_ROOT:-/autograder}"
python="${AUTOGRADER_PYTHON:-$root/venv/bin/python}"
[ -x "$python" ] || python="$(command -v python3 || true)"
results="$root/results/results.json"
mkdir -p "$root/results"
rm -f "$results"
cd "$root" || exit 0
if [ -n "$python" ]; then
  "$python" -m grader.cli gradescope run --root "$root"
fi
if [ ! -s "$results" ]; then
  # Python itself could not run the grader: still tell Gradescope (and the student) something true.
  cat > "$results" <<'JSON'
{"score": 0, "execution_time": 0, "output": "The autograder failed before it could grade this submission (the grader could not start); please tell the course staff.", "tests": [{"name": "Autograder", "score": 0, "max_score": 0, "status": "failed", "output": "The grader could not start: see the autograder's stdout.", "visibility": "visible"}]}
JSON
fi
exit 0
