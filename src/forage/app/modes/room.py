"""A room's game: the game screen's room mode, the server calling the cards.

The player's game is the engine's, rebuilt from what the server tells them
(:class:`forage.net.client.PlayerGame`, a :class:`~forage.engine.called.CalledGame` that waits
for each call rather than ending). A placement is made on screen as in a game of one's own
(the engine checks it) and sent with its turn; once the player has placed, the status bar
says whom the turn waits for, until the server calls the next card into the hand. Every
message from the server brings the screen's game up to what it was told (never back, but
for a placement the server refused). No undo (the server has the placement), no hint (the
room plays fair), no new game; ``q`` leaves the room, saying what that does. The results
come with the server's ``end``.
"""

from __future__ import annotations

from datetime import date
from enum import IntEnum
from pathlib import Path
from typing import ClassVar, Final

from textual import events
from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import Static

from forage.app.base import ForageBaseApp
from forage.app.describe import DOT, ELLIPSIS, card_name, clock_time
from forage.app.keeper import Forgetful, Keeper
from forage.app.modes.base import Mode
from forage.app.screens.base import ModeHost
from forage.app.screens.game import GameScreen
from forage.app.screens.rooms import (
    PANEL_CELLS,
    ROOM_RULES,
    ROOMS_CSS,
    SLOW_SECONDS,
    RoomNews,
    RoomWatch,
    connection_line,
    connection_news,
    history_key,
    keep_room_game,
    left_game,
    link_of,
    names_text,
    room_name,
    standings_text,
    take_back_command,
)
from forage.app.session import Session
from forage.app.themes import marks_of
from forage.app.widgets import HandState, PlayersView, ScoreState, StatusState
from forage.engine import Game, Outcome, Placement
from forage.history.games import now_utc
from forage.i18n import _
from forage.net.link import told as server_told
from forage.net.protocol import BusyOut, ErrorOut, TurnOut
from forage.net.rooms import WAIT_SECONDS

LEAVING: Final = _(
    "Leave the room? You leave the room; the others play on. Your game ends as it stands "
    "and is kept in your history as left.\n\nOr stop for now: your seat is kept here, and "
    "{command} takes it back (the room waits {minutes} minutes for you, then plays on "
    "without you)."
)
LEAVING_UNPLACED: Final = _(
    "Leave the room? You leave the room; the others play on. You have placed no card, so "
    "your history keeps nothing of this game.\n\nOr stop for now: your seat is kept here, "
    "and {command} takes it back (the room waits {minutes} minutes for you, then plays on "
    "without you)."
)
PAUSING_DAILY: Final = _(
    "Stop for now? Your try of today's online daily waits for you on the server until the "
    "day is over (midnight UTC): {command} takes it up where you left it."
)


def called_line(message: TurnOut, game: Game) -> str:
    """What the call of a turn says."""
    if message.card is None:
        return _("Turn {turn}: the last turn; no card is left to call.").format(turn=message.turn)
    return _("Turn {turn}: {card} is called.").format(
        turn=message.turn, card=card_name(game.card(message.card))
    )


class Fit(IntEnum):
    """How much the side panel gives up to show every player of the room, in order."""

    FULL = 0
    """Everything: one player a line, the recipes with their conditions."""
    COMPACT = 1
    """Two players a line."""
    BRIEF = 2
    """Two players a line, each recipe on one line."""


class RoomSession(Session):
    """A room's game on screen, named by its room."""

    def __init__(
        self, game: Game, room: str, cursor: Placement | None = None, day: date | None = None
    ) -> None:
        """The game of room ``room``; without a cursor, the card starts centred; ``day``:
        the room is the try of that day's online daily."""
        super().__init__(game, cursor=cursor)
        self.room = room
        self.day = day

    def label(self) -> str:
        """How the game is named on screen: by its room, or as the day's online daily."""
        name = room_name(self.room, self.day)
        if self.is_challenge:
            return _("{room} {dot} recipe challenge").format(room=name, dot=DOT)
        return _("{room} {dot} standard game").format(room=name, dot=DOT)


class RoomMode(Mode):
    """The game screen of a room: the server calls the cards, the others' scores beside."""

    OWN_GAME: ClassVar[bool] = False
    """The game is the room's: never saved or resumed (the server keeps it)."""

    LOCKED: ClassVar[frozenset[str]] = frozenset(
        {"undo", "redo", "hint", "new_game", "learn", "puzzle", "friends"}
    )
    """The game's keys a room does without."""

    CSS_PATHS: ClassVar[tuple[Path, ...]] = (ROOMS_CSS,)
    """The room's screens' styles (the players in the side panel)."""

    def __init__(self, day: date | None = None) -> None:
        """The mode of the player's game in a room; ``day``: the room is the try of that
        day's online daily."""
        self.day = day
        """The day whose online daily this room is a try of (None: a room of friends)."""
        self.dealt_at = now_utc()
        self._announced = 1
        """The last turn whose call was said (a rejoin tells the calls again)."""
        self._results_due = False
        self._results_shown = False
        self.fit = Fit.FULL
        """How much the side panel gives up to show every player."""
        self._players_lines = 0
        """The lines of the players last shown (the panel is laid out for them once the
        players' widget is as tall)."""

    def attach(self, screen: ModeHost) -> None:
        """Be the mode of ``screen``, which follows the app's room."""
        super().attach(screen)
        self.room_watch = RoomWatch(screen)

    def compose_side(self) -> ComposeResult:
        """Below the score: every player's score, and who has placed this turn (none shown
        in a try of the online daily, played alone)."""
        yield PlayersView(id="players", classes="-alone" if self.day is not None else "")

    def mounting(self) -> None:
        """Show the players (the game shows itself next); every second, the waits' clocks."""
        self.show_players()
        self.screen.set_interval(1.0, self.tick)

    def mounted(self) -> None:
        """Follow the room's news from now on."""
        self.room_watch.start()

    def unmounted(self) -> None:
        """Stop following the room's news."""
        self.room_watch.stop()

    def handle(self, message: Message) -> None:
        """The room's news, the players laid out anew, a new size, the screen back on top."""
        if isinstance(message, RoomNews):
            self.on_room_news(message)
        elif isinstance(message, PlayersView.Resized):
            self.on_players_view_resized()
        elif isinstance(message, events.Resize):
            self.on_resize()
        elif isinstance(message, events.ScreenResume):
            self.on_screen_resume()

    def tick(self) -> None:
        """Show the clocks of the waits again, where any is shown (the view only)."""
        if self.timed():
            self.screen.changed()

    def timed(self) -> bool:
        """Whether the screen shows a clock: the player waits, or is waited for, or a
        player waited for has lost the connection."""
        state = self.room_watch.state
        if state.end is not None or state.game is None or state.called_at is None:
            return False
        if self.waiting() or self.screen.session.game.is_over():
            return bool(state.waiting_for())  # the wait since the call, a lost one's count
        return self.room_watch.now() - state.called_at >= SLOW_SECONDS - 1  # told the others wait

    # -- keys ---------------------------------------------------------------------------------

    def quit_help(self) -> str | None:
        """q leaves the room, or stops the day's try for now."""
        if self.day is not None:
            # Translators: lines of the help's table of keys: the text starts at column 21.
            return _("  q                 stop for now; today's try waits for you")
        return _("  q                 leave the room (it asks first)")

    def key_name(self, action: str) -> str | None:
        """``q`` leaves the room (stops the online daily's try for now)."""
        if action == "quit_game":
            # Translators: the key bar's label of q, in a room.
            return _("Stop for now") if self.day is not None else _("Leave room")
        return None

    def keeper(self) -> Keeper:
        """The room's game is never saved (the server has it; the game of one's own keeps
        its save)."""
        return Forgetful()

    def waiting(self) -> bool:
        """Whether the player has placed the turn being played and waits for the next call."""
        state = self.room_watch.state
        game = self.screen.session.game
        if state.end is not None or state.game is None or game.is_over():
            return False
        return len(game.moves) >= state.turn

    def place(self) -> None:
        """Place the card, unless the player has placed this turn already."""
        if self.waiting():
            self.screen.say(
                _("You have placed this turn: the next card is called once everyone has placed.")
            )
            return
        self.screen.place_card()

    def after_placing(self, outcome: Outcome) -> None:
        """Send the placement, for its turn, to the server (again after a lost connection,
        until it answers)."""
        turn = len(self.screen.session.game.moves)
        self.screen.run_worker(self.room_watch.link.place(turn, outcome.placement), group="room")

    async def keep_if_left(self) -> None:
        """The program is stopping (a signal): a game the room has not ended goes into the
        history as left, as far as it went (the online daily's try waits on the server)."""
        if self.room_watch.state.end is not None or self.day is not None:
            return
        found = left_game(self.room_watch.state, self.screen.session.game.copy(), self.dealt_at)
        await keep_room_game(self.screen.app, history_key(self.room_watch.state), found)

    def quit(self) -> None:
        """Leave the room (asked first, saying what it does); after the end, the results."""
        if self.room_watch.state.end is not None:
            self.show_results()
            return
        from forage.app.screens.confirm import ConfirmScreen

        command = take_back_command(self.room_watch.link, self.day)
        if self.day is not None:
            # The day's one try is not given up: the connection closes, the try waits.

            def paused(answer: str | None) -> None:
                if answer == "yes":
                    self.stop_for_now(command)

            question = PAUSING_DAILY.format(command=command)
            self.screen.app.push_screen(ConfirmScreen(question, (_("stop"), _("play on"))), paused)
            return

        async def answered(answer: str | None) -> None:
            if answer == "yes":
                found = left_game(
                    self.room_watch.state, self.screen.session.game.copy(), self.dealt_at
                )
                await keep_room_game(self.screen.app, history_key(self.room_watch.state), found)
                await self.room_watch.leave_room()
            elif answer == "later":
                self.stop_for_now(command)

        leaving = LEAVING if self.screen.session.game.moves else LEAVING_UNPLACED
        question = leaving.format(command=command, minutes=round(WAIT_SECONDS / 60))
        answers = (_("leave"), _("stay"))
        self.screen.app.push_screen(ConfirmScreen(question, answers, _("stop for now")), answered)

    def stop_for_now(self, command: str) -> None:
        """Hand the room back to the app without leaving it: the seat (or the day's try)
        waits; the program, when it ends, says the command that takes it up again."""
        if isinstance(self.screen.app, ForageBaseApp):
            self.screen.app.farewell = _("To take the game up again: {command}").format(
                command=command
            )
        self.room_watch.done_with_room()

    # -- the room's news ----------------------------------------------------------------------

    def on_room_news(self, message: RoomNews) -> None:
        """Bring the game up to what the server has told, show the players, say what
        happened; at the end, the results."""
        news = message.news
        said = connection_news(news)
        told = news.message
        if isinstance(told, ErrorOut):
            self.follow_room(force=True)
            said = _("The server refused that: {message}.").format(message=server_told(told))
        elif isinstance(told, BusyOut):
            said = _("The server says: {message}.").format(message=server_told(told))
        else:
            self.follow_room()
            if isinstance(told, TurnOut) and told.turn > self._announced:
                self._announced = told.turn
                said = called_line(told, self.screen.session.game)
        happened = self.room_watch.what_happened()
        if happened is not None:
            said = f"{said} {happened}" if said else happened
        self.show_players()
        if said is not None:
            self.screen.keep_note(said)
        else:
            self.screen.changed()
        if self.room_watch.state.end is not None:
            self.show_results()

    def follow_room(self, force: bool = False) -> bool:
        """Play on the game the server has told of when it is further on than the screen's
        (a card called, a placement the screen has not made); with ``force``, whenever it
        differs (a placement the server refused). Whether the game changed."""
        told = self.room_watch.state.game
        if told is None:
            return False
        target = told.game()
        mine = self.screen.session.game
        there = (len(target.deal.cards), len(target.moves))
        here = (len(mine.deal.cards), len(mine.moves))
        if there == here and target.moves == mine.moves:
            return False
        if not force and there <= here:
            return False  # the screen's placement is on its way, or the server is retelling
        old = self.screen.session
        session = RoomSession(
            target.copy(), self.room_watch.state.room, cursor=old.cursor, day=self.day
        )
        if old.cursor is None or old.cursor.card not in session.game.hand:
            session.reset_cursor()
        else:
            session.fresh = old.fresh
        self.screen.load(session)
        return True

    def show_players(self) -> None:
        """The side panel's players: scores, who has placed, who is out or lost; two a line,
        then the recipes one a line, where the panel would otherwise have to scroll."""
        side = self.screen.query_one("#side")
        width = side.scrollable_content_region.width or PANEL_CELLS
        shown = standings_text(
            self.room_watch.state,
            marks_of(self.screen.app),
            compact=self.fit >= Fit.COMPACT,
            width=width,
        )
        self.screen.query_one("#players", Static).update(shown)
        self._players_lines = len(shown.split())

    def on_players_view_resized(self) -> None:
        """The players were laid out anew: check they fit once the panel is."""
        self.screen.call_after_refresh(self._fit_players)

    def _fit_players(self) -> None:
        """Give up the next thing (one player a line, then the recipes' conditions) if the
        side panel has to scroll to show every player (once it is laid out for the players
        shown: else their next resize checks again)."""
        players, side = self.screen.query("#players"), self.screen.query("#side")
        if not players or not side or self.fit is Fit.BRIEF:
            return  # the screen is going
        if players.first().size.height != self._players_lines:
            return
        if side.first().max_scroll_y > 0:
            self.fit = Fit(self.fit + 1)
            if self.fit is Fit.BRIEF:
                self.screen.changed()
            self.show_players()

    def on_resize(self) -> None:
        """A new size: everything in the side panel again, if it fits."""
        if self.fit is not Fit.FULL:
            self.fit = Fit.FULL
            self.screen.changed()
        self.show_players()
        self.screen.call_after_refresh(self._fit_players)

    def hand_shown(self, state: HandState) -> HandState:
        """The hand's heading names the room's turn; once the player has placed it, whom
        it waits for."""
        room = self.room_watch.state
        if room.end is not None or room.game is None:
            return state
        waited = room.waiting_for()
        if not (self.waiting() or self.screen.session.game.is_over()) or not waited:
            return state
        # Translators: the hand's heading, after "Turn 3 of 8": 24 columns with a name.
        who = waited[0] if len(waited) == 1 else _("{count} players").format(count=len(waited))
        return state._replace(turn=room.turn, waiting=_("waits for {who}").format(who=who))

    def score_shown(self, state: ScoreState) -> ScoreState:
        """Each recipe on one line where the side panel needs the room for the players."""
        return state._replace(brief=self.fit is Fit.BRIEF)

    def since_call(self) -> str:
        """How long since the turn being played was called, as a clock shows it."""
        called = self.room_watch.state.called_at
        return "" if called is None else clock_time(self.room_watch.now() - called)

    def lost_lines(self) -> list[str]:
        """For each player the turn waits for whose connection is lost: how long the room
        still waits for them."""
        state = self.room_watch.state
        wait = ROOM_RULES.wait_seconds
        lines = []
        for name, number in self.waited_numbers():
            since = state.lost_since.get(number)
            if since is not None and not state.connected(number):
                left = clock_time(wait - (self.room_watch.now() - since))
                lines.append(
                    _("{name} lost the connection: out in {left} unless back.").format(
                        name=name, left=left
                    )
                )
        return lines

    def waited_numbers(self) -> list[tuple[str, int]]:
        """The other players the turn waits for, by name and number."""
        state = self.room_watch.state
        names = state.waiting_for()
        by_name = {state.name(p): p for p in state.names}
        return [(name, by_name[name]) for name in names if name in by_name]

    def waited_on_by(self) -> list[str]:
        """The names of the others who have placed and wait for this player, once the turn
        has been called for :data:`SLOW_SECONDS` (none before, or once placed)."""
        state = self.room_watch.state
        called = state.called_at
        game = self.screen.session.game
        if called is None or self.waiting() or game.is_over() or state.end is not None:
            return []
        if self.room_watch.now() - called < SLOW_SECONDS:
            return []
        return [state.name(p) for p in sorted(state.placed_now()) if p != state.player]

    def status_shown(self, state: StatusState) -> StatusState:
        """While the player waits (for the others, or the results) the status bar says for
        whom; while the connection is lost, its last line says so."""
        room = self.room_watch.state
        game = self.screen.session.game
        waited = room.waiting_for()
        if room.end is not None:
            state = state._replace(
                headline=_("The room has ended."),
                details=_("The results come next."),
                tone="idle",
            )
        elif game.is_over():
            headline = (
                _("No card in your hand fits anywhere: your game ends here.")
                if game.is_stuck()
                else _("All your cards are placed.")
            )
            details = (
                _("Waiting for {names} to finish ({since}); then everyone's results.").format(
                    names=names_text(waited), since=self.since_call()
                )
                if waited
                else _("Waiting for the results{ellipsis}").format(ellipsis=ELLIPSIS)
            )
            details = " ".join([*self.lost_lines(), details]) if waited else details
            state = state._replace(headline=headline, details=details, tone="idle", brief="")
        elif self.waiting():
            headline = (
                _("Waiting for {names} to place turn {turn} ({since} since the call).").format(
                    names=names_text(waited), turn=room.turn, since=self.since_call()
                )
                if waited
                else _("Waiting for the next card{ellipsis}").format(ellipsis=ELLIPSIS)
            )
            details = " ".join(self.lost_lines()) or (
                _("The next card is called once everyone has placed; move your card meanwhile.")
            )
            state = state._replace(headline=headline, details=details, tone="idle", brief="")
        else:
            others = self.waited_on_by()
            if others:
                said = (
                    _("{names} has placed turn {turn} and waits for you ({since}).")
                    if len(others) == 1
                    else _("{names} have placed turn {turn} and wait for you ({since}).")
                )
                note = said.format(
                    names=names_text(others), turn=room.turn, since=self.since_call()
                )
                state = state._replace(note=note, note_tone="note")
        problem = connection_line(self.room_watch.link)
        if problem is not None:
            state = state._replace(note=problem, note_tone="loss")
        return state

    def ends(self) -> bool:
        """No end screen of one's own: the results come once the room has ended."""
        if self.room_watch.state.end is not None:
            self.show_results()
        return False

    def show_results(self) -> None:
        """The room's results, in place of this screen (once any dialog over it closes)."""
        if self._results_shown:
            return
        if self.screen.app.screen is not self.screen:
            self._results_due = True
            return
        from forage.app.screens.results import ResultsScreen

        self._results_shown = True
        self.screen.app.switch_screen(ResultsScreen(started=self.dealt_at))

    def on_screen_resume(self) -> None:
        """Back on top: the results, if the room ended meanwhile."""
        if self._results_due:
            self._results_due = False
            self.show_results()


def room_game_screen(app: object) -> GameScreen:
    """The game screen of the app's room, dealt."""
    state = link_of(app).state
    assert state.game is not None
    day = getattr(app, "online_daily", None)
    day = day if isinstance(day, date) else None
    return GameScreen(RoomSession(state.game.game().copy(), state.room, day=day), RoomMode(day))
