"""Shared by every test: this folder's helpers (``helpers``, ``reference``) import by name."""

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from postgres import Cluster, StoreAt, cluster, missing

from forage.i18n import use

# The suite reads forage in English whatever the machine's locale; a test that reads another
# language names it (FORAGE_LANG) for the process it starts.
os.environ["FORAGE_LANG"] = "en"

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


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for the session (skipped, saying why, where it cannot
    run)."""
    why = missing()
    if why is not None:
        pytest.skip(why)
    with cluster() as made:
        yield made


@pytest.fixture(params=["sqlite", "postgresql"])
def store_at(request: pytest.FixtureRequest, tmp_path: Path) -> StoreAt:
    """A fresh store for the test, in SQLite and again in PostgreSQL (a schema of its own,
    owned by a role with no other rights)."""
    if request.param == "sqlite":
        return StoreAt(tmp_path, None)
    made: Cluster = request.getfixturevalue("postgres")
    return StoreAt(tmp_path, made.schema())


@pytest.fixture
def japanese() -> Iterator[None]:
    """Speak Japanese for one test, English again after it."""
    use("ja")
    try:
        yield
    finally:
        use("en")
