#!/usr/bin/env bash
# Rebuild the bundled test sets from their seeds and the shared course data, exactly as committed.
# Run from the repository root with ../shared beside it:  bash testcases/build.sh
# Both sets are deterministic for a given reference solver; review `git diff testcases/` afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=../shared/external-data

# cmpe160: generated cases (mostly 2x2/3x3, a few moderate 4x4/5x5, two hard 4x4 of 50-52 moves that
# IDA* with Manhattan distance solves within 1.5M nodes, so a plain Java A* can finish them),
# then the course's own inputs, byte for byte (CRLF), with the counts the course files state.
grade testcases generate testcases/cmpe160 --force --seed cmpe160 --name cmpe160 \
  --description "CMPE 160 (Boğaziçi) Project III N-Puzzle: input.txt -> output.txt; generated certified cases plus the course's own inputs" \
  --solved-sizes 4 --bucket 4:20-29:2 --bucket 4:30-34:2 --bucket 5:15-24:1 --bucket 5:25-30:1 \
  --deep-range 50-52 --deep-max-effort 1500000 --hard-time-limit 30 -q
grade testcases import "$DATA/cmpe160/p3io" --out testcases/cmpe160 --append --pattern 'input*.txt' \
  --prefix course-p3io- --tag course --expect input1.txt=22 --expect input2.txt=23 --expect input3.txt=0
grade testcases import "$DATA/cmpe160/sample" --out testcases/cmpe160 --append --pattern 'input*.txt' \
  --prefix course-sample- --tag course --expect input.txt=unsolvable --expect input2.txt=20 \
  --expect input3.txt=24 --expect input4.txt=18

# princeton: every course file, byte for byte; the counts in the file names are cross-checked, and
# hard1/hard2 against the Princeton checklist (38 and 47). Two files repeat another's board and are
# left out (puzzle3x3-31 = puzzle31, puzzle3x3-unsolvable1 = puzzle3x3-unsolvable). Certifying
# puzzle4x4-80.txt takes about 5 minutes.
grade testcases import "$DATA/princeton" --out testcases/princeton --force --pattern 'puzzle*.txt' \
  --expect puzzle4x4-hard1.txt=38 --expect puzzle4x4-hard2.txt=47 --hard-time-limit 60 --name princeton \
  --description "Princeton COS 226 / Coursera 8 Puzzle: the course's puzzle files, imported byte for byte (argv I/O, answer on stdout)"
