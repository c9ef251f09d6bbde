"""Shared by every test: this folder's helpers (``helpers``, ``reference``) import by name."""

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test keeps its data (saves, history, remembered reviews) in its own folder,
    never the user's (a test may name another with FORAGE_HOME)."""
    monkeypatch.setenv("FORAGE_HOME", str(tmp_path / "forage-data"))
    yield
