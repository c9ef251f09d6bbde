"""A game that ``forage serve`` runs for a browser tab ends when its server is gone.

The server starts each tab's ``forage play`` with its own process id in
:data:`SERVER_PID_VARIABLE`. Such a game asks Linux to signal it (SIGUSR1) when
its parent dies, and on any system watches, on a daemon thread, for its parent changing or
its input closing. Either way it leaves (:func:`leave`): its output, which no one reads any
more, goes to the null device, and it gets SIGTERM, on which the game saves and exits 143 (a
game that has not left within :data:`GRACE_SECONDS` more is ended there and then). So a
server killed with SIGKILL leaves no game behind holding the save's lock.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
import time
from typing import Final

from forage.exits import EXIT_TERMINATED

SERVER_PID_VARIABLE: Final = "FORAGE_SERVER_PID"
"""The environment variable through which ``forage serve`` tells a game its process id."""
WATCH_SECONDS: Final = 0.25
"""How often the watchdog looks for its server."""
GRACE_SECONDS: Final = 5.0
"""How long a game told to end has to leave before the watchdog ends its process."""
PR_SET_PDEATHSIG: Final = 1
"""Linux's prctl option: the signal this process gets when its parent dies."""
_HUNG_UP: Final = getattr(select, "POLLHUP", 0) | getattr(select, "POLLERR", 0)


def server_pid() -> int | None:
    """The process id of the ``forage serve`` that started this game, or None."""
    text = os.environ.get(SERVER_PID_VARIABLE, "")
    return int(text) if text.isascii() and text.isdigit() else None


def tie_to_server() -> None:
    """If ``forage serve`` started this game, end the game (SIGTERM) when the server is gone."""
    pid = server_pid()
    if pid is None:
        return
    os.environ.pop(SERVER_PID_VARIABLE)  # for this game, not for what it starts
    if sys.platform.startswith("linux"):
        # SIGUSR1, not SIGTERM itself: on SIGTERM the game would stop at once and write its
        # last frames to the dead server's pipe, which fails; this handler first points the
        # output elsewhere.
        signal.signal(signal.SIGUSR1, lambda number, frame: leave())
        set_parent_death_signal(signal.SIGUSR1)
    if os.getppid() != pid:  # the server died before the signal was set
        leave()
        return
    threading.Thread(target=watch, args=(pid,), name="forage-server-watch", daemon=True).start()


def leave() -> None:
    """The server is gone: send this game's output (stdout, stderr) to the null device, as
    no one reads it, and SIGTERM the game, on which it saves and exits 143."""
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in (1, 2):
            os.dup2(devnull, stream)
        os.close(devnull)
    os.kill(os.getpid(), signal.SIGTERM)


def set_parent_death_signal(number: int) -> bool:
    """Have Linux send this process ``number`` when its parent dies; False elsewhere or if
    refused."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # Linux only, and only in a browser tab's game

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, number, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def server_gone(pid: int) -> bool:
    """Whether the server is gone: this process has another parent, or its input has closed."""
    return os.getppid() != pid or input_closed()


def input_closed() -> bool:
    """Whether standard input is a pipe or socket whose other end has closed (False where
    that cannot be told without reading it)."""
    if not hasattr(select, "poll"):
        return False
    poller = select.poll()
    try:
        poller.register(sys.__stdin__.fileno() if sys.__stdin__ else 0, _HUNG_UP)
        return any(events & _HUNG_UP for _, events in poller.poll(0))
    except (OSError, ValueError):
        return False


def watch(pid: int) -> None:
    """Wait until the server is gone, then end this game: SIGTERM, and if it is still here
    after GRACE_SECONDS, exit at once."""
    while not server_gone(pid):
        time.sleep(WATCH_SECONDS)
    leave()
    time.sleep(GRACE_SECONDS)
    os._exit(EXIT_TERMINATED)
