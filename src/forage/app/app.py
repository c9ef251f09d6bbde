"""The Textual application: offers to resume a saved game, then runs the game screen."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from rich.console import Console, RenderableType
from textual import events, messages
from textual.css.query import NoMatches
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen

from forage import startup
from forage.adapters.textual import drop_exit_printout, guard_input
from forage.app import saves
from forage.app.base import ForageBaseApp
from forage.app.keeper import Keeper, tell_save_news
from forage.app.languages import Restart, keep_the_tab, language_name, take_resume_mark
from forage.app.screens.game import GameScreen
from forage.app.services import Analysis, Services
from forage.app.session import Session
from forage.i18n import _, current
from forage.screen_size import clamp_size

if TYPE_CHECKING:
    from forage.ai.review import ReviewSettings
    from forage.app.recorder import Recorder
    from forage.app.screens.rooms import RoomDone, RoomMoved

guard_input()

HISTORY_DELAY: Final = 0.5
"""Seconds after the first frame before the history is opened (on its own thread), so that
the first frame is drawn without it."""


class Panicked(RuntimeError):
    """Textual stopped the app on an error it could not hand on (its input thread failed);
    the message holds the traceback Textual gave."""


class ForageApp(ForageBaseApp):
    """Forage in the terminal."""

    TITLE = _("Forage")

    def __init__(
        self,
        seed: int | None = None,
        deal_code: str | None = None,
        recipes: bool = False,
        deck: int = 1,
        record_path: Path | None = None,
        *,
        offer_resume: bool = True,
        offer_learn: bool = False,
        show_par: bool = False,
        analyse_while_playing: bool = False,
        recorder: Recorder | None = None,
        analysis: Analysis | None = None,
        session: Session | None = None,
    ) -> None:
        """An app that will start this game (or offer the saved one first).

        With ``show_par``, the end screen works out the deal's par (in a worker process);
        with ``analyse_while_playing``, the workers review each move as it is played (and
        work out the par from the first), so that the review is ready at the end; with a
        ``recorder``, every game is recorded in the history; ``analysis`` is the workers of
        its analyses (the app's own, started with the first task, by default); with
        ``session``, it continues that game (``forage play FILE``) and offers no other. With
        ``offer_learn``, a player's very first start offers the guided first game (``forage
        learn``), once.
        """
        super().__init__(Services(history=recorder, analysis=analysis))
        self.show_par = show_par
        self.analyse_while_playing = analyse_while_playing
        if recorder is not None:
            recorder.tell = self.history_notice
        self.options = (seed, deal_code, recipes, deck, record_path)
        self.resume_at_once = take_resume_mark()
        """This forage was started again in another language: the saved game is its own,
        taken up without asking."""
        self.offer_resume = (offer_resume and session is None) or self.resume_at_once
        self.offer_learn = offer_learn and session is None
        self._given = session
        self.record_path = record_path
        self.keeper = Keeper(self.services.writes, self._save_written)
        """Writes the game being played down: the save, the --record file."""
        self.quitting = False
        """The app has been told to quit (it may still be starting)."""
        self.restart: Restart | None = None
        """Set when the app ended to have forage start again in another language."""
        self._saved: Session | None = None
        self._taken = False
        self._kept: list[Path] = []
        """The finished games kept by an earlier run, found before this run could end one."""
        self.par_found: dict[str, tuple[int, bool]] = {}
        """The par of each deal the end screen has worked out: (par, proven) by deal code."""
        self.review_settings: ReviewSettings | None = None
        """How hard a review opened from the end or history screen looks (None: as
        ``forage review`` does); tests make it small."""
        self.review_workers: int | None = None
        """Worker processes of such a review: None, the app's shared ones; 1, none (worked
        out on the review screen's own thread, as tests do)."""

    def get_default_screen(self) -> Screen[Any]:
        """The game asked for, straight away, unless there is a saved game to offer first
        or another forage is playing with the save."""
        slot = saves.slot()
        self._taken = not slot.acquire() and slot.taken
        self._kept = slot.finished_games()  # before any game of this run can end
        self._saved = self.keeper.load(self.record_path) if self.offer_resume else None
        if self._saved is not None or self._taken:
            return Screen()
        return self.game_screen(self.fresh_session())

    def _first_frame_drawn(self) -> None:
        """Turn the garbage collector back on and open the history a moment later (counted
        from the first frame, so that a slow machine draws that frame first too)."""
        startup.release()
        recorder = self.recorder
        if recorder is not None and not self._taken:
            kept = self._kept
            self.set_timer(
                HISTORY_DELAY,
                lambda: self.run_worker(self.services.open_history(kept), group="opening"),
            )

    def on_mount(self) -> None:
        """Offer the saved game, if there is one; or a game without saving, if the save is
        another forage's. Once the first frame is drawn, the garbage collector runs again;
        a moment later the history is opened on its own thread (recording what an earlier
        run kept), so that a game's end only has to store it."""
        self.call_after_refresh(self._first_frame_drawn)
        self.listen_for_signals()
        if self._taken:
            self._offer_unsaved_game()
            return
        saved = self._saved
        if saved is None:
            if self.offer_learn and not self.resume_at_once:
                self._offer_learning()
            return
        if self.resume_at_once:
            self.start(saved)
            self.notify(
                _("Language: {language}. Your game goes on where it was.").format(
                    language=language_name(current())
                ),
                timeout=8,
            )
            return
        from forage.app.screens.confirm import ConfirmScreen

        game = saved.game
        if self.recorder:
            question = _(
                "A game in progress was saved: {label}, turn {turn} of {turns}, score "
                "{score}.\n\nResume it? n starts a new game instead, and this one counts as "
                "abandoned in your history."
            )
        else:
            question = _(
                "A game in progress was saved: {label}, turn {turn} of {turns}, score "
                "{score}.\n\nResume it? n starts a new game instead, and this one is lost."
            )
        question = question.format(
            label=saved.label(), turn=game.turn, turns=game.turns, score=game.position.base
        )

        def answered(answer: str | None) -> None:
            if answer == "yes":
                self.start(saved)
            else:
                if self.recorder is not None:
                    self.recorder.replaced(saved)
                self.keeper.forget()
                self.start(self.fresh_session())

        # Translators: what y and n do in the dialog that offers the saved game.
        self.push_screen(ConfirmScreen(question, (_("resume it"), _("new game"))), answered)

    def language_switched(self, language: str) -> None:
        """Start forage again in ``language`` with the game in progress: saved (even with
        no card placed, so that the same deal comes back), the app ends with a
        :class:`Restart` that the command takes up. In a room, or beside another forage
        that holds the save, the language waits for the next start."""
        if self._taken or self.services.room is not None:
            super().language_switched(language)
            return
        session = self.session
        resume = False
        if session is not None and not session.game.is_over():
            self.keeper.settle()
            resume = saves.slot().store(session.save_data())
        elif session is not None:
            self.keeper.save(session)  # a finished game: kept for the history
        self.restart = Restart(language, resume)
        if self.is_web:
            keep_the_tab(self)
        self.exit(0)

    def on_game_screen_learn_asked(self, message: GameScreen.LearnAsked) -> None:
        """Open the guided first game over the game (escape comes back to it)."""
        from forage.app.modes.lesson import lesson_screen

        self.push_screen(lesson_screen(over_game=True))

    def on_game_screen_puzzle_asked(self, message: GameScreen.PuzzleAsked) -> None:
        """Open the day's puzzle over the game (escape comes back to it)."""
        from forage.app.modes.puzzle import puzzle_screen
        from forage.history.daily import today
        from forage.puzzle import daily_puzzle

        day = today()
        self.push_screen(puzzle_screen(daily_puzzle(day), day, over_game=True))

    async def on_game_screen_friends_asked(self, message: GameScreen.FriendsAsked) -> None:
        """Ask for a name and a room code over the game; once in the room, its lobby (the
        game waits underneath, saved, until the player is done with the room)."""
        from forage.app.screens.friends import FriendsScreen, rooms_server
        from forage.players import login_name

        if self.services.room is not None:
            return
        name = await self.services.player(login_name())

        def answered(answer: str | None) -> None:
            if answer == "in":
                from forage.app.screens.lobby import LobbyScreen

                self.push_screen(LobbyScreen())

        self.push_screen(FriendsScreen(rooms_server(), name), answered)

    async def on_room_done(self, message: RoomDone) -> None:
        """Back from the room to the game: the room's link closed, its screen gone."""
        from forage.app.screens.rooms import RoomScreen

        await self.services.close_room()
        if isinstance(self.screen, RoomScreen):
            await self.pop_screen()

    def on_room_moved(self, message: RoomMoved) -> None:
        """The room's link has gone on to a rematch's room: its lobby takes over."""
        from forage.app.screens.lobby import LobbyScreen

        self.switch_screen(LobbyScreen())

    def _offer_learning(self) -> None:
        """On a player's very first start, offer the guided first game, never again (not in
        a browser tab: the data folder of ``forage serve`` is the server's, shared by every
        tab, whose players have ``L`` and ``?`` help)."""
        from forage.app.tutorial import first_start, mark_offered

        if self.is_web or not first_start():
            return
        mark_offered()
        from forage.app.screens.confirm import ConfirmScreen

        question = _(
            "Welcome to Forage! New to the game? A short guided game teaches the rules "
            "by playing them, one at a time. It is there later too: forage learn.\n\n"
            "Learn the rules now, or play?"
        )

        def answered(answer: str | None) -> None:
            if answer == "yes":
                from forage.app.modes.lesson import lesson_screen

                self.push_screen(lesson_screen(over_game=True))

        self.push_screen(ConfirmScreen(question, (_("learn"), _("play"))), answered)

    def _offer_unsaved_game(self) -> None:
        """Another forage holds the save: play here without saving, or leave."""
        from forage.app.screens.confirm import ConfirmScreen

        question = _(
            "A game is already open in another forage, saved in {folder}.\n\n"
            "Play a new game here? It will not be saved."
        ).format(folder=saves.slot().folder)

        def answered(answer: str | None) -> None:
            if answer == "yes":
                self.start(self.fresh_session())
            else:
                self.exit(0)

        self.push_screen(ConfirmScreen(question), answered)

    def watch_theme(self, old: str, new: str) -> None:
        """Draw every screen again in the new theme's palette (not at start: nothing is
        drawn yet)."""
        if old == new:
            return
        for screen in self.screen_stack:
            for widget in screen.walk_children():
                widget.refresh()

    def unhandled_error(self, error: Exception) -> None:
        """Keep the error for ``run_game`` to log; Textual restores the terminal and exits.

        Textual's own printout of the traceback is dropped: ``run_game`` writes it to a
        log file and prints one line pointing at it. A screen that finds its widgets gone
        because the app was told to quit as it started (a browser tab closed during
        start-up) is no crash: the app is leaving anyway.
        """
        if self.quitting and isinstance(error, NoMatches):
            return
        super().unhandled_error(error)

    class SaveWritten(Message):
        """The save (or the record) was written, on the writes' thread: its news is told."""

    def _save_written(self) -> None:
        """On the writes' thread, after a write: have the app tell what it did."""
        with contextlib.suppress(RuntimeError):  # the app's loop has closed
            self.post_message(self.SaveWritten())

    def on_forage_app_save_written(self, message: SaveWritten) -> None:
        """Tell what the last writes did, if anything is new (a failure, a recovery)."""
        tell_save_news(self)

    def on_exit_app(self, message: messages.ExitApp) -> None:
        """Note that the app was told to quit (Textual then closes it)."""
        self.quitting = True

    def post_message(self, message: Message) -> bool:
        """Hand a message on; a terminal size beyond what forage takes (a browser tab may
        say anything) is taken as the largest it does take."""
        if isinstance(message, events.Resize):
            size = Size(*clamp_size(message.size.width, message.size.height))
            if size != message.size:
                message = events.Resize(size, size, message.pixel_size)
        return super().post_message(message)

    def stop_on_signal(self, code: int) -> None:
        """Save the game in progress and leave with ``code`` (Textual restores the terminal)."""
        session = self.session
        if session is not None:
            self.keeper.save(session)
        self.exit(code)

    def panic(self, *renderables: RenderableType) -> None:
        """An error Textual could not hand on (its input thread failed): the crash path,
        as for any other error (the traceback logged, exit 70), not a traceback on screen."""
        out = io.StringIO()
        console = Console(file=out, width=100, color_system=None, force_terminal=False)
        for renderable in renderables:
            console.print(renderable)
        if self.crash is None:
            self.crash = Panicked(out.getvalue().strip() or "Textual stopped the app")
        super().panic(*renderables)
        drop_exit_printout(self)

    def fresh_session(self) -> Session:
        """The game the command line asked for."""
        if self._given is not None:
            given, self._given = self._given, None
            return given
        seed, deal_code, recipes, deck, record_path = self.options
        return Session.start(seed, deal_code, recipes, deck, record_path)

    def game_screen(self, session: Session) -> GameScreen:
        """The game screen for a session, its record written first if one is asked for."""
        self.services.take_game(session)
        if session.record_path is not None:
            self.keeper.keep(session)
        return GameScreen(session)

    def start(self, session: Session) -> None:
        """Show the game screen for a session."""
        self.push_screen(self.game_screen(session))

    @property
    def session(self) -> Session | None:
        """The session of the player's own game, if its screen is showing (a lesson's
        game over it is not the player's)."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen) and screen.mode.OWN_GAME:
                return screen.session
        return None
