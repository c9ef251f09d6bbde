"""Shared by every test: this folder's helpers (``helpers``, ``reference``) import by name."""

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

STOPPING = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test keeps its data (saves, history, remembered reviews) in its own folder,
    never the user's (a test may name another with FORAGE_HOME)."""
    monkeypatch.setenv("FORAGE_HOME", str(tmp_path / "forage-data"))
    yield


@pytest.fixture(autouse=True)
def _signal_handlers_kept() -> Iterator[None]:
    """A test that runs the command line in-process (which ignores Ctrl+C once it is done)
    leaves the test process's signal handlers as they were, for the processes later tests
    start inherit an ignored signal."""
    before = {number: signal.getsignal(number) for number in STOPPING}
    yield
    for number, handler in before.items():
        if handler is not None:
            signal.signal(number, handler)
