#!/bin/sh
# Hostile build step: plants a link in the built folder that the grader copies into every run
# (the target's path is in victim.path, a file the test made). Expected: each case a CE
# naming leak.txt; the target is never read.
ln -s "$(cat victim.path)" leak.txt
