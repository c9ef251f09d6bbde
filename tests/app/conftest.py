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


@pytest.fixture(autouse=True)
def quick_idle_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's pilot waits after each key press until the app is idle, checking every
    20 ms; checking every 5 ms (the same 5% CPU share as the idle test) keeps every wait
    for the app but cuts the sleep between checks."""
    import textual._wait
    from app_helpers import IDLE_CHECK_SECONDS

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", IDLE_CHECK_SECONDS)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", IDLE_CHECK_SECONDS / 20)
