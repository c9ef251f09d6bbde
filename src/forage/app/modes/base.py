"""What a mode of the game screen can change: the hooks the screen consults."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual.binding import BindingType

from forage.app.keeper import Keeper, keeper_of

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.message import Message

    from forage.app.screens.base import ModeHost
    from forage.app.widgets import HandState, ScoreState, StatusState
    from forage.engine import Outcome


class Mode:
    """A mode of the game screen; each hook does what a game of one's own does.

    The screen is the mode's once it is made (:meth:`attach`); a mode reads and drives the
    game through the screen's public methods (``session``, ``say``, ``changed``, ``load``).
    """

    BINDINGS: ClassVar[list[BindingType]] = []
    """Keys on top of the game's: a key bound again is bound anew where it stands in the key
    bar, a new one comes after the others; a key of the mode's own runs ``mode('name')``,
    the mode's ``action_name``."""

    LOCKED: ClassVar[frozenset[str]] = frozenset()
    """The game's keys this mode does without (not shown, not working, not in its help)."""

    OWN_GAME: ClassVar[bool] = True
    """Whether the screen plays the player's own game (the one saved and resumed)."""

    ASKS_BEFORE_COSTLY: ClassVar[bool] = True
    """Whether a costly drop asks for a second enter here (``view.is_costly``), as the
    player's settings say."""

    CLASSES: ClassVar[tuple[str, ...]] = ()
    """The screen's CSS classes in this mode (styled in ``app.tcss``)."""

    CSS_PATHS: ClassVar[tuple[Path, ...]] = ()
    """Style sheets the screen loads in this mode, besides the app's."""

    screen: ModeHost

    def attach(self, screen: ModeHost) -> None:
        """Be the mode of ``screen`` (from its construction on)."""
        self.screen = screen

    def compose_lesson(self) -> ComposeResult:
        """What goes between the title and the woodland: nothing in a game of one's own."""
        yield from ()

    def compose_side(self) -> ComposeResult:
        """What goes below the score in the side panel: nothing in a game of one's own."""
        yield from ()

    def mounting(self) -> None:
        """The screen is mounted, the game not yet drawn."""

    def mounted(self) -> None:
        """The screen is mounted and the game drawn."""

    def unmounted(self) -> None:
        """The screen is leaving the app."""

    def handle(self, message: Message) -> None:
        """A message or event that came to the screen (the mode answers those it deals in)."""

    def allows(self, action: str) -> bool:
        """Whether the mode lets a key's action be shown and work now (the game's own
        rules then apply): every one in a game of one's own."""
        return True

    def key_name(self, action: str) -> str | None:
        """What the key bar calls an action in this mode, where it says otherwise than the
        game (None: as the game)."""
        return None

    def quit_help(self) -> str | None:
        """The help's line on what q does here (None: the game's own line)."""
        return None

    def keeper(self) -> Keeper:
        """What writes the screen's game down: the app's keeper (the save, the --record
        file)."""
        return keeper_of(self.screen.app)

    def marked(self) -> frozenset[tuple[int, int]]:
        """The squares marked on the woodland as the place to go: none in a game."""
        return frozenset()

    def status_shown(self, state: StatusState) -> StatusState:
        """What the status bar shows of the state the game gives: that state, in a game of
        one's own."""
        return state

    def hand_shown(self, state: HandState) -> HandState:
        """What the hand shows of the state the game gives: that state, in a game of one's
        own."""
        return state

    def score_shown(self, state: ScoreState) -> ScoreState:
        """What the score panel shows of the state the game gives: that state, in a game of
        one's own."""
        return state

    def view_updated(self) -> None:
        """The game's widgets have their states (the mode may word the title, its lines)."""

    def place(self) -> None:
        """Enter: the game places the card."""
        self.screen.place_card()

    def after_placing(self, outcome: Outcome) -> None:
        """After a legal placement is made on the screen: nothing more in a game of one's
        own (a room's game sends it to the server)."""

    def quit(self) -> None:
        """q: the game is saved and forage ends."""
        self.screen.save_and_quit()

    def ends(self) -> bool:
        """Whether the game's end screen comes once the game is over; a mode without one
        may end its own way here."""
        return True
