"""The game in a real (pseudo-)terminal under faults: signals and malformed input.

SIGTERM, SIGINT and SIGHUP save the game and leave with the terminal restored (143, 130,
129); a malformed escape sequence is ignored; an error Textual cannot hand on takes the
crash path (a log, exit 70), never a traceback on screen.
"""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path

import pytest
from app_helpers import greedy, sync
from terminal import Terminal

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
    assert app._exit_renderables == []  # nothing printed over the terminal
    assert report_crash(app.crash) == EXIT_CRASH
    (log,) = forage_home.glob("crash-*.log")
    assert "Panicked" in log.read_text() and "chr()" in log.read_text()
