"""What every forage Textual app shares: the styles, the size classes, no command palette."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Final

from textual.app import App

from forage.app.screens.base import COLUMN_CLASSES, ROW_CLASSES
from forage.exits import EXIT_HANGUP, EXIT_INTERRUPTED, EXIT_TERMINATED

STOPPING_SIGNALS: Final = (
    (signal.SIGTERM, EXIT_TERMINATED),
    (signal.SIGINT, EXIT_INTERRUPTED),
    *(((signal.SIGHUP, EXIT_HANGUP),) if hasattr(signal, "SIGHUP") else ()),
)
"""The signals that end the game (the game saved, the terminal restored) and the exit code
of each."""


class ForageBaseApp(App[int]):
    """A Textual app styled as forage (``app.tcss``), its screens classed by size."""

    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = False
    HORIZONTAL_BREAKPOINTS = list(COLUMN_CLASSES)  # noqa: RUF012
    VERTICAL_BREAKPOINTS = list(ROW_CLASSES)  # noqa: RUF012

    def listen_for_signals(self) -> None:
        """End cleanly on SIGTERM, SIGINT and SIGHUP (not in headless tests)."""
        if self.is_headless:
            return
        loop = asyncio.get_running_loop()
        for number, code in STOPPING_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(number, self.stop_on_signal, code)

    def stop_on_signal(self, code: int) -> None:
        """Leave with ``code`` (Textual restores the terminal)."""
        self.exit(code)
