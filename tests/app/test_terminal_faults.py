"""The game in a real (pseudo-)terminal under faults: signals and malformed input.

SIGTERM, SIGINT and SIGHUP save the game and leave with the terminal restored (143, 130,
129); a malformed escape sequence is ignored; an error Textual cannot hand on takes the
crash path (a log, exit 70), never a traceback on screen.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from app_helpers import greedy, sync
from terminal import Terminal

from forage.adapters.textual import exit_printout
from forage.app import saves
from forage.app.app import ForageApp, Panicked
from forage.app.keeper import Keeper
from forage.app.saves import SAVE_NAME
from forage.app.session import Session
from forage.exits import EXIT_CRASH, EXIT_HANGUP, EXIT_INTERRUPTED, EXIT_TERMINATED

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal and signals")

LEAVE_ALTERNATE_SCREEN = b"\x1b[?1049l"
MOUSE_OFF = b"\x1b[?1000l"


def saved_game(home: Path, moves: int = 2) -> Session:
    """A save with some moves made, for forage to offer."""
    session = Session.start(seed=6)
    for _ in range(moves):
        session.go_to(greedy(session).placement)
        session.place()
        Keeper().keep(session)
    saves.slot().release()
    home.mkdir(parents=True, exist_ok=True)
    return session


@pytest.mark.parametrize(
    ("number", "code"),
    [
        (signal.SIGTERM, EXIT_TERMINATED),
        (signal.SIGINT, EXIT_INTERRUPTED),
        (signal.SIGHUP, EXIT_HANGUP),
    ],
)
def test_a_stopping_signal_saves_restores_the_terminal_and_exits(
    forage_home: Path, number: signal.Signals, code: int
) -> None:
    session = saved_game(forage_home)
    with Terminal(forage_home, "play") as terminal:
        assert terminal.wait_for("Resume it?")
        terminal.send("y")
        assert terminal.wait_for("Hint", 10)
        time.sleep(0.3)
        terminal.signal(number)
        assert terminal.wait() == code
        shown = terminal.raw
    assert LEAVE_ALTERNATE_SCREEN in shown and MOUSE_OFF in shown
    assert b"Traceback" not in shown
    saved = json.loads((forage_home / SAVE_NAME).read_text())
    assert saved["moves"] == [p.notation() for p in session.game.moves]


@pytest.mark.parametrize(
    "sequence", [b"\x1b[999999999;1H\x1b[1114112~", b"\x1b[1114112u\x1b[" + b"9" * 40 + b"u"]
)
def test_a_malformed_escape_sequence_is_ignored(forage_home: Path, sequence: bytes) -> None:
    forage_home.mkdir(parents=True, exist_ok=True)
    with Terminal(forage_home, "play", "--seed", "3") as terminal:
        assert terminal.wait_for("Hint")
        time.sleep(0.3)
        terminal.send(sequence)
        time.sleep(0.5)
        assert terminal.process.poll() is None  # still playing
        terminal.send("q")
        assert terminal.wait() == 0
        shown = terminal.raw
    assert b"Traceback" not in shown and b"ValueError" not in shown
    assert not list(forage_home.glob("crash-*.log"))


@sync
async def test_an_error_textual_cannot_hand_on_takes_the_crash_path(forage_home: Path) -> None:
    from rich.text import Text

    from forage.cli.errors import report_crash

    app = ForageApp(seed=3, offer_resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.panic(Text("ValueError: chr() arg not in range(0x110000)"))
    assert isinstance(app.crash, Panicked) and "chr()" in str(app.crash)
    assert exit_printout(app) == []  # nothing printed over the terminal
    assert report_crash(app.crash) == EXIT_CRASH
    (log,) = forage_home.glob("crash-*.log")
    assert "Panicked" in log.read_text() and "chr()" in log.read_text()


def descendants(pid: int) -> set[int]:
    """The processes started by ``pid``, and by them, down to the last (from /proc)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    layer = {pid}
    while layer:
        layer = {child for child, parent in parents.items() if parent in layer} - found
        found |= layer
    return found


def running(pid: int) -> bool:
    """Whether a process runs under this pid (a zombie counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
@pytest.mark.parametrize(
    ("number", "code"),
    [
        (signal.SIGTERM, EXIT_TERMINATED),
        (signal.SIGINT, EXIT_INTERRUPTED),
        (signal.SIGHUP, EXIT_HANGUP),
    ],
)
def test_the_review_screen_alone_leaves_cleanly_on_a_signal(
    forage_home: Path, tmp_path: Path, number: signal.Signals, code: int
) -> None:
    from forage.record import record_from_game

    session = Session.start(seed=6)
    while not session.game.is_over():
        session.go_to(greedy(session).placement)
        session.place()
    record = tmp_path / "game.json"
    record.write_text(record_from_game(session.game).to_json())
    forage_home.mkdir(parents=True, exist_ok=True)
    with Terminal(forage_home, "review", str(record)) as terminal:
        assert terminal.wait_for("move 1 of 8", 20)
        deadline = time.monotonic() + 20
        while len(descendants(terminal.process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = descendants(terminal.process.pid)
        assert workers, "the review works in worker processes"
        terminal.signal(number)
        assert terminal.wait() == code
        shown = terminal.raw
    assert LEAVE_ALTERNATE_SCREEN in shown and MOUSE_OFF in shown
    assert b"Traceback" not in shown
    deadline = time.monotonic() + 5
    while any(running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(running(pid) for pid in workers), "a worker outlived the review"


@pytest.mark.parametrize("delay", [0, 20, 60, 120])
@pytest.mark.parametrize("command", [("learn",), ("play", "--seed", "3")])
def test_a_burst_of_ctrl_c_while_leaving_is_quiet(
    forage_home: Path, command: tuple[str, ...], delay: int
) -> None:
    forage_home.mkdir(parents=True, exist_ok=True)
    with Terminal(forage_home, *command) as terminal:
        assert terminal.wait_for("Hint" if command[0] == "play" else "step 1 of 10", 20)
        time.sleep(0.3)
        terminal.send("q" if command[0] == "play" else "\x1b")  # leaving, then Ctrl+C
        for _ in range(delay):
            terminal._read(0.001)
        for _ in range(40):
            terminal.signal(signal.SIGINT)
            time.sleep(0.002)
        assert terminal.wait() in (0, EXIT_INTERRUPTED)
        shown = terminal.raw
    assert b"Traceback" not in shown and b"Error" not in shown, shown[-2000:]
    assert not list(forage_home.glob("crash-*.log"))


@pytest.mark.parametrize("terminal_state", ["never reads", "closed"])
def test_a_signal_ends_the_game_whatever_the_terminal_does(
    forage_home: Path, terminal_state: str
) -> None:
    import fcntl

    from forage.app.base import SHUTDOWN_SECONDS

    forage_home.mkdir(parents=True, exist_ok=True)
    with Terminal(forage_home, "play", "--seed", "3") as terminal:
        assert terminal.wait_for("Hint")
        for key in "rl" * 150:  # output the terminal never takes: Textual's writer blocks
            terminal.send(key)
            time.sleep(0.005)
        if terminal_state == "closed":
            os.close(terminal.main)
            terminal.main = os.open(os.devnull, os.O_RDWR)  # for the block's own close
        began = time.monotonic()
        terminal.signal(signal.SIGHUP)
        assert terminal.process.wait(SHUTDOWN_SECONDS + 10) == EXIT_HANGUP
        assert time.monotonic() - began < SHUTDOWN_SECONDS + 3
    with (forage_home / saves.LOCK_NAME).open("a") as lock:  # the save's lock is free again
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
def test_no_worker_outlives_a_game_killed_while_it_analyses(forage_home: Path) -> None:
    forage_home.mkdir(parents=True, exist_ok=True)
    with Terminal(forage_home, "play", "--seed", "3") as terminal:
        assert terminal.wait_for("Hint")
        terminal.send("t")  # the hint's play-outs go to the app's workers
        deadline = time.monotonic() + 20
        while len(descendants(terminal.process.pid)) < 2 and time.monotonic() < deadline:
            terminal._read(0.1)
        workers = descendants(terminal.process.pid)
        assert len(workers) >= 2, "the hint works in worker processes"
        terminal.signal(signal.SIGKILL)
        terminal.process.wait(10)
    deadline = time.monotonic() + 5
    while any(running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(running(pid) for pid in workers), "a worker outlived the game"
