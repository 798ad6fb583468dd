"""Packaging beyond what pyproject.toml can say: the bundled test sets ship as the package ``npuzzle_testcases``.

The sets live in ``testcases/`` at the top of the repository (where ``testcases/build.sh``, the
docs and a clone's ``grade`` use them); a wheel installs that folder as ``npuzzle_testcases``, so
``pip install`` and ``pipx install`` carry them (``grader/testsets/bundled.py`` finds either).
Everything else (metadata, dependencies, package data) is in pyproject.toml.
"""

from setuptools import find_namespace_packages, setup

setup(packages=[*find_namespace_packages(include=["solver*", "grader*"]), "npuzzle_testcases"],
      package_dir={"npuzzle_testcases": "testcases"})
