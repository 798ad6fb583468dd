"""Hostile file: sits where the grader puts its API-test harness, to shadow the harness's ``import json``.

Were it merged into the harness's folder, the student's module would run inside the harness
and could report any result. Expected: the folder is left out; the API tests run unchanged.
"""

raise SystemExit("the student's json.py ran inside the grader's harness")
