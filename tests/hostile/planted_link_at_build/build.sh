#!/bin/sh
# Hostile build step: plants a link in the built folder that the grader copies into every run
# (the target's path is in victim.path, a file the test made). Expected: leak.txt removed
# before any run and named in the feedback; the target is never read (cat fails: RTE).
ln -s "$(cat victim.path)" leak.txt
