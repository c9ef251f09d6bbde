"""A Textual application that runs a day's puzzle on its own (``forage puzzle``)."""

from __future__ import annotations

from datetime import date
from typing import Any

from textual.screen import Screen

from forage import startup
from forage.app.base import ForageBaseApp
from forage.app.modes.puzzle import puzzle_screen
from forage.app.recorder import Recorder
from forage.app.services import Services
from forage.i18n import _
from forage.puzzle import Puzzle


class PuzzleApp(ForageBaseApp):
    """The puzzle of a date; its first try is kept in the history."""

    TITLE = _("Forage: puzzle")

    def __init__(self, puzzle: Puzzle, day: date, recorder: Recorder | None = None) -> None:
        """An app that opens the puzzle of ``day``; the first try is kept by ``recorder``
        (None: not kept)."""
        super().__init__(Services(history=recorder))
        self.puzzle = puzzle
        self.day = day

    def get_default_screen(self) -> Screen[Any]:
        """The puzzle's screen."""
        return puzzle_screen(self.puzzle, self.day)

    def on_mount(self) -> None:
        """Let the garbage collector run again once the first frame is drawn; a stopping
        signal leaves."""
        self.call_after_refresh(startup.release)
        self.listen_for_signals()
