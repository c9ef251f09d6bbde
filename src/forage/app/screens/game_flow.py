"""The game screen's flow between games and screens: a new game, quitting, the end of a
game and what comes after it, the dialogs and screens opened over the game, the history it
asks (part of ``GameScreen``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from forage.app.describe import DOT
from forage.app.keeper import Keeper, keeper_of
from forage.app.services import services_of
from forage.app.widgets import ScorePanel, WoodlandView
from forage.app.widgets.woodland import edwood_mark

if TYPE_CHECKING:
    from forage.app.screens.base import ForageScreen
    from forage.app.session import Session

    _Screen = ForageScreen
else:
    _Screen = object


class GameFlow(_Screen):
    """What takes the player from one game to the next, and to the screens over it."""

    if TYPE_CHECKING:
        session: Session
        ASKS_BEFORE_COSTLY: ClassVar[bool]
        OWN_GAME: ClassVar[bool]
        LOCKED: ClassVar[frozenset[str]]
        _ending: bool
        _serial: int
        _peek: bool
        _last: str
        _hint: object

        def say(self, text: str) -> None: ...
        def changed(self) -> None: ...
        def action_undo(self) -> None: ...
        def _asks_costly(self) -> bool: ...

    def quit_help(self) -> str | None:
        """The help's line on what q does here (None: the game's own line)."""
        return None

    def action_help(self) -> None:
        """Open the keys (those of this screen) and rules, Edwood's mark as the board draws
        it."""
        from forage.app.screens.help import HelpScreen, game_keys

        asks = self._asks_costly() if self.ASKS_BEFORE_COSTLY else None
        keys = game_keys(asks, self.LOCKED, self.quit_help())
        layout = self.query_one(WoodlandView).drawn_layout
        edwood = edwood_mark(layout[0].height) if layout is not None else None
        self.app.push_screen(HelpScreen(self.session.game.recipes, keys=keys, edwood=edwood))

    def action_new_game(self) -> None:
        """Start a new game (asking first if this one is under way)."""
        from forage.app.screens.confirm import ConfirmScreen

        game = self.session.game
        if game.moves and not game.is_over():

            def answered(answer: str | None) -> None:
                if answer == "yes":
                    self.load(self.session.new_game())

            self.app.push_screen(
                ConfirmScreen("Start a new game? This game will be lost."), answered
            )
        else:
            self.leave_finished(lambda: self.load(self.session.new_game()), "A new game")

    def action_quit_game(self) -> None:
        """Save the game and leave (it is offered next time: not abandoned), the keeper
        noting what it kept where, for the terminal."""
        keeper = self.keeper()
        keeper.save(self.session)

        def leave() -> None:
            keeper.quit(self.session, self.in_history())
            self.app.exit(0)

        self.leave_finished(leave, "Quitting")

    def leave_finished(self, then: Callable[[], None], doing: str) -> None:
        """Do ``then`` once the finished game on this screen (if it is one) is kept apart
        from the save; when it cannot be kept, say why and what ``doing`` would do, and
        ask first."""
        problem = self.keeper().secure_finished(self.session, self.in_history())
        if problem is None:
            then()
            return
        from forage.app.screens.confirm import ConfirmScreen

        def answered(answer: str | None) -> None:
            if answer == "yes":
                then()
            else:
                self.say("The finished game is still here: free some space, then try again.")

        question = (
            f"This finished game is not kept anywhere yet ({problem}), so the history "
            f"cannot have it.\n\n{doing} now loses it. Go on anyway?"
        )
        self.app.push_screen(ConfirmScreen(question, ("lose it", "keep playing here")), answered)

    def load(self, session: Session) -> None:
        """Play another session on this screen (the one it replaces, if unfinished, is
        recorded as abandoned)."""
        if self.OWN_GAME:
            services_of(self.app).take_game(session.carry_on(self.session), self.session)
        self.session = session
        self.set_class(session.is_challenge, "-challenge")
        self._serial += 1
        self._last = ""
        self._hint = None
        self._peek = False
        self.query_one(ScorePanel).refresh(layout=True)
        self.keeper().keep(session)
        self.changed()
        self.check_end()

    def in_history(self) -> bool:
        """Whether this screen's finished game is stored in the history."""
        return self.OWN_GAME and services_of(self.app).has_recorded(self.session)

    def keeper(self) -> Keeper:
        """What writes this screen's game down (the save, the --record file)."""
        return keeper_of(self.app)

    def daily_label(self) -> str | None:
        """How the daily deal is named in the title (not by its long seed), else None."""
        daily = services_of(self.app).daily_of(self.session) if self.OWN_GAME else None
        if daily is not None:
            kind = "recipe challenge" if self.session.is_challenge else "standard game"
            return f"daily deal {daily} {DOT} {kind}"
        return None

    async def action_stats(self) -> None:
        """Open the statistics and achievements (read on the history's thread)."""
        from forage.app.screens.stats import StatsScreen

        stats, unlocked = await services_of(self.app).statistics()
        self.app.push_screen(StatsScreen(stats, unlocked))

    async def action_history(self) -> None:
        """Open the list of stored games, from which any can be reviewed (read on the
        history's thread)."""
        from forage.app.screens.history import SHOWN, HistoryScreen

        games = await services_of(self.app).stored_games(SHOWN)
        self.app.push_screen(HistoryScreen(games))

    def check_end(self) -> None:
        """Show the end screen once the game is over (finished or stuck)."""
        if not self.session.game.is_over() or self._ending:
            return
        from forage.app.screens.end import EndScreen

        self._ending = True
        self.app.push_screen(EndScreen(self.session), self._after_end)

    def _after_end(self, choice: str | None) -> None:
        self._ending = False
        session = self.session
        if choice == "again":
            self.leave_finished(lambda: self.load(session.same_deal()), "Playing the deal again")
        elif choice == "other":
            other = session.other_deck()
            if other is not None:
                self.leave_finished(lambda: self.load(other), "Playing the other deck")
        elif choice == "new":
            self.leave_finished(lambda: self.load(session.new_game()), "A new game")
        elif choice == "undo":
            self.action_undo()
        elif choice == "look":
            self.say("The finished woodland: enter shows the summary again.")
        elif choice == "quit":
            self.action_quit_game()
