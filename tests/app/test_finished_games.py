"""A finished game is never lost: kept on disk until the history has it, recorded once.

The order at the end of a game: the finished game is written to a file of its own (and
only then is the save removed), the history stores it on its own thread, and only after
that commit is the file removed. Whatever stops forage in between (kill -9, a locked or
full history), the next start records what was kept, once.
"""

from __future__ import annotations

import errno
import json
import signal
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from app_helpers import (
    greedy,
    place_by_action,
    place_quickly,
    play_out_quickly,
    saved,
    session_of,
    sync,
)
from terminal import Terminal

from forage.app import saves
from forage.app.app import ForageApp
from forage.app.keeper import Keeper
from forage.app.recorder import Recorder
from forage.app.saves import FINISHED_PATTERN, SAVE_NAME
from forage.app.screens import EndScreen
from forage.app.screens.confirm import ConfirmScreen
from forage.app.session import Session
from forage.history.database import DB_NAME
from forage.history.store import HistoryStore


def play_to_end(session: Session) -> None:
    """Play a session greedily to its end through the session (as the screen does)."""
    while not session.game.is_over():
        assert session.go_to(greedy(session).placement)
        assert session.place() is not None
        Keeper().keep(session)


def kept_files(home: Path) -> list[Path]:
    return sorted(home.glob(FINISHED_PATTERN))


def stored(home: Path) -> list[tuple[str, str]]:
    """The status and player of every stored game."""
    with HistoryStore.open(home) as store:
        return [(g.status, g.player) for g in store.games()]


def test_a_finished_game_is_kept_in_its_own_file_and_the_save_removed(forage_home: Path) -> None:
    session = Session.start(seed=4)
    session.keeps_history, session.player = True, "ann"
    play_to_end(session)
    (kept,) = kept_files(forage_home)
    assert session.finished_file == kept
    assert not (forage_home / SAVE_NAME).exists()
    data = json.loads(kept.read_text())
    assert data["player"] == "ann" and len(data["moves"]) == len(session.game.moves)
    assert "ended" in data and "started" in data


def test_without_a_history_a_finished_game_leaves_no_file(forage_home: Path) -> None:
    session = Session.start(seed=4)
    play_to_end(session)
    assert kept_files(forage_home) == []
    assert not (forage_home / SAVE_NAME).exists()


def test_the_kept_file_goes_only_after_the_history_has_the_game(forage_home: Path) -> None:
    session = Session.start(seed=4)
    session.keeps_history = True
    play_to_end(session)
    recorder = Recorder("ann")
    done = recorder.finished(session.key, session.save_data(), session.finished_file)
    recorder.close()
    assert done is not None and done.game.finished
    assert kept_files(forage_home) == []
    assert stored(forage_home) == [("finished", "ann")]


def lock_history(home: Path) -> sqlite3.Connection:
    """Another process's write transaction on the history, held until closed."""
    with HistoryStore.open(home):
        pass  # created and migrated
    other = sqlite3.connect(home / DB_NAME, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    return other


def test_a_locked_history_keeps_the_game_and_the_next_start_records_it(
    forage_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("forage.history.database.BUSY_SECONDS", 0.05)
    session = Recorder("ann").prepare(Session.start(seed=4))
    play_to_end(session)
    other = lock_history(forage_home)
    recorder = Recorder("ann")
    told: list[str] = []
    recorder.tell = told.append
    assert recorder.finished(session.key, session.save_data(), session.finished_file) is None
    recorder.close()
    assert len(kept_files(forage_home)) == 1  # not stored: kept
    assert told and "could not be used" in told[0]
    other.close()
    later = Recorder()
    later.tell = told.append
    (done,) = later.record_kept(saves.slot().finished_games())
    later.close()
    assert done.game.player == "ann" and done.game.finished
    assert kept_files(forage_home) == []
    assert stored(forage_home) == [("finished", "ann")]
    assert "in your history now" in told[-1]


def test_a_game_stored_before_a_kill_is_not_stored_twice(forage_home: Path) -> None:
    session = Session.start(seed=4)
    session.keeps_history = True
    play_to_end(session)
    kept = session.finished_file
    assert kept is not None
    recorder = Recorder("ann")
    assert recorder.finished(session.key, session.save_data(), None) is not None  # not removed
    recorder.close()
    assert kept.exists()
    again = Recorder()
    (done,) = again.record_kept(saves.slot().finished_games())
    again.close()
    assert done.achievements == []
    assert kept_files(forage_home) == []
    assert stored(forage_home) == [("finished", "ann")]


def test_a_save_holding_a_finished_game_is_kept_for_the_history(forage_home: Path) -> None:
    session = Session.start(seed=4)
    play_to_end(session)
    forage_home.mkdir(parents=True, exist_ok=True)
    (forage_home / SAVE_NAME).write_text(json.dumps(session.save_data()))
    assert Keeper().load() is None  # not offered to resume...
    assert len(kept_files(forage_home)) == 1  # ...but kept for the history
    recorder = Recorder("bo")
    assert len(recorder.record_kept(saves.slot().finished_games())) == 1
    recorder.close()
    assert stored(forage_home) == [("finished", "bo")]


def test_a_full_disk_at_the_end_keeps_the_save(
    forage_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.start(seed=4)
    session.keeps_history = True
    while len(session.game.moves) < 7:
        session.go_to(greedy(session).placement)
        session.place()
        Keeper().keep(session)
    before = json.loads((forage_home / SAVE_NAME).read_text())
    real = saves.SaveSlot.keep_finished
    monkeypatch.setattr(saves.SaveSlot, "keep_finished", lambda self, data: None)
    session.go_to(greedy(session).placement)
    session.place()
    Keeper().keep(session)
    monkeypatch.setattr(saves.SaveSlot, "keep_finished", real)
    after = json.loads((forage_home / SAVE_NAME).read_text())
    assert len(after["moves"]) == len(before["moves"]) + 1  # kept in the save
    assert session.game.is_over()


@sync
async def test_the_end_screen_records_on_the_history_thread(forage_home: Path) -> None:
    recorder = Recorder("ann")
    app = ForageApp(seed=4, offer_resume=False, recorder=recorder)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        assert isinstance(app.screen, EndScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert session_of(app).finished_file is not None
    recorder.close()
    assert kept_files(forage_home) == []
    assert stored(forage_home) == [("finished", "ann")]


@sync
async def test_quitting_saves_without_counting_the_game_abandoned(forage_home: Path) -> None:
    for _ in range(3):  # three quits of one game
        recorder = Recorder("cy")
        app = ForageApp(seed=4, recorder=recorder)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            if app.screen.__class__.__name__ == "ConfirmScreen":
                await pilot.press("y")
                await pilot.pause()
            session = session_of(app)
            place_by_action(app, greedy(session).placement)
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
        recorder.close()
    assert stored(forage_home) == []
    assert len(json.loads((forage_home / SAVE_NAME).read_text())["moves"]) == 3


@sync
async def test_declining_the_saved_game_counts_it_abandoned_once(forage_home: Path) -> None:
    session = Session.start(seed=4)
    session.go_to(greedy(session).placement)
    session.place()
    Keeper().keep(session)
    recorder = Recorder("di")
    app = ForageApp(seed=5, recorder=recorder)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        await pilot.press("n")
        await pilot.pause()
    recorder.close()
    assert stored(forage_home) == [("abandoned", "di")]


# -- kill -9 just after the last placement, in a real terminal ---------------------------------


def _last_move_setup(home: Path) -> tuple[Session, str]:
    """A save one placement from the end, and the keys that make that placement."""
    session = Session.start(seed=4)
    while session.game.turn < session.game.turns:
        session.go_to(greedy(session).placement)
        session.place()
        Keeper().keep(session)
    saves.slot().release()  # the forage started below takes the save
    home.mkdir(parents=True, exist_ok=True)
    data = session.save_data()
    data["player"] = "kim"
    (home / SAVE_NAME).write_text(json.dumps(data))
    resumed = Session.from_save_data(data)
    cursor, target = resumed.cursor, greedy(resumed).placement
    assert cursor is not None
    keys = "r" * ((target.rotation.value - cursor.rotation.value) // 90 % 4)
    turned = Session.from_save_data(data)
    for _ in keys:
        turned.rotate()
    here = turned.cursor
    assert here is not None
    dx, dy = target.x - here.x, target.y - here.y
    keys += ("l" if dx > 0 else "h") * abs(dx)
    keys += ("j" if dy > 0 else "k") * abs(dy)
    return resumed, keys


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal and kill -9")
@pytest.mark.parametrize("delay_ms", [0, 10, 25, 45, 60])
def test_kill_9_just_after_the_last_placement_loses_nothing(
    forage_home: Path, delay_ms: int
) -> None:

    resumed, keys = _last_move_setup(forage_home)
    with Terminal(forage_home, "play") as terminal:
        assert terminal.wait_for("Resume it?"), terminal.text()[-300:]
        terminal.send("y")
        assert terminal.wait_for("Hint", 10)
        time.sleep(0.5)
        terminal.send(keys)
        assert terminal.wait_for("places it", 10)
        time.sleep(0.3)
        terminal.send("\r")
        time.sleep(delay_ms / 1000)
        terminal.signal(signal.SIGKILL)
        terminal.wait(10)
    # the next start records what was kept
    recorder = Recorder()
    recorder.record_kept(saves.slot().finished_games())
    recorder.close()
    games = stored(forage_home)
    if games:
        assert games == [("finished", "kim")]
        assert not (forage_home / SAVE_NAME).exists() or Keeper().load() is None
    else:  # killed before the placement was made: the game is still saved, to resume
        again = Keeper().load()
        assert again is not None and again.game.moves == resumed.game.moves


def kept_game(seed: int, player: str = "ann") -> Path:
    """A finished game of ``seed`` kept for the history (its file)."""
    session = Session.start(seed=seed)
    session.keeps_history, session.player = True, player
    play_to_end(session)
    assert session.finished_file is not None
    return session.finished_file


def record_kept_told(recorder: Recorder) -> list[str]:
    """What the recorder tells as it records the kept games."""
    told: list[str] = []
    recorder.tell = told.append
    recorder.record_kept(saves.slot().finished_games())
    recorder.close()
    return told


def finals(home: Path) -> list[int]:
    """The final score of every stored game."""
    with HistoryStore.open(home) as store:
        return [g.final for g in store.games()]


def test_copies_of_one_kept_game_are_one_game_in_the_history(forage_home: Path) -> None:
    kept = kept_game(4)
    for n in range(499):
        (forage_home / f"finished-game-copy-{n}.json").write_text(kept.read_text())
    told = record_kept_told(Recorder())
    assert kept_files(forage_home) == []
    assert stored(forage_home) == [("finished", "ann")]
    (final,) = finals(forage_home)
    assert told == [f"The finished game of last time (final {final}) is in your history now."]


def test_two_kept_games_are_counted_with_the_best_final(forage_home: Path) -> None:
    kept_game(4)
    kept_game(5)
    told = record_kept_told(Recorder())
    best = max(finals(forage_home))
    assert len(finals(forage_home)) == 2
    assert told == [
        f"The 2 finished games of last time (best final {best}) are in your history now."
    ]


@pytest.mark.parametrize(
    "text",
    ["{not json", "[" * 100_000 + "]" * 100_000, '{"format": "forage-save/1"}'],
    ids=["not-json", "nested", "not-a-game"],
)
def test_a_kept_file_that_holds_no_finished_game_is_named_and_left(
    forage_home: Path, text: str
) -> None:
    kept_game(4)
    bad = forage_home / "finished-game-2026-01-01-000000-1.json"
    bad.write_text(text)
    told = record_kept_told(Recorder())
    assert told[-1] == f"1 kept game could not be read: {bad.name} left in {forage_home}."
    assert len(told) == 2 and "is in your history now" in told[0]
    assert kept_files(forage_home) == [bad] and bad.read_text() == text
    assert stored(forage_home) == [("finished", "ann")]


def test_many_kept_files_that_cannot_be_read_are_counted_not_all_named(
    forage_home: Path,
) -> None:
    forage_home.mkdir(parents=True)
    for n in range(5):
        (forage_home / f"finished-game-{n}.json").write_text("{not json")
    (told,) = record_kept_told(Recorder("ann"))
    assert told == (
        "5 kept games could not be read: finished-game-0.json, finished-game-1.json, "
        f"finished-game-2.json and 2 more left in {forage_home}."
    )
    assert len(kept_files(forage_home)) == 5


def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file the game writes fails from now on, as on a full disk."""

    def no_room(path: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(saves, "write_atomic", no_room)


def history_takes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The history cannot take a finished game: not at its end, nor the kept ones at start."""
    from forage.app import app as app_module

    monkeypatch.setattr(Recorder, "finished", lambda self, key, data, kept: None)
    monkeypatch.setattr(app_module, "HISTORY_DELAY", 3600.0)


async def to_the_last_placement(pilot: Any, app: ForageApp) -> Session:
    """Play all but the last card (the history will not take the finished game)."""
    await pilot.pause()
    session = session_of(app)
    while len(session.game.moves) < session.game.turns - 1:
        await place_quickly(pilot, app)
    return session


@sync
async def test_a_finished_game_kept_nowhere_is_not_given_up_by_a_new_game(
    forage_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history_takes_nothing(monkeypatch)
    app = ForageApp(seed=4, offer_resume=False, recorder=Recorder("di"))
    async with app.run_test(size=(100, 40)) as pilot:
        session = await to_the_last_placement(pilot, app)
        await saved(pilot, app)
        kept_save = json.loads((forage_home / SAVE_NAME).read_text())
        with monkeypatch.context() as disk:
            full_disk(disk)
            await place_quickly(pilot, app)
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            await pilot.press("n")  # a new game: the finished one is kept nowhere
            await pilot.pause()
            question = app.screen
            assert isinstance(question, ConfirmScreen)
            assert "not kept anywhere" in question.question and "disk is full" in question.question
            assert "A new game now loses it" in question.question
            await pilot.press("n")  # no: keep it
            await pilot.pause()
            assert session_of(app) is session and session.game.is_over()
            await saved(pilot, app)
            assert json.loads((forage_home / SAVE_NAME).read_text()) == kept_save
            assert kept_files(forage_home) == []
        await pilot.press("n")  # room again: kept in its own file, then the new game
        await pilot.pause()
        assert session_of(app) is not session
        (kept,) = kept_files(forage_home)
        assert json.loads(kept.read_text())["moves"] == [p.notation() for p in session.game.moves]


@sync
async def test_a_finished_game_only_in_the_save_becomes_its_own_file_before_a_new_game(
    forage_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history_takes_nothing(monkeypatch)
    app = ForageApp(seed=4, offer_resume=False, recorder=Recorder("di"))
    async with app.run_test(size=(100, 40)) as pilot:
        session = await to_the_last_placement(pilot, app)
        with monkeypatch.context() as disk:
            disk.setattr(saves.SaveSlot, "keep_finished", lambda self, data: None)
            await place_quickly(pilot, app)
            await saved(pilot, app)
            assert json.loads((forage_home / SAVE_NAME).read_text())["moves"] == [
                p.notation() for p in session.game.moves
            ]
            await pilot.press("n")
            await pilot.pause()
        assert session_of(app) is not session  # no question: renaming needs no room
        (kept,) = kept_files(forage_home)
        assert json.loads(kept.read_text())["moves"] == [p.notation() for p in session.game.moves]


@sync
async def test_a_game_kept_during_this_run_is_never_told_as_last_times(
    forage_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio
    import threading

    from forage.app import app as app_module

    opened = threading.Event()
    told: list[str] = []
    this_run: list[Path] = []
    original = Recorder.open_history

    def open_after_a_game_ended(self: Recorder, kept: Any) -> None:
        this_run.append(kept_game(5))  # a game of this run kept just before the sweep
        self.tell = told.append
        original(self, kept)
        opened.set()

    monkeypatch.setattr(Recorder, "open_history", open_after_a_game_ended)
    monkeypatch.setattr(app_module, "HISTORY_DELAY", 0.01)
    earlier = kept_game(4)  # kept by an earlier run
    app = ForageApp(seed=4, offer_resume=False, recorder=Recorder("ann"))
    async with app.run_test(size=(100, 40)) as pilot:
        assert await asyncio.to_thread(opened.wait, 60)
        await pilot.pause()
    said = [line for line in told if "last time" in line]
    assert len(said) == 1 and said[0].startswith("The finished game of last time")  # one
    assert not earlier.exists()  # recorded
    assert this_run[0].exists()  # not the sweep's: this run's own
