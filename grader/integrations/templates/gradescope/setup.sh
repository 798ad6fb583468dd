#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
# It installs Python, JDK 17 (the version the GitHub Classroom template sets up, so Java submissions
# compile and run the same in both) and the bundled npuzzle-grader into a venv.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
source_dir="${AUTOGRADER_ROOT:-/autograder}/source"
venv="${AUTOGRADER_ROOT:-/autograder}/venv"

apt-get update -qq
# libasm-java: the Java API tests count priority-queue operations with ASM.
apt-get install -y -qq --no-install-recommends python3 python3-pip python3-venv bubblewrap libasm-java
if ! apt-get install -y -qq --no-install-recommends openjdk-17-jdk-headless; then
  echo "setup.sh: this image has no openjdk-17-jdk-headless package; choose a newer Ubuntu base image" >&2
  exit 1
fi
javac -version 2>&1 | grep -q ' 17\.' || { echo "setup.sh: javac is not JDK 17: $(javac -version 2>&1)" >&2; exit 1; }
# A venv, because recent Ubuntu images refuse `pip install` into the system Python (PEP 668).
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
# The grader only: numba (the solver's [fast] extra) is never needed to grade.
"$venv/bin/python" -m pip install --quiet "$source_dir/project"
"$venv/bin/grade" --version
