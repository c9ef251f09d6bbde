"""The save file under faults: play goes on, nothing is lost without a word.

A data folder that cannot be written, a damaged save, a second forage on the same folder,
temporary files left by a kill, and a crash (exit 70 with a log). Tests run as root, for
whom nothing is read-only, so failures of the file system are injected as ``OSError``.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from app_helpers import greedy, place_by_action, saved, session_of, sync
from terminal import Terminal, place_first_spot
from textual.pilot import Pilot

from forage.app import saves
from forage.app.app import ForageApp
from forage.app.keeper import Keeper
from forage.app.saves import SAVE_NAME, SaveSlot, clean_temp_files
from forage.app.screens.confirm import ConfirmScreen
from forage.app.session import Session, save_path
from forage.cli.errors import EXIT_CRASH
from forage.engine import Deal


def listen(app: ForageApp) -> list[str]:
    """Every notification the app shows from now on, in order."""
    told: list[str] = []
    show = app.notify

    def notify(message: str, **kwargs: Any) -> None:
        told.append(message)
        show(message, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    return told


async def place_cards(pilot: Pilot[int], app: ForageApp, count: int) -> None:
    """Place ``count`` cards greedily through the game screen, and wait until they are
    saved (and what saving did is told)."""
    session = session_of(app)
    for _ in range(count):
        place_by_action(app, greedy(session).placement)
        await pilot.pause()
    await saved(pilot, app)


def a_save(seed: int = 7, moves: int = 2) -> dict[str, Any]:
    """The save data of a game of this seed after a few greedy moves."""
    session = Session.start(seed=seed)
    for _ in range(moves):
        session.game.push(greedy(session).placement)
    return session.save_data()


@sync
async def test_q_says_in_one_line_where_the_game_is_saved(forage_home: Path) -> None:
    for placed, said in (
        (2, f"Game saved in {forage_home / SAVE_NAME}: forage offers it next time."),
        (0, "No card placed, so nothing saved."),
        (8, "The game is over: nothing to save."),  # no history here: q on the end screen
    ):
        app = ForageApp(seed=3, offer_resume=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await place_cards(pilot, app, placed)
            await pilot.press("q")
        assert app.return_value == 0 and app.keeper.farewell == said
        assert (forage_home / SAVE_NAME).exists() == (said.startswith("Game saved"))


def test_q_prints_its_line_once_forage_has_stopped(forage_home: Path) -> None:
    with Terminal(forage_home, "play", "--seed", "3", size=(80, 24)) as terminal:
        place_first_spot(terminal)
        terminal.send("q")
        assert terminal.wait(30) == 0
    assert terminal.wait_for(f"Game saved in {forage_home / SAVE_NAME}", 5), terminal.raw[-300:]


@sync
async def test_placements_are_saved_off_the_screens_thread_the_last_one_kept_at_exit(
    forage_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A burst of placements: no write nor fsync on the app's thread; the saves written hold
    ever more moves (the first one held back until the burst is over, the ones between
    dropped for the latest); and leaving waits for the last."""
    screens_thread = threading.get_ident()
    writes: list[tuple[int, int]] = []  # (thread, moves in the save written)
    syncs: list[int] = []
    gate = threading.Event()
    real_write, real_fsync = saves.write_atomic, os.fsync

    def write(path: Path, text: str) -> None:
        if threading.get_ident() != screens_thread:  # held back until the burst is over
            gate.wait(60)
        writes.append((threading.get_ident(), len(json.loads(text)["moves"])))
        real_write(path, text)

    def fsync(fd: int) -> None:
        syncs.append(threading.get_ident())
        real_fsync(fd)

    monkeypatch.setattr(saves, "write_atomic", write)
    monkeypatch.setattr(os, "fsync", fsync)
    app = ForageApp(seed=3, offer_resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        for _ in range(5):
            place_by_action(app, greedy(session).placement)
        assert len(session.game.moves) == 5
        gate.set()
        app.exit()
    assert writes and screens_thread not in {thread for thread, _ in writes}
    assert syncs and screens_thread not in syncs
    written = [moves for _, moves in writes]
    assert written == sorted(written) and written[-1] == 5 and len(written) < 5, written
    assert len(json.loads(save_path().read_text())["moves"]) == 5


@sync
async def test_data_folder_under_a_file_plays_on_and_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "file").write_text("in the way")
    monkeypatch.setenv("FORAGE_HOME", str(tmp_path / "file" / "forage"))
    app = ForageApp(seed=3)
    told = listen(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await place_cards(pilot, app, 3)
        assert len(session_of(app).game.moves) == 3
        await pilot.press("q")
    assert app.return_value == 0
    warnings = [m for m in told if "cannot be saved" in m]
    assert len(warnings) == 1 and "a file is in the way" in warnings[0]
    assert app.keeper.farewell is None  # the save's news says why it is not saved


@sync
async def test_a_failed_save_is_told_once_and_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    real = saves.write_atomic
    failures = [OSError(errno.ENOSPC, "No space left on device")] * 2

    def flaky(path: Path, text: str) -> None:
        if failures:
            raise failures.pop()
        real(path, text)

    monkeypatch.setattr(saves, "write_atomic", flaky)
    app = ForageApp(seed=3, offer_resume=False)
    told = listen(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await place_cards(pilot, app, 2)
        assert not save_path().exists()
        assert told == ["The game cannot be saved: the disk is full."]
        await place_cards(pilot, app, 1)
        assert told[1:] == ["The game is saved again."]
    assert len(json.loads(save_path().read_text())["moves"]) == 3


@sync
async def test_a_folder_in_the_saves_place_is_left_alone(forage_home: Path) -> None:
    (forage_home / SAVE_NAME).mkdir(parents=True)
    app = ForageApp(seed=3)
    told = listen(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await place_cards(pilot, app, 1)
        await pilot.press("q")
    assert app.return_value == 0
    assert (forage_home / SAVE_NAME).is_dir()
    assert len(told) == 1 and "is a folder" in told[0]
    assert str(forage_home / SAVE_NAME) in told[0] and ".tmp" not in told[0]


def test_a_full_disk_at_start_still_takes_the_lock_and_lets_go_quietly(
    forage_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write

    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    slot = SaveSlot(forage_home)
    monkeypatch.setattr(os, "write", full)
    assert slot.acquire()
    monkeypatch.setattr(os, "write", real_write)

    class Failing:
        def close(self) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

    assert slot._lock is not None
    slot._lock.close()
    slot._lock = Failing()  # type: ignore[assignment]
    slot.release()  # never raises
    assert slot._lock is None


def test_the_lock_file_holds_the_pid(forage_home: Path) -> None:
    slot = SaveSlot(forage_home)
    assert slot.acquire()
    assert (forage_home / "current-game.lock").read_text() == f"{os.getpid()}\n"
    slot.release()


DAMAGED: dict[str, str] = {
    "not json": "{not json",
    "newer version": json.dumps(a_save() | {"format": "forage-save/2"}),
    "deeply nested": "[" * 100_000 + "]" * 100_000,
    "seed true": json.dumps(a_save() | {"seed": True}),
    "deck 99": json.dumps(a_save() | {"deck": 99}),
    "seed of another deal": json.dumps(a_save() | {"seed": 8}),
    "huge number": json.dumps(a_save()).replace('"seed": 7', '"seed": ' + "7" * 5000),
    "illegal move": json.dumps(a_save() | {"moves": ["1@40,40"]}),
    "not a list": json.dumps(a_save() | {"moves": "9@0,0"}),
    "binary": "\udcff",
}


@pytest.mark.parametrize("name", DAMAGED)
def test_a_damaged_save_is_moved_aside_and_kept(forage_home: Path, name: str) -> None:
    forage_home.mkdir(parents=True)
    raw = DAMAGED[name].encode("utf-8", "surrogateescape")
    save_path().write_bytes(raw)
    assert Keeper().load() is None
    (kept,) = forage_home.glob("current-game.unreadable-*.json")
    assert kept.read_bytes() == raw
    assert not save_path().exists()
    (news,) = saves.slot().news()
    assert "could not be read" in news and kept.name in news


def test_a_good_save_is_not_moved(forage_home: Path) -> None:
    forage_home.mkdir(parents=True)
    save_path().write_text(json.dumps(a_save()))
    loaded = Keeper().load()
    assert loaded is not None and len(loaded.game.moves) == 2
    assert list(forage_home.glob("current-game.unreadable-*")) == []
    assert saves.slot().news() == []


@sync
async def test_a_newer_save_is_told_and_survives_quitting(forage_home: Path) -> None:
    forage_home.mkdir(parents=True)
    newer = json.dumps(a_save() | {"format": "forage-save/2"})
    save_path().write_text(newer)
    app = ForageApp(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)  # nothing to resume
        await pilot.press("q")
    (kept,) = forage_home.glob("current-game.unreadable-*.json")
    assert kept.read_text() == newer


def test_a_save_that_cannot_be_moved_aside_is_never_written_over(
    forage_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    forage_home.mkdir(parents=True)
    save_path().write_text("{damaged")

    def refused(self: Path, target: Path) -> Path:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(Path, "rename", refused)
    assert Keeper().load() is None
    session = Session.start(seed=3)
    session.game.push(greedy(session).placement)
    Keeper().save(session)
    assert save_path().read_text() == "{damaged"
    (news,) = saves.slot().news()
    assert "left as it is" in news


@sync
async def test_a_second_forage_plays_without_touching_the_first_ones_save(
    forage_home: Path,
) -> None:
    first = SaveSlot(forage_home)
    assert first.acquire()
    assert first.store(a_save())
    before = save_path().read_bytes()
    app = ForageApp(seed=3)
    told = listen(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "already open" in app.screen.question
        await pilot.press("y")
        await pilot.pause()
        await place_cards(pilot, app, 2)
        await pilot.press("q")
    assert app.return_value == 0
    assert save_path().read_bytes() == before
    assert any("not saved" in m for m in told)
    first.release()


@sync
async def test_a_second_forage_may_decline_and_leave(forage_home: Path) -> None:
    first = SaveSlot(forage_home)
    assert first.acquire()
    app = ForageApp(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
    assert app.return_value == 0
    first.release()


HOLD_LOCK = textwrap.dedent(
    """
    import sys
    from forage.app import saves
    slot = saves.slot()
    print(slot.acquire(), flush=True)
    sys.stdin.read()
    """
)


def test_the_lock_keeps_two_processes_apart(forage_home: Path) -> None:
    env = {**os.environ, "FORAGE_HOME": str(forage_home)}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline().strip() == "True"
    second = SaveSlot(forage_home)
    assert not second.acquire() and second.taken
    assert not second.store(a_save())
    assert not save_path().exists()
    holder.stdin.close()
    holder.wait(timeout=30)
    third = SaveSlot(forage_home)
    assert third.acquire()
    third.release()


def test_left_over_temporary_files_are_cleaned(forage_home: Path) -> None:
    forage_home.mkdir(parents=True)
    fresh = forage_home / f".{SAVE_NAME}.abc123.tmp"
    old = forage_home / f".{SAVE_NAME}.def456.tmp"
    other = forage_home / ".notes.txt.abc.tmp"
    for path in (fresh, old, other):
        path.write_text("half")
    an_hour_ago = time.time() - 3600
    os.utime(old, (an_hour_ago, an_hour_ago))
    assert clean_temp_files(forage_home, locked=False) == [old]
    assert fresh.exists() and other.exists()
    assert SaveSlot(forage_home).acquire()  # holding the lock, every left-over save goes
    assert not fresh.exists() and other.exists()


CRASH = textwrap.dedent(
    """
    import sys
    from forage.cli.play import run_game
    from forage.app.app import ForageApp
    from forage.app.screens.game import GameScreen

    def boom(self):
        raise RuntimeError("boom for the test")

    GameScreen.on_mount = boom
    run = ForageApp.run
    ForageApp.run = lambda self, **kw: run(self, headless=True, **kw)
    sys.exit(run_game(3, None, False, 1, None))
    """
)


def test_a_crash_exits_non_zero_with_a_log(forage_home: Path) -> None:
    env = {**os.environ, "FORAGE_HOME": str(forage_home)}
    done = subprocess.run(
        [sys.executable, "-c", CRASH],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )
    assert done.returncode == EXIT_CRASH, done.stderr
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    (log,) = forage_home.glob("crash-*.log")
    assert str(log) in line
    text = log.read_text()
    assert "Traceback" in text and "RuntimeError: boom for the test" in text


def test_save_data_names_the_seed_of_its_deal() -> None:
    data = a_save(seed=9)
    assert Deal.from_code(data["deal"]) == Deal.from_seed(9)
    assert saves.parse_save(data).seed == 9


@sync
async def test_a_record_file_that_stops_being_writable_is_told_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "game.json"
    real = saves.write_atomic

    def full_for_the_record(path: Path, text: str) -> None:
        if path == record and record.exists():
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, text)

    monkeypatch.setattr(saves, "write_atomic", full_for_the_record)
    app = ForageApp(seed=3, record_path=record, offer_resume=False)
    told = listen(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await place_cards(pilot, app, 2)
        assert len(session_of(app).game.moves) == 2
    assert told == [f"The record {record} cannot be written: the disk is full."]
    assert len(json.loads(save_path().read_text())["moves"]) == 2


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("history", [True, False], ids=["history", "no-history"])
@sync
async def test_the_resume_question_says_what_n_does_to_the_saved_game(
    forage_home: Path, size: tuple[int, int], history: bool
) -> None:
    from forage.app.recorder import Recorder

    forage_home.mkdir(parents=True, exist_ok=True)
    (forage_home / SAVE_NAME).write_text(json.dumps(a_save()))
    recorder = Recorder() if history else None
    app = ForageApp(seed=3, recorder=recorder)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        shown = " ".join(str(app.screen.query_one("#question").render()).split())
        answers = str(app.screen.query_one("#answers").render())
    if recorder is not None:
        recorder.close()
    assert "Resume it? n starts a new game instead" in shown
    lost = "counts as abandoned in your history" if history else "is lost"
    assert f"this one {lost}." in shown
    assert "resume it" in answers and "new game" in answers
