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


def test_the_forage_script_holds_the_collector_only_for_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The script pauses the collector from its start; a command other than the game has
    it running again before the command runs."""
    import forage.cli
    from forage.launch import main as script

    seen: list[tuple[str, bool]] = []
    monkeypatch.setattr(
        forage.cli, "_dispatch", lambda args: seen.append((args.command, gc.isenabled())) or 0
    )
    monkeypatch.setattr(forage.cli, "_load", lambda playing: None)
    monkeypatch.setattr(signal, "getsignal", lambda _: signal.default_int_handler)
    for argv in (["forage", "deal", "--seed", "1"], ["forage", "play", "--seed", "1"]):
        monkeypatch.setattr("sys.argv", argv)
        assert script() == 0
        assert gc.isenabled()  # once the command is done, whichever it was
    assert seen == [("deal", True), ("play", False)]


def test_the_forage_script_pauses_the_collector_before_loading_the_command_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import forage.cli
    from forage.launch import main as script

    events: list[str] = []
    hold = startup.hold
    monkeypatch.setattr(startup, "hold", lambda: (events.append("hold"), hold()))
    monkeypatch.setattr(forage.cli, "main", lambda: events.append("command line") or 0)
    assert script() == 0
    assert events == ["hold", "command line"]
