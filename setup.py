"""The compiled core of the Amber search (``src/amber_patience/solvers/_amber_core.c``); everything else is in
pyproject.toml. The extension is optional: without a C compiler the package installs and the search runs in
Python (the same search, slower)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("amber_patience.solvers._amber_core", ["src/amber_patience/solvers/_amber_core.c"],
                             extra_compile_args=["-O2", "-ffp-contract=off"], optional=True)])
