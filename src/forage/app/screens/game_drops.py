"""The game screen's question before a costly drop: a second enter asked for a drop that
loses points, unless the player has turned the question off (part of ``GameScreen``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from forage.app.describe import asking_words
from forage.app.view import PositionKey, drop_change, is_costly
from forage.engine import Placement
from forage.settings import Settings, load_settings, save_settings

if TYPE_CHECKING:
    from forage.app.screens.base import ForageScreen
    from forage.app.session import Session

    _Screen = ForageScreen
else:
    _Screen = object


class CostlyDrops(_Screen):
    """Enter twice for a drop that costs (``view.is_costly``); ``w`` turns that on or off."""

    if TYPE_CHECKING:
        session: Session
        ASKS_BEFORE_COSTLY: ClassVar[bool]
        _asked: tuple[PositionKey, Placement | None] | None
        _settings: Settings | None

        def say(self, text: str) -> None: ...
        def changed(self) -> None: ...
        def _position_key(self) -> PositionKey: ...

    @property
    def asks_again(self) -> bool:
        """Whether enter was pressed once for a costly drop, and a second enter places it."""
        return self._asked is not None and self._asked == (
            self._position_key(),
            self.session.cursor,
        )

    def _ask_first(self) -> bool:
        """Whether enter asks again rather than places: the drop shown is costly, the
        player has not turned the question off, and enter was not just pressed for it."""
        session = self.session
        here = (self._position_key(), session.cursor)
        if not self.ASKS_BEFORE_COSTLY or self._asked == here or not self._asks_costly():
            return False
        outcome = session.preview()
        if outcome is None or not outcome.legal:
            return False
        game = session.game
        after = game.result_after(outcome) if session.is_challenge else None
        if not is_costly(drop_change(game, outcome, after)):
            return False
        self._asked = here
        self.changed()
        return True

    def _asks_costly(self) -> bool:
        """Whether the player wants a second enter before a costly drop (read once from
        the data folder; in a browser tab, whose data folder is the server's, asked until
        turned off there)."""
        if self._settings is None:
            self._settings = Settings() if self.app.is_web else load_settings()
        return self._settings.ask_costly

    def action_ask_costly(self) -> None:
        """Turn the question before a costly drop off, or on again (kept for next time)."""
        self._settings = Settings(ask_costly=not self._asks_costly())
        self._asked = None
        kept = self.app.is_web or save_settings(self._settings)
        answer = asking_words(self._settings.ask_costly)
        if not kept:
            answer += " (For this game only: the data folder cannot be written.)"
        self.say(answer)
