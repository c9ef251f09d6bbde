"""What a player's terminal shows, cell by cell: forage in a pseudo-terminal read through a
terminal emulator (pyte), double-width characters taking their two columns."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pyte
from terminal import Terminal


class Shown:
    """``forage ARGS`` in a terminal of a given size, its screen kept as the player sees it."""

    def __init__(
        self, home: Path, *args: str, size: tuple[int, int] = (80, 24), language: str = "ja"
    ) -> None:
        """Start forage in ``language`` (FORAGE_LANG) with its data in ``home``."""
        import os

        before = os.environ.get("FORAGE_LANG")
        os.environ["FORAGE_LANG"] = language
        try:
            self.terminal = Terminal(home, *args, size=size)
        finally:
            if before is None:
                del os.environ["FORAGE_LANG"]
            else:
                os.environ["FORAGE_LANG"] = before
        columns, rows = size
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self._fed = 0

    def __enter__(self) -> Shown:
        """The terminal, read on a thread of its own."""
        self.terminal.keep_reading()
        return self

    def __exit__(self, *exc: object) -> None:
        """Kill forage if it still runs."""
        self.terminal.__exit__(None, None, None)

    def lines(self) -> list[str]:
        """The screen now, one string per row (a wide character once, in its first cell)."""
        raw = self.terminal.raw
        if len(raw) > self._fed:
            self.stream.feed(raw[self._fed :])
            self._fed = len(raw)
        return [line.rstrip() for line in self.screen.display]

    def text(self) -> str:
        """The screen now, rows joined by newlines."""
        return "\n".join(self.lines())

    def wait_for(self, pattern: str, seconds: float = 60) -> str:
        """Wait until the screen shows ``pattern`` (a regular expression); the screen then."""
        end = time.monotonic() + seconds
        found = re.compile(pattern)
        while True:
            shown = self.text()
            if found.search(shown):
                return shown
            if time.monotonic() > end:
                raise AssertionError(f"never shown: {pattern!r}; the screen:\n{shown}")
            self.terminal._closing.wait(0.05)

    def send(self, keys: str) -> None:
        """Type keys."""
        self.terminal.send(keys)


ENGLISH_WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]{2,}(?![A-Za-z])")


def english_words(text: str, allowed: frozenset[str]) -> list[str]:
    """The words of two or more Latin letters on a screen, but for those allowed."""
    return [word for word in ENGLISH_WORD.findall(text) if word.lower() not in allowed]
