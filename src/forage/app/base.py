"""What every forage Textual app shares: the styles, the size classes, no command palette."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import threading
import time
from typing import TYPE_CHECKING, Any, ClassVar, Final

from textual.binding import Binding, BindingType

from forage.adapters.textual import (
    ErrorHookApp,
    drop_exit_printout,
    end_for_error,
    on_app_thread,
)
from forage.app.describe import ASCII
from forage.app.languages import LANGUAGE_KEY, keep_language, language_name, next_language
from forage.app.screens.base import COLUMN_CLASSES, ROW_CLASSES
from forage.app.services import Services
from forage.app.themes import register_themes
from forage.exits import EXIT_HANGUP, EXIT_INTERRUPTED, EXIT_TERMINATED
from forage.i18n import _, current
from forage.palette import css_variables

if TYPE_CHECKING:
    from forage.app.recorder import Recorder

STOPPING_SIGNALS: Final = (
    (signal.SIGTERM, EXIT_TERMINATED),
    (signal.SIGINT, EXIT_INTERRUPTED),
    *(((signal.SIGHUP, EXIT_HANGUP),) if hasattr(signal, "SIGHUP") else ()),
)
"""The signals that end the game (the game saved, the terminal restored) and the exit code
of each."""
SHUTDOWN_SECONDS: Final = 5.0
"""How long an app may take to close once it has begun: a terminal that is gone (or never
reads) can block Textual's output for ever, and then the process ends without it."""


def plain_bars() -> None:
    """Draw Textual's scroll bars, sparklines and progress bars without block glyphs
    (plain ASCII: a scroll bar's thumb and a sparkline's bars are shaded spaces and
    letters, a progress bar dashes)."""
    # FORAGE_ASCII only: the bars' modules are loaded for it, not at every start
    from textual.renderables.bar import Bar
    from textual.renderables.sparkline import Sparkline
    from textual.scrollbar import ScrollBarRender

    ScrollBarRender.VERTICAL_BARS = [" "] * 8
    ScrollBarRender.HORIZONTAL_BARS = [" "] * 8
    Sparkline.BARS = "_.-=+*#@"
    Bar.HALF_BAR_LEFT = Bar.HALF_BAR_RIGHT = "-"
    Bar.BAR = "-"


class ForageBaseApp(ErrorHookApp[int]):
    """A Textual app styled as forage (``app.tcss``), its screens classed by size."""

    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = False
    HORIZONTAL_BREAKPOINTS = list(COLUMN_CLASSES)  # noqa: RUF012
    VERTICAL_BREAKPOINTS = list(ROW_CLASSES)  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [
        # Translators: the key that switches the language, in the key bar (10 columns).
        Binding(LANGUAGE_KEY, "switch_language", _("Language"), show=False),
    ]

    def __init__(self, services: Services | None = None) -> None:
        """An app with forage's palettes, its background work done by ``services`` (a set
        of its own, with no history, by default), and no crash yet."""
        super().__init__()
        self.services = services or Services()
        """Everything the app's screens do off the key-press path (history, analyses)."""
        register_themes(self)
        if ASCII:  # FORAGE_ASCII=1: borders in app.tcss, Textual's bars below
            self.add_class("-ascii")
            plain_bars()
        self.crash: BaseException | None = None
        """The error that stopped the app, if one did (the command that ran it logs it)."""
        self.farewell: str | None = None
        """What to print once the app has ended (the command that takes the game up again,
        after the player stopped for now)."""
        self._stopping_on: int | None = None
        """The exit code of the stopping signal being handled, once one has come."""
        self._run_returned = threading.Event()
        """Set once :meth:`run` has returned."""

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The game's own CSS variables (its surfaces' colours) under any theme, Textual's
        own among them: the game's palette's where the theme gives none."""
        return {**super().get_theme_variable_defaults(), **css_variables()}

    @property
    def recorder(self) -> Recorder | None:
        """The app's history (None when the app keeps none): its services' history."""
        return self.services.history

    def run(self, *args: Any, **kwargs: Any) -> int | None:
        """Run the app (as Textual's ``App.run``) until it has closed."""
        try:
            return super().run(*args, **kwargs)
        finally:
            self._run_returned.set()

    async def on_unmount(self) -> None:
        """The app is closing: its analyses are dropped and their workers ended; from here
        it has :data:`SHUTDOWN_SECONDS` to be done, else the process ends with the app's
        exit code (what is kept is written first: the writes asked for after each change
        are made here, the save on a stopping signal before)."""
        self.services.end_analyses()
        await asyncio.wrap_future(self.services.writes.done())
        if not self.is_headless:
            threading.Thread(target=self._end_if_stuck, daemon=True).start()

    def _end_if_stuck(self, code: int | None = None) -> None:
        """In its own thread: end the process with ``code`` (else the app's result) if it
        has not ended within :data:`SHUTDOWN_SECONDS`; unless signalled, once the app has
        closed the rest of the way out is the command's."""
        if code is None and self._run_returned.wait(SHUTDOWN_SECONDS):
            return
        if code is not None:
            time.sleep(SHUTDOWN_SECONDS)
        result = self.return_value if code is None else code
        os._exit(result if isinstance(result, int) else 0)

    def unhandled_error(self, error: Exception) -> None:
        """Keep the error for the command to log; Textual restores the terminal and exits
        (its own printout of the traceback dropped: the log file has it)."""
        self.crash = error
        end_for_error(self, error)
        drop_exit_printout(self)

    def action_switch_language(self) -> None:
        """Switch to the next language: kept in the settings (not in a browser tab: the
        data folder is the server's), then taken up as :meth:`language_switched` says."""
        language = next_language(current())
        if not self.is_web:
            keep_language(language)
        self.language_switched(language)

    def language_switched(self, language: str) -> None:
        """After the language is switched: it is forage's from its next start."""
        self.notify(
            _("Language: {language}, from the next start of forage.").format(
                language=language_name(language)
            ),
            timeout=8,
        )

    def history_notice(self, message: str) -> None:
        """Tell the player about the history (a file moved aside, a game it could not
        take); from any thread, and never after the app has stopped."""
        if on_app_thread(self):
            self.notify(message, severity="warning", timeout=8)
        elif self.is_running:
            with contextlib.suppress(RuntimeError):  # the app stopped meanwhile
                self.call_from_thread(self.notify, message, severity="warning", timeout=8)

    def listen_for_signals(self) -> None:
        """End cleanly on SIGTERM, SIGINT and SIGHUP (not in headless tests).

        The handlers are the interpreter's own, not the event loop's, so that a signal is
        heard even while the loop is blocked (on a terminal that no longer reads); each
        hands the stop to the loop, and gives the process :data:`SHUTDOWN_SECONDS` to end.
        """
        if self.is_headless:
            return
        loop = asyncio.get_running_loop()
        for number, code in STOPPING_SIGNALS:
            with contextlib.suppress(ValueError, OSError):
                signal.signal(number, functools.partial(self._signalled, loop, code))

    def _signalled(self, loop: asyncio.AbstractEventLoop, code: int, *_: object) -> None:
        """A stopping signal: the first one stops the app; any more while it stops (a
        burst of Ctrl+C) are let go, as the screens they would ask about are going."""
        if self._stopping_on is not None:
            return
        self._stopping_on = code
        threading.Thread(target=self._end_if_stuck, args=(code,), daemon=True).start()
        with contextlib.suppress(RuntimeError):  # the loop has closed: the app is done
            loop.call_soon_threadsafe(self.stop_on_signal, code)

    def stop_on_signal(self, code: int) -> None:
        """Leave with ``code`` (Textual restores the terminal)."""
        self.exit(code)
