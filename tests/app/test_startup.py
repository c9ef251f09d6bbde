"""The garbage collector waits for the game's first frame (forage.startup), and runs again
after it, or after a play command that stops before drawing anything."""

from __future__ import annotations

import gc
import signal
from collections.abc import Iterator

import pytest
from app_helpers import sync

from forage import startup
from forage.app.app import ForageApp
from forage.cli import main


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    """Leave the collector on and nothing frozen, whatever the test did."""
    yield
    startup.release()
    gc.enable()
    gc.unfreeze()


def test_hold_pauses_and_release_resumes_with_the_heap_frozen() -> None:
    assert gc.isenabled()
    startup.hold()
    assert not gc.isenabled()
    startup.release()
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0


def test_release_without_hold_leaves_the_collector_alone() -> None:
    gc.disable()
    startup.release()
    assert not gc.isenabled()  # paused by someone else: not ours to turn on


@sync
async def test_the_first_frame_releases_the_collector() -> None:
    startup.hold()
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()  # ends with the screen drawn: the first frame
        await pilot.pause()  # what was to run after it has run
        assert gc.isenabled()


def test_a_play_command_refused_before_the_game_starts_releases_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    held = []
    hold = startup.hold
    monkeypatch.setattr(startup, "hold", lambda: (held.append(True), hold()))
    monkeypatch.setattr(signal, "getsignal", lambda _: signal.default_int_handler)
    assert main(["play", "--deal", "not-a-code"]) == 2
    assert held and gc.isenabled()
    assert capsys.readouterr().err.startswith("forage: ")
