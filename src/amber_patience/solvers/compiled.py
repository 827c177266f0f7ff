"""The compiled core of the Amber solvers (``_amber_core.c``), when it is built, and the switch that uses it.

``pip install`` compiles the core as an optional extension. Each of its functions is the very search of a Python
function that stays the reference (``tests/test_amber_core.py`` checks them state for state): ``search`` is
``amber._search_py``; ``rejoin``, ``emit``, ``carry`` and ``carry_jump`` are the shortening's ``_rejoin_py``,
``_emit``, ``_carry_py`` and ``_carry_jump_py`` (``amber_shorten``); for Pattern of Amber (``amber_pattern``),
``never_docks`` is ``PatternPlanner._never_docks``, ``cached_dock`` is ``PatternPlanner.dock`` with its cache (its
search ``_dock_py``), ``exchange`` is ``dock_exchange``, ``merge_dock`` is
``PatternPlanner._merge_search_py``, ``kind_search`` is ``_kind_search_py``, ``balance_children`` is
``_balance_children_py`` and ``balance_search`` is ``_balance_search_py``. Without the core (no C compiler) or with
``AMBER_PURE_PYTHON=1`` in the environment, the Python searches run: the same solutions, slower.
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
