"""The bundled test sets, installed as the package ``npuzzle_testcases`` (see setup.py); data only, no code."""
