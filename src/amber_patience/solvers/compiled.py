"""The compiled core of the Amber solvers (``_amber_core.c``), when it is built, and the switch that uses it.

``pip install`` compiles the core as an optional extension. It holds five searches, each the very search of a
Python function that stays the reference (``tests/test_amber_core.py`` checks them state for state):
``search`` is ``amber._search_py``, ``dock`` is ``amber_pattern.PatternPlanner._dock_py``, ``rejoin`` is
``amber_shorten._rejoin_py``, ``kind_search`` is ``amber_pattern._kind_search_py`` and ``balance_children`` is
``amber_pattern._balance_children_py``. Without the core (no C compiler) or with ``AMBER_PURE_PYTHON=1`` in the
environment, the Python searches run: the same solutions, slower.
"""

from __future__ import annotations

import os
from types import ModuleType

native: ModuleType | None
try:
    from . import _amber_core as native  # type: ignore[attr-defined,no-redef]
except ImportError:  # pragma: no cover - a build without a C compiler
    native = None

#: Whether the solvers run the compiled searches (the core is built and ``AMBER_PURE_PYTHON`` is not set).
ON = native is not None and not os.environ.get("AMBER_PURE_PYTHON")
