"""Run ``forage`` in a pseudo-terminal for a test, as a player's terminal would."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path
from types import TracebackType

ESCAPES = re.compile(rb"\x1b\[[0-9;?>$<=]*[a-zA-Z~]|\x1b\][^\x07]*\x07")


class Terminal:
    """``python -m forage ARGS`` in a pseudo-terminal of a given size, FORAGE_HOME set."""

    def __init__(self, home: Path, *args: str, size: tuple[int, int] = (100, 32)) -> None:
        """Start forage (killed, if still running, when the ``with`` block ends)."""
        self.main, child = pty.openpty()
        columns, rows = size
        fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {**os.environ, "FORAGE_HOME": str(home)}
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "forage", *args],
            stdin=child,
            stdout=child,
            stderr=child,
            env=env,
            start_new_session=True,
        )
        os.close(child)
        self.raw = b""
        self._reader: threading.Thread | None = None
        self._closing = threading.Event()

    def __enter__(self) -> Terminal:
        """The terminal itself."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Kill forage if it still runs; close the terminal."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self._closing.set()
        if self._reader is not None:
            self._reader.join(10)
        os.close(self.main)

    def keep_reading(self) -> None:
        """Read what forage shows on a thread of its own from now on, so that it never
        waits on a full terminal while the test waits for something else (``wait_for``
        then only looks at what has been read)."""

        def read() -> None:
            while not self._closing.is_set() and self._read(0.05):
                pass

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.main], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.main, 65536)
        except OSError:
            return False
        self.raw += data
        return bool(data)

    def text(self) -> bytes:
        """Everything shown so far, escape sequences and white space taken out."""
        return re.sub(rb"\s", b"", ESCAPES.sub(b"", self.raw))

    def wait_for(self, words: str, seconds: float = 30) -> bool:
        """Read until ``words`` (spaces ignored) have been shown; whether they were."""
        needle = re.sub(r"\s", "", words).encode()
        end = time.monotonic() + seconds
        while needle not in self.text():
            if self._reader is not None:
                if time.monotonic() > end:
                    return False
                self._closing.wait(0.05)
            elif time.monotonic() > end or not self._read(0.05):
                return needle in self.text()
        return True

    def kill(self) -> None:
        """Kill forage at once (SIGKILL: nothing of it runs after), as a crash would."""
        self.process.kill()
        self.process.wait(10)

    def send(self, keys: str | bytes) -> None:
        """Type keys."""
        os.write(self.main, keys.encode() if isinstance(keys, str) else keys)

    def signal(self, number: signal.Signals) -> None:
        """Send forage a signal."""
        self.process.send_signal(number)

    def wait(self, seconds: float = 15) -> int:
        """Forage's exit code, reading what it shows meanwhile."""
        end = time.monotonic() + seconds
        while self.process.poll() is None and time.monotonic() < end:
            self._read(0.05)
        while self._read(0.05) and self.raw:
            if not select.select([self.main], [], [], 0)[0]:
                break
        return self.process.wait(max(0.1, end - time.monotonic()))


def place_first_spot(terminal: Terminal) -> None:
    """In a game just started in English: place the card on its first legal spot (``f``,
    enter), waiting for each step to be shown."""
    assert terminal.wait_for("tab Card"), terminal.text()[-300:]
    terminal.send("f")
    assert terminal.wait_for("Spot 1 of"), terminal.text()[-300:]
    terminal.send("\r")
    assert terminal.wait_for("Placed the"), terminal.text()[-300:]
