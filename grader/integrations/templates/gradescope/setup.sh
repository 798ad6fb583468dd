#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
# It installs Python, a JDK (for Java submissions) and the bundled npuzzle-grader into a venv.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
source_dir="${AUTOGRADER_ROOT:-/autograder}/source"
venv="${AUTOGRADER_ROOT:-/autograder}/venv"

apt-get update -qq
apt-get install -y -qq --no-install-recommends python3 python3-pip python3-venv default-jdk-headless bubblewrap
# A venv, because recent Ubuntu images refuse `pip install` into the system Python (PEP 668).
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "$source_dir/project"
"$venv/bin/grade" --help >/dev/null
