#!/usr/bin/env bash
# Rebuild the bundled test sets from their seeds and the shared course data, exactly as committed.
# Run from the repository root with ../shared beside it:  bash testcases/build.sh
# All the sets are deterministic for a given reference solver; review `git diff testcases/` afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=../shared/external-data

# cmpe160 (the default set): generated cases (mostly 2x2/3x3, a few moderate 4x4/5x5 that a plain
# A* solves in seconds), then the course's own inputs, byte for byte (CRLF), with the counts the
# course files state. No deep tier (--deep-4x4 0): that is cmpe160-hard below.
grade testcases generate testcases/cmpe160 --force --seed cmpe160 --name cmpe160 \
  --description "CMPE 160 (Boğaziçi) Project III N-Puzzle: input.txt -> output.txt; generated certified cases plus the course's own inputs" \
  --solved-sizes 4 --bucket 4:20-29:2 --bucket 4:30-34:2 --bucket 5:15-24:1 --bucket 5:25-30:1 \
  --deep-4x4 0 -q
grade testcases import "$DATA/cmpe160/p3io" --out testcases/cmpe160 --append --pattern 'input*.txt' \
  --prefix course-p3io- --tag course --expect input1.txt=22 --expect input2.txt=23 --expect input3.txt=0
grade testcases import "$DATA/cmpe160/sample" --out testcases/cmpe160 --append --pattern 'input*.txt' \
  --prefix course-sample- --tag course --expect input.txt=unsolvable --expect input2.txt=20 \
  --expect input3.txt=24 --expect input4.txt=18

# cmpe160-hard (the stress tier, added with --testcases testcases/cmpe160-hard): the same seed's two
# hard 4x4 boards of 50-52 moves, kept only if IDA* with Manhattan distance solves them within 1.5M
# nodes, so a good Java A* finishes them in 30 s; a plain Python A* does not. Its assignment.toml is
# cmpe160's, kept by hand (generate writes only manifest.json and cases/).
grade testcases generate testcases/cmpe160-hard --force --seed cmpe160 --name cmpe160-hard \
  --description "CMPE 160 Project III N-Puzzle, stress tier: two hard 4x4 boards of 50-52 moves (30 s each), beside the default cmpe160 set" \
  --deep-only --deep-range 50-52 --deep-max-effort 1500000 --hard-time-limit 30 -q

# princeton: every course file, byte for byte; the counts in the file names are cross-checked, and
# hard1/hard2 against the Princeton checklist (38 and 47). Two files repeat another's board and are
# left out (puzzle3x3-31 = puzzle31, puzzle3x3-unsolvable1 = puzzle3x3-unsolvable). Certifying
# puzzle4x4-80.txt takes about 5 minutes.
grade testcases import "$DATA/princeton" --out testcases/princeton --force --pattern 'puzzle*.txt' \
  --expect puzzle4x4-hard1.txt=38 --expect puzzle4x4-hard2.txt=47 --hard-time-limit 60 --name princeton \
  --description "Princeton COS 226 / Coursera 8 Puzzle: the course's puzzle files, imported byte for byte (argv I/O, answer on stdout)"

# ai-8puzzle: an AI course's 8-puzzle search (moves output, blank-first goal, board on stdin), generated and
# certified for the blank-first goal. Its assignment.toml is the worked configuration in testcases/README.md
# (tests/grader/acceptance/test_moves_assignment.py checks that they are the same).
grade testcases generate testcases/ai-8puzzle --force --seed ai --goal blank-first --deep-4x4 0 \
  --bucket 3:8-14:4 --bucket 3:15-20:2 --random-3x3 0 --no-hardest --solved-sizes 2,3 --unsolvable 2,3,3 -q \
  --name ai-8puzzle --description "AI course 8-puzzle search: moves output, blank-first goal, board on stdin; generated certified cases"
