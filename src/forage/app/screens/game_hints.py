"""The game screen's hints: asked in the background, shown on the status bar's last line,
the card moved to the answer so far and then the final one (part of ``GameScreen``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from forage.app.describe import ELLIPSIS, card_name
from forage.app.services import services_of
from forage.engine import Game, Placement

if TYPE_CHECKING:
    from forage.ai.hint import Hint
    from forage.app.screens.base import ForageScreen
    from forage.app.session import Session

    _Screen = ForageScreen
else:
    _Screen = object


class HintActions(_Screen):
    """``t``: a suggested placement, worked out by the app's workers."""

    if TYPE_CHECKING:
        session: Session
        _serial: int
        _peek: bool
        _hint: tuple[tuple[int, tuple[Placement, ...]], Placement, str] | None
        _early: Placement | None

        def say(self, text: str) -> None: ...
        def changed(self) -> None: ...

    def _hint_text(self) -> str:
        """The hint in words while it is for the game as it stands, else nothing."""
        if self._hint is None:
            return ""
        key, placement, text = self._hint
        here = self.session.cursor
        if key != (self._serial, tuple(self.session.game.moves)) or here != placement:
            self._hint = None  # the card left the hinted placement: the hint no longer applies
            return ""
        return text

    def action_hint(self) -> None:
        """Work out a suggested placement in the background, then show it."""
        game = self.session.game
        if game.is_over():
            return
        self.session.hints += 1
        self._early = None
        self.say(f"Hint: looking for a good placement{ELLIPSIS}")
        key = (self._serial, tuple(game.moves))
        snapshot = self.session.snapshot()
        self.run_worker(self._find_hint(key, snapshot), exclusive=True, group="hint")

    async def _find_hint(self, key: tuple[int, tuple[Placement, ...]], game: Game) -> None:
        """Ask the app's services for a hint on a copy of the game; show the answer so
        far, then the final one."""
        from forage.ai.workers import POOL_ERRORS, pool_problem

        def so_far(found: Hint) -> None:
            if self.on_stack():  # the screen may have closed meanwhile
                self._hint_ready(key, found)

        try:
            found = await services_of(self.app).hint(game, so_far)
        except POOL_ERRORS as error:
            self.say(f"No hint: {pool_problem(error)}.")
            return
        self._hint_ready(key, found)

    def _hint_ready(self, key: tuple[int, tuple[Placement, ...]], found: Hint | None) -> None:
        """Show the hint (first the answer so far, then the final one), unless the game
        moved on while it was being worked out, or the player has moved the card off the
        answer so far."""
        if key != (self._serial, tuple(self.session.game.moves)):
            return
        if found is None:
            self.say("No placement to suggest.")
            return
        early, self._early = self._early, None
        if found.final and early is not None and self.session.cursor != early:
            return  # the player moved the card off the answer so far: leave it be
        self.show_hint(found.placement, found.gain, found.expected, found.final, found.proven)
        if not found.final:
            self._early = self.session.cursor

    def show_hint(
        self,
        placement: Placement,
        gain: int = 0,
        expected: float = 0.0,
        final: bool = True,
        proven: bool = False,
    ) -> None:
        """Move the card being placed to a suggested placement; enter then places it
        (``final`` False: the answer so far, the search still checking it; ``proven``: the
        exact search's best, ``expected`` the final score it reaches)."""
        if self.session.go_to(placement):
            self._peek = False
            game = self.session.game
            more = expected - (game.base + gain)
            name = card_name(game.card(placement.card))
            later = f", about {more:.0f} more next turn" if game.turn < game.turns else ""
            if proven:
                later = f", {more:.0f} more next turn" if game.turn < game.turns else ""
                later += "; proven best"
            text = (
                f"Hint: {name} here, {gain:+d} now{later}."
                if final  # the headline above says that enter places it
                else f"Hint so far: {name} here, {gain:+d} now; still checking{ELLIPSIS}"
            )
            here = self.session.cursor
            assert here is not None
            self._hint = ((self._serial, tuple(self.session.game.moves)), here, text)
            self.changed()
