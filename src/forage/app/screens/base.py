"""What every screen of the game shares: the "terminal too small" message."""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, Final

from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from forage.adapters.textual import release_styles_caches, use_line_compositor
from forage.i18n import _
from forage.screen_size import MIN_COLUMNS, MIN_ROWS

if TYPE_CHECKING:
    from forage.app.session import Session

WIDE_COLUMNS: Final = 110
"""From this width the screens lay out side by side (the ``-wide`` class)."""
COLUMN_CLASSES: Final = ((0, "-too-narrow"), (MIN_COLUMNS, "-normal"), (WIDE_COLUMNS, "-wide"))
TALL_ROWS: Final = 30
"""From this height a recipe challenge's side panel has room for its margins and the base
score's points (the ``-tall-height`` class); below it, it is drawn compact to fit whole."""
ROW_CLASSES: Final = ((0, "-too-short"), (MIN_ROWS, "-normal-height"), (TALL_ROWS, "-tall-height"))
"""The classes the apps give their screens by size (styled in ``app.tcss``)."""
TOO_SMALL: Final = _(
    "The terminal is too small for Forage.\n"
    "Please make it at least {columns}x{rows} (80x24 or more is best).\n"
    "q quits; your game is saved."
).format(columns=MIN_COLUMNS, rows=MIN_ROWS)


def too_small_notice() -> Static:
    """The notice shown instead of the screen's contents when the terminal is too small."""
    return Static(TOO_SMALL, classes="too-small")


class ForageScreen(Screen[None]):
    """A full screen of the game; its contents hide when the terminal is too small. Its
    partial repaints render only the lines that changed (``forage.adapters.textual``)."""

    def __init__(self) -> None:
        """A screen classed by the terminal's size from the start (so that the first
        resize, which tells Textual the size, restyles nothing)."""
        super().__init__()
        try:
            size = self.app.size
        except RuntimeError:  # made outside a running app (no size to go by)
            pass
        else:
            self.set_classes(" ".join(size_classes(*size)))
        use_line_compositor(self)

    def on_unmount(self) -> None:
        """Let Textual forget this screen's drawn lines (see ``release_styles_caches``)."""
        release_styles_caches()

    def on_stack(self) -> bool:
        """Whether the screen is on the app's stack (not closed: its widgets are there), for
        what comes in from background work."""
        try:
            return self in self.app.screen_stack
        except RuntimeError:  # NoActiveAppError: the screen has left the app already
            return False


def size_classes(width: int, height: int) -> tuple[str, str]:
    """The classes Textual gives a screen of this size (``App.HORIZONTAL_BREAKPOINTS``...)."""
    column = next(name for least, name in reversed(COLUMN_CLASSES) if width >= least)
    row = next(name for least, name in reversed(ROW_CLASSES) if height >= least)
    return column, row


class ForageModal(ModalScreen[str]):
    """A dialog over the game; it too yields to the too-small notice. The dialogs' styles
    (``dialogs.tcss``) load with the first dialog opened, not at start-up."""

    CSS_PATH = "dialogs.tcss"

    def on_unmount(self) -> None:
        """Let Textual forget this dialog's drawn lines (see ``release_styles_caches``)."""
        release_styles_caches()


class ModeHost(ForageScreen):
    """The game screen as its modes see it (``forage.app.modes``): the session it plays and
    what a mode may ask of it. :class:`forage.app.screens.game.GameScreen` is the one."""

    session: Session
    """The game being played, and how it came to be."""

    @property
    @abstractmethod
    def last_note(self) -> str:
        """What the last drop (or undo, redo) did, or the note kept since."""

    @abstractmethod
    def changed(self) -> None:
        """Note that the game or the cursor changed."""

    @abstractmethod
    def say(self, text: str) -> None:
        """Answer a key on the status bar's last line."""

    @abstractmethod
    def keep_note(self, text: str, tone: str = "note") -> None:
        """Say what happened on the status bar's last line until the next drop says."""

    @abstractmethod
    def place_card(self) -> None:
        """Place the card; an illegal spot is refused with its reason."""

    @abstractmethod
    def save_and_quit(self) -> None:
        """Save the game and leave."""

    @abstractmethod
    def load(self, session: Session) -> None:
        """Play another session on this screen."""
