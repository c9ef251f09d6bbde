"""A Textual application that runs the guided first game on its own (``forage learn``)."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from forage import startup
from forage.app.base import ForageBaseApp
from forage.app.modes.lesson import LessonMode, lesson_screen
from forage.app.screens.game import GameScreen
from forage.i18n import _


class LearnApp(ForageBaseApp):
    """The tutorial, resumed at the lesson it was left at (or at ``step``)."""

    TITLE = _("Forage: learn")

    def __init__(self, step: int | None = None) -> None:
        """An app that opens the tutorial; ``step`` (from 0) starts at that lesson."""
        super().__init__()
        self.step = step

    def get_default_screen(self) -> Screen[Any]:
        """The tutorial's screen."""
        return lesson_screen(self.step)

    def on_mount(self) -> None:
        """Let the garbage collector run again once the first frame is drawn; a stopping
        signal keeps the lesson reached and leaves."""
        self.call_after_refresh(startup.release)
        self.listen_for_signals()

    def stop_on_signal(self, code: int) -> None:
        """Keep the lesson reached and leave with ``code``."""
        screen = self.screen
        if isinstance(screen, GameScreen) and isinstance(screen.mode, LessonMode):
            screen.mode.keep()
        self.exit(code)
