"""The game screen on a set position with two lines of guidance: a lesson or a puzzle.

Its game is not the player's own: never saved, resumed or stored in the history, and
without an end screen (the two lines say how it went). The game's keys that make no sense
on a set position are locked; escape leaves, back to the game it was opened over if any.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.widgets import Static

from forage.app.keeper import Forgetful, Keeper
from forage.app.modes.base import Mode
from forage.i18n import _


class GuidedMode(Mode):
    """A game screen on a set position, its two lines under the title (``#lesson``)."""

    OWN_GAME: ClassVar[bool] = False
    """The game is not the player's own: never saved, resumed or recorded."""

    LOCKED: ClassVar[frozenset[str]] = frozenset(
        {
            "undo",
            "redo",
            "new_game",
            "stats",
            "history",
            "quit_game",
            "learn",
            "puzzle",
            "ask_costly",
            "spot",
            "friends",
        }
    )
    """The game's keys a set position does without."""

    ASKS_BEFORE_COSTLY: ClassVar[bool] = False
    """A costly drop here is what the lesson or puzzle is about: no second enter."""

    CLASSES: ClassVar[tuple[str, ...]] = ("-guided",)
    """Two lines under the title (``app.tcss``)."""

    def __init__(self, *, over_game: bool = False) -> None:
        """A set position; ``over_game``: opened over a game, to which escape goes back."""
        self.over_game = over_game

    def compose_lesson(self) -> ComposeResult:
        """The two lines of guidance."""
        yield Static(id="lesson", classes="body")

    def quit_help(self) -> str | None:
        """q leaves, as escape does."""
        # Translators: a line of the help's table of keys: the text starts at column 21.
        return _("  q, escape         leave")

    def ends(self) -> bool:
        """No end screen: the two lines say how it went."""
        return False

    def keeper(self) -> Keeper:
        """The game is never saved: the game in progress keeps its save."""
        return Forgetful()

    def action_leave(self) -> None:
        """Leave: back to the game this was opened over, or out of forage."""
        if self.over_game:
            self.screen.dismiss()
        else:
            self.screen.app.exit(0)
