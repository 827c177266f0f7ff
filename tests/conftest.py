"""Shared test set-up: no test writes to the user's real data directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from amber_patience.store import DB_ENV


@pytest.fixture(autouse=True)
def _private_store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every test that opens the default store (``amber hint``, ``amber play``) gets its own file."""
    monkeypatch.setenv(DB_ENV, str(tmp_path / "default-store.sqlite3"))
