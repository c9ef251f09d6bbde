"""Shared set-up for the game screen tests: every test saves in its own folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def forage_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test saves its games in its own folder (FORAGE_HOME)."""
    home = tmp_path / "home"
    monkeypatch.setenv("FORAGE_HOME", str(home))
    monkeypatch.delenv("NO_COLOR", raising=False)
    yield home
